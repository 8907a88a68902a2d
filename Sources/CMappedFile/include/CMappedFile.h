// Reading a file mapped into memory (mmap(2)) without the process ending when the file shrinks
// under the mapping: a read past the file's end raises SIGBUS, which these calls turn into an
// answer.
#ifndef CHART_ARCHIVE_MAPPED_FILE_H
#define CHART_ARCHIVE_MAPPED_FILE_H

#include <stddef.h>

/// Copies `count` bytes from `source`, in a mapping of a file, to `destination` (memcpy(3)):
/// returns 0, or -1 when the mapping no longer has a file page under those bytes (the file was cut
/// shorter since it was mapped, which raises SIGBUS; `destination` then holds part of them).
///
/// The first call installs a SIGBUS handler for the process. A bus error on a thread that is not
/// in this call is left to the handler that was there before (restored, and the signal raised
/// again), so that a program's other bus errors end it as they did.
int chart_archive_copy_mapped(void *destination, const void *source, size_t count);

#endif
