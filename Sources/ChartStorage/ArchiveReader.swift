/// The queries of one read of an ``Archive``, all in one read transaction (see
/// ``Archive/read(_:)``), or inside a write (``ArchiveWriter/reader``), where they see what the
/// write stored so far.
///
/// A reader is valid only inside the closure it was handed to; it is not `Sendable`. Its queries
/// return `Sendable` values.
public struct ArchiveReader {
  /// The connection the queries run on.
  let database: Database
  /// The archive's path, as errors name it.
  public let path: String

  /// Runs SQLite calls, turning their errors into ``ArchiveError/database(path:_:)``.
  func reading<Result>(_ body: () throws -> Result) throws(ArchiveError) -> Result {
    try ArchiveError.mapping(path: path, body)
  }
}
