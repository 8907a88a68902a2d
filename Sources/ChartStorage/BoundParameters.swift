/// A statement whose parameters are bound again and again without being cleared (see
/// ``Statement/resetKeepingBindings()``), with the number or NULL each one holds: binding a
/// parameter the value it already holds is skipped. An import binds 18 parameters per entry, and
/// most snapshots give many of them the values the snapshot before gave (rank n at position n − 1,
/// a NULL image URL), which SQLite would otherwise take in again, each through a call that locks
/// the connection and releases the old value (<https://www.sqlite.org/c3ref/bind_blob.html>).
///
/// Every number bound is at least 0: an entry's numbers are checked before they are bound
/// (``EntryInserter/check(_:_:)``), so negative numbers mark a NULL and a parameter whose value
/// is not known here (text, or nothing bound yet).
final class BoundParameters {
  let statement: Statement
  /// Per parameter (index − 1): the number it holds, ``null`` or ``unknown``. Memory of its own,
  /// not an array property, which Swift would check for exclusive access at every use.
  private let held: UnsafeMutablePointer<Int64>
  private static let null: Int64 = -1
  private static let unknown: Int64 = -2

  init(_ statement: Statement, count: Int) {
    self.statement = statement
    held = .allocate(capacity: count)
    held.initialize(repeating: Self.unknown, count: count)
  }

  deinit { held.deallocate() }

  /// Binds a number of at least 0 (`value` must not be negative).
  @inline(__always)
  func bind(_ value: Int64, at index: Int32) {
    assert(value >= 0, "a checked number")
    let slot = Int(index) - 1
    guard held[slot] != value else { return }
    statement.bind(value, at: index)
    held[slot] = value
  }

  /// Binds a number of at least 0, or NULL.
  @inline(__always)
  func bind(_ value: Int?, at index: Int32) {
    if let value {
      bind(Int64(value), at: index)
    } else {
      let slot = Int(index) - 1
      guard held[slot] != Self.null else { return }
      statement.bindNull(at: index)
      held[slot] = Self.null
    }
  }

  /// Binds borrowed text (always: its bytes may have changed in place), or NULL.
  @inline(__always)
  func bind(borrowedText bytes: UnsafeRawBufferPointer?, at index: Int32) {
    if let bytes {
      statement.bind(borrowedText: bytes, at: index)
      held[Int(index) - 1] = Self.unknown
    } else {
      bind(nil as Int?, at: index)
    }
  }
}
