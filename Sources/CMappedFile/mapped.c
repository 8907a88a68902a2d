#include "CMappedFile.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

// Where a thread copying from a mapping goes back to when the copy raises SIGBUS; NULL on a thread
// that is not copying.
static _Thread_local sigjmp_buf *volatile landing;
// The SIGBUS action before this file's, for bus errors outside a copy.
static struct sigaction earlier;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void on_bus_error(int signal, siginfo_t *info, void *context) {
  (void)info;
  (void)context;
  sigjmp_buf *target = landing;
  if (target != NULL) {
    landing = NULL;
    siglongjmp(*target, 1);
  }
  sigaction(signal, &earlier, NULL);
  raise(signal);
}

static void install(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_bus_error;
  // Not blocked while handled: the jump out of the handler then leaves the thread's signal mask as
  // it was without saving it at every copy (a system call each).
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &earlier);
}

int chart_archive_copy_mapped(void *destination, const void *source, size_t count) {
  pthread_once(&installed, install);
  sigjmp_buf here;
  if (sigsetjmp(here, 0) != 0) return -1;
  landing = &here;
  // The copy's reads stay between the two stores (a compiler barrier).
  __asm__ volatile("" ::: "memory");
  memcpy(destination, source, count);
  __asm__ volatile("" ::: "memory");
  landing = NULL;
  return 0;
}
