/// A figure that charts publish and the archive derives.
public enum AuditFigure: String, CaseIterable, Sendable {
  /// The rank on the previous chart, 1-based.
  case previousRank = "previous_rank"
  /// The best rank up to the chart date, 1-based.
  case peakPosition = "peak_position"
  /// The snapshots (weeks, for a weekly chart) on the chart up to the chart date.
  case weeksOnChart = "weeks_on_chart"
  /// The song's run the entry belongs to: 1 for its first, one more after each re-entry (runs
  /// are separated by snapshots the song is not on).
  case run
  /// How the entry moved: up, down, unchanged, new or back (see ``Movement``), against the
  /// movement a source publishes beside an entry (``PublishedTrend``).
  case movement

  /// The figure's name for people.
  public var title: String {
    switch self {
    case .previousRank: "previous rank"
    case .peakPosition: "peak position"
    case .weeksOnChart: "weeks on chart"
    case .run: "run"
    case .movement: "movement"
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
  /// differently ("Featuring", "&", punctuation) that the archive could not join; or a published
  /// previous rank names the entry of the previous snapshot with the same title before any
  /// parenthesis (a subtitle added as the artists were written in another order).
  case creditChange = "credit change"
  /// Several songs share the title and artist: two recordings (a reissue and a remake) that the
  /// source counts as one run, or the other way round.
  case twoRecordings = "two recordings"
  /// Two entries of the next snapshot claim the same previous rank: two songs tied at one rank,
  /// of which the source kept one.
  case tie
  /// A person's decision (docs/rules.md, "Corrections") joined the song's entries on the chart
  /// with another song's, or split them from one, at or before the entry: the source counts the
  /// songs apart where a merge joined them (more weeks on chart, a better peak, a later run, a
  /// previous rank where the source gives none), or as one where a split parted them (fewer
  /// weeks, a worse peak, an earlier run, no previous rank where the source gives the other
  /// song's). A previous rank naming another song's entry, which a decision joined or split, is
  /// one too.
  case joinedByHand = "joined by hand"
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
  /// For a disagreement on the movement, the one the archive derives (the published one is the
  /// entry's ``ChartEntry/publishedTrend``); `nil` for the other figures.
  public var derivedMovement: Movement?

  /// A disagreement.
  public init(
    chartDate: ChartDate, entry: ChartEntry, figure: AuditFigure, published: Int?, derived: Int?,
    cause: DisagreementCause, derivedMovement: Movement? = nil
  ) {
    self.chartDate = chartDate
    self.entry = entry
    self.figure = figure
    self.published = published
    self.derived = derived
    self.cause = cause
    self.derivedMovement = derivedMovement
  }
}

/// How well one derived figure agrees with the published one.
public struct FigureAgreement: Hashable, Sendable {
  /// The figure.
  public var figure: AuditFigure
  /// Entries whose source published the figure.
  public var compared: Int
  /// Entries whose derived figure equals the published one.
  public var agreeing: Int

  /// An agreement count.
  public init(figure: AuditFigure, compared: Int, agreeing: Int) {
    self.figure = figure
    self.compared = compared
    self.agreeing = agreeing
  }

  /// `agreeing / compared` in percent, or `nil` when nothing was compared (the source published
  /// no such figure in the snapshots audited).
  public var percentage: Double? {
    compared == 0 ? nil : Double(agreeing) * 100 / Double(compared)
  }
}

/// Compares every figure the source published (previous rank, peak position, weeks on chart, run
/// number, movement) with the one the archive derives, and finds the cause of each disagreement: the verdicts
/// ``ChartFigures`` reaches when it decides each entry's figures, counted.
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

  /// An audit from its counts and disagreements (as an archive stores the verdicts).
  ///
  /// - Parameters:
  ///   - agreements: per figure, in ``AuditFigure`` order.
  ///   - disagreements: by chart date, rank and figure.
  public init(agreements: [FigureAgreement], disagreements: [Disagreement]) {
    self.agreements = agreements
    self.disagreements = disagreements
  }

  /// Audits a chart's snapshots, deciding their figures from nothing but themselves.
  ///
  /// - Parameters:
  ///   - snapshots: every snapshot of the chart, in chart-date order (earlier snapshots are needed
  ///     for the derived figures even when only later ones are audited).
  ///   - from: the first chart date audited, or `nil` for the first snapshot.
  ///   - to: the last chart date audited, or `nil` for the last snapshot.
  ///   - frequency: how often the chart is published, when known: the chart's stored frequency,
  ///     to decide as an import does (see ``ChartFigures/decideAll(_:frequency:)``).
  public init(
    snapshots: [LinkedSnapshot], from: ChartDate? = nil, to: ChartDate? = nil,
    frequency: ChartFrequency? = nil
  ) {
    let decided = ChartFigures.decideAll(snapshots, frequency: frequency)
    self.init(
      decided: decided.filter { item in
        (from.map { item.snapshot.chartDate >= $0 } ?? true)
          && (to.map { item.snapshot.chartDate <= $0 } ?? true)
      }, firstChartDate: snapshots.first?.chartDate)
  }

  /// Counts the verdicts of decided snapshots.
  ///
  /// - Parameters:
  ///   - decided: the snapshots audited, in chart-date order.
  ///   - firstChartDate: the chart date of the chart's first snapshot, whose published movements
  ///     cannot be checked (see ``PublishedTrend/canBeChecked(publishesPreviousRank:hasPrevious:)``);
  ///     `nil` for the first of `decided`.
  public init(decided: [DecidedSnapshot], firstChartDate: ChartDate? = nil) {
    let firstChartDate = firstChartDate ?? decided.first?.snapshot.chartDate
    var counts = [AuditFigure: (compared: Int, agreeing: Int)]()
    var found: [Disagreement] = []
    for item in decided {
      for (entry, figures) in zip(item.snapshot.entries, item.figures) {
        var published: [(AuditFigure, Int?)] = []
        if figures.previousRankSource != .derived {
          published.append((.previousRank, entry.publishedPreviousRank))
        }
        if let peak = entry.publishedPeakPosition { published.append((.peakPosition, peak)) }
        if let weeks = entry.publishedWeeksOnChart { published.append((.weeksOnChart, weeks)) }
        if let run = entry.publishedRun { published.append((.run, run)) }
        if entry.publishedTrend != nil,
          PublishedTrend.canBeChecked(
            publishesPreviousRank: item.snapshot.publishesPreviousRank,
            hasPrevious: item.snapshot.chartDate != firstChartDate)
        {
          published.append((.movement, nil))
        }
        for (figure, value) in published {
          counts[figure, default: (0, 0)].compared += 1
          guard let verdict = figures.verdict(on: figure) else {
            counts[figure, default: (0, 0)].agreeing += 1
            continue
          }
          found.append(
            Disagreement(
              chartDate: item.snapshot.chartDate, entry: entry, figure: figure, published: value,
              derived: verdict.derived, cause: verdict.cause,
              derivedMovement: figure == .movement ? figures.movement : nil))
        }
      }
    }
    agreements = AuditFigure.allCases.map { figure in
      let count = counts[figure] ?? (0, 0)
      return FigureAgreement(figure: figure, compared: count.compared, agreeing: count.agreeing)
    }
    disagreements = found
  }
}
