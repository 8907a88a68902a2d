// The C libraries that only some commands use, loaded the first time one of their functions is
// called rather than when the program starts: libxml2 (HTML tables, with ICU and liblzma), libcsv
// (CSV files), libevent (`serve`) and zlib (the service's gzip). Each of their functions that the
// Swift code calls is defined in this target under the library's own name, hidden from other
// objects, and calls the library's function through `dlopen` and `dlsym` (lazy.h). A one-week
// import of a JSON file so loads 9 shared objects fewer at its start.
//
// The Swift targets keep importing the libraries' declarations through their system-library
// modules (CLibXML2, CCSV, CEvent, CZlib), which no longer link them.
#ifndef CHART_ARCHIVE_LAZY_LIBRARIES_H
#define CHART_ARCHIVE_LAZY_LIBRARIES_H

// Nothing here is for Swift to call: the functions keep the libraries' own names.

#endif
