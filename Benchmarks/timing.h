// The clocks of the C programs that Benchmarks/run times (import-writes.c, import-reads.c): each
// reports the wall and CPU seconds of its own work, without its process start.
#ifndef CHART_ARCHIVE_BENCHMARKS_TIMING_H
#define CHART_ARCHIVE_BENCHMARKS_TIMING_H

#include <sys/resource.h>
#include <time.h>

// Seconds on the monotonic clock.
static inline double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec + now.tv_nsec / 1e9;
}

// The process's CPU seconds so far: user and system time, every thread.
static inline double cpuSeconds(void) {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
         usage.ru_stime.tv_usec / 1e6;
}

#endif
