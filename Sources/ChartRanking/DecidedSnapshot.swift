/// A snapshot with the figures decided for its entries.
public struct DecidedSnapshot: Sendable {
  /// The snapshot.
  public var snapshot: LinkedSnapshot
  /// Each entry's figures, same order.
  public var figures: [EntryFigures]
  /// Each entry's rank as the source meant it: its file rank, or corrected when the snapshot's
  /// next one says a run of its ranks is off (a lost row, ranks shifted by the source).
  public var trueRanks: [Int]
  /// Whether the source's previous chart is missing from the archive: most of its published
  /// previous ranks (five at least) disagree with the archive's previous snapshot, with no common
  /// offset.
  public var followsMissingSnapshot: Bool
  /// What deciding found that the importer should say (see ``ChartFigures/Note``).
  public var notes: [ChartFigures.Note]

  /// A decided snapshot, as decided or read back from an archive.
  public init(
    snapshot: LinkedSnapshot, figures: [EntryFigures], trueRanks: [Int],
    followsMissingSnapshot: Bool, notes: [ChartFigures.Note]
  ) {
    self.snapshot = snapshot
    self.figures = figures
    self.trueRanks = trueRanks
    self.followsMissingSnapshot = followsMissingSnapshot
    self.notes = notes
  }
}
