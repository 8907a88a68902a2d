import CSQLite

/// An error reported by SQLite.
///
/// Its description reads `SQLite error 19: UNIQUE constraint failed: songs.identity - while
/// executing `INSERT …``. Result codes: <https://www.sqlite.org/rescode.html>.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067).
  public let extendedResultCode: Int32
  /// The text of `sqlite3_errmsg`, or of `sqlite3_errstr` when there was no connection.
  public let message: String
  /// The SQL being executed, when there was one.
  public let sql: String?

  /// The primary result code (the low 8 bits of the extended one): `SQLITE_BUSY` is 5.
  public var resultCode: Int32 { extendedResultCode & 0xFF }

  /// Whether another connection held the database for longer than the busy timeout
  /// (`SQLITE_BUSY`) or a table was locked (`SQLITE_LOCKED`).
  public var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

  /// Whether the database could not be written or opened for writing: the file or its folder is
  /// read-only for this user, or on a read-only file system (`SQLITE_READONLY`,
  /// `SQLITE_CANTOPEN`, `SQLITE_PERM`).
  public var isNotWritable: Bool {
    [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM].contains(resultCode)
  }

  /// Whether the file is damaged: a page SQLite cannot read as it wrote it (`SQLITE_CORRUPT`,
  /// "database disk image is malformed"), or a header that is no longer a database's
  /// (`SQLITE_NOTADB`) (<https://www.sqlite.org/rescode.html#corrupt>).
  public var isDamage: Bool { resultCode == SQLITE_CORRUPT || resultCode == SQLITE_NOTADB }

  /// Whether the file is not an SQLite database (`SQLITE_NOTADB`).
  public var isNotADatabase: Bool { resultCode == SQLITE_NOTADB }

  /// `SQLITE_CONSTRAINT_FOREIGNKEY` (787), an extended result code: a macro that Swift does not
  /// import (<https://www.sqlite.org/rescode.html#constraint_foreignkey>).
  public static let constraintForeignKey: Int32 = SQLITE_CONSTRAINT | (3 << 8)

  /// A foreign key that enforcement would have refused (`SQLITE_CONSTRAINT_FOREIGNKEY`), found by a
  /// check of the archive's own (see ``References``).
  static func foreignKeyFailure(_ detail: String) -> DatabaseError {
    DatabaseError(
      extendedResultCode: constraintForeignKey,
      message: "FOREIGN KEY constraint failed: " + detail)
  }

  /// `SQLITE_CONSTRAINT_CHECK` (275), an extended result code
  /// (<https://www.sqlite.org/rescode.html#constraint_check>).
  public static let constraintCheck: Int32 = SQLITE_CONSTRAINT | (1 << 8)

  /// A CHECK constraint of the schema that SQLite would have refused a row for
  /// (`SQLITE_CONSTRAINT_CHECK`, in SQLite's words: `CHECK constraint failed: rank >= 1`), found by
  /// a check of the archive's own while SQLite's are off (see ``Archive/write(beforeCommit:_:)``).
  static func checkFailure(_ constraint: String) -> DatabaseError {
    DatabaseError(
      extendedResultCode: constraintCheck, message: "CHECK constraint failed: " + constraint)
  }

  /// An error of the archive's own, not from SQLite's C API, under SQLite's generic code
  /// `SQLITE_ERROR`.
  public static func other(_ message: String) -> DatabaseError {
    DatabaseError(extendedResultCode: SQLITE_ERROR, message: message)
  }

  /// Creates an error.
  public init(extendedResultCode: Int32, message: String, sql: String? = nil) {
    self.extendedResultCode = extendedResultCode
    self.message = message
    self.sql = sql
  }

  init(connection: OpaquePointer?, code: Int32, sql: String?) {
    let text =
      connection.flatMap { sqlite3_errmsg($0).map { String(cString: $0) } }
      ?? String(cString: sqlite3_errstr(code))
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    self.init(extendedResultCode: extended, message: text, sql: sql)
  }

  /// How much of the statement ``description`` quotes: an import's INSERT of 100 entries is
  /// some 7,000 characters of placeholders.
  static let quotedStatementLength = 120

  public var description: String {
    var text = "SQLite error \(resultCode): \(message)"
    if let sql {
      let quoted =
        sql.count > Self.quotedStatementLength
        ? sql.prefix(Self.quotedStatementLength) + " …" : Substring(sql)
      text += " - while executing `\(quoted)`"
    }
    return text
  }
}
