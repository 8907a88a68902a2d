// The reading of a ChartArchive import of the Hot 100, from C: the limit of the import's reading
// thread on this machine, which Benchmarks/run sets beside the import's own writes from C
// (import-writes.c) to tell what an import's CPU time can come down to (BENCHMARKS.md).
//
//   import-reads FOLDER
//     Reads every *.json file of FOLDER (the Hot 100's weekly files), in the order of their
//     names, as the import does: each file whole into memory, then parsed with yajl, the library
//     the import parses JSON with, into its entries: rank, previous rank, peak position and weeks
//     on chart as integers, title and artist copied out as text. Nothing is checked, no song key
//     is made and nothing is kept from one file to the next. Prints "reads WALL CPU" (seconds)
//     and the files, entries and bytes read.
//
// Built by Benchmarks/run with the system's yajl (libyajl-dev), as chart-archive is.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#include "timing.h"

// One entry as read: the integers a Hot 100 file gives, and where its texts start in the file's
// text buffer (`Reading.text`).
typedef struct {
  long rank, previous_rank, peak_position, weeks_on_chart;
  size_t title, artist;
} Entry;

// The fields of an entry the reader reads, and the one whose value comes next.
enum Field { NONE, RANK, PREVIOUS_RANK, PEAK_POSITION, WEEKS_ON_CHART, TITLE, ARTIST };

// The state of one file's reading.
typedef struct {
  int depth;  // 1 in the file's object, 2 in its list, 3 in an entry
  enum Field field;
  Entry *entries;
  int count, capacity;
  char *text;  // the entries' texts, each ended by a NUL
  size_t text_length, text_capacity;
} Reading;

static void *grow(void *buffer, size_t size) {
  void *grown = realloc(buffer, size);
  if (!grown) {
    fputs("import-reads: out of memory\n", stderr);
    exit(1);
  }
  return grown;
}

static int on_start_map(void *context) {
  Reading *reading = context;
  if (++reading->depth == 3) {
    if (reading->count == reading->capacity) {
      reading->capacity = reading->capacity ? reading->capacity * 2 : 128;
      reading->entries = grow(reading->entries, reading->capacity * sizeof(Entry));
    }
    memset(&reading->entries[reading->count], 0, sizeof(Entry));
  }
  return 1;
}

static int on_end_map(void *context) {
  Reading *reading = context;
  if (reading->depth-- == 3) reading->count++;
  return 1;
}

static int on_start_array(void *context) {
  ((Reading *)context)->depth++;
  return 1;
}

static int on_end_array(void *context) {
  ((Reading *)context)->depth--;
  return 1;
}

static int named(const unsigned char *key, size_t length, const char *name) {
  return length == strlen(name) && memcmp(key, name, length) == 0;
}

static int on_key(void *context, const unsigned char *key, size_t length) {
  Reading *reading = context;
  reading->field = NONE;
  if (reading->depth != 3) return 1;
  if (named(key, length, "this_week")) reading->field = RANK;
  else if (named(key, length, "last_week")) reading->field = PREVIOUS_RANK;
  else if (named(key, length, "peak_position")) reading->field = PEAK_POSITION;
  else if (named(key, length, "weeks_on_chart")) reading->field = WEEKS_ON_CHART;
  else if (named(key, length, "song")) reading->field = TITLE;
  else if (named(key, length, "artist")) reading->field = ARTIST;
  return 1;
}

static int on_number(void *context, const char *digits, size_t length) {
  Reading *reading = context;
  char copy[32];
  if (reading->depth != 3 || length >= sizeof copy) return 1;
  memcpy(copy, digits, length);
  copy[length] = 0;
  long value = strtol(copy, NULL, 10);
  Entry *entry = &reading->entries[reading->count];
  switch (reading->field) {
    case RANK: entry->rank = value; break;
    case PREVIOUS_RANK: entry->previous_rank = value; break;
    case PEAK_POSITION: entry->peak_position = value; break;
    case WEEKS_ON_CHART: entry->weeks_on_chart = value; break;
    default: break;
  }
  return 1;
}

static int on_string(void *context, const unsigned char *bytes, size_t length) {
  Reading *reading = context;
  if (reading->depth != 3 || (reading->field != TITLE && reading->field != ARTIST)) return 1;
  if (reading->text_length + length + 1 > reading->text_capacity) {
    reading->text_capacity = (reading->text_length + length + 1) * 2;
    reading->text = grow(reading->text, reading->text_capacity);
  }
  size_t start = reading->text_length;
  memcpy(reading->text + start, bytes, length);
  reading->text[start + length] = 0;
  reading->text_length += length + 1;
  Entry *entry = &reading->entries[reading->count];
  if (reading->field == TITLE) entry->title = start;
  else entry->artist = start;
  return 1;
}

static int on_null(void *context) {
  (void)context;
  return 1;
}

static const yajl_callbacks callbacks = {
    .yajl_null = on_null,
    .yajl_number = on_number,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_key,
    .yajl_end_map = on_end_map,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end_array,
};

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: import-reads FOLDER\n", stderr);
    return 2;
  }
  double started = seconds(), cpu_started = cpuSeconds();
  DIR *folder = opendir(argv[1]);
  if (!folder) {
    perror(argv[1]);
    return 1;
  }
  char **names = NULL;
  int count = 0;
  for (struct dirent *item; (item = readdir(folder));) {
    size_t length = strlen(item->d_name);
    if (length > 5 && strcmp(item->d_name + length - 5, ".json") == 0) {
      names = grow(names, (count + 1) * sizeof *names);
      names[count++] = strdup(item->d_name);
    }
  }
  closedir(folder);
  qsort(names, count, sizeof *names, by_name);
  Reading reading = {0};
  long entries = 0, bytes = 0;
  for (int index = 0; index < count; index++) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], names[index]);
    int file = open(path, O_RDONLY);
    struct stat status;
    if (file < 0 || fstat(file, &status) != 0) {
      perror(path);
      return 1;
    }
    unsigned char *contents = grow(NULL, status.st_size);
    if (read(file, contents, status.st_size) != status.st_size) {
      perror(path);
      return 1;
    }
    close(file);
    reading.depth = 0;
    reading.count = 0;
    reading.text_length = 0;
    yajl_handle parser = yajl_alloc(&callbacks, NULL, &reading);
    if (yajl_parse(parser, contents, status.st_size) != yajl_status_ok ||
        yajl_complete_parse(parser) != yajl_status_ok) {
      fprintf(stderr, "import-reads: %s: not valid JSON\n", path);
      return 1;
    }
    yajl_free(parser);
    free(contents);
    entries += reading.count;
    bytes += status.st_size;
  }
  printf("reads %.3f %.3f files %d entries %ld bytes %ld\n", seconds() - started,
         cpuSeconds() - cpu_started, count, entries, bytes);
  return 0;
}
