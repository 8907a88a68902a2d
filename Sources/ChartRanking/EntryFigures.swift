/// Where the previous rank the archive gives an entry comes from.
public enum PreviousRankSource: String, CaseIterable, Hashable, Sendable {
  /// The source published it, and nothing in the archive contradicts it (or what does is a
  /// defect of the archive's data: a lost row, shifted ranks, a missing chart, a tie).
  case published
  /// The source publishes none: it is the song's rank on the archive's previous snapshot.
  case derived
  /// The source published one that cannot be right (it says the song is new, or the archive's
  /// previous snapshot has another song there and no defect explains it, or a person's decision
  /// joined or split the song there): the archive's own is used instead.
  case corrected
}

/// A derived figure that disagrees with the published one, and why.
public struct FigureVerdict: Hashable, Sendable {
  /// The archive's own figure (`nil` for a previous rank: not on the archive's previous
  /// snapshot).
  public var derived: Int?
  /// Why it differs from the published one.
  public var cause: DisagreementCause

  /// A verdict.
  public init(derived: Int?, cause: DisagreementCause) {
    self.derived = derived
    self.cause = cause
  }
}

/// The figures the archive decides for one entry when its snapshot is stored, read by every
/// command, the HTTP service and the SQL views alike.
///
/// The rule for which figure wins (see ``ChartFigures``): the previous rank is the published one
/// when the source publishes previous ranks, unless it cannot be right (``PreviousRankSource``);
/// peak position, weeks on chart and run are the archive's own counts, unless the archive does not
/// hold the song's whole run (the source's figure says more, and the disagreement is a source
/// gap), when they are the source's and ``isPartialRun`` is true.
public struct EntryFigures: Hashable, Sendable {
  /// The previous rank, 1-based; `nil` when the song was not on the previous chart.
  public var previousRank: Int?
  /// Where ``previousRank`` comes from.
  public var previousRankSource: PreviousRankSource
  /// How the entry moved (see ``Movement``).
  public var movement: Movement
  /// Best rank up to and including the chart date, 1-based.
  public var peakPosition: Int
  /// Snapshots of the chart the song was on up to and including this one, across re-entries (for
  /// a daily chart, days; for an hourly one, hours).
  public var weeksOnChart: Int
  /// The song's run on the chart: 1 for its first, 2 after its first re-entry, and so on (each
  /// later entry whose movement is a re-entry starts one).
  public var run: Int
  /// Whether the archive lacks the start of the song's run: ``peakPosition``, ``weeksOnChart``
  /// and ``run`` are then the source's where they say more than the archive holds.
  public var isPartialRun: Bool
  /// The cause of ``movementVerdict``, the one part of it that is not always the same: a byte
  /// beside ``isPartialRun``, so that the figures, copied for every entry decided, take no more
  /// room than before the movement had verdicts.
  private var movementCause: DisagreementCause?
  /// Where the archive's previous rank disagrees with the published one, and why; `nil` when
  /// they agree or the source publishes none.
  public var previousRankVerdict: FigureVerdict?
  /// Where the archive's peak position disagrees with the published one, and why.
  public var peakPositionVerdict: FigureVerdict?
  /// Where the archive's weeks on chart disagree with the published ones, and why.
  public var weeksOnChartVerdict: FigureVerdict?
  /// Where the archive's run disagrees with the run number the source published, and why.
  public var runVerdict: FigureVerdict?
  /// Where the archive's movement disagrees with the one the source published beside the entry
  /// (``ChartEntry/publishedTrend``; see ``PublishedTrend/agrees(with:)``), and why; its
  /// `derived` is `nil` (the derived movement is ``movement``).
  public var movementVerdict: FigureVerdict? {
    get { movementCause.map { FigureVerdict(derived: nil, cause: $0) } }
    set { movementCause = newValue?.cause }
  }

  /// Figures, as decided or read back from an archive.
  public init(
    previousRank: Int?, previousRankSource: PreviousRankSource, movement: Movement,
    peakPosition: Int, weeksOnChart: Int, run: Int, isPartialRun: Bool = false,
    previousRankVerdict: FigureVerdict? = nil, peakPositionVerdict: FigureVerdict? = nil,
    weeksOnChartVerdict: FigureVerdict? = nil, runVerdict: FigureVerdict? = nil,
    movementVerdict: FigureVerdict? = nil
  ) {
    self.runVerdict = runVerdict
    movementCause = movementVerdict?.cause
    self.previousRank = previousRank
    self.previousRankSource = previousRankSource
    self.movement = movement
    self.peakPosition = peakPosition
    self.weeksOnChart = weeksOnChart
    self.run = run
    self.isPartialRun = isPartialRun
    self.previousRankVerdict = previousRankVerdict
    self.peakPositionVerdict = peakPositionVerdict
    self.weeksOnChartVerdict = weeksOnChartVerdict
  }

  /// The archive's own peak position: ``peakPosition``, or the derived one where the source's is
  /// shown.
  public var archivePeakPosition: Int { peakPositionVerdict?.derived ?? peakPosition }
  /// The archive's own weeks on chart.
  public var archiveWeeksOnChart: Int { weeksOnChartVerdict?.derived ?? weeksOnChart }
  /// The archive's own run.
  public var archiveRun: Int { runVerdict?.derived ?? run }

  /// The verdict on one figure.
  public func verdict(on figure: AuditFigure) -> FigureVerdict? {
    switch figure {
    case .previousRank: previousRankVerdict
    case .peakPosition: peakPositionVerdict
    case .weeksOnChart: weeksOnChartVerdict
    case .run: runVerdict
    case .movement: movementVerdict
    }
  }

  /// Sets the verdict on one figure.
  public mutating func setVerdict(_ verdict: FigureVerdict?, on figure: AuditFigure) {
    switch figure {
    case .previousRank: previousRankVerdict = verdict
    case .peakPosition: peakPositionVerdict = verdict
    case .weeksOnChart: weeksOnChartVerdict = verdict
    case .run: runVerdict = verdict
    case .movement: movementVerdict = verdict
    }
  }

  /// Whether any published figure disagrees with the archive's.
  public var hasVerdicts: Bool {
    previousRankVerdict != nil || peakPositionVerdict != nil || weeksOnChartVerdict != nil
      || runVerdict != nil || movementVerdict != nil
  }
}
