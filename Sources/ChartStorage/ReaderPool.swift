import Dispatch
import Synchronization

/// The read-only connections of an archive: opened when a read needs one and none is free, up to
/// a maximum, and kept for the next read.
final class ReaderPool: Sendable {
  private let path: String
  /// How each connection is opened (see ``Database/Mode``).
  private let mode: Database.Mode
  /// The connections not in use.
  private let idle: Mutex<[Connection]>
  /// One count per connection that may be in use: a read waits here when all are.
  private let slots: DispatchSemaphore

  /// A pool for the archive at `path`.
  ///
  /// - Parameters:
  ///   - mode: `.readOnly`, or `.readOnlyImmutable` for a file in a folder this process cannot
  ///     write.
  ///   - maximumCount: how many connections may be open at once (at least 1).
  ///   - first: a connection opened already, to keep.
  init(path: String, mode: Database.Mode = .readOnly, maximumCount: Int, first: Connection?) {
    self.path = path
    self.mode = mode
    idle = Mutex(first.map { [$0] } ?? [])
    slots = DispatchSemaphore(value: max(1, maximumCount))
  }

  /// Runs `body` with a connection of the pool, which no other thread uses meanwhile.
  ///
  /// - Throws: what `body` throws, or ``ArchiveError/database(path:_:)`` when a new connection
  ///   cannot be opened.
  func withConnection<Result>(_ body: (Database) throws -> Result) throws -> Result {
    slots.wait()
    defer { slots.signal() }
    let connection: Connection
    if let free = idle.withLock({ $0.popLast() }) {
      connection = free
    } else {
      do {
        connection = Connection(try Database(path: path, mode: mode))
      } catch {
        throw ArchiveError.database(path: path, error)
      }
    }
    defer { idle.withLock { $0.append(connection) } }
    return try body(connection.database)
  }
}
