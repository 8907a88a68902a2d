#include <sqlite3.h>

/// sqlite3_config is variadic, which Swift cannot call: one wrapper per option used.
///
/// Turns off SQLite's memory statistics, whose global mutex every allocation takes
/// (https://www.sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus).
/// Returns SQLITE_MISUSE, and changes nothing, once SQLite is initialized.
static inline int chart_archive_sqlite3_disable_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
