/// An entry with the figures the archive decided for it (see ``ChartFigures``): previous rank,
/// movement, peak position, weeks on chart and run. What `show`, `report` and `history` present.
public struct Placement: Hashable, Sendable {
  /// The snapshot the entry belongs to.
  public var snapshot: SnapshotID
  /// That snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry as imported, with the figures the source published.
  public var entry: ChartEntry
  /// The song the entry belongs to.
  public var song: SongID
  /// The figures decided for it.
  public var figures: EntryFigures

  /// A placement.
  public init(
    snapshot: SnapshotID, chartDate: ChartDate, entry: ChartEntry, song: SongID,
    figures: EntryFigures
  ) {
    self.snapshot = snapshot
    self.chartDate = chartDate
    self.entry = entry
    self.song = song
    self.figures = figures
  }

  /// The entry's rank, 1-based.
  public var rank: Int { entry.rank }
  /// The previous rank the archive gives, 1-based; `nil` when the song was not on the previous
  /// chart.
  public var previousRank: Int? { figures.previousRank }
  /// How the entry moved.
  public var movement: Movement { figures.movement }
  /// Best rank up to and including the chart date, 1-based.
  public var peakPosition: Int { figures.peakPosition }
  /// Snapshots of the chart the song was on up to and including this one, across re-entries.
  public var weeksOnChart: Int { figures.weeksOnChart }
}
