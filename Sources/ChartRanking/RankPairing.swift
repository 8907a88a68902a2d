/// Pairs the entries of two snapshots by song, in rank order: the first entry of a song in the
/// newer snapshot with the song's first entry in the older one, the second with the second, and
/// so on, so that two recordings of one song that chart together each keep a partner.
public struct RankPairing: Sendable {
  /// For each entry of the newer snapshot (same order), its partner's rank in the older one.
  public let olderRanks: [Int?]
  /// The entries of the older snapshot that found no partner (drop-outs), in rank order.
  public let unpaired: [ArchivedEntry]

  /// Pairs two snapshots' entries.
  ///
  /// - Parameters:
  ///   - newer: the newer snapshot's entries, in rank order.
  ///   - older: the older snapshot's entries, in rank order.
  public init(newer: [ArchivedEntry], older: [ArchivedEntry]) {
    var waiting: [SongID: [Int]] = [:]
    for (index, entry) in older.enumerated() { waiting[entry.song, default: []].append(index) }
    var taken = [Bool](repeating: false, count: older.count)
    var ranks: [Int?] = []
    ranks.reserveCapacity(newer.count)
    for entry in newer {
      if var indices = waiting[entry.song], !indices.isEmpty {
        let index = indices.removeFirst()
        waiting[entry.song] = indices
        taken[index] = true
        ranks.append(older[index].entry.rank)
      } else {
        ranks.append(nil)
      }
    }
    olderRanks = ranks
    unpaired = zip(older, taken).filter { !$0.1 }.map(\.0)
  }
}
