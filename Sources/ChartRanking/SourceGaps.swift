/// Where a chart's source lost data, found in the data itself, so that the derived figures can
/// mean what the source meant.
///
/// - Shifted ranks: a run of the file's ranks is off by the same amount (1 or 2 either way), as
///   when a snapshot lost a row and the ranks below it were taken from row order. The next
///   snapshot's published previous ranks say so: for two or more entries in a row (by rank) they
///   differ from the file's ranks by the same offset. Ranks from the first to the last of the run
///   are corrected by that offset.
/// - A missing snapshot: most of a snapshot's published previous ranks (five at least) disagree
///   with the archive's previous snapshot, with no common offset (that would be a rank shift): the
///   chart the source calls previous is not in the archive. A song with a published previous rank
///   there was on that chart, which counts as one more week on chart.
public struct SourceGaps: Sendable {
  /// The chart's size: the most entries any snapshot holds.
  public let chartSize: Int
  /// Per snapshot index, the runs of file ranks that are off, and by how much (true minus file
  /// rank).
  public let shiftedRanks: [Int: [(ranks: ClosedRange<Int>, offset: Int)]]
  /// Indices of the snapshots whose previous chart, as the source counts, is missing.
  public let missingBefore: Set<Int>

  /// Finds the gaps of a chart.
  ///
  /// - Parameter snapshots: every snapshot of the chart, in chart-date order.
  public init(snapshots: [AuditedSnapshot]) {
    chartSize = snapshots.map(\.entries.count).max() ?? 0
    var shifted: [Int: [(ranks: ClosedRange<Int>, offset: Int)]] = [:]
    for index in snapshots.indices.dropLast() where snapshots[index + 1].publishesPreviousRank {
      var fileRanks: [SongID: Int] = [:]
      for entry in snapshots[index].entries { fileRanks[entry.song] = entry.entry.rank }
      let pairs = snapshots[index + 1].entries.compactMap { entry -> (rank: Int, offset: Int)? in
        guard let published = entry.entry.publishedPreviousRank, let rank = fileRanks[entry.song]
        else { return nil }
        return (rank, published - rank)
      }
      // Runs of entries, in rank order, off by the same small offset.
      let sorted = pairs.sorted { $0.rank < $1.rank }
      var start = sorted.startIndex
      while start < sorted.endIndex {
        var end = start + 1
        while end < sorted.endIndex, sorted[end].offset == sorted[start].offset { end += 1 }
        let offset = sorted[start].offset
        if offset != 0, abs(offset) <= 2, end - start >= 2 {
          shifted[index, default: []].append((sorted[start].rank...sorted[end - 1].rank, offset))
        }
        start = end
      }
    }
    var missing: Set<Int> = []
    for index in snapshots.indices.dropFirst() where snapshots[index].publishesPreviousRank {
      var previousRanks: [SongID: Int] = [:]
      for entry in snapshots[index - 1].entries where previousRanks[entry.song] == nil {
        previousRanks[entry.song] = Self.trueRank(entry.entry.rank, inSnapshot: index - 1, shifted)
      }
      var published = 0
      var disagreeing = 0
      var offsets: [Int: Int] = [:]
      for entry in snapshots[index].entries {
        guard let rank = entry.entry.publishedPreviousRank else { continue }
        published += 1
        let derived = previousRanks[entry.song]
        if derived != rank { disagreeing += 1 }
        if let derived, derived != rank, abs(rank - derived) <= 2 {
          offsets[rank - derived, default: 0] += 1
        }
      }
      let largestRun = offsets.values.max() ?? 0
      if disagreeing >= 5, disagreeing * 2 > published, largestRun * 2 < disagreeing {
        missing.insert(index)
      }
    }
    missingBefore = missing
    // The previous ranks right after a missing chart speak of that chart, not of this one.
    for index in missing { shifted[index - 1] = nil }
    self.shiftedRanks = shifted
  }

  /// The rank the source meant for a file rank of a snapshot.
  ///
  /// - Parameters:
  ///   - rank: the rank in the file, 1-based.
  ///   - index: the snapshot's index.
  public func trueRank(_ rank: Int, inSnapshot index: Int) -> Int {
    Self.trueRank(rank, inSnapshot: index, shiftedRanks)
  }

  private static func trueRank(
    _ rank: Int, inSnapshot index: Int, _ shifted: [Int: [(ranks: ClosedRange<Int>, offset: Int)]]
  ) -> Int {
    guard let shift = shifted[index]?.first(where: { $0.ranks.contains(rank) }) else { return rank }
    return rank + shift.offset
  }
}
