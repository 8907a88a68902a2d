// libcsv (the CSV formats, ChartFormats' CSVTable), loaded on first use.
#include "lazy.h"

#include <stddef.h>
#include <csv.h>

CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_csv = {"libcsv.so.3", 0};

LAZY(chart_archive_csv, int, csv_error, (struct csv_parser *p), (p))
LAZY(chart_archive_csv, int, csv_fini,
  (struct csv_parser *p, void (*cb1)(void *, size_t, void *), void (*cb2)(int, void *), void *data),
  (p, cb1, cb2, data))
LAZY_VOID(chart_archive_csv, csv_free, (struct csv_parser *p), (p))
LAZY(chart_archive_csv, int, csv_init, (struct csv_parser *p, unsigned char options), (p, options))
LAZY(chart_archive_csv, size_t, csv_parse,
  (struct csv_parser *p, const void *s, size_t len, void (*cb1)(void *, size_t, void *), void
    (*cb2)(int, void *), void *data),
  (p, s, len, cb1, cb2, data))
LAZY_VOID(chart_archive_csv, csv_set_space_func,
  (struct csv_parser *p, int (*f)(unsigned char)),
  (p, f))
LAZY(chart_archive_csv, char *, csv_strerror, (int error), (error))
