import CSQLite

/// A connection to one SQLite database file.
///
/// Opening sets the connection up as the archive needs it: extended result codes, foreign keys
/// enforced (<https://www.sqlite.org/foreignkeys.html>), a busy timeout so that a reader and a
/// writer wait for each other instead of failing (<https://www.sqlite.org/c3ref/busy_timeout.html>),
/// and write-ahead logging (<https://www.sqlite.org/wal.html>) so that readers see whole
/// transactions only while an import writes. Statements are prepared once and cached by their SQL.
///
/// A connection is used from one thread at a time.
final class Database {
  let handle: OpaquePointer
  let path: String
  private var cache: [String: Statement] = [:]

  /// How long a statement waits for a lock held by another connection.
  static let busyTimeoutMilliseconds: Int32 = 10_000

  /// Opens (and with `create`, creates) a database file.
  ///
  /// - Parameters:
  ///   - path: the file's path; `:memory:` for a private in-memory database.
  ///   - create: whether to create the file when it does not exist.
  /// - Throws: ``DatabaseError`` when the file cannot be opened or set up (`SQLITE_CANTOPEN` when it
  ///   does not exist and `create` is false, `SQLITE_NOTADB` when it is not an SQLite file).
  init(path: String, create: Bool) throws(DatabaseError) {
    var handle: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
      | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let error = DatabaseError(connection: handle, code: code, sql: nil)
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
    do {
      // Reading the schema fails here, not later, when the file is not a database.
      try execute("PRAGMA foreign_keys = ON")
      if path != ":memory:" {
        try execute("PRAGMA journal_mode = WAL")
      }
      // FULL: a committed import survives a power loss, at the cost of one more sync per commit.
      try execute("PRAGMA synchronous = FULL")
    } catch {
      cache.removeAll()
      sqlite3_close_v2(handle)
      throw error
    }
  }

  deinit {
    cache.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements that return no rows.
  ///
  /// - Throws: ``DatabaseError`` from SQLite.
  func execute(_ sql: String) throws(DatabaseError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    sqlite3_free(message)
    guard code == SQLITE_OK else { throw DatabaseError(connection: handle, code: code, sql: sql) }
  }

  /// A prepared statement for `sql`, from the cache when it was prepared before, reset and with
  /// its bindings cleared.
  ///
  /// - Throws: ``DatabaseError`` when the SQL does not compile.
  func statement(_ sql: String) throws(DatabaseError) -> Statement {
    if let statement = cache[sql] {
      statement.reset()
      return statement
    }
    let statement = try Statement(database: self, sql: sql)
    cache[sql] = statement
    return statement
  }

  /// Runs a statement that returns no rows, with its arguments.
  func run(_ sql: String, _ arguments: any StatementArgument...) throws(DatabaseError) {
    let statement = try statement(sql)
    statement.bind(arguments)
    try statement.run()
    statement.reset()
  }

  /// Reads every row of a query, turning each into a value.
  func rows<Row>(
    _ sql: String, _ arguments: [any StatementArgument] = [], _ read: (Statement) -> Row
  ) throws(DatabaseError) -> [Row] {
    let statement = try statement(sql)
    statement.bind(arguments)
    defer { statement.reset() }
    var rows: [Row] = []
    while try statement.step() { rows.append(read(statement)) }
    return rows
  }

  /// Reads the first row of a query, or `nil` when there is none.
  func row<Row>(
    _ sql: String, _ arguments: [any StatementArgument] = [], _ read: (Statement) -> Row
  ) throws(DatabaseError) -> Row? {
    let statement = try statement(sql)
    statement.bind(arguments)
    defer { statement.reset() }
    return try statement.step() ? read(statement) : nil
  }

  /// The rowid of the last row inserted on this connection
  /// (<https://www.sqlite.org/c3ref/last_insert_rowid.html>).
  var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  ///
  /// `BEGIN IMMEDIATE` takes the write lock at once, so that two writers queue on the busy timeout
  /// instead of failing half-way (<https://www.sqlite.org/lang_transaction.html>).
  ///
  /// - Throws: what `body` throws, or ``DatabaseError`` when beginning or committing fails.
  func inTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }
}
