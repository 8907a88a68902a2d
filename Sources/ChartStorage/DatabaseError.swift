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
