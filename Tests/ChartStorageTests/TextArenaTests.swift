import Testing

@testable import ChartStorage

/// The arena that statements' texts are bound from in place: bytes appended stay where they are,
/// unchanged, until the arena is cleared, however much is appended after them.
struct TextArenaTests {
  /// The text at `bytes`.
  static func text(at bytes: UnsafeRawBufferPointer) -> String {
    String(decoding: bytes, as: UTF8.self)
  }

  /// Texts appended past the first block's 16 bytes (one that fits, one that starts a second
  /// block, one larger than twice the block, a small one after it) all read back as appended,
  /// the first ones too: a block that fills is kept, not moved or freed.
  @Test func textsStayWhereTheyAreWhenTheArenaGrows() {
    let arena = TextArena(capacity: 16)
    let texts = [
      "Hot Stuff", "Donna Summer", String(repeating: "Ça plane pour moi ", count: 4), "7",
      "", "Beyoncé Featuring Jay-Z",
    ]
    let appended = texts.map { arena.append($0) }
    #expect(appended.map(Self.text(at:)) == texts)
    #expect(appended.map(\.count) == [9, 12, 76, 1, 0, 24])
  }

  /// After a clear, texts are appended again from the start of the largest block, and read back
  /// as appended.
  @Test func aClearedArenaTakesTextsAgain() {
    let arena = TextArena(capacity: 8)
    _ = arena.append("Le Freak")
    _ = arena.append("Chic")
    arena.clear()
    let first = arena.append("Good Times")
    let second = arena.append("Chic")
    #expect(Self.text(at: first) == "Good Times")
    #expect(Self.text(at: second) == "Chic")
    #expect(second.baseAddress == first.baseAddress! + 10)
  }
}
