// How each function of a library loaded on first use is defined (CLazyLibraries.h).
#ifndef CHART_ARCHIVE_LAZY_H
#define CHART_ARCHIVE_LAZY_H

#include <stdatomic.h>

#define CHART_ARCHIVE_HIDDEN __attribute__((visibility("hidden")))

/// One shared object, loaded once by `chart_archive_lazy_symbol`: its `dlopen` handle, set under
/// the loader's lock.
struct chart_archive_library {
  const char *soname;
  void *handle;
};

/// The address of `name` in `library`, loading it on first use. A library or function that
/// cannot be loaded ends the process as the dynamic loader does when a library the program needs
/// is missing: a message on standard error and exit status 127.
CHART_ARCHIVE_HIDDEN void *chart_archive_lazy_symbol(
  struct chart_archive_library *library, const char *name);

/// The libraries, one file each (libxml2.c, libcsv.c, libevent.c, zlib.c).
CHART_ARCHIVE_HIDDEN extern struct chart_archive_library chart_archive_xml2, chart_archive_csv,
  chart_archive_event_core, chart_archive_event_extra, chart_archive_event_pthreads,
  chart_archive_zlib;

/// The address of `library`'s function `name`, looked up on the first call and then kept.
#define LAZY_ADDRESS(library, name)                                                             \
  ({                                                                                            \
    static __typeof__(name) *_Atomic kept;                                                      \
    __typeof__(name) *function = atomic_load_explicit(&kept, memory_order_acquire);             \
    if (function == 0) {                                                                        \
      function = (__typeof__(name) *)chart_archive_lazy_symbol(&library, #name);                \
      atomic_store_explicit(&kept, function, memory_order_release);                             \
    }                                                                                           \
    function;                                                                                   \
  })

/// Defines `name`, of return type `type` and parameters `parameters` (with their names), to call
/// `library`'s `name` with `arguments`.
#define LAZY(library, type, name, parameters, arguments)                                        \
  CHART_ARCHIVE_HIDDEN type name parameters { return LAZY_ADDRESS(library, name) arguments; }

/// `LAZY` for a function that returns nothing.
#define LAZY_VOID(library, name, parameters, arguments)                                         \
  CHART_ARCHIVE_HIDDEN void name parameters { LAZY_ADDRESS(library, name) arguments; }

#endif
