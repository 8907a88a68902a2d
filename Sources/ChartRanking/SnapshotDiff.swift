/// What changed between two snapshots of one chart.
///
/// Entries are paired by song (see ``RankPairing``). Between a snapshot and the chart's previous
/// one, each entry of the newer moved as its figures say (``ChartFigures``: the same previous rank
/// and movement as `show` gives). Between two snapshots further apart, an entry whose song is on
/// the older one moved by the difference of its two ranks; one whose song is not is a re-entry
/// when the song was on the chart on or before the older snapshot's date, and new otherwise (it
/// first charted after the older date). An entry of the older snapshot whose song is not on the
/// newer one dropped out.
public struct SnapshotDiff: Sendable {
  /// One entry of the newer snapshot and how it moved since the older one.
  public struct Line: Hashable, Sendable {
    /// The entry in the newer snapshot.
    public var entry: ArchivedEntry
    /// The song's rank in the older snapshot, 1-based, or `nil` when it was not on it: for
    /// consecutive snapshots, the previous rank the archive gives.
    public var olderRank: Int?
    /// The movement between the two snapshots.
    public var movement: Movement
    /// The entry's figures, for consecutive snapshots.
    public var figures: EntryFigures?
  }

  /// Every entry of the newer snapshot, in rank order.
  public let lines: [Line]
  /// Entries of the older snapshot whose song is not on the newer one, in rank order.
  public let dropOuts: [ArchivedEntry]

  /// Entries on both snapshots, in the newer snapshot's rank order.
  public var moves: [Line] { lines.filter { $0.olderRank != nil } }
  /// Entries only on the newer snapshot (debuts and re-entries), in rank order.
  public var arrivals: [Line] { lines.filter { $0.olderRank == nil } }

  /// Compares a snapshot with the chart's previous one.
  ///
  /// - Parameters:
  ///   - previous: the previous snapshot's entries, in rank order.
  ///   - placements: the snapshot's placements, in rank order.
  public init(previous: [ArchivedEntry], placements: [Placement]) {
    lines = placements.map { placement in
      Line(
        entry: ArchivedEntry(entry: placement.entry, song: placement.song),
        olderRank: placement.previousRank, movement: placement.movement,
        figures: placement.figures)
    }
    dropOuts =
      RankPairing(
        newer: placements.map { ArchivedEntry(entry: $0.entry, song: $0.song) }, older: previous
      ).unpaired
  }

  /// Compares two snapshots that are not consecutive.
  ///
  /// - Parameters:
  ///   - older: the older snapshot's entries, in rank order.
  ///   - newer: the newer snapshot's entries, in rank order.
  ///   - songsChartedByOlder: songs that were on the chart on or before the older snapshot's date
  ///     (only its members among the arrivals matter).
  public init(older: [ArchivedEntry], newer: [ArchivedEntry], songsChartedByOlder: Set<SongID>) {
    let pairing = RankPairing(newer: newer, older: older)
    lines = zip(newer, pairing.olderRanks).map { entry, olderRank in
      Line(
        entry: entry, olderRank: olderRank,
        movement: Movement(
          rank: entry.entry.rank, previousRank: olderRank,
          wasOnChartBefore: songsChartedByOlder.contains(entry.song)),
        figures: nil)
    }
    dropOuts = pairing.unpaired
  }
}
