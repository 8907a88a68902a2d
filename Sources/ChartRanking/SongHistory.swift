/// One appearance of a song on a chart, as the archive stores it.
public struct Appearance: Hashable, Sendable {
  /// The snapshot the entry belongs to.
  public var snapshot: SnapshotID
  /// That snapshot's chart date.
  public var chartDate: ChartDate
  /// The snapshot just before it on the same chart, or `nil` when it is the chart's first.
  public var previousSnapshot: SnapshotID?
  /// Whether that snapshot's source publishes previous ranks (see ``Snapshot/publishesPreviousRank``).
  public var publishesPreviousRank: Bool
  /// The entry as imported.
  public var entry: ChartEntry
  /// The rank the derived figures use: the entry's rank, or the rank the source meant when its
  /// snapshot lost a row (see ``SourceGaps``).
  public var trueRank: Int
  /// Snapshots the source counted just before this one that the archive does not hold, and on
  /// which the song was (see ``SourceGaps``); they count as weeks on chart.
  public var unseenWeeksBefore: Int

  /// Creates an appearance.
  public init(
    snapshot: SnapshotID, chartDate: ChartDate, previousSnapshot: SnapshotID?,
    publishesPreviousRank: Bool, entry: ChartEntry, trueRank: Int? = nil,
    unseenWeeksBefore: Int = 0
  ) {
    self.snapshot = snapshot
    self.chartDate = chartDate
    self.previousSnapshot = previousSnapshot
    self.publishesPreviousRank = publishesPreviousRank
    self.entry = entry
    self.trueRank = trueRank ?? entry.rank
    self.unseenWeeksBefore = unseenWeeksBefore
  }
}

/// An entry with the figures the archive derives for it: previous rank, movement, peak position and
/// weeks on chart.
public struct Placement: Hashable, Sendable {
  /// The snapshot the entry belongs to.
  public var snapshot: SnapshotID
  /// That snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry as imported.
  public var entry: ChartEntry
  /// The rank on the previous snapshot, 1-based: as published when the source publishes it,
  /// otherwise the song's rank on the archive's previous snapshot of the chart; `nil` when the
  /// song was not on it.
  public var previousRank: Int?
  /// The song's rank on the archive's previous snapshot of the chart, whatever the source
  /// published: `nil` when the song was not on it. The audit compares it with the published one.
  public var archivePreviousRank: Int?
  /// How the entry moved (see ``Movement``).
  public var movement: Movement
  /// Best rank of the song on this chart up to and including this snapshot, 1-based.
  public var peakPosition: Int
  /// Snapshots of this chart the song was on up to and including this one, counted across
  /// re-entries (the chart rule for "weeks on chart"; for a daily chart these are days).
  public var weeksOnChart: Int

  /// The entry's rank, 1-based.
  public var rank: Int { entry.rank }

  /// Creates a placement from figures already derived (``SongHistory`` derives them).
  public init(
    snapshot: SnapshotID, chartDate: ChartDate, entry: ChartEntry, previousRank: Int?,
    archivePreviousRank: Int? = nil, movement: Movement, peakPosition: Int, weeksOnChart: Int
  ) {
    self.archivePreviousRank = archivePreviousRank
    self.snapshot = snapshot
    self.chartDate = chartDate
    self.entry = entry
    self.previousRank = previousRank
    self.movement = movement
    self.peakPosition = peakPosition
    self.weeksOnChart = weeksOnChart
  }
}

/// How one song moved on one chart: every appearance with its derived figures, in chart-date order.
///
/// Rules (those Billboard documents for the Hot 100, applied to any chart):
/// - previous rank: as published when the snapshot's source publishes previous ranks; otherwise the
///   song's rank on the chart's previous snapshot, when the song was on it;
/// - movement: see ``Movement``; a song with no previous rank is a re-entry when it was on an
///   earlier snapshot of the chart, or when the source says it has been on the chart for more
///   than one week;
/// - peak position: the best rank up to and including the chart date, never a later one;
/// - weeks on chart: the number of snapshots the song was on up to and including the chart date,
///   counted across re-entries.
///
/// When one song has two entries in one snapshot (two recordings with the same title and artist),
/// the k-th of them is paired with the song's k-th entry on the previous snapshot; weeks on chart
/// counts that snapshot once.
public struct SongHistory: Sendable {
  /// Each appearance with its figures, by chart date, then rank.
  public let placements: [Placement]

  /// Derives the figures from a song's appearances on one chart.
  ///
  /// - Parameter appearances: every appearance of the song on the chart up to the last date of
  ///   interest, in any order.
  public init(appearances: [Appearance]) {
    let sorted = appearances.sorted {
      ($0.chartDate, $0.entry.rank) < ($1.chartDate, $1.entry.rank)
    }
    var placements: [Placement] = []
    placements.reserveCapacity(sorted.count)
    var snapshotsSeen = 0
    var peak = Int.max
    var previousGroup: ArraySlice<Appearance> = []
    var start = sorted.startIndex
    while start < sorted.endIndex {
      var end = start + 1
      while end < sorted.endIndex, sorted[end].snapshot == sorted[start].snapshot { end += 1 }
      let group = sorted[start..<end]
      let followsPrevious =
        previousGroup.first.map { $0.snapshot == group.first?.previousSnapshot } ?? false
      snapshotsSeen += 1 + (group.first?.unseenWeeksBefore ?? 0)
      for (offset, appearance) in group.enumerated() {
        peak = min(peak, appearance.trueRank)
        let derivedPrevious: Int? =
          followsPrevious && offset < previousGroup.count
          ? previousGroup[previousGroup.startIndex + offset].trueRank : nil
        let previousRank =
          appearance.publishesPreviousRank
          ? appearance.entry.publishedPreviousRank : derivedPrevious
        let wasOnChartBefore =
          snapshotsSeen > 1 || appearance.entry.saysChartedBefore
        placements.append(
          Placement(
            snapshot: appearance.snapshot, chartDate: appearance.chartDate, entry: appearance.entry,
            previousRank: previousRank, archivePreviousRank: derivedPrevious,
            movement: Movement(
              rank: appearance.entry.rank, previousRank: previousRank,
              wasOnChartBefore: wasOnChartBefore),
            peakPosition: peak, weeksOnChart: snapshotsSeen))
      }
      previousGroup = group
      start = end
    }
    self.placements = placements
  }

  /// Best rank over the whole history, or `nil` when it is empty.
  public var peakPosition: Int? { placements.last?.peakPosition }
  /// Snapshots the song was on, counted across re-entries.
  public var weeksOnChart: Int { placements.last?.weeksOnChart ?? 0 }
  /// The chart date of the first appearance, or `nil` when the history is empty.
  public var debutDate: ChartDate? { placements.first?.chartDate }
  /// The rank of the first appearance, or `nil` when the history is empty.
  public var debutRank: Int? { placements.first?.rank }
  /// Where the artist credit changed during the history, in chart-date order: the runs the
  /// archive joined into one song across credit changes (see ``SongLinking``).
  public var creditChanges: [(chartDate: ChartDate, from: String, to: String)] {
    zip(placements, placements.dropFirst()).compactMap { earlier, later in
      SongIdentity.fold(earlier.entry.artist) == SongIdentity.fold(later.entry.artist)
        ? nil : (later.chartDate, earlier.entry.artist, later.entry.artist)
    }
  }

  /// The number of snapshots on which the song held its peak position.
  public var weeksAtPeak: Int {
    guard let peak = peakPosition else { return 0 }
    return Set(placements.filter { $0.rank == peak }.map(\.snapshot)).count
  }

  /// The placements of one snapshot's entries, each derived from its song's history.
  ///
  /// - Parameters:
  ///   - entries: the snapshot's entries, in rank order.
  ///   - snapshot: the snapshot.
  ///   - chartDate: its chart date.
  ///   - appearances: for each song of `entries`, its appearances on the chart up to and including
  ///     the snapshot; an entry whose appearances are missing is placed on its own (a debut).
  /// - Returns: one placement per entry, same order.
  public static func placements(
    of entries: [ArchivedEntry], in snapshot: SnapshotID, chartDate: ChartDate,
    appearances: [SongID: [Appearance]]
  ) -> [Placement] {
    var bySong: [SongID: [Placement]] = [:]
    for song in Set(entries.map(\.song)) {
      bySong[song] = SongHistory(appearances: appearances[song] ?? []).placements.filter {
        $0.snapshot == snapshot
      }
    }
    return entries.map { archived in
      if let placement = bySong[archived.song]?.first {
        bySong[archived.song]?.removeFirst()
        return placement
      }
      // The song's appearances were not supplied: all that is known is this entry.
      return SongHistory(appearances: [
        Appearance(
          snapshot: snapshot, chartDate: chartDate,
          previousSnapshot: nil, publishesPreviousRank: false, entry: archived.entry)
      ]).placements[0]
    }
  }
}
