/// Bytes of text copied for a statement's bindings: SQLite reads them in place
/// (``Statement/bind(borrowedText:at:)``) instead of copying each text into a memory block of its
/// own. What was appended stays where it is until ``clear()``.
final class TextArena {
  /// The block being filled.
  private var storage: UnsafeMutableRawPointer
  private var capacity: Int
  private var used = 0
  /// The blocks filled before `storage` since the last ``clear()``: texts bound from them stay
  /// where they are until then.
  private var filled: [UnsafeMutableRawPointer] = []

  init(capacity: Int = 64 * 1024) {
    self.capacity = capacity
    storage = .allocate(byteCount: capacity, alignment: 1)
  }

  deinit {
    storage.deallocate()
    for block in filled { block.deallocate() }
  }

  /// Forgets what was appended: call it only once nothing bound to the arena's bytes is used any
  /// more (the statement was reset). The block that took the last texts is kept, the largest so
  /// far, so that an arena that grew once allocates nothing more.
  func clear() {
    used = 0
    for block in filled { block.deallocate() }
    filled.removeAll(keepingCapacity: true)
  }

  /// Copies the UTF-8 bytes of `text` in; a text that does not fit in the block being filled
  /// starts a new one, twice as large (or as large as the text), and the texts appended before
  /// stay where they are.
  func append(_ text: String) -> UnsafeRawBufferPointer {
    // Read where the text is, without the copy that `withUTF8` (mutating) makes of it: a copy
    // retains the text's storage and releases it again.
    if let appended = text.utf8.withContiguousStorageIfAvailable({ append(bytes: $0) }) {
      return appended
    }
    var text = text
    return text.withUTF8 { append(bytes: $0) }
  }

  private func append(bytes: UnsafeBufferPointer<UInt8>) -> UnsafeRawBufferPointer {
    if used + bytes.count > capacity {
      filled.append(storage)
      capacity = max(capacity * 2, bytes.count)
      storage = .allocate(byteCount: capacity, alignment: 1)
      used = 0
    }
    let start = storage + used
    if let base = bytes.baseAddress { start.copyMemory(from: base, byteCount: bytes.count) }
    used += bytes.count
    return UnsafeRawBufferPointer(start: start, count: bytes.count)
  }
}
