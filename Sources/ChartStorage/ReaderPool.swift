import Dispatch
import Foundation
import Synchronization

/// The read-only connections of an archive: opened when a read needs one and none is free, up to
/// a maximum, and kept for the next read.
///
/// A file put in the archive's place (a replica's new copy renamed over the old one, see
/// docs/operations.md) is read from the next read on: each connection remembers the file it
/// opened (device and inode, stat(2)), and one of a file no longer at the path is closed instead
/// of used, while reads already running finish on the file they started with (SQLite keeps an
/// open file readable after it is renamed over).
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
    // Taken before a connection is opened, so that a file swapped in meanwhile is noticed on the
    // next read rather than never.
    let file = FileIdentity(path: path)
    let connection: Connection
    let (free, replaced) = idle.withLock { idle in
      guard let file else { return (idle.popLast(), [Connection]()) }
      let replaced = idle.filter { $0.file != file }
      idle.removeAll { $0.file != file }
      return (idle.popLast(), replaced)
    }
    // Closed outside the lock: a reader of the file no longer at the path.
    for stale in replaced { try? stale.database.close() }
    if let free {
      connection = free
    } else {
      do {
        connection = Connection(try Database(path: path, mode: mode), file: file)
      } catch {
        throw ArchiveError.database(path: path, error)
      }
    }
    defer { idle.withLock { $0.append(connection) } }
    return try body(connection.database)
  }
}

/// Which file a path names: its device and inode (stat(2)), the same for as long as the file is
/// at the path and different once another file is renamed over it.
struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The file at a path, or `nil` when nothing is there.
  init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }
}
