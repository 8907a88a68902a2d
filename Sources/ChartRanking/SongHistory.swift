/// How one song moved on one chart: every entry with its figures, in chart-date order, and what
/// they add up to.
public struct SongHistory: Sendable {
  /// Each entry with its figures, by chart date, then rank.
  public let placements: [Placement]

  /// The history of a song's placements on one chart.
  ///
  /// - Parameter placements: the song's placements on the chart, in any order.
  public init(placements: [Placement]) {
    self.placements = placements.sorted { ($0.chartDate, $0.rank) < ($1.chartDate, $1.rank) }
  }

  /// Best rank over the whole history, or `nil` when it is empty.
  public var peakPosition: Int? { placements.last?.peakPosition }
  /// Snapshots the song was on, counted across re-entries.
  public var weeksOnChart: Int { placements.last?.weeksOnChart ?? 0 }
  /// How many runs the song had: 1, plus one per re-entry.
  public var runs: Int { placements.last?.figures.run ?? 0 }
  /// Whether the archive lacks the start of the song's run (the figures are the source's).
  public var isPartial: Bool { placements.contains { $0.figures.isPartialRun } }
  /// Whether ``peakPosition`` is the source's rather than the archive's own (the archive lacks
  /// the start of the run, and the source's peak is better than any rank it holds).
  public var peakIsTheSources: Bool {
    placements.last.map { $0.figures.peakPosition != $0.figures.archivePeakPosition } ?? false
  }
  /// Whether ``weeksOnChart`` is the source's rather than the archive's own count.
  public var weeksOnChartAreTheSources: Bool {
    placements.last.map {
      $0.figures.isPartialRun && $0.figures.weeksOnChart != $0.figures.archiveWeeksOnChart
    } ?? false
  }
  /// The chart date of the first entry, or `nil` when the history is empty.
  public var debutDate: ChartDate? { placements.first?.chartDate }
  /// The rank of the first entry, or `nil` when the history is empty.
  public var debutRank: Int? { placements.first?.rank }
  /// Whether the song charted before its first entry the archive holds (that entry's run is
  /// partial: the source counts weeks or a peak from before it): ``debutDate`` and ``debutRank``
  /// are then the archive's first entry, not the song's debut.
  public var debutIsBeforeArchive: Bool { placements.first?.figures.isPartialRun ?? false }
  /// Where the artist credit changed during the history, in chart-date order: the runs the
  /// archive joined into one song across credit changes (see ``SongLinking``).
  public var creditChanges: [(chartDate: ChartDate, from: String, to: String)] {
    zip(placements, placements.dropFirst()).compactMap { earlier, later in
      SongIdentity.fold(earlier.entry.artist) == SongIdentity.fold(later.entry.artist)
        ? nil : (later.chartDate, earlier.entry.artist, later.entry.artist)
    }
  }

  /// The number of snapshots on which the song held its peak position and that counted as a week
  /// on the chart (none the archive holds when the peak is the source's, from before them): a
  /// snapshot that repeats the previous one and counts no new week (see
  /// ``ChartFigures/Note/identicalToPrevious(previous:countsNoNewWeek:)``) has the weeks on chart
  /// of the one before it, and is not counted again; nor is a song's second entry in a snapshot.
  public var weeksAtPeak: Int {
    guard let peak = peakPosition else { return 0 }
    return Set(placements.filter { $0.rank == peak }.map(\.weeksOnChart)).count
  }
}
