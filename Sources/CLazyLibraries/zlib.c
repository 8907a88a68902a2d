// zlib's deflate and inflate (the HTTP service's gzip, ChartArchiveServer's Gzip), loaded on
// first use.
#include "lazy.h"

#include <zlib.h>

CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_zlib = {"libz.so.1", 0};

LAZY(chart_archive_zlib, int, deflate, (z_streamp strm, int flush), (strm, flush))
LAZY(chart_archive_zlib, uLong, deflateBound, (z_streamp strm, uLong sourceLen), (strm, sourceLen))
LAZY(chart_archive_zlib, int, deflateEnd, (z_streamp strm), (strm))
LAZY(chart_archive_zlib, int, deflateInit2_,
  (z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy, const char
    *version, int stream_size),
  (strm, level, method, windowBits, memLevel, strategy, version, stream_size))
LAZY(chart_archive_zlib, int, inflate, (z_streamp strm, int flush), (strm, flush))
LAZY(chart_archive_zlib, int, inflateEnd, (z_streamp strm), (strm))
LAZY(chart_archive_zlib, int, inflateInit2_,
  (z_streamp strm, int windowBits, const char *version, int stream_size),
  (strm, windowBits, version, stream_size))
