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
  private var cache: [SQLText: Statement] = [:]
  private var isOpen = true

  /// The page cache of a writing connection, in KiB (<https://www.sqlite.org/pragma.html#pragma_cache_size>).
  static let writerCacheKibibytes = 8_192
  /// The page cache of a connection building a new archive (`.createAlone`), in KiB: the pages it
  /// lets go are written into the file itself, as there is no log to fill, and read back from the
  /// system's cache. The whole Hot 100 into a new archive takes as long with 4 MiB as with 8 MiB
  /// (0.99 to 1.02 of its time in runs taken in turn), in 4 MB less memory.
  static let builderCacheKibibytes = 4_096

  /// How long a statement waits for a lock held by another connection.
  static let busyTimeoutMilliseconds: Int32 = 10_000

  /// SQLite's process-wide settings, made once before the first connection opens: no memory
  /// statistics, which nothing here reads and whose mutex every allocation would take.
  private static let configured: Bool = {
    chart_archive_sqlite3_disable_memory_statistics() == SQLITE_OK
  }()

  /// How a connection opens its file.
  enum Mode {
    /// Reads only: nothing is ever written to the file (<https://www.sqlite.org/c3ref/open.html>).
    case readOnly
    /// Reads only a file in a folder this process cannot write, which has no write-ahead log
    /// beside it: opened as immutable (`file:…?immutable=1`), so that SQLite needs no `-shm` file
    /// beside it, which it could not create there (<https://www.sqlite.org/wal.html#readonly>,
    /// <https://www.sqlite.org/uri.html#uriimmutable>). No writer can change such a file: a write
    /// needs its log in the same folder.
    case readOnlyImmutable
    /// Reads and writes an existing file.
    case readWrite
    /// Reads and writes, creating the file when it does not exist.
    case create
    /// Reads and writes a new file that no other connection opens until it is complete (see
    /// ``NewArchive``): its rollback journal is kept in memory and nothing is written twice, as a
    /// write-ahead log would (<https://www.sqlite.org/pragma.html#pragma_journal_mode>).
    case createAlone
  }

  /// Opens a database file.
  ///
  /// A writing connection switches the file to write-ahead logging, retrying while another
  /// connection holds the lock (up to the busy timeout), and syncs fully on commit. A connection to
  /// a file that nothing else opens (`.createAlone`) keeps its rollback journal in memory instead.
  ///
  /// - Parameters:
  ///   - path: the file's path; `:memory:` for a private in-memory database.
  ///   - mode: read only, read and write, or create.
  /// - Throws: ``DatabaseError`` when the file cannot be opened or set up (`SQLITE_CANTOPEN` when it
  ///   does not exist and `mode` is not `.create`, `SQLITE_NOTADB` when it is not an SQLite file).
  init(path: String, mode: Mode) throws(DatabaseError) {
    _ = Self.configured
    var handle: OpaquePointer?
    let access: Int32 =
      switch mode {
      case .readOnly: SQLITE_OPEN_READONLY
      case .readOnlyImmutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      case .readWrite: SQLITE_OPEN_READWRITE
      case .create, .createAlone: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      }
    let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(
      mode == .readOnlyImmutable ? Self.immutableURI(path) : path, &handle, flags, nil)
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
      // Statement and savepoint journals in memory, not in temporary files: an import stores each
      // file in a savepoint, whose journal would otherwise cost a write call per page it changes
      // (<https://www.sqlite.org/tempfiles.html>, <https://www.sqlite.org/pragma.html#pragma_temp_store>).
      try execute("PRAGMA temp_store = MEMORY")
      if mode != .readOnly, mode != .readOnlyImmutable {
        if mode == .createAlone {
          try execute("PRAGMA journal_mode = MEMORY")
        } else if path != ":memory:" {
          try retryingWhileBusy { () throws(DatabaseError) in
            try execute("PRAGMA journal_mode = WAL")
          }
        }
        // FULL: a committed import survives a power loss, at the cost of one more sync per commit.
        try execute("PRAGMA synchronous = FULL")
        // An 8 MiB page cache (the default is 2 MB): an import changes the pages of the index of
        // entries by song all over the file, and rereads them less often with a larger cache.
        let kibibytes =
          mode == .createAlone ? Self.builderCacheKibibytes : Self.writerCacheKibibytes
        try execute("PRAGMA cache_size = -\(kibibytes)")
      }
    } catch {
      cache.removeAll()
      sqlite3_close_v2(handle)
      throw error
    }
  }

  /// Runs `body` again while it fails with `SQLITE_BUSY`, for up to the busy timeout: changing the
  /// journal mode does not wait on the busy handler.
  private func retryingWhileBusy(_ body: () throws(DatabaseError) -> Void) throws(DatabaseError) {
    var waited: Int32 = 0
    while true {
      do {
        try body()
        return
      } catch  where error.resultCode == SQLITE_BUSY && waited < Self.busyTimeoutMilliseconds {
        sqlite3_sleep(20)
        waited += 20
      }
    }
  }

  deinit {
    cache.removeAll()
    guard isOpen else { return }
    emptyLogIfMoved()
    sqlite3_close_v2(handle)
  }

  /// The URI that opens the file at `path` as immutable: `%`, `?` and `#` escaped, a relative path
  /// kept relative (<https://www.sqlite.org/uri.html>).
  static func immutableURI(_ path: String) -> String {
    // `%` first, so that the escapes of the others are not escaped again.
    let escaped = path.replacing("%", with: "%25").replacing("?", with: "%3F")
      .replacing("#", with: "%23")
    return "file:" + escaped + "?immutable=1"
  }

  /// Closes the connection now; nothing may use it afterwards. Closing the last connection to a
  /// file in write-ahead logging mode copies the log into the file and deletes it
  /// (<https://www.sqlite.org/c3ref/close.html>).
  ///
  /// - Throws: ``DatabaseError`` when SQLite cannot close the connection (`SQLITE_BUSY` while a
  ///   statement prepared elsewhere is still open); the connection is then closed when that
  ///   statement is finalized.
  func close() throws(DatabaseError) {
    precondition(isOpen, "the connection is already closed")
    cache.removeAll()
    emptyLogIfMoved()
    isOpen = false
    let code = sqlite3_close(handle)
    guard code == SQLITE_OK else {
      sqlite3_close_v2(handle)
      throw DatabaseError(extendedResultCode: code, message: "the connection could not be closed")
    }
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
    let key = SQLText(sql)
    if let statement = cache[key] {
      statement.reset()
      return statement
    }
    let statement = try Statement(database: self, sql: sql)
    cache[key] = statement
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

  /// How many rows the last INSERT, UPDATE or DELETE changed
  /// (<https://www.sqlite.org/c3ref/changes.html>).
  var changes: Int { Int(sqlite3_changes64(handle)) }

  /// How many rows every INSERT, UPDATE and DELETE changed since the connection opened
  /// (<https://www.sqlite.org/c3ref/total_changes.html>).
  var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

  /// Whether the file the connection opened is no longer at its path: another file renamed over
  /// it, or it deleted (SQLite's `SQLITE_FCNTL_HAS_MOVED`, which compares the open file's inode
  /// with the path's, <https://www.sqlite.org/c3ref/c_fcntl_begin_atomic_write.html>). What is
  /// then committed goes to the file no name reaches, and its write-ahead log stays beside the
  /// path, where the next connection would read it into the file now there.
  var fileHasMoved: Bool {
    var moved: Int32 = 0
    guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK else {
      return false
    }
    return moved != 0
  }

  /// When the file the connection opened is no longer at its path (``fileHasMoved``), copies the
  /// write-ahead log into that file and empties the log (`PRAGMA wal_checkpoint(TRUNCATE)`,
  /// <https://www.sqlite.org/pragma.html#pragma_wal_checkpoint>), as far as the connection may:
  /// SQLite closes a moved file without copying its log, and the log, named after the path, would
  /// be played into the file now there. A reading connection cannot, and need not: it wrote no log.
  ///
  /// - Returns: whether the file had moved.
  @discardableResult
  func emptyLogIfMoved() -> Bool {
    guard fileHasMoved else { return false }
    try? execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return true
  }

  /// Whether no transaction is open on the connection
  /// (<https://www.sqlite.org/c3ref/get_autocommit.html>).
  var isInAutocommitMode: Bool { sqlite3_get_autocommit(handle) != 0 }

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

/// A statement's SQL as the key of a connection's statement cache: hashed from its length and
/// eight of its 8-byte words, spread over it, not from all its bytes. Texts of SQL run to hundreds
/// of bytes, most of them alike, and an import of the Hot 100 asks the cache some 56,000 times:
/// hashing every byte cost its storing thread 64 M instructions (1,100 a lookup). Two texts are
/// the same key only when they are equal, so texts that share those words cost a comparison, not
/// a wrong statement.
struct SQLText: Hashable {
  let sql: String
  /// The mix of the length and sampled words, computed once.
  let digest: UInt64

  init(_ sql: String) {
    self.sql = sql
    var text = sql
    digest = text.withUTF8 { bytes in
      var digest = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
      guard bytes.count >= 8, let base = bytes.baseAddress else {
        for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x0100_0000_01B3 }
        return digest
      }
      let raw = UnsafeRawPointer(base)
      let last = bytes.count - 8
      for sample in 0..<8 {
        let word = raw.loadUnaligned(fromByteOffset: last * sample / 7, as: UInt64.self)
        digest = (digest ^ word) &* 0xBF58_476D_1CE4_E5B9
        digest ^= digest >> 31
      }
      return digest
    }
  }

  static func == (lhs: SQLText, rhs: SQLText) -> Bool {
    lhs.digest == rhs.digest && lhs.sql == rhs.sql
  }

  func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
