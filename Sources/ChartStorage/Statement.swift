import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns. Not imported into Swift.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared SQL statement: bind parameters, step through rows, read columns.
///
/// Parameters are 1-based and columns 0-based, as in SQLite's C API
/// (<https://www.sqlite.org/c3ref/bind_blob.html>, <https://www.sqlite.org/c3ref/column_blob.html>).
/// The statement is finalized when released.
final class Statement {
  let handle: OpaquePointer
  let sql: String
  private unowned let database: Database

  init(database: Database, sql: String) throws(DatabaseError) {
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(
      database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw DatabaseError(connection: database.handle, code: code, sql: sql)
    }
    self.handle = handle
    self.sql = sql
    self.database = database
  }

  deinit { sqlite3_finalize(handle) }

  /// Resets the statement and clears its bindings, ready for new ones.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Resets the statement and keeps its bindings, for a statement whose every parameter is bound
  /// again before it runs again: clearing them is a pass over every parameter, 1,200 for 100
  /// entries. SQLite reads bindings only when the statement runs
  /// (<https://www.sqlite.org/c3ref/reset.html>), so text bound in place may meanwhile point at
  /// memory that is reused or gone.
  func resetKeepingBindings() {
    sqlite3_reset(handle)
  }

  // MARK: - Binding

  func bind(_ value: Int, at index: Int32) { sqlite3_bind_int64(handle, index, Int64(value)) }
  func bind(_ value: Int64, at index: Int32) { sqlite3_bind_int64(handle, index, value) }
  func bind(_ value: Bool, at index: Int32) { sqlite3_bind_int64(handle, index, value ? 1 : 0) }
  /// Binds text by its UTF-8 bytes and their count, so that nothing after a NUL is lost.
  func bind(_ value: String, at index: Int32) {
    var text = value
    text.withUTF8 { bytes in
      guard let start = bytes.baseAddress else {
        sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
        return
      }
      start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        _ = sqlite3_bind_text64(
          handle, index, $0, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
      }
    }
  }
  /// Binds text that SQLite reads in place, without a copy (`SQLITE_STATIC`): the bytes must stay
  /// valid and unchanged until the statement is reset (<https://www.sqlite.org/c3ref/bind_blob.html>).
  func bind(borrowedText bytes: UnsafeRawBufferPointer, at index: Int32) {
    guard let start = bytes.baseAddress else {
      sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
      return
    }
    _ = sqlite3_bind_text64(
      handle, index, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(bytes.count), nil,
      UInt8(SQLITE_UTF8))
  }
  /// Binds borrowed text, or NULL.
  func bind(borrowedText bytes: UnsafeRawBufferPointer?, at index: Int32) {
    if let bytes { bind(borrowedText: bytes, at: index) } else { sqlite3_bind_null(handle, index) }
  }
  func bind(_ value: Int?, at index: Int32) {
    if let value { bind(value, at: index) } else { sqlite3_bind_null(handle, index) }
  }
  func bindNull(at index: Int32) { sqlite3_bind_null(handle, index) }
  func bind(_ value: String?, at index: Int32) {
    if let value { bind(value, at: index) } else { sqlite3_bind_null(handle, index) }
  }

  /// Binds values to parameters 1, 2, … in order.
  func bind(_ values: [any StatementArgument]) {
    for (offset, value) in values.enumerated() { value.bind(to: self, at: Int32(offset + 1)) }
  }

  // MARK: - Stepping

  /// Advances to the next row.
  ///
  /// - Returns: `true` when a row is ready to be read, `false` when the statement is done.
  /// - Throws: ``DatabaseError`` when SQLite reports an error (a constraint, `SQLITE_BUSY`, …).
  func step() throws(DatabaseError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code: throw DatabaseError(connection: database.handle, code: code, sql: sql)
    }
  }

  /// Runs a statement that returns no rows.
  func run() throws(DatabaseError) {
    while try step() {}
  }

  // MARK: - Reading columns

  func int(at column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
  func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
  func bool(at column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }
  func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
  func optionalInt(at column: Int32) -> Int? { isNull(at: column) ? nil : int(at: column) }
  func optionalInt64(at column: Int32) -> Int64? { isNull(at: column) ? nil : int64(at: column) }
  func string(at column: Int32) -> String {
    guard let text = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(
      decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }
  func optionalString(at column: Int32) -> String? {
    isNull(at: column) ? nil : string(at: column)
  }
  /// How many columns the statement's rows have.
  var columnCount: Int { Int(sqlite3_column_count(handle)) }
}

/// A value that can be bound to a statement parameter.
protocol StatementArgument {
  func bind(to statement: Statement, at index: Int32)
}

extension Int: StatementArgument {
  func bind(to statement: Statement, at index: Int32) { statement.bind(self, at: index) }
}
extension Int64: StatementArgument {
  func bind(to statement: Statement, at index: Int32) { statement.bind(self, at: index) }
}
extension Bool: StatementArgument {
  func bind(to statement: Statement, at index: Int32) { statement.bind(self, at: index) }
}
extension String: StatementArgument {
  func bind(to statement: Statement, at index: Int32) { statement.bind(self, at: index) }
}
extension Optional: StatementArgument where Wrapped: StatementArgument {
  func bind(to statement: Statement, at index: Int32) {
    if let value = self {
      value.bind(to: statement, at: index)
    } else {
      sqlite3_bind_null(statement.handle, index)
    }
  }
}
