#define _GNU_SOURCE
#include "CThreadPlacement.h"

#include <sched.h>

int chart_archive_current_cpu(void) { return sched_getcpu(); }

int chart_archive_keep_thread_off_cpu(int cpu) {
  cpu_set_t set;
  if (cpu < 0 || cpu >= CPU_SETSIZE) return 0;
  if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
  if (!CPU_ISSET(cpu, &set) || CPU_COUNT(&set) < 2) return 0;
  CPU_CLR(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? 1 : -1;
}
