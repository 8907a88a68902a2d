/// Bytes of text copied for a statement's bindings: SQLite reads them in place
/// (``Statement/bind(borrowedText:at:)``) instead of copying each text into a memory block of its
/// own. What was appended stays where it is until ``clear(reserving:)``.
final class TextArena {
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  private var used = 0

  init(capacity: Int = 64 * 1024) {
    self.capacity = capacity
    storage = .allocate(byteCount: capacity, alignment: 1)
  }

  deinit { storage.deallocate() }

  /// Forgets what was appended and makes room for `byteCount` bytes: call it only once nothing
  /// bound to the arena's bytes is used any more (the statement was reset).
  func clear(reserving byteCount: Int) {
    used = 0
    guard byteCount > capacity else { return }
    storage.deallocate()
    capacity = max(byteCount, capacity * 2)
    storage = .allocate(byteCount: capacity, alignment: 1)
  }

  /// Copies the UTF-8 bytes of `text` in, within the room reserved by ``clear(reserving:)``.
  func append(_ text: String) -> UnsafeRawBufferPointer {
    var text = text
    return text.withUTF8 { bytes in
      precondition(used + bytes.count <= capacity, "room reserved for the text")
      let start = storage + used
      if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
      used += bytes.count
      return UnsafeRawBufferPointer(start: start, count: bytes.count)
    }
  }
}
