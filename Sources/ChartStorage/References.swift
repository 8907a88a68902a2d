/// The row IDs that an import's rows refer to (the songs and snapshots of its entries, the charts
/// of its snapshots), each once, so that the import can check them before it commits.
///
/// An import writes with SQLite's foreign-key enforcement off: enforced, it looks each entry's
/// song and snapshot up as the entry goes in, opening and closing a cursor on both tables each
/// time, about 15 % of the storing thread's work on the Hot 100. The import checks what it referred
/// to once instead, before its commit, and fails as the enforcement would have
/// (<https://www.sqlite.org/foreignkeys.html>).
struct References {
  /// One bit per ID below ``bitCount``.
  private var bits: [UInt64] = []
  /// The IDs at or above ``bitCount``, or below 0.
  private var others: Set<Int64> = []
  /// Each ID once, in the order first inserted.
  private(set) var members: [Int64] = []

  /// IDs below this are kept as bits (2 MiB for 16 million IDs; row IDs count up from 1).
  private static let bitCount: Int64 = 1 << 24

  /// Adds `id`.
  mutating func insert(_ id: Int64) {
    guard id >= 0, id < Self.bitCount else {
      if others.insert(id).inserted { members.append(id) }
      return
    }
    let word = Int(id >> 6)
    let mask = UInt64(1) << UInt64(id & 63)
    if word >= bits.count {
      bits.append(contentsOf: repeatElement(0, count: word + 1 - bits.count))
    }
    guard bits[word] & mask == 0 else { return }
    bits[word] |= mask
    members.append(id)
  }

  /// Forgets the IDs inserted after the first `count` (a savepoint rolled back).
  mutating func removeMembers(after count: Int) {
    for id in members[count...] {
      if id >= 0, id < Self.bitCount {
        bits[Int(id >> 6)] &= ~(UInt64(1) << UInt64(id & 63))
      } else {
        others.remove(id)
      }
    }
    members.removeSubrange(count...)
  }

  /// The runs of consecutive numbers in `ids`, in ascending order: [1, 2, 3, 7, 8] has 1...3
  /// and 7...8 (an ID given twice counts once). Every ID of a run is one of `ids`.
  static func runs(of ids: some Sequence<Int64>) -> [ClosedRange<Int64>] {
    var runs: [ClosedRange<Int64>] = []
    for id in ids.sorted() {
      if let last = runs.last, last.upperBound == id { continue }
      if let last = runs.last, last.upperBound == id - 1 {
        runs[runs.count - 1] = last.lowerBound...id
      } else {
        runs.append(id...id)
      }
    }
    return runs
  }
}
