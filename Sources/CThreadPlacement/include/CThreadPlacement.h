// Where a thread runs: the two calls of the C library that Swift's Glibc module leaves out (they
// are GNU extensions, declared only with _GNU_SOURCE).
#ifndef CHART_ARCHIVE_THREAD_PLACEMENT_H
#define CHART_ARCHIVE_THREAD_PLACEMENT_H

/// The CPU the calling thread runs on now (sched_getcpu(3)), or -1 when it cannot be told.
int chart_archive_current_cpu(void);

/// Keeps the calling thread off CPU `cpu` (sched_setaffinity(2)) when it may run on another one:
/// returns 1 when it no longer runs there, 0 when nothing changed (`cpu` is -1, not among the
/// thread's CPUs, or its only one), -1 when the call failed.
int chart_archive_keep_thread_off_cpu(int cpu);

#endif
