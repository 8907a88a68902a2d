/// The work of deciding one snapshot, in the steps of ``decide()``: compare it with the chart's
/// previous snapshot, count each entry's figures on from the song's standing before it, then give
/// each entry its figures, with a verdict on each published one that disagrees.
///
/// Not generic over the lookup: a generic type instantiated from another module looks its
/// metadata up at run time on every use, which an import does for every snapshot. The steps of
/// each entry are inlined (`@inline(__always)`): called apart, they cost deciding some 4 % more
/// instructions.
struct Decider {
  let snapshot: LinkedSnapshot
  let previous: DecidedSnapshot?
  let next: LinkedSnapshot?
  let lookup: any ChartHistoryLookup

  /// One entry's figures before its causes are found.
  struct Derived {
    /// The song's last entry before this snapshot: its chart date, figures and published peak
    /// and weeks (the published ones say whether a disagreement goes on).
    var standingDate: ChartDate?
    var standingFigures: EntryFigures?
    var standingPublishedPeak: Int?
    var standingPublishedWeeks: Int?
    var standingPublishedRun: Int?
    /// The index in `standings` of the song's last entry before this snapshot when it is not on
    /// the previous one: an item stays free of the entry's texts, which each copy would retain.
    var standing: Int?
    /// The index in `previous` of the song's entry paired with this one.
    var previousIndex: Int?
    /// The entry's rank as the source meant it.
    var trueRank: Int
    /// The song's rank on the previous snapshot, as the source meant it.
    var derivedPreviousRank: Int?
    /// The archive's own peak position, weeks on chart and run before this entry's movement is
    /// known (a re-entry starts the next run).
    var peak: Int
    var weeks: Int
    var run: Int
  }

  // What comparing with the previous snapshot finds.

  /// Each entry's rank as the source meant it (see ``DecidedSnapshot/trueRanks``).
  private var trueRanks: [Int] = []
  /// Whether the published previous ranks are read: the source publishes them, and did not lose
  /// them in this snapshot.
  private var publishes: Bool
  /// Whether the snapshot follows one missing from the archive.
  private var followsMissing: Bool
  /// Whether the snapshot repeats the previous one (the same chart saved under two dates).
  private var repeats = false
  /// Each entry's song on the previous snapshot: its index there, if any.
  private var previousIndices: [Int?]
  /// What deciding found that the importer should say.
  private var notes: [ChartFigures.Note] = []

  // What counting each entry's figures finds.

  /// The chart date before which the lookup answers: the previous snapshot's (this one's for the
  /// chart's first). This one and the previous are known to the decider already.
  private let horizon: ChartDate
  /// The most entries a snapshot of the chart holds, up to this one.
  private var chartSize = 0
  /// Each entry's figures before their verdicts, same order as the entries.
  private var derived: [Derived] = []
  /// The standings of the songs not on the previous snapshot, which ``Derived/standing`` indexes.
  private var standings: [SongStanding] = []
  /// How many entries at their derived peak have a published peak this small offset away
  /// (published minus derived).
  private var peakOffsetCounts: [Int: Int] = [:]
  /// Found only when a figure disagrees: most snapshots have none.
  private var causes: CauseFinder?

  init(
    snapshot: LinkedSnapshot, previous: DecidedSnapshot?, next: LinkedSnapshot?,
    lookup: any ChartHistoryLookup
  ) {
    self.snapshot = snapshot
    self.previous = previous
    self.next = next
    self.lookup = lookup
    publishes = snapshot.publishesPreviousRank
    previousIndices = [Int?](repeating: nil, count: snapshot.entries.count)
    // A snapshot two periods or more after the previous one follows a missing one, whatever its
    // previous ranks say: the archive's previous snapshot is not the one they speak of (the
    // import warns of the date off the chart's rhythm).
    followsMissing =
      previous.map { previous in
        lookup.frequency?.skipsAPeriod(from: previous.snapshot.chartDate, to: snapshot.chartDate)
          ?? false
      } ?? false
    horizon = previous?.snapshot.chartDate ?? snapshot.chartDate
  }

  /// Decides the snapshot's figures.
  mutating func decide() -> DecidedSnapshot {
    trueRanks = ChartFigures.trueRanks(of: snapshot, next: next, frequency: lookup.frequency)
    if let previous, let repeated = compare(with: previous) { return repeated }
    chartSize = max(
      lookup.largestSnapshot(before: horizon), previous?.snapshot.entries.count ?? 0,
      snapshot.entries.count)
    (derived, standings) = countFiguresFromStandings()
    countPeakOffsets()
    var figures: [EntryFigures] = []
    figures.reserveCapacity(derived.count)
    for index in derived.indices { figures.append(giveFigures(at: index)) }
    return DecidedSnapshot(
      snapshot: snapshot, figures: figures, trueRanks: trueRanks,
      followsMissingSnapshot: followsMissing, notes: notes)
  }

  // MARK: - Comparing with the previous snapshot

  /// Compares the snapshot with the chart's previous one: whether the source lost the figures it
  /// published, whether this one repeats it, where each entry's song is on it, and whether the
  /// published previous ranks say that a chart between them is missing.
  ///
  /// - Returns: this snapshot decided, when it repeats the previous one and counts no new week
  ///   (the same chart: the same figures); `nil` when deciding goes on.
  private mutating func compare(with previous: DecidedSnapshot) -> DecidedSnapshot? {
    let entries = snapshot.entries
    if publishes, !previous.snapshot.entries.isEmpty,
      !entries.contains(where: \.publishesAnyFigure),
      previous.snapshot.entries.contains(where: \.publishesAnyFigure)
    {
      publishes = false
      notes.append(.lostPublishedFigures)
    }
    if ChartFigures.isRepeat(snapshot, of: previous.snapshot) {
      // A repeat of the previous snapshot: its one note tells why its previous ranks disagree.
      repeats = true
      let countsNoNewWeek = entries.contains {
        $0.publishedWeeksOnChart != nil || $0.streams != nil
      }
      notes.append(
        .identicalToPrevious(
          previous: previous.snapshot.chartDate, countsNoNewWeek: countsNoNewWeek))
      if countsNoNewWeek {
        return DecidedSnapshot(
          snapshot: snapshot, figures: previous.figures, trueRanks: trueRanks,
          followsMissingSnapshot: previous.followsMissingSnapshot, notes: notes)
      }
    }
    var finder = SongFinder(previous.snapshot)
    for index in entries.indices {
      previousIndices[index] = finder.position(
        of: snapshot.songs[index], hint: entries[index].publishedPreviousRank)
    }
    if publishes {
      let check = ChartFigures.followsMissingSnapshot(
        entries: entries, previousTrueRanks: previous.trueRanks, previousIndices: previousIndices)
      if check.missing, !followsMissing {
        followsMissing = true
        notes.append(
          .previousRanksContradict(
            previous: previous.snapshot.chartDate, disagreeing: check.disagreeing,
            published: check.published))
      }
    }
    return nil
  }

  // MARK: - Counting from the standings

  /// Each entry's previous rank, peak position, weeks on chart and run, counted on from the
  /// song's standing before this snapshot: its entry on the previous snapshot, else its last entry
  /// before that (from the lookup). A song's second entry in the snapshot is counted by
  /// ``secondEntry(at:of:after:)``.
  ///
  /// - Returns: the entries' counts (for ``derived``), and the standings from the lookup, which
  ///   they index (for ``standings``).
  private func countFiguresFromStandings() -> (derived: [Derived], standings: [SongStanding]) {
    // Kept apart from `self` while counting: a method of `self` called between changes of its
    // own arrays would copy it whole.
    var derived: [Derived] = []
    var standings: [SongStanding] = []
    derived.reserveCapacity(snapshot.entries.count)
    var seen = SongLinking.SongSet(capacity: snapshot.entries.count)
    for index in snapshot.entries.indices {
      let song = snapshot.songs[index]
      if seen.contains(song) {
        derived.append(secondEntry(at: index, of: song, after: derived))
        continue
      }
      seen.insert(song)
      let trueRank = trueRanks[index]
      let previousIndex = previousIndices[index]
      var item = Derived(
        previousIndex: previousIndex, trueRank: trueRank,
        derivedPreviousRank: previousIndex.map { previous!.trueRanks[$0] }, peak: trueRank,
        weeks: 1, run: 1)
      if let previousIndex, let previous {
        item.standingDate = previous.snapshot.chartDate
        item.standingFigures = previous.figures[previousIndex]
        item.standingPublishedPeak = previous.snapshot.entries[previousIndex].publishedPeakPosition
        item.standingPublishedWeeks =
          previous.snapshot.entries[previousIndex].publishedWeeksOnChart
        item.standingPublishedRun = previous.snapshot.entries[previousIndex].publishedRun
      } else if let standing = lookup.standing(of: song, before: horizon) {
        item.standingDate = standing.chartDate
        item.standingFigures = standing.figures
        item.standingPublishedPeak = standing.publishedPeakPosition
        item.standingPublishedWeeks = standing.publishedWeeksOnChart
        item.standingPublishedRun = standing.publishedRun
        item.standing = standings.count
        standings.append(standing)
      }
      item.weeks = weeksOnChart(
        at: index, since: item.standingDate,
        archiveWeeks: item.standingFigures?.archiveWeeksOnChart ?? 0)
      if let standing = item.standingFigures {
        item.peak = min(standing.archivePeakPosition, trueRank)
        item.run = standing.archiveRun
      }
      derived.append(item)
    }
    return (derived, standings)
  }

  /// A second entry of one song in one snapshot (two recordings the archive could not tell
  /// apart): paired with the song's next entry on the previous snapshot, in rank order, the week
  /// counted once.
  ///
  /// - Parameter derived: the counts of the entries before it.
  private func secondEntry(at index: Int, of song: SongID, after derived: [Derived]) -> Derived {
    let songs = snapshot.songs
    let trueRank = trueRanks[index]
    let last = derived.indices.last { songs[$0] == song }!
    let pairedBefore = songs[..<index].filter { $0 == song }.count
    let candidates = (previous?.snapshot.songs.indices ?? 0..<0).filter {
      previous!.snapshot.songs[$0] == song
    }
    var item = derived[last]
    item.previousIndex = pairedBefore < candidates.count ? candidates[pairedBefore] : nil
    item.derivedPreviousRank = item.previousIndex.map { previous!.trueRanks[$0] }
    item.trueRank = trueRank
    item.peak = min(derived[last].peak, trueRank)
    return item
  }

  /// The archive's weeks on chart of the entry at `index`: the song's weeks at its standing
  /// (`archiveWeeks`, the archive's own count; 0 for its first entry), one more for this
  /// snapshot, and one more for a chart missing from the archive since the song's last entry
  /// (on `standingDate`) when the source says the song was on it (a previous rank right after it,
  /// or a count of weeks one above the archive's).
  @inline(__always)
  private func weeksOnChart(at index: Int, since standingDate: ChartDate?, archiveWeeks: Int) -> Int
  {
    var unseen = 0
    if let firstMissing = firstMissingSnapshot(after: standingDate) {
      if (firstMissing == snapshot.chartDate
        && snapshot.entries[index].publishedPreviousRank != nil)
        || snapshot.entries[index].publishedWeeksOnChart == archiveWeeks + 2
      {
        unseen = 1
      }
    }
    return archiveWeeks + 1 + unseen
  }

  /// The chart date of the first snapshot after `start` (exclusive; from the chart's first when
  /// `nil`) up to this one that follows a snapshot missing from the archive.
  private func firstMissingSnapshot(after start: ChartDate?) -> ChartDate? {
    let end = previous?.snapshot.chartDate ?? snapshot.chartDate
    if start.map({ $0 < end }) ?? true {
      let earlier = lookup.flaggedSnapshots(from: start, before: end, chartSize: 0).filter {
        $0.followsMissingSnapshot && $0.chartDate != start
      }
      if let first = earlier.first { return first.chartDate }
    }
    if let previous, previous.followsMissingSnapshot,
      start.map({ $0 < previous.snapshot.chartDate }) ?? true
    {
      return previous.snapshot.chartDate
    }
    return followsMissing ? snapshot.chartDate : nil
  }

  /// Counts, into ``peakOffsetCounts``, the small offsets between the published peak and the
  /// derived one of the entries at their derived peak: the snapshot's own ranks are shifted when
  /// several share one.
  private mutating func countPeakOffsets() {
    // Each item's fields are read in place: a copy of an item retains its texts.
    for index in derived.indices {
      let trueRank = derived[index].trueRank
      guard derived[index].peak == trueRank,
        let peak = snapshot.entries[index].publishedPeakPosition, peak != trueRank,
        abs(peak - trueRank) <= 2
      else { continue }
      peakOffsetCounts[peak - trueRank, default: 0] += 1
    }
  }

  // MARK: - Giving the figures

  /// The figures of the entry at `index`: each published figure compared with the archive's, the
  /// previous rank given (the published one, or the archive's where it cannot be right), the
  /// movement, and the peak, weeks and run given (see ``GivenFigures``).
  @inline(__always)
  private mutating func giveFigures(at index: Int) -> EntryFigures {
    // The entry's fields are read in place: a copy of the entry would retain all its texts.
    let publishedPrevious = snapshot.entries[index].publishedPreviousRank
    let publishedPeak = snapshot.entries[index].publishedPeakPosition
    let publishedWeeks = snapshot.entries[index].publishedWeeksOnChart
    let publishedRun = snapshot.entries[index].publishedRun
    let derivedPeak = derived[index].peak
    let derivedWeeks = derived[index].weeks
    let previousVerdict =
      publishes
      ? verdict(
        .previousRank, published: publishedPrevious, derived: derived[index].derivedPreviousRank,
        at: index)
      : nil
    let peakVerdict = publishedPeak.flatMap {
      verdict(.peakPosition, published: $0, derived: derivedPeak, at: index)
    }
    let weeksVerdict = publishedWeeks.flatMap {
      verdict(.weeksOnChart, published: $0, derived: derivedWeeks, at: index)
    }
    let (previousRank, source) = givenPreviousRank(at: index, verdict: previousVerdict)
    let movement = Movement(
      rank: snapshot.entries[index].rank, previousRank: previousRank,
      wasOnChartBefore: derivedWeeks > 1 || snapshot.entries[index].saysChartedBefore)
    // A re-entry starts a new run (the song's first entry starts the first, whatever it is).
    let standingFigures = derived[index].standingFigures
    let archiveRun =
      standingFigures != nil && movement == .reentry ? derived[index].run + 1 : derived[index].run
    let runVerdict = publishedRun.flatMap {
      verdict(.run, published: $0, derived: archiveRun, at: index)
    }
    var given = GivenFigures(
      peak: derivedPeak, weeks: derivedWeeks, run: archiveRun, peakVerdict: peakVerdict,
      weeksVerdict: weeksVerdict, runVerdict: runVerdict)
    given.takeTheSources(peak: publishedPeak, weeks: publishedWeeks, run: publishedRun)
    if let standingFigures, standingFigures.isPartialRun { given.goOn(from: standingFigures) }
    return EntryFigures(
      previousRank: previousRank, previousRankSource: source, movement: movement,
      peakPosition: given.peak, weeksOnChart: given.weeks, run: given.run,
      isPartialRun: given.isPartialRun, previousRankVerdict: previousVerdict,
      peakPositionVerdict: given.peakVerdict, weeksOnChartVerdict: given.weeksVerdict,
      runVerdict: given.runVerdict,
      movementVerdict: movementVerdict(at: index, movement: movement, previous: previousVerdict))
  }

  /// The verdict on the movement the source published beside the entry at `index`, when it
  /// disagrees with the derived one where the archive can tell how the entry moved (see
  /// ``PublishedTrend/canBeChecked(publishesPreviousRank:hasPrevious:)``). The movement follows
  /// from the previous rank: a disagreement has that one's cause when it too disagrees, a source
  /// gap after a missing snapshot, and no explanation otherwise.
  @inline(__always)
  private func movementVerdict(at index: Int, movement: Movement, previous verdict: FigureVerdict?)
    -> FigureVerdict?
  {
    guard let trend = snapshot.entries[index].publishedTrend,
      PublishedTrend.canBeChecked(
        publishesPreviousRank: snapshot.publishesPreviousRank, hasPrevious: previous != nil),
      !trend.agrees(with: movement)
    else { return nil }
    return FigureVerdict(
      derived: nil, cause: verdict?.cause ?? (followsMissing ? .sourceGap : .unexplained))
  }

  /// The previous rank given to the entry at `index`, and where it comes from: the published one
  /// when the source publishes previous ranks, else the archive's. A published one that the
  /// source gives though it says the song is new, that nothing explains (a rank where another
  /// song was, or none where the song was), or that a person's decision contradicts (the song's
  /// entries joined with another's, or split from one: the song is as the person decided), is
  /// corrected to the archive's, with a note (but in a repeat of the previous snapshot, whose one
  /// note tells why).
  ///
  /// - Parameter verdict: the verdict on the published previous rank.
  @inline(__always)
  private mutating func givenPreviousRank(at index: Int, verdict: FigureVerdict?) -> (
    Int?, PreviousRankSource
  ) {
    let published = snapshot.entries[index].publishedPreviousRank
    let derivedPreviousRank = derived[index].derivedPreviousRank
    guard publishes else { return (derivedPreviousRank, .derived) }
    guard let verdict,
      published != nil && snapshot.entries[index].saysFirstWeek || verdict.cause == .unexplained
        || verdict.cause == .joinedByHand
    else { return (published, .published) }
    if !repeats {
      notes.append(
        .correctedPreviousRank(
          rank: snapshot.entries[index].rank, title: snapshot.entries[index].title,
          published: published, given: derivedPreviousRank))
    }
    return (derivedPreviousRank, .corrected)
  }

  /// The verdict on a published figure of the entry at `index`: `nil` when it agrees with the
  /// archive's `value`; otherwise the archive's figure with the cause of the disagreement, the
  /// one of the song's previous entry when the disagreement goes on from it.
  private mutating func verdict(
    _ figure: AuditFigure, published: Int?, derived value: Int?, at index: Int
  ) -> FigureVerdict? {
    guard published != value else { return nil }
    if let cause = continuedCause(of: figure, published: published, derived: value, at: index) {
      return FigureVerdict(derived: value, cause: cause)
    }
    if causes == nil {
      causes = CauseFinder(
        snapshot: snapshot, publishes: publishes, previous: previous, next: next,
        lookup: lookup, horizon: horizon, chartSize: chartSize, followsMissing: followsMissing,
        shiftedPeakOffsets: Set(peakOffsetCounts.filter { $0.value >= 3 }.keys))
    }
    return FigureVerdict(
      derived: value,
      cause: causes!.cause(
        of: snapshot.entries[index], song: snapshot.songs[index],
        trueRank: derived[index].trueRank, since: derived[index].standingDate,
        earlierCredit: figure == .run ? earlierCredit(at: index) : nil,
        previousIndex: derived[index].previousIndex, figure: figure, derived: value))
  }

  /// The cause of the song's previous entry's disagreement on `figure`, when this one goes on
  /// from it: weeks on chart or a run number off by as much as before, or a peak the source still
  /// gives as before while the archive's climbs towards it. The earlier entry's figure is its
  /// published one, or the one given where the source published none (a partial run goes on from
  /// the figures given before). `nil` for a previous rank, and for a disagreement that is new.
  private func continuedCause(
    of figure: AuditFigure, published: Int?, derived value: Int?, at index: Int
  ) -> DisagreementCause? {
    guard let standing = derived[index].standingFigures, let earlier = standing.verdict(on: figure)
    else { return nil }
    let difference = (published ?? 0) - (value ?? 0)
    let goesOn =
      switch figure {
      case .previousRank, .movement: false
      case .weeksOnChart:
        (derived[index].standingPublishedWeeks ?? standing.weeksOnChart) - (earlier.derived ?? 0)
          == difference
      case .run:
        (derived[index].standingPublishedRun ?? standing.run) - (earlier.derived ?? 0)
          == difference
      case .peakPosition:
        (derived[index].standingPublishedPeak ?? standing.peakPosition) == published
      }
    return goesOn ? earlier.cause : nil
  }

  /// The title and artist of the song's entry before the one at `index`, by which a source that
  /// numbers runs numbers them.
  private func earlierCredit(at index: Int) -> (title: String, artist: String)? {
    derived[index].previousIndex.map {
      (previous!.snapshot.entries[$0].title, previous!.snapshot.entries[$0].artist)
    } ?? derived[index].standing.map { (standings[$0].title, standings[$0].artist) }
  }
}

/// The peak position, weeks on chart and run given to an entry, with the verdicts kept beside
/// them: the archive's own counts, or the source's where the archive lacks the start of the
/// song's run.
private struct GivenFigures {
  /// The archive's own counts.
  let derivedPeak: Int
  let derivedWeeks: Int
  let archiveRun: Int
  /// The figures given.
  var peak: Int
  var weeks: Int
  var run: Int
  /// The verdicts on the published figures, and on a figure the source did not publish whose
  /// given one is carried on from a partial run.
  var peakVerdict: FigureVerdict?
  var weeksVerdict: FigureVerdict?
  var runVerdict: FigureVerdict?
  /// Whether a figure given is the source's (see ``EntryFigures/isPartialRun``).
  var isPartialRun = false

  /// The archive's counts, with the verdicts on the published figures.
  init(
    peak: Int, weeks: Int, run: Int, peakVerdict: FigureVerdict?, weeksVerdict: FigureVerdict?,
    runVerdict: FigureVerdict?
  ) {
    derivedPeak = peak
    derivedWeeks = weeks
    archiveRun = run
    self.peak = peak
    self.weeks = weeks
    self.run = run
    self.peakVerdict = peakVerdict
    self.weeksVerdict = weeksVerdict
    self.runVerdict = runVerdict
  }

  /// Takes the source's published figures where they disagree for a source gap and say more than
  /// the archive holds: a better peak, more weeks, a later run.
  @inline(__always)
  mutating func takeTheSources(
    peak publishedPeak: Int?, weeks publishedWeeks: Int?, run publishedRun: Int?
  ) {
    if peakVerdict?.cause == .sourceGap, let published = publishedPeak, published < derivedPeak {
      peak = published
      isPartialRun = true
    }
    if weeksVerdict?.cause == .sourceGap, let published = publishedWeeks, published > derivedWeeks {
      weeks = published
      isPartialRun = true
    }
    if runVerdict?.cause == .sourceGap, let published = publishedRun, published > archiveRun {
      run = published
      isPartialRun = true
    }
  }

  /// Goes on from the figures given to the song's previous entry, whose run the archive lacks the
  /// start of, where this entry's source gives no better (none, or one that disagrees for no cause
  /// found): a peak does not worsen, nor weeks on chart shrink, because one file lacks them or says
  /// otherwise. The archive's own count is kept beside the given one: in the verdict on the
  /// published figure, or, for a figure not published, in a verdict of its cause (which the audit
  /// leaves out: nothing published was compared).
  ///
  /// - Parameter standing: the figures of the song's previous entry, a partial run.
  mutating func goOn(from standing: EntryFigures) {
    let carriedPeak = min(standing.peakPosition, derivedPeak)
    if carriedPeak < peak {
      peak = carriedPeak
      peakVerdict = peakVerdict ?? FigureVerdict(derived: derivedPeak, cause: .sourceGap)
      isPartialRun = true
    }
    let carriedWeeks = standing.weeksOnChart + derivedWeeks - standing.archiveWeeksOnChart
    if carriedWeeks > weeks {
      weeks = carriedWeeks
      weeksVerdict = weeksVerdict ?? FigureVerdict(derived: derivedWeeks, cause: .sourceGap)
      isPartialRun = true
    }
    let carriedRun = standing.run + archiveRun - standing.archiveRun
    if carriedRun > run {
      run = carriedRun
      runVerdict = runVerdict ?? FigureVerdict(derived: archiveRun, cause: .sourceGap)
      isPartialRun = true
    }
  }
}
