// Where a thread runs: calls of the C library that Swift's Glibc module leaves out (they are GNU
// extensions, declared only with _GNU_SOURCE).
#ifndef CHART_ARCHIVE_THREAD_PLACEMENT_H
#define CHART_ARCHIVE_THREAD_PLACEMENT_H

/// The CPU the calling thread runs on now (sched_getcpu(3)), or -1 when it cannot be told.
int chart_archive_current_cpu(void);

/// Starts a detached thread that runs `start(argument)`, first on the calling thread's CPUs but
/// `cpu`, when it has another (pthread_attr_setaffinity_np(3)); once it runs, it may run on all of
/// the caller's CPUs again (the system then moves it only to balance their load). A new thread is
/// otherwise put where the system chooses, often on its creator's CPU, behind its creator; a
/// thread kept off a CPU for good cannot give way when the other thread comes to its CPU. With
/// `cpu` -1, not among the caller's CPUs or their only one, the thread starts on any of them.
/// Returns 0, or an error number of pthread_create(3) (no thread started).
int chart_archive_start_thread_off_cpu(int cpu, void *(*start)(void *), void *argument);

/// The CPU the calling thread ran on when it began, started by
/// `chart_archive_start_thread_off_cpu` off a CPU; -1 for another thread. For tests: by the time
/// the thread asks, it may run anywhere.
int chart_archive_thread_start_cpu(void);

/// Lowers the calling thread's priority against the process's other threads (setpriority(2) on
/// the thread's own ID, nice 0 + `increment`): when both wait for the same CPU, the system gives it
/// the thread that kept its priority most of the time. Returns 0, or -1 when the call failed.
int chart_archive_lower_thread_priority(int increment);

#endif
