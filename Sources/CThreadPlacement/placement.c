#define _GNU_SOURCE
#include "CThreadPlacement.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int chart_archive_current_cpu(void) { return sched_getcpu(); }

// A thread started off a CPU: what it runs, and the CPUs it may run on once it runs.
struct placed_start {
  void *(*start)(void *);
  void *argument;
  cpu_set_t allowed;
};

static _Thread_local int start_cpu = -1;

static void *run_placed(void *context) {
  struct placed_start placed = *(struct placed_start *)context;
  free(context);
  start_cpu = sched_getcpu();
  sched_setaffinity(0, sizeof placed.allowed, &placed.allowed);
  return placed.start(placed.argument);
}

int chart_archive_start_thread_off_cpu(int cpu, void *(*start)(void *), void *argument) {
  pthread_attr_t attributes;
  int status = pthread_attr_init(&attributes);
  if (status != 0) return status;
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  struct placed_start *placed = NULL;
  cpu_set_t allowed;
  if (cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof allowed, &allowed) == 0 &&
      CPU_ISSET(cpu, &allowed) && CPU_COUNT(&allowed) >= 2 &&
      (placed = malloc(sizeof *placed)) != NULL) {
    placed->start = start;
    placed->argument = argument;
    placed->allowed = allowed;
    cpu_set_t first = allowed;
    CPU_CLR(cpu, &first);
    pthread_attr_setaffinity_np(&attributes, sizeof first, &first);
  }
  pthread_t thread;
  status = placed != NULL ? pthread_create(&thread, &attributes, run_placed, placed)
                          : pthread_create(&thread, &attributes, start, argument);
  if (status != 0) free(placed);
  pthread_attr_destroy(&attributes);
  return status;
}

int chart_archive_thread_start_cpu(void) { return start_cpu; }

int chart_archive_lower_thread_priority(int increment) {
  return setpriority(PRIO_PROCESS, (id_t)gettid(), increment);
}
