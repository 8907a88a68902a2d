/// One snapshot of a chart as the audit reads it.
public struct AuditedSnapshot: Sendable {
  /// The snapshot.
  public var id: SnapshotID
  /// Its chart date.
  public var chartDate: ChartDate
  /// Whether its source publishes previous ranks.
  public var publishesPreviousRank: Bool
  /// Its entries with their songs, in rank order.
  public var entries: [ArchivedEntry]

  /// Creates a snapshot for the audit.
  public init(
    id: SnapshotID, chartDate: ChartDate, publishesPreviousRank: Bool, entries: [ArchivedEntry]
  ) {
    self.id = id
    self.chartDate = chartDate
    self.publishesPreviousRank = publishesPreviousRank
    self.entries = entries
  }
}

/// A figure that charts publish and the archive derives.
public enum AuditFigure: String, CaseIterable, Sendable {
  /// The rank on the previous chart, 1-based.
  case previousRank = "previous_rank"
  /// The best rank up to the chart date, 1-based.
  case peakPosition = "peak_position"
  /// The snapshots (weeks, for a weekly chart) on the chart up to the chart date.
  case weeksOnChart = "weeks_on_chart"

  /// The figure's name for people.
  public var title: String {
    switch self {
    case .previousRank: "previous rank"
    case .peakPosition: "peak position"
    case .weeksOnChart: "weeks on chart"
    }
  }
}

/// Why a derived figure disagrees with the published one, each detected from the data.
public enum DisagreementCause: String, CaseIterable, Sendable {
  /// The source lacks part of a chart: a snapshot holds fewer entries than the chart's size (the
  /// ranks below the missing row are off by one), or the source's previous chart is missing from
  /// the archive (most published previous ranks of the next snapshot, five at least, disagree,
  /// with no common offset).
  case sourceGap = "source gap"
  /// The source misranked entries by one or two places: several entries of one snapshot have
  /// published previous ranks off by the same offset, or one entry's published peak and the next
  /// snapshot's previous rank agree on a rank next to the file's.
  case rankShift = "rank shift"
  /// The same title by the same lead artist is split over several songs: a credit written
  /// differently ("Featuring", "&", punctuation) that the archive could not join.
  case creditChange = "credit change"
  /// Several songs share the title and artist: two recordings (a reissue and a remake) that the
  /// source counts as one run, or the other way round.
  case twoRecordings = "two recordings"
  /// Two entries of the next snapshot claim the same previous rank: two songs tied at one rank,
  /// of which the source kept one.
  case tie
  /// None of the above.
  case unexplained
}

/// One entry whose derived figure differs from the published one.
public struct Disagreement: Hashable, Sendable {
  /// The snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry as published.
  public var entry: ChartEntry
  /// The figure that disagrees.
  public var figure: AuditFigure
  /// The published value (`nil`: the source says the song was not on the previous chart).
  public var published: Int?
  /// The derived value (`nil`: not on the archive's previous snapshot).
  public var derived: Int?
  /// The cause found in the data.
  public var cause: DisagreementCause
}

/// How well one derived figure agrees with the published one.
public struct FigureAgreement: Hashable, Sendable {
  /// The figure.
  public var figure: AuditFigure
  /// Entries whose source published the figure.
  public var compared: Int
  /// Entries whose derived figure equals the published one.
  public var agreeing: Int

  /// `agreeing / compared` in percent, or `nil` when nothing was compared (the source published
  /// no such figure in the snapshots audited).
  public var percentage: Double? {
    compared == 0 ? nil : Double(agreeing) * 100 / Double(compared)
  }
}

/// Compares every figure the source published (previous rank, peak position, weeks on chart) with
/// the one the archive derives (``SongHistory``), and finds the cause of each disagreement.
///
/// A disagreement carried over from an earlier one has the cause of the entry where it first
/// appeared: a weeks-on-chart count that stays off by as much for the rest of a run, or a peak
/// position the source keeps giving while the archive's, still short of it, changes.
public struct ChartAudit: Sendable {
  /// Agreement per figure, in ``AuditFigure`` order.
  public let agreements: [FigureAgreement]
  /// Every disagreement, by chart date, rank and figure.
  public let disagreements: [Disagreement]

  /// Disagreements per cause.
  public var causeCounts: [DisagreementCause: Int] {
    disagreements.reduce(into: [:]) { $0[$1.cause, default: 0] += 1 }
  }

  /// Audits a chart.
  ///
  /// - Parameters:
  ///   - snapshots: every snapshot of the chart, in chart-date order (earlier snapshots are needed
  ///     for the derived figures even when only later ones are audited).
  ///   - from: the first chart date audited, or `nil` for the first snapshot.
  ///   - to: the last chart date audited, or `nil` for the last snapshot.
  public init(snapshots: [AuditedSnapshot], from: ChartDate? = nil, to: ChartDate? = nil) {
    let gaps = SourceGaps(snapshots: snapshots)
    var detector = CauseDetector(snapshots: snapshots, gaps: gaps)
    // Each song's history, over the whole chart, with the source's gaps taken into account.
    var appearances: [SongID: [(index: Int, appearance: Appearance)]] = [:]
    // Per song: the index of its last appearance and its weeks on chart so far.
    var runs: [SongID: (last: Int, weeks: Int)] = [:]
    let missing = gaps.missingBefore.sorted()
    for (index, snapshot) in snapshots.enumerated() {
      let previous = index > 0 ? snapshots[index - 1].id : nil
      for entry in snapshot.entries {
        // A song was on a chart missing from the archive when the missing chart lies between its
        // last appearance and this one, and the source says so: a previous rank right after the
        // missing chart, or a count of weeks one above the archive's.
        var unseen = 0
        let run = runs[entry.song]
        if run?.last != index {
          let last = run?.last ?? -1
          if let gap = missing.first(where: { $0 > last && $0 <= index }) {
            let weeks = (run?.weeks ?? 0) + 1
            if (gap == index && entry.entry.publishedPreviousRank != nil)
              || entry.entry.publishedWeeksOnChart == weeks + 1
            {
              unseen = 1
            }
          }
          runs[entry.song] = (index, (run?.weeks ?? 0) + 1 + unseen)
        }
        appearances[entry.song, default: []].append(
          (
            index,
            Appearance(
              snapshot: snapshot.id, chartDate: snapshot.chartDate, previousSnapshot: previous,
              publishesPreviousRank: snapshot.publishesPreviousRank, entry: entry.entry,
              trueRank: gaps.trueRank(entry.entry.rank, inSnapshot: index),
              unseenWeeksBefore: unseen)
          ))
      }
    }
    var counts = [AuditFigure: (compared: Int, agreeing: Int)]()
    var found: [(index: Int, disagreement: Disagreement)] = []
    func audited(_ index: Int) -> Bool {
      let date = snapshots[index].chartDate
      return (from.map { date >= $0 } ?? true) && (to.map { date <= $0 } ?? true)
    }
    var histories:
      [(song: SongID, list: [(index: Int, appearance: Appearance)], placements: [Placement])] = []
    histories.reserveCapacity(appearances.count)
    // A snapshot whose own ranks are shifted: several entries at their derived peak this week
    // whose published peak is the same small offset away.
    var peakOffsets: [Int: [Int: Int]] = [:]
    for (song, list) in appearances {
      let placements = SongHistory(appearances: list.map(\.appearance)).placements
      histories.append((song, list, placements))
      for (item, placement) in zip(list, placements) {
        let rank = item.appearance.trueRank
        guard placement.peakPosition == rank, let peak = placement.entry.publishedPeakPosition,
          peak != rank, abs(peak - rank) <= 2
        else { continue }
        peakOffsets[item.index, default: [:]][peak - rank, default: 0] += 1
      }
    }
    for (index, offsets) in peakOffsets {
      detector.shiftedPeakOffsets[index] = Set(offsets.filter { $0.value >= 3 }.keys)
    }
    for (song, list, placements) in histories {
      // SongHistory keeps the order of the list (chart date, then rank).
      var carried: [AuditFigure: (difference: Int, published: Int?, cause: DisagreementCause)] = [:]
      var previousIndex: Int?
      for (item, placement) in zip(list, placements) {
        let index = item.index
        let entry = placement.entry
        var figures: [(AuditFigure, published: Int?, derived: Int?)] = []
        if snapshots[index].publishesPreviousRank {
          figures.append(
            (.previousRank, entry.publishedPreviousRank, placement.archivePreviousRank))
        }
        if let peak = entry.publishedPeakPosition {
          figures.append((.peakPosition, peak, placement.peakPosition))
        }
        if let weeks = entry.publishedWeeksOnChart {
          figures.append((.weeksOnChart, weeks, placement.weeksOnChart))
        }
        for (figure, published, derived) in figures {
          if audited(index) { counts[figure, default: (0, 0)].compared += 1 }
          guard published != derived else {
            carried[figure] = nil
            if audited(index) { counts[figure, default: (0, 0)].agreeing += 1 }
            continue
          }
          let difference = (published ?? 0) - (derived ?? 0)
          let cause: DisagreementCause
          // The same disagreement goes on: weeks on chart off by as much as before, or a peak
          // the source still gives as before while the archive's climbs towards it.
          if let earlier = carried[figure],
            figure == .weeksOnChart && earlier.difference == difference
              || figure == .peakPosition && earlier.published == published
          {
            cause = earlier.cause
          } else {
            cause = detector.cause(
              of: entry, trueRank: item.appearance.trueRank, song: song, at: index,
              since: previousIndex, figure: figure)
          }
          if figure != .previousRank { carried[figure] = (difference, published, cause) }
          if audited(index) {
            found.append(
              (
                index,
                Disagreement(
                  chartDate: snapshots[index].chartDate, entry: entry, figure: figure,
                  published: published, derived: derived, cause: cause)
              ))
          }
        }
        previousIndex = index
      }
    }
    agreements = AuditFigure.allCases.map { figure in
      let count = counts[figure] ?? (0, 0)
      return FigureAgreement(figure: figure, compared: count.compared, agreeing: count.agreeing)
    }
    let order = Dictionary(uniqueKeysWithValues: AuditFigure.allCases.enumerated().map { ($1, $0) })
    disagreements = found.sorted {
      ($0.index, $0.disagreement.entry.rank, order[$0.disagreement.figure]!)
        < ($1.index, $1.disagreement.entry.rank, order[$1.disagreement.figure]!)
    }.map(\.disagreement)
  }
}

/// Finds, from the data, why a derived figure differs from the published one.
struct CauseDetector {
  let snapshots: [AuditedSnapshot]
  let gaps: SourceGaps
  /// Per snapshot, the published previous ranks claimed by more than one entry.
  let tiedRanks: [Int: Set<Int>]
  /// Per snapshot, the offsets (published minus derived previous rank) shared by a run of entries.
  let shiftedOffsets: [Int: Set<Int>]
  /// Per snapshot, the offsets (published minus derived peak) shared by several entries at their
  /// derived peak: the snapshot's own ranks are shifted.
  var shiftedPeakOffsets: [Int: Set<Int>] = [:]
  /// Songs per identity and per title with lead artist, over the chart.
  let songsByIdentity: [SongIdentity: Set<SongID>]
  let songsByTitle: [String: Set<SongID>]
  /// Per song, its published ranks on charts missing from the archive (its previous ranks right
  /// after one).
  let ranksOnMissingCharts: [SongID: Set<Int>]

  init(snapshots: [AuditedSnapshot], gaps: SourceGaps) {
    self.snapshots = snapshots
    self.gaps = gaps
    var ties: [Int: Set<Int>] = [:]
    var shifts: [Int: Set<Int>] = [:]
    var byIdentity: [SongIdentity: Set<SongID>] = [:]
    var byTitle: [String: Set<SongID>] = [:]
    for (index, snapshot) in snapshots.enumerated() {
      for entry in snapshot.entries {
        byIdentity[entry.entry.songIdentity, default: []].insert(entry.song)
        byTitle[Self.titleKey(entry.entry), default: []].insert(entry.song)
      }
      guard index > 0, snapshot.publishesPreviousRank else { continue }
      var previousRanks: [SongID: Int] = [:]
      for entry in snapshots[index - 1].entries where previousRanks[entry.song] == nil {
        previousRanks[entry.song] = gaps.trueRank(entry.entry.rank, inSnapshot: index - 1)
      }
      var claims: [Int: Int] = [:]
      var offsets: [Int: Int] = [:]
      for entry in snapshot.entries {
        guard let rank = entry.entry.publishedPreviousRank else { continue }
        claims[rank, default: 0] += 1
        if let derived = previousRanks[entry.song], derived != rank {
          offsets[rank - derived, default: 0] += 1
        }
      }
      ties[index] = Set(claims.filter { $0.value > 1 }.keys)
      shifts[index] = Set(offsets.filter { abs($0.key) <= 2 && $0.value >= 3 }.keys)
    }
    tiedRanks = ties
    shiftedOffsets = shifts
    var onMissing: [SongID: Set<Int>] = [:]
    for index in gaps.missingBefore {
      for entry in snapshots[index].entries {
        if let rank = entry.entry.publishedPreviousRank {
          onMissing[entry.song, default: []].insert(rank)
        }
      }
    }
    ranksOnMissingCharts = onMissing
    songsByIdentity = byIdentity
    songsByTitle = byTitle
  }

  static func titleKey(_ entry: ChartEntry) -> String {
    SongIdentity.baseTitle(entry.title) + "\u{1F}" + SongIdentity.primaryArtist(entry.artist)
  }

  /// The cause of a disagreement that appears at snapshot `index`.
  ///
  /// - Parameters:
  ///   - entry: the entry.
  ///   - trueRank: its rank as the source meant it.
  ///   - song: its song.
  ///   - index: its snapshot's index.
  ///   - since: the index of the song's previous appearance, or `nil` for its first.
  ///   - figure: the figure that disagrees.
  func cause(
    of entry: ChartEntry, trueRank: Int, song: SongID, at index: Int, since: Int?,
    figure: AuditFigure
  ) -> DisagreementCause {
    // A short snapshot, or a missing one, here or between the song's appearances.
    let span = (since ?? max(0, index - 1))...index
    if span.contains(where: { gaps.missingBefore.contains($0) })
      || span.contains(where: { snapshots[$0].entries.count < gaps.chartSize })
    {
      return .sourceGap
    }
    if figure == .peakPosition, let peak = entry.publishedPeakPosition {
      if shiftedPeakOffsets[index]?.contains(peak - trueRank) == true { return .rankShift }
      // One entry misranked: the source's own peak and its next previous rank agree on a rank
      // one or two away from the file's.
      if peak != trueRank, abs(peak - trueRank) <= 2,
        publishedPreviousRank(of: song, after: index) == peak
      {
        return .rankShift
      }
      // The peak was reached on a chart missing from the archive.
      if ranksOnMissingCharts[song]?.contains(peak) == true { return .sourceGap }
    }
    if figure == .previousRank, let rank = entry.publishedPreviousRank {
      // A shift first: its last shifted entry also claims a rank another entry claims.
      if let derived = derivedPreviousRank(of: song, before: index),
        shiftedOffsets[index]?.contains(rank - derived) == true
      {
        return .rankShift
      }
      if tiedRanks[index]?.contains(rank) == true { return .tie }
      // One entry misranked on the previous snapshot: its published peak there says the same.
      if let derived = derivedPreviousRank(of: song, before: index), abs(rank - derived) <= 2,
        snapshots[index - 1].entries.first(where: { $0.song == song })?.entry.publishedPeakPosition
          == rank
      {
        return .rankShift
      }
    }
    // A tie at the previous rank the source gives: the dropped one of two tied songs.
    if let rank = entry.publishedPreviousRank, tiedRanks[index]?.contains(rank) == true,
      derivedPreviousRank(of: song, before: index) != rank
    {
      return .tie
    }
    // The song's first entry says it charted before, and nothing earlier has its title: the
    // source counts weeks the archive does not hold.
    if since == nil, entry.saysChartedBefore,
      (songsByTitle[Self.titleKey(entry)]?.count ?? 0) <= 1
    {
      return .sourceGap
    }
    if (songsByIdentity[entry.songIdentity]?.count ?? 0) > 1 { return .twoRecordings }
    if (songsByTitle[Self.titleKey(entry)]?.count ?? 0) > 1 { return .creditChange }
    if figure == .previousRank, let rank = entry.publishedPreviousRank, index > 0,
      let target = snapshots[index - 1].entries.first(where: { $0.entry.rank == rank }),
      SongIdentity.fold(target.entry.title) == SongIdentity.fold(entry.title)
    {
      return .creditChange
    }
    return .unexplained
  }

  private func publishedPreviousRank(of song: SongID, after index: Int) -> Int? {
    guard index + 1 < snapshots.count else { return nil }
    return snapshots[index + 1].entries.first { $0.song == song }?.entry.publishedPreviousRank
  }

  private func derivedPreviousRank(of song: SongID, before index: Int) -> Int? {
    guard index > 0,
      let rank = snapshots[index - 1].entries.first(where: { $0.song == song })?.entry.rank
    else { return nil }
    return gaps.trueRank(rank, inSnapshot: index - 1)
  }
}
