// The SQLite writes of a ChartArchive import, from C: the limit of the import's storing thread on
// this machine, which Benchmarks/run compares the import with (BENCHMARKS.md).
//
//   import-writes archive REFERENCE TARGET
//     Every row of REFERENCE (an archive a Hot 100 import made) is read into memory first, then
//     written into a new archive at TARGET, of REFERENCE's own schema, as a first import writes
//     it: rollback journal in memory, synchronous FULL, a 4 MiB page cache, one transaction, and
//     neither foreign keys nor CHECK constraints enforced row by row (the import's writer checks
//     both itself, see `Archive.write`). The snapshots, songs and entries in the import's order
//     (each snapshot's row, the songs it charts first, its entries 100 to an INSERT OR FAIL), then
//     the other tables and the full-text index; write-ahead logging switched on at the end. No
//     file is read, no song linked, no figure decided. Prints "writes WALL CPU" (seconds) for the
//     writing alone.
//
//   import-writes week ARCHIVE REFERENCE
//     The writes of a one-week import, as a whole process: opens ARCHIVE (every week but
//     REFERENCE's last), and in one transaction copies REFERENCE's last snapshot, the songs it
//     charts first and its entries into it, moves the archive's version on, commits and
//     checkpoints, as `chart-archive import` does (write-ahead log, synchronous FULL, constraints
//     as above). The song IDs agree when both archives were made by the same build from the same
//     files.
//
// Built by Benchmarks/run with the system's SQLite (libsqlite3-dev), as chart-archive is.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

// One column's value, as read from the reference.
typedef struct {
  int type;
  int length;
  union {
    sqlite3_int64 integer;
    double real;
    char *bytes;
  } value;
} Value;

// A table's rows, read into memory: `columns` values a row.
typedef struct {
  const char *name;
  int columns;
  int rows;
  Value *values;
} Table;

static void fail(sqlite3 *db, const char *what) {
  fprintf(stderr, "import-writes: %s: %s\n", what, sqlite3_errmsg(db));
  exit(1);
}

static void run(sqlite3 *db, const char *sql) {
  char *message = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
    fprintf(stderr, "import-writes: %s: %s\n", sql, message);
    exit(1);
  }
}

// Reads every row of `reference.NAME`, in `order`.
static Table readTable(sqlite3 *db, const char *name, const char *order) {
  Table table = {name, 0, 0, NULL};
  char sql[256];
  snprintf(sql, sizeof sql, "SELECT * FROM reference.%s %s", name, order);
  sqlite3_stmt *select;
  if (sqlite3_prepare_v2(db, sql, -1, &select, NULL) != SQLITE_OK) fail(db, sql);
  table.columns = sqlite3_column_count(select);
  int capacity = 1024;
  table.values = malloc(sizeof(Value) * table.columns * capacity);
  while (sqlite3_step(select) == SQLITE_ROW) {
    if (table.rows == capacity) {
      capacity *= 2;
      table.values = realloc(table.values, sizeof(Value) * table.columns * capacity);
    }
    for (int column = 0; column < table.columns; column++) {
      Value *value = &table.values[table.rows * table.columns + column];
      value->type = sqlite3_column_type(select, column);
      if (value->type == SQLITE_INTEGER) {
        value->value.integer = sqlite3_column_int64(select, column);
      } else if (value->type == SQLITE_FLOAT) {
        value->value.real = sqlite3_column_double(select, column);
      } else if (value->type == SQLITE_TEXT || value->type == SQLITE_BLOB) {
        value->length = sqlite3_column_bytes(select, column);
        value->value.bytes = malloc(value->length + 1);
        memcpy(value->value.bytes, sqlite3_column_blob(select, column), value->length);
      }
    }
    table.rows++;
  }
  sqlite3_finalize(select);
  return table;
}

// The constraint settings of the import's writer (`Archive.write`): foreign keys and CHECK
// constraints are not enforced row by row, as the import checks both itself
// (<https://www.sqlite.org/pragma.html#pragma_foreign_keys>,
// <https://www.sqlite.org/pragma.html#pragma_ignore_check_constraints>).
static void unenforced(sqlite3 *db) {
  run(db, "PRAGMA foreign_keys = OFF");
  run(db, "PRAGMA ignore_check_constraints = ON");
}

// `INSERT OR FAIL INTO main.NAME VALUES (?, ...), ...` for `rows` rows.
static sqlite3_stmt *prepareInsert(sqlite3 *db, const Table *table, int rows) {
  size_t size = 64 + (size_t)rows * (table->columns * 3 + 4);
  char *sql = malloc(size);
  int length = snprintf(sql, size, "INSERT OR FAIL INTO main.%s VALUES ", table->name);
  for (int row = 0; row < rows; row++) {
    length += snprintf(sql + length, size - length, row ? ", (" : "(");
    for (int column = 0; column < table->columns; column++) {
      length += snprintf(sql + length, size - length, column ? ", ?" : "?");
    }
    length += snprintf(sql + length, size - length, ")");
  }
  sqlite3_stmt *insert;
  if (sqlite3_prepare_v2(db, sql, -1, &insert, NULL) != SQLITE_OK) fail(db, sql);
  free(sql);
  return insert;
}

// Binds row `row` of `table` to the parameters from `first` (1-based) on.
static void bindRow(sqlite3_stmt *insert, const Table *table, int row, int first) {
  for (int column = 0; column < table->columns; column++) {
    const Value *value = &table->values[row * table->columns + column];
    int index = first + column;
    switch (value->type) {
    case SQLITE_INTEGER: sqlite3_bind_int64(insert, index, value->value.integer); break;
    case SQLITE_FLOAT: sqlite3_bind_double(insert, index, value->value.real); break;
    case SQLITE_TEXT:
      sqlite3_bind_text(insert, index, value->value.bytes, value->length, SQLITE_STATIC);
      break;
    case SQLITE_BLOB:
      sqlite3_bind_blob(insert, index, value->value.bytes, value->length, SQLITE_STATIC);
      break;
    default: sqlite3_bind_null(insert, index);
    }
  }
}

static void step(sqlite3 *db, sqlite3_stmt *insert, const char *what) {
  if (sqlite3_step(insert) != SQLITE_DONE) fail(db, what);
  sqlite3_reset(insert);
}

// Rows `first..<end` of `table`, up to 100 to a statement, as the import writes a snapshot's
// entries (EntryInserter).
static void insertBatched(sqlite3 *db, const Table *table, sqlite3_stmt *full, int first, int end) {
  for (int start = first; start < end; start += 100) {
    int count = end - start < 100 ? end - start : 100;
    sqlite3_stmt *insert = count == 100 ? full : prepareInsert(db, table, count);
    for (int row = 0; row < count; row++) bindRow(insert, table, start + row, row * table->columns + 1);
    step(db, insert, table->name);
    if (insert != full) sqlite3_finalize(insert);
  }
}

static void insertAll(sqlite3 *db, const Table *table) {
  sqlite3_stmt *insert = prepareInsert(db, table, 1);
  for (int row = 0; row < table->rows; row++) {
    bindRow(insert, table, row, 1);
    step(db, insert, table->name);
  }
  sqlite3_finalize(insert);
}

// The reference's schema, but for the full-text index's own tables (its CREATE VIRTUAL TABLE
// makes them), in one string.
static char *referenceSchema(sqlite3 *db) {
  sqlite3_stmt *select;
  const char *sql =
      "SELECT sql FROM reference.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
      " AND name NOT IN ('song_search_data', 'song_search_idx', 'song_search_content',"
      " 'song_search_config', 'song_search_docsize') ORDER BY type != 'table', rowid";
  if (sqlite3_prepare_v2(db, sql, -1, &select, NULL) != SQLITE_OK) fail(db, sql);
  size_t size = 1, used = 0;
  char *schema = calloc(1, 1);
  while (sqlite3_step(select) == SQLITE_ROW) {
    const char *statement = (const char *)sqlite3_column_text(select, 0);
    size_t length = strlen(statement);
    schema = realloc(schema, size += length + 3);
    memcpy(schema + used, statement, length);
    memcpy(schema + used + length, ";\n", 3);
    used += length + 2;
  }
  sqlite3_finalize(select);
  return schema;
}

static void attach(sqlite3 *db, const char *path) {
  char *sql = sqlite3_mprintf("ATTACH %Q AS reference", path);
  run(db, sql);
  sqlite3_free(sql);
}

// The tables the import writes at its end, after every snapshot's rows.
static const char *laterTables[] = {
    "song_credits", "verdicts", "artists", "song_artists", "whole_credits", "artist_totals",
    "artist_totals_kept", "decisions", "decision_entries", "decision_undo"};

static int writeArchive(const char *reference, const char *target) {
  sqlite3 *source;
  if (sqlite3_open(":memory:", &source) != SQLITE_OK) fail(source, "open");
  attach(source, reference);
  char *schema = referenceSchema(source);
  // The schema's version (its migrations), so that the copy is an archive chart-archive opens.
  sqlite3_stmt *version;
  if (sqlite3_prepare_v2(source, "PRAGMA reference.user_version", -1, &version, NULL) != SQLITE_OK ||
      sqlite3_step(version) != SQLITE_ROW) {
    fail(source, "user_version");
  }
  char *setVersion = sqlite3_mprintf("PRAGMA user_version = %d", sqlite3_column_int(version, 0));
  sqlite3_finalize(version);
  Table charts = readTable(source, "charts", "ORDER BY id");
  Table snapshots = readTable(source, "snapshots", "ORDER BY chart_time");
  Table songs = readTable(source, "songs", "ORDER BY id");
  Table entries = readTable(source, "entries", "ORDER BY snapshot_id, position");
  int laterCount = sizeof laterTables / sizeof *laterTables;
  Table later[sizeof laterTables / sizeof *laterTables];
  for (int table = 0; table < laterCount; table++) later[table] = readTable(source, laterTables[table], "");
  // The snapshot each song charted in first: song IDs are given in the order songs are met.
  sqlite3_int64 *firstSnapshot = malloc(sizeof(sqlite3_int64) * (songs.rows + 1));
  sqlite3_stmt *select;
  const char *sql = "SELECT min(snapshot_id) FROM reference.entries GROUP BY song_id ORDER BY song_id";
  if (sqlite3_prepare_v2(source, sql, -1, &select, NULL) != SQLITE_OK) fail(source, sql);
  for (int song = 0; sqlite3_step(select) == SQLITE_ROW && song < songs.rows; song++) {
    firstSnapshot[song] = sqlite3_column_int64(select, 0);
  }
  sqlite3_finalize(select);
  sqlite3_close(source);

  double startWall = seconds(), startCPU = cpuSeconds();
  remove(target);
  sqlite3 *db;
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(target, &db, flags, NULL) != SQLITE_OK) fail(db, target);
  unenforced(db);
  run(db, "PRAGMA temp_store = MEMORY");
  run(db, "PRAGMA journal_mode = MEMORY");
  run(db, "PRAGMA synchronous = FULL");
  run(db, "PRAGMA cache_size = -4096");
  run(db, "BEGIN");
  run(db, schema);
  run(db, setVersion);
  insertAll(db, &charts);
  sqlite3_stmt *snapshotInsert = prepareInsert(db, &snapshots, 1);
  sqlite3_stmt *songInsert = prepareInsert(db, &songs, 1);
  sqlite3_stmt *entriesInsert = prepareInsert(db, &entries, 100);
  int song = 0, entry = 0;
  for (int snapshot = 0; snapshot < snapshots.rows; snapshot++) {
    sqlite3_int64 id = snapshots.values[snapshot * snapshots.columns].value.integer;
    bindRow(snapshotInsert, &snapshots, snapshot, 1);
    step(db, snapshotInsert, "snapshots");
    for (; song < songs.rows && firstSnapshot[song] == id; song++) {
      bindRow(songInsert, &songs, song, 1);
      step(db, songInsert, "songs");
    }
    int first = entry;
    while (entry < entries.rows && entries.values[entry * entries.columns].value.integer == id) entry++;
    insertBatched(db, &entries, entriesInsert, first, entry);
  }
  if (song != songs.rows || entry != entries.rows) {
    fprintf(stderr, "import-writes: %d of %d songs and %d of %d entries written in order\n", song,
            songs.rows, entry, entries.rows);
    return 1;
  }
  sqlite3_finalize(snapshotInsert);
  sqlite3_finalize(songInsert);
  sqlite3_finalize(entriesInsert);
  for (int table = 0; table < laterCount; table++) insertAll(db, &later[table]);
  attach(db, reference);
  run(db, "INSERT INTO archive_version SELECT * FROM reference.archive_version WHERE 1");
  run(db, "INSERT INTO song_search (rowid, title, artist, song_id)"
          " SELECT rowid, title, artist, song_id FROM reference.song_search WHERE 1");
  run(db, "COMMIT");
  run(db, "DETACH reference");
  run(db, "PRAGMA journal_mode = WAL");
  if (sqlite3_close(db) != SQLITE_OK) fail(db, "close");
  printf("writes %.4f %.4f\n", seconds() - startWall, cpuSeconds() - startCPU);
  return 0;
}

static int writeWeek(const char *archive, const char *reference) {
  sqlite3 *db;
  if (sqlite3_open_v2(archive, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    fail(db, archive);
  }
  unenforced(db);
  run(db, "PRAGMA temp_store = MEMORY");
  run(db, "PRAGMA journal_mode = WAL");
  run(db, "PRAGMA synchronous = FULL");
  run(db, "PRAGMA cache_size = -8192");
  attach(db, reference);
  run(db, "BEGIN IMMEDIATE");
  run(db,
      "CREATE TEMP TABLE week AS SELECT id FROM reference.snapshots ORDER BY chart_time DESC LIMIT 1;"
      "INSERT INTO main.snapshots SELECT * FROM reference.snapshots WHERE id IN week;"
      "INSERT INTO main.songs SELECT * FROM reference.songs WHERE id > (SELECT max(id) FROM main.songs)"
      "  AND id IN (SELECT song_id FROM reference.entries WHERE snapshot_id IN week) ORDER BY id;"
      "INSERT OR FAIL INTO main.entries SELECT * FROM reference.entries WHERE snapshot_id IN week"
      "  ORDER BY position;"
      "UPDATE archive_version SET version = version + 1;");
  run(db, "COMMIT");
  run(db, "DETACH reference");
  run(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  if (sqlite3_close(db) != SQLITE_OK) fail(db, "close");
  return 0;
}

int main(int argc, char **argv) {
  // As chart-archive configures SQLite (Database.swift): no memory statistics, no mutex on them.
  sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
  if (argc == 4 && strcmp(argv[1], "archive") == 0) return writeArchive(argv[2], argv[3]);
  if (argc == 4 && strcmp(argv[1], "week") == 0) return writeWeek(argv[2], argv[3]);
  fprintf(stderr, "usage: import-writes archive REFERENCE TARGET | import-writes week ARCHIVE REFERENCE\n");
  return 2;
}
