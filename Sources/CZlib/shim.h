#include <zlib.h>

/// deflateInit2 for gzip output (a macro Swift cannot call): window bits 15 + 16 ask zlib to write
/// a gzip header and trailer (https://zlib.net/manual.html#Advanced).
static inline int chart_archive_deflate_init_gzip(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

/// inflateInit2 for gzip input (a macro Swift cannot call): window bits 15 + 16 ask zlib to read a
/// gzip header and trailer (https://zlib.net/manual.html#Advanced).
static inline int chart_archive_inflate_init_gzip(z_stream *stream) {
  return inflateInit2(stream, 15 + 16);
}
