#include "CLazyLibraries.h"
#include "lazy.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t loading = PTHREAD_MUTEX_INITIALIZER;

/// Loads `library` under the lock; its handle, or 0 with `dlerror`'s message in `message`.
static void *load(struct chart_archive_library *library, char *message, size_t capacity) {
  pthread_mutex_lock(&loading);
  if (library->handle == 0) {
    // RTLD_LOCAL: its symbols are not added to those other libraries bind to. RTLD_NOW: a
    // function it lacks is told here, not in the middle of a call.
    library->handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
    if (library->handle == 0 && capacity > 0) {
      const char *error = dlerror();
      snprintf(message, capacity, "%s", error ? error : library->soname);
    }
  }
  void *handle = library->handle;
  pthread_mutex_unlock(&loading);
  return handle;
}

/// Ends the process as the dynamic loader does for a missing library (exit status 127).
static void fail(const char *what) {
  fprintf(stderr, "chart-archive: error while loading shared libraries: %s\n", what);
  fflush(stderr);
  _exit(127);
}

void *chart_archive_lazy_symbol(struct chart_archive_library *library, const char *name) {
  char message[512];
  void *handle = load(library, message, sizeof message);
  if (handle == 0) fail(message);
  void *symbol = dlsym(handle, name);
  if (symbol == 0) {
    snprintf(message, sizeof message, "%s: undefined symbol: %s", library->soname, name);
    fail(message);
  }
  return symbol;
}
