/// Where the previous rank the archive gives an entry comes from.
public enum PreviousRankSource: String, CaseIterable, Hashable, Sendable {
  /// The source published it, and nothing in the archive contradicts it (or what does is a
  /// defect of the archive's data: a lost row, shifted ranks, a missing chart, a tie).
  case published
  /// The source publishes none: it is the song's rank on the archive's previous snapshot.
  case derived
  /// The source published one that cannot be right (it says the song is new, or the archive's
  /// previous snapshot has another song there and no defect explains it): the archive's own is
  /// used instead.
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
  /// Where the archive's previous rank disagrees with the published one, and why; `nil` when
  /// they agree or the source publishes none.
  public var previousRankVerdict: FigureVerdict?
  /// Where the archive's peak position disagrees with the published one, and why.
  public var peakPositionVerdict: FigureVerdict?
  /// Where the archive's weeks on chart disagree with the published ones, and why.
  public var weeksOnChartVerdict: FigureVerdict?
  /// Where the archive's run disagrees with the run number the source published, and why.
  public var runVerdict: FigureVerdict?

  /// Figures, as decided or read back from an archive.
  public init(
    previousRank: Int?, previousRankSource: PreviousRankSource, movement: Movement,
    peakPosition: Int, weeksOnChart: Int, run: Int, isPartialRun: Bool = false,
    previousRankVerdict: FigureVerdict? = nil, peakPositionVerdict: FigureVerdict? = nil,
    weeksOnChartVerdict: FigureVerdict? = nil, runVerdict: FigureVerdict? = nil
  ) {
    self.runVerdict = runVerdict
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
    }
  }

  /// Sets the verdict on one figure.
  public mutating func setVerdict(_ verdict: FigureVerdict?, on figure: AuditFigure) {
    switch figure {
    case .previousRank: previousRankVerdict = verdict
    case .peakPosition: peakPositionVerdict = verdict
    case .weeksOnChart: weeksOnChartVerdict = verdict
    case .run: runVerdict = verdict
    }
  }

  /// Whether any published figure disagrees with the archive's.
  public var hasVerdicts: Bool {
    previousRankVerdict != nil || peakPositionVerdict != nil || weeksOnChartVerdict != nil
      || runVerdict != nil
  }
}

/// A song's figures at its last entry on a chart before a snapshot: what deciding its next entry
/// continues from.
public struct SongStanding: Hashable, Sendable {
  /// The chart date of that entry.
  public var chartDate: ChartDate
  /// The peak position the source published with that entry, 1-based, if any.
  public var publishedPeakPosition: Int?
  /// The weeks on chart the source published with that entry, if any.
  public var publishedWeeksOnChart: Int?
  /// The run number the source published with that entry, if any.
  public var publishedRun: Int?
  /// The entry's title and artist, as published: its credit, by which a source that numbers runs
  /// numbers them.
  public var title: String
  public var artist: String
  /// Its figures.
  public var figures: EntryFigures

  /// A standing: the entry's chart date, what the source published of it, and its figures.
  public init(chartDate: ChartDate, entry: ChartEntry, figures: EntryFigures) {
    self.chartDate = chartDate
    publishedPeakPosition = entry.publishedPeakPosition
    publishedWeeksOnChart = entry.publishedWeeksOnChart
    publishedRun = entry.publishedRun
    title = entry.title
    artist = entry.artist
    self.figures = figures
  }
}

/// A chart's earlier snapshot that the source lacks something of: the source's previous chart is
/// missing from the archive, or the snapshot holds fewer entries than the chart's size.
public struct FlaggedSnapshot: Hashable, Sendable {
  /// Its chart date.
  public var chartDate: ChartDate
  /// Whether the source's previous chart is missing from the archive.
  public var followsMissingSnapshot: Bool
  /// How many entries it holds.
  public var entryCount: Int

  /// A flagged snapshot.
  public init(chartDate: ChartDate, followsMissingSnapshot: Bool, entryCount: Int) {
    self.chartDate = chartDate
    self.followsMissingSnapshot = followsMissingSnapshot
    self.entryCount = entryCount
  }
}

/// What deciding a snapshot's figures asks of the chart's earlier snapshots (the archive, or a
/// list in memory). Every question is about the snapshots before a chart date, which
/// ``ChartFigures/decide(_:previous:next:lookup:)`` gives as its previous snapshot's (that one
/// and the snapshot decided are known to it already), so that the answers do not depend on the
/// order snapshots were imported in, nor on later ones.
public protocol ChartHistoryLookup {
  /// The song's last entry on the chart before `chartDate`, or `nil` when it has none.
  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding?
  /// The chart's snapshots from `start` (the first ever when `nil`) and before `end`, those that
  /// follow a missing snapshot or hold fewer than `chartSize` entries, in chart-date order.
  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  /// The most entries a snapshot of the chart before `chartDate` holds (0 for none).
  func largestSnapshot(before chartDate: ChartDate) -> Int
  /// The chart's songs with an entry before `chartDate` whose entries have this identity.
  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID>
  /// The chart's songs with an entry before `chartDate` of this base title and lead artist (see
  /// ``SongIdentity/baseTitle(_:)`` and ``SongIdentity/primaryArtist(_:)``).
  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID>
  /// The ranks the song had on charts missing from the archive before `chartDate`: its
  /// published previous ranks on the snapshots that follow one.
  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int>
  /// How often the chart is published, when known: a snapshot two periods or more after its
  /// previous one follows a missing snapshot (see ``ChartFrequency/skipsAPeriod(from:to:)``).
  var frequency: ChartFrequency? { get }
}

/// A snapshot with the figures decided for its entries.
public struct DecidedSnapshot: Sendable {
  /// The snapshot.
  public var snapshot: AuditedSnapshot
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
    snapshot: AuditedSnapshot, figures: [EntryFigures], trueRanks: [Int],
    followsMissingSnapshot: Bool, notes: [ChartFigures.Note]
  ) {
    self.snapshot = snapshot
    self.figures = figures
    self.trueRanks = trueRanks
    self.followsMissingSnapshot = followsMissingSnapshot
    self.notes = notes
  }
}

/// Decides every entry's figures, one snapshot of a chart at a time in chart-date order: the one
/// place where previous rank, movement, peak position, weeks on chart and the run are computed,
/// with the audit's verdict on each published figure.
///
/// Rules (those Billboard documents for the Hot 100, applied to any chart):
/// - The archive's previous rank is the song's rank on the chart's previous snapshot, as the
///   source meant it (see ``DecidedSnapshot/trueRanks``); the one given is the published one when
///   the source publishes previous ranks, unless it cannot be right (``PreviousRankSource``).
/// - Movement: see ``Movement``; a song without a previous rank is a re-entry when it was on an
///   earlier snapshot of the chart, or when the source says it has been on the chart for more than
///   one week (``ChartEntry/saysChartedBefore``).
/// - Peak position: the best rank up to and including the chart date, never a later one.
/// - Weeks on chart: the snapshots the song was on up to and including the chart date, across
///   re-entries; a chart missing from the archive counts when the source says the song was on
///   it.
/// - A snapshot whose entries are all those of the previous one, published weeks on chart or
///   streams included, is that chart saved again under another date: it counts no new week.
/// - A snapshot whose source gives no previous rank, peak or weeks for any entry, after
///   snapshots that had them, lost them: its movements are derived.
/// - Run: the song's first entry on the chart starts its first run; each later entry whose
///   movement is a re-entry starts the next. A run number the source publishes (the "Hot Stuff"
///   dataset's `instance`) is compared with it as the other figures are.
///
/// Each published figure that disagrees with the archive's gets a cause, found in the data (see
/// ``DisagreementCause``); a disagreement carried over from the song's previous entry (weeks on
/// chart off by as much, a peak the source keeps giving while the archive's climbs towards it)
/// keeps its cause.
public enum ChartFigures {
  /// Something about a snapshot that an import should report.
  public enum Note: Hashable, Sendable {
    /// Most published previous ranks (`disagreeing` of `published`) disagree with the archive's
    /// previous snapshot of `previous`: a chart between them is missing, or one of them holds
    /// another date's chart.
    case previousRanksContradict(previous: ChartDate, disagreeing: Int, published: Int)
    /// Every entry is the previous snapshot's (of `previous`): the same chart saved under two
    /// dates; when the source publishes weeks on chart or streams, it counts no new week.
    case identicalToPrevious(previous: ChartDate, countsNoNewWeek: Bool)
    /// The source publishes previous ranks but gave none, nor a peak or weeks on chart, for any
    /// entry, after snapshots that had them: the movements are derived.
    case lostPublishedFigures
    /// An entry's published previous rank cannot be right and the archive's is given instead;
    /// `published` is `nil` when the source said the song was not on the previous chart.
    case correctedPreviousRank(rank: Int, title: String, published: Int?, given: Int?)
  }

  /// Decides a snapshot's figures.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot, its entries in rank order with their songs.
  ///   - previous: the chart's previous snapshot, decided with this one as its next; `nil` for the
  ///     chart's first.
  ///   - next: the chart's next snapshot when it is known: its published previous ranks say
  ///     whether this one's ranks are shifted, and explain some disagreements. Deciding again
  ///     when it arrives may change this snapshot's figures.
  ///   - lookup: the chart's snapshots before `previous`.
  /// - Returns: the figures.
  public static func decide(
    _ snapshot: AuditedSnapshot, previous: DecidedSnapshot?, next: AuditedSnapshot?,
    lookup: some ChartHistoryLookup
  ) -> DecidedSnapshot {
    var decider = Decider(snapshot: snapshot, previous: previous, next: next, lookup: lookup)
    return decider.decide()
  }

  /// The runs of a snapshot's file ranks that the next snapshot's published previous ranks say
  /// are off by the same offset (1 or 2 either way), for two or more entries in a row: a lost row
  /// whose ranks below were taken from row order, or ranks the source shifted.
  ///
  /// - Returns: the runs of file ranks and their offsets (true minus file rank).
  static func shiftedRanks(of snapshot: AuditedSnapshot, byNext next: AuditedSnapshot) -> [(
    ranks: ClosedRange<Int>, offset: Int
  )] {
    guard next.publishesPreviousRank else { return [] }
    var finder = SongFinder(snapshot)
    var pairs: [(rank: Int, offset: Int)] = []
    pairs.reserveCapacity(next.entries.count)
    for index in next.entries.indices {
      guard let published = next.entries[index].publishedPreviousRank,
        let position = finder.position(of: next.songs[index], hint: published)
      else { continue }
      let rank = snapshot.entries[position].rank
      pairs.append((rank, published - rank))
    }
    // Most snapshots: every previous rank is the file's rank.
    guard pairs.contains(where: { $0.offset != 0 }) else { return [] }
    let sorted = pairs.sorted { $0.rank < $1.rank }
    var runs: [(ranks: ClosedRange<Int>, offset: Int)] = []
    var start = sorted.startIndex
    while start < sorted.endIndex {
      var end = start + 1
      while end < sorted.endIndex, sorted[end].offset == sorted[start].offset { end += 1 }
      let offset = sorted[start].offset
      if offset != 0, abs(offset) <= 2, end - start >= 2 {
        runs.append((sorted[start].rank...sorted[end - 1].rank, offset))
      }
      start = end
    }
    return runs
  }

  /// Whether the source's previous chart of a snapshot is missing from the archive: most of its
  /// published previous ranks (five at least) disagree with the previous snapshot's ranks (as the
  /// source meant them), with no common offset (that would be a rank shift).
  ///
  /// - Parameters:
  ///   - entries: the snapshot's entries.
  ///   - previousTrueRanks: the previous snapshot's ranks as the source meant them.
  ///   - previousIndices: each entry's song's first entry on the previous snapshot, if any.
  /// - Returns: the verdict, and how many published previous ranks disagree of how many.
  static func followsMissingSnapshot(
    entries: [ChartEntry], previousTrueRanks: [Int], previousIndices: [Int?]
  ) -> (missing: Bool, disagreeing: Int, published: Int) {
    var published = 0
    var disagreeing = 0
    var offsets: [Int: Int] = [:]
    for index in entries.indices {
      guard let rank = entries[index].publishedPreviousRank else { continue }
      published += 1
      let derived = previousIndices[index].map { previousTrueRanks[$0] }
      guard derived != rank else { continue }
      disagreeing += 1
      if let derived, abs(rank - derived) <= 2 { offsets[rank - derived, default: 0] += 1 }
    }
    let largestRun = offsets.values.max() ?? 0
    let missing = disagreeing >= 5 && disagreeing * 2 > published && largestRun * 2 < disagreeing
    return (missing, disagreeing, published)
  }

  /// The ranks of a snapshot as the source meant them, given its next snapshot: its file ranks,
  /// corrected where the next snapshot's published previous ranks say a run of them is off (see
  /// ``shiftedRanks(of:byNext:)``), unless the next one follows a missing snapshot. The next
  /// snapshot's previous ranks speak of another chart, and say nothing of this one's ranks, when
  /// it repeats this one (the same chart saved under two dates: they are this one's previous
  /// ranks) or when it comes a period or more after it for the chart's `frequency` (the chart
  /// between them is missing from the archive; see ``ChartFrequency/skipsAPeriod(from:to:)``).
  /// `frequency` is `nil` for a chart whose frequency is not known; every caller gives it, so
  /// that deciding and reading back a snapshot's ranks agree.
  public static func trueRanks(
    of snapshot: AuditedSnapshot, next: AuditedSnapshot?, frequency: ChartFrequency?
  ) -> [Int] {
    let ranks = snapshot.entries.map(\.rank)
    guard let next, !isRepeat(next, of: snapshot),
      !(frequency?.skipsAPeriod(from: snapshot.chartDate, to: next.chartDate) ?? false)
    else { return ranks }
    let runs = shiftedRanks(of: snapshot, byNext: next)
    guard !runs.isEmpty else { return ranks }
    let shifted = ranks.map { rank in
      rank + (runs.first { $0.ranks.contains(rank) }?.offset ?? 0)
    }
    // The previous ranks right after a missing chart speak of that chart, not of this one.
    var finder = SongFinder(snapshot)
    let previousIndices = next.entries.indices.map {
      finder.position(of: next.songs[$0], hint: next.entries[$0].publishedPreviousRank)
    }
    if followsMissingSnapshot(
      entries: next.entries, previousTrueRanks: shifted, previousIndices: previousIndices
    ).missing {
      return ranks
    }
    return shifted
  }

  /// Whether a decided snapshot, decided before its next one was known, must be decided again now
  /// that it is: the next one says some of its ranks are shifted, or one of its peaks disagrees
  /// (whose cause the next one may tell). Otherwise its figures stand.
  ///
  /// - Parameter frequency: the chart's, when known (see ``trueRanks(of:next:frequency:)``):
  ///   given by every caller, so that no two places read a snapshot's ranks differently.
  public static func mustDecideAgain(
    _ decided: DecidedSnapshot, next: AuditedSnapshot, frequency: ChartFrequency?
  ) -> Bool {
    decided.figures.contains { $0.peakPositionVerdict != nil }
      || trueRanks(of: decided.snapshot, next: next, frequency: frequency) != decided.trueRanks
  }

  /// Whether two snapshots hold the same entries, every published field included.
  static func isRepeat(_ snapshot: AuditedSnapshot, of previous: AuditedSnapshot) -> Bool {
    snapshot.entries.count == previous.entries.count
      && snapshot.entries.indices.allSatisfy { snapshot.entries[$0] == previous.entries[$0] }
  }
}

/// Where each song of a snapshot is in it: built when an entry is not found the fast way (by the
/// rank its next snapshot's entry says it had), an open-addressing table with a multiplicative
/// hash, cheaper than `Dictionary`'s seeded SipHash for a few hundred integer keys.
struct SongPositions {
  private var keys: [Int64]
  private var values: [Int32]
  private let shift: UInt64

  /// The first position of each of `songs`.
  init(_ songs: [SongID]) {
    var size = 16
    while size < songs.count * 2 { size *= 2 }
    keys = Array(repeating: .min, count: size)
    values = Array(repeating: -1, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
    for index in songs.indices {
      let song = songs[index].rawValue
      var slot = self.slot(of: song)
      while keys[slot] != .min, keys[slot] != song { slot = (slot + 1) & (keys.count - 1) }
      if keys[slot] == .min {
        keys[slot] = song
        values[slot] = Int32(index)
      }
    }
  }

  private func slot(of song: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: song) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The first position of `song`, or `nil`.
  func position(of song: SongID) -> Int? {
    var slot = slot(of: song.rawValue)
    while keys[slot] != .min {
      if keys[slot] == song.rawValue { return Int(values[slot]) }
      slot = (slot + 1) & (keys.count - 1)
    }
    return nil
  }
}

/// Finds a song's entry in a snapshot: first at the rank an entry says the song had there (most
/// entries of a chart that publishes previous ranks), else through ``SongPositions``, built once
/// when first needed.
struct SongFinder {
  let snapshot: AuditedSnapshot
  private var positions: SongPositions?

  init(_ snapshot: AuditedSnapshot) { self.snapshot = snapshot }

  /// The position of `song`'s first entry, trying the entry at `rank` first.
  mutating func position(of song: SongID, hint rank: Int?) -> Int? {
    if let rank {
      // Ranks run 1, 2, 3 … in most snapshots: the entry at a rank is at its rank's position.
      let guess = rank - 1
      if guess >= 0, guess < snapshot.entries.count, snapshot.entries[guess].rank == rank,
        snapshot.songs[guess] == song
      {
        return guess
      }
    }
    if positions == nil { positions = SongPositions(snapshot.songs) }
    return positions?.position(of: song)
  }
}

/// The work of deciding one snapshot, in the steps of ``decide()``: compare it with the chart's
/// previous snapshot, count each entry's figures on from the song's standing before it, then give
/// each entry its figures, with a verdict on each published one that disagrees.
///
/// Not generic over the lookup: a generic type instantiated from another module looks its
/// metadata up at run time on every use, which an import does for every snapshot. The steps of
/// each entry are inlined (`@inline(__always)`): called apart, they cost deciding some 4 % more
/// instructions.
private struct Decider {
  let snapshot: AuditedSnapshot
  let previous: DecidedSnapshot?
  let next: AuditedSnapshot?
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
    snapshot: AuditedSnapshot, previous: DecidedSnapshot?, next: AuditedSnapshot?,
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
      runVerdict: given.runVerdict)
  }

  /// The previous rank given to the entry at `index`, and where it comes from: the published one
  /// when the source publishes previous ranks, else the archive's. A published one that the
  /// source gives though it says the song is new, or that nothing explains (a rank where another
  /// song was, or none where the song was), is corrected to the archive's, with a note (but in a
  /// repeat of the previous snapshot, whose one note tells why).
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
        previousIndex: derived[index].previousIndex, figure: figure))
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
      case .previousRank: false
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

/// Finds, from the data, why a derived figure differs from the published one.
private struct CauseFinder {
  let snapshot: AuditedSnapshot
  let publishes: Bool
  let previous: DecidedSnapshot?
  let next: AuditedSnapshot?
  let lookup: any ChartHistoryLookup
  /// The chart date before which the lookup answers: the previous snapshot's.
  let horizon: ChartDate
  let chartSize: Int
  let followsMissing: Bool
  /// The offsets (published minus derived peak) shared by several entries at their derived peak:
  /// the snapshot's own ranks are shifted.
  let shiftedPeakOffsets: Set<Int>
  /// The published previous ranks claimed by more than one entry.
  let tiedRanks: Set<Int>
  /// The offsets (published minus derived previous rank) shared by a run of entries.
  let shiftedOffsets: Set<Int>

  init(
    snapshot: AuditedSnapshot, publishes: Bool, previous: DecidedSnapshot?,
    next: AuditedSnapshot?, lookup: any ChartHistoryLookup, horizon: ChartDate, chartSize: Int,
    followsMissing: Bool, shiftedPeakOffsets: Set<Int>
  ) {
    self.horizon = horizon
    self.snapshot = snapshot
    self.publishes = publishes
    self.previous = previous
    self.next = next
    self.lookup = lookup
    self.chartSize = chartSize
    self.followsMissing = followsMissing
    self.shiftedPeakOffsets = shiftedPeakOffsets
    recentEntries = RecentEntries([previous?.snapshot, snapshot].compactMap(\.self))
    var claims: [Int: Int] = [:]
    var offsets: [Int: Int] = [:]
    var ties: Set<Int> = []
    var shifts: Set<Int> = []
    if let previous, publishes {
      var previousRanks: [SongID: Int] = [:]
      for index in previous.snapshot.songs.indices
      where previousRanks[previous.snapshot.songs[index]] == nil {
        previousRanks[previous.snapshot.songs[index]] = previous.trueRanks[index]
      }
      for index in snapshot.entries.indices {
        guard let rank = snapshot.entries[index].publishedPreviousRank else { continue }
        claims[rank, default: 0] += 1
        if let derived = previousRanks[snapshot.songs[index]], derived != rank {
          offsets[rank - derived, default: 0] += 1
        }
      }
      ties = Set(claims.filter { $0.value > 1 }.keys)
      shifts = Set(offsets.filter { abs($0.key) <= 2 && $0.value >= 3 }.keys)
    }
    tiedRanks = ties
    shiftedOffsets = shifts
  }

  /// Whether a song the previous snapshot holds at `derivedPrevious` (or lacks, `nil`) can have
  /// been tied at `rank`: songs tied at a rank are listed next to each other, two or three of
  /// them (the source numbering the tie by the first or the last of their places), or one of them
  /// is left out.
  static func couldBeTied(at rank: Int, _ derivedPrevious: Int?) -> Bool {
    derivedPrevious.map { abs($0 - rank) <= 2 } ?? true
  }

  static func titleKey(_ entry: ChartEntry) -> String {
    SongIdentity.baseTitle(entry.title) + "\u{1F}" + SongIdentity.primaryArtist(entry.artist)
  }

  /// The keys of this snapshot's entries and the previous one's, with their songs, made when
  /// first asked for: a snapshot whose entries all disagree (the first of a chart whose source
  /// counts weeks from before it) asks for them once per entry.
  private final class RecentEntries {
    let snapshots: [AuditedSnapshot]
    lazy var identities: [(identity: SongIdentity, song: SongID)] = snapshots.flatMap { snapshot in
      snapshot.entries.indices.map { (snapshot.entries[$0].songIdentity, snapshot.songs[$0]) }
    }
    lazy var titleKeys: [(key: String, song: SongID)] = snapshots.flatMap { snapshot in
      snapshot.entries.indices.map {
        (CauseFinder.titleKey(snapshot.entries[$0]), snapshot.songs[$0])
      }
    }

    init(_ snapshots: [AuditedSnapshot]) { self.snapshots = snapshots }
  }

  /// This snapshot's entries and the previous one's.
  private let recentEntries: RecentEntries

  /// The chart's songs, up to this snapshot, whose entries have this one's identity.
  private func songs(withIdentityOf entry: ChartEntry) -> Set<SongID> {
    let identity = entry.songIdentity
    var songs = lookup.songs(withIdentity: identity, before: horizon)
    for other in recentEntries.identities where other.identity == identity {
      songs.insert(other.song)
    }
    return songs
  }

  /// The chart's songs, up to this snapshot, whose entries have this one's base title and lead
  /// artist.
  private func songs(withTitleOf entry: ChartEntry) -> Set<SongID> {
    let key = Self.titleKey(entry)
    var songs = lookup.songs(withTitleKey: key, before: horizon)
    for other in recentEntries.titleKeys where other.key == key { songs.insert(other.song) }
    return songs
  }

  /// Whether no song but the entry's has its title on the chart before this snapshot, nor on it:
  /// nothing the archive holds explains what the source counted before the entry. On the chart's
  /// first snapshot in the archive nothing is earlier: two recordings of one title there (one in
  /// its second week, one debuting) each say what the archive lacks.
  private func nothingEarlierHasTheTitle(of entry: ChartEntry) -> Bool {
    previous == nil || songs(withTitleOf: entry).count <= 1
  }

  /// The cause of a disagreement that appears at this snapshot, looked for in this order: a gap
  /// in the archive's snapshots around the entry, what explains a peak or a previous rank in
  /// particular, then a tie, a first entry counted from before the archive, two recordings and a
  /// change of credit. ``DisagreementCause/unexplained`` when nothing does.
  ///
  /// - Parameters:
  ///   - entry: the entry.
  ///   - song: its song.
  ///   - trueRank: its rank as the source meant it.
  ///   - since: the chart date of the song's previous entry, or `nil` for its first.
  ///   - earlierCredit: the title and artist of the song's previous entry, for a run number
  ///     (whose source numbers the runs of each title and artist); `nil` otherwise.
  ///   - previousIndex: the index of the song's entry on the previous snapshot, if it is there.
  ///   - figure: the figure that disagrees.
  func cause(
    of entry: ChartEntry, song: SongID, trueRank: Int, since: ChartDate?,
    earlierCredit: (title: String, artist: String)?, previousIndex: Int?, figure: AuditFigure
  ) -> DisagreementCause {
    // A previous rank that names an entry of the previous snapshot, which the archive holds:
    // neither this snapshot being short nor weeks the archive lacks before it explain another
    // song there. (One past the previous snapshot's ranks speaks of another chart, missing.)
    let checksPrevious =
      figure == .previousRank
      && entry.publishedPreviousRank.map { previous?.trueRanks.contains($0) ?? false } ?? false
    if hasGap(since: since, checksPrevious: checksPrevious) { return .sourceGap }
    if figure == .peakPosition, let peak = entry.publishedPeakPosition,
      let cause = peakCause(of: entry, peak: peak, song: song, trueRank: trueRank, since: since)
    {
      return cause
    }
    let derivedPrevious = previousIndex.map { previous!.trueRanks[$0] }
    if figure == .previousRank, let rank = entry.publishedPreviousRank,
      let cause = previousRankCause(
        rank, derivedPrevious: derivedPrevious, previousIndex: previousIndex)
    {
      return cause
    }
    // A tie at the previous rank the source gives: the dropped one of two tied songs.
    if let rank = entry.publishedPreviousRank, tiedRanks.contains(rank), derivedPrevious != rank,
      Self.couldBeTied(at: rank, derivedPrevious)
    {
      return .tie
    }
    // The song's first entry says it charted before (its weeks on chart, or a run number past
    // its first), and nothing earlier has its title: the source counts weeks or runs the archive
    // does not hold.
    if since == nil, !checksPrevious, entry.saysChartedBefore || (entry.publishedRun ?? 1) > 1,
      nothingEarlierHasTheTitle(of: entry)
    {
      return .sourceGap
    }
    if songs(withIdentityOf: entry).count > 1 { return .twoRecordings }
    if songs(withTitleOf: entry).count > 1 { return .creditChange }
    if isCreditChange(of: entry, figure: figure, earlierCredit: earlierCredit) {
      return .creditChange
    }
    // The chart's first snapshot in the archive: the one its previous ranks speak of is not
    // there, so they cannot be checked (a chart app's feed imported from one day on).
    if figure == .previousRank, previous == nil { return .sourceGap }
    return .unexplained
  }

  /// Whether the archive lacks snapshots around the entry: this snapshot is short (unless the
  /// figure is a previous rank that names an entry of the previous snapshot) or follows a missing
  /// one, or one between the song's previous entry (the previous snapshot, for its first) and
  /// this one is.
  ///
  /// - Parameters:
  ///   - since: the chart date of the song's previous entry, or `nil` for its first.
  ///   - checksPrevious: whether the figure is a previous rank naming an entry of the previous
  ///     snapshot.
  private func hasGap(since: ChartDate?, checksPrevious: Bool) -> Bool {
    if followsMissing || snapshot.entries.count < chartSize && !checksPrevious { return true }
    guard let previous else { return false }
    let start = since ?? previous.snapshot.chartDate
    if start <= previous.snapshot.chartDate,
      previous.followsMissingSnapshot || previous.snapshot.entries.count < chartSize
    {
      return true
    }
    // `since` itself, or one after it before the previous snapshot.
    return start < previous.snapshot.chartDate
      && !lookup.flaggedSnapshots(
        from: start, before: previous.snapshot.chartDate, chartSize: chartSize
      ).isEmpty
  }

  /// What explains a published peak that disagrees, if anything peaks alone tell: a peak
  /// reached before the archive's first entry of the song, ranks shifted (the snapshot's, or one
  /// entry misranked), or a peak reached on a chart missing from the archive.
  private func peakCause(
    of entry: ChartEntry, peak: Int, song: SongID, trueRank: Int, since: ChartDate?
  ) -> DisagreementCause? {
    // The song's first entry in the archive, which the source says charted before, with a
    // better peak than its rank: reached on a chart the archive lacks, whatever the offset
    // (a chart app's first imported week, several songs two places above their peaks).
    if since == nil, entry.saysChartedBefore, peak < trueRank,
      nothingEarlierHasTheTitle(of: entry)
    {
      return .sourceGap
    }
    if shiftedPeakOffsets.contains(peak - trueRank) { return .rankShift }
    // One entry misranked: the source's own peak and its next previous rank agree on a rank
    // one or two away from the file's.
    if peak != trueRank, abs(peak - trueRank) <= 2,
      let next, let index = next.songs.firstIndex(of: song),
      next.entries[index].publishedPreviousRank == peak
    {
      return .rankShift
    }
    // The peak was reached on a chart missing from the archive.
    var missingRanks = lookup.ranksOnMissingSnapshots(of: song, before: horizon)
    if let previous, previous.followsMissingSnapshot,
      let index = previous.snapshot.songs.firstIndex(of: song),
      let rank = previous.snapshot.entries[index].publishedPreviousRank
    {
      missingRanks.insert(rank)
    }
    if followsMissing, let rank = entry.publishedPreviousRank { missingRanks.insert(rank) }
    return missingRanks.contains(peak) ? .sourceGap : nil
  }

  /// What explains a published previous rank that disagrees, if anything previous ranks alone
  /// tell: ranks shifted, a tie (at the rank, or on the previous snapshot), or the entry misranked
  /// on the previous snapshot.
  ///
  /// - Parameters:
  ///   - rank: the published previous rank.
  ///   - derivedPrevious: the song's rank on the previous snapshot, as the source meant it.
  ///   - previousIndex: the index of the song's entry on the previous snapshot, if it is there.
  private func previousRankCause(_ rank: Int, derivedPrevious: Int?, previousIndex: Int?)
    -> DisagreementCause?
  {
    // A shift first: its last shifted entry also claims a rank another entry claims.
    if let derivedPrevious, shiftedOffsets.contains(rank - derivedPrevious) { return .rankShift }
    // A tie: the song was one of two or three at that rank, which the source listed next to
    // each other (or left one out). A song the previous snapshot holds further away was not
    // tied there, whoever else claims the rank.
    if tiedRanks.contains(rank), Self.couldBeTied(at: rank, derivedPrevious) { return .tie }
    // Songs tied on the previous snapshot (`=2`, `=2`) took the places from their rank on, one
    // each, which the source may give as their previous ranks (2 and 3).
    if let derivedPrevious, let previous, rank > derivedPrevious,
      rank < derivedPrevious + previous.trueRanks.filter({ $0 == derivedPrevious }).count
    {
      return .tie
    }
    // One entry misranked on the previous snapshot: its published peak there says the same.
    if let derivedPrevious, let previousIndex, abs(rank - derivedPrevious) <= 2,
      previous!.snapshot.entries[previousIndex].publishedPeakPosition == rank
    {
      return .rankShift
    }
    return nil
  }

  /// Whether a disagreement is a change of the song's credit that the song and title lookups do
  /// not see: a run numbered afresh where the archive joined the song across a change of its
  /// credit (the song's entry before this one had its title or artist written otherwise: the
  /// source numbers the runs of each title and artist as written, "JENNIE" apart from "Jennie"),
  /// or a previous rank at which the entry there (or one of those tied there) has this title, or
  /// this title before any parenthesis (a subtitle added with the artists written in another
  /// order: "Ever Since U Left Me" by Max B & French Montana, then "Ever Since U Left Me (I Went
  /// Deaf)" by French Montana & Max B).
  private func isCreditChange(
    of entry: ChartEntry, figure: AuditFigure, earlierCredit: (title: String, artist: String)?
  ) -> Bool {
    if figure == .run, let earlierCredit,
      earlierCredit.title != entry.title || earlierCredit.artist != entry.artist
    {
      return true
    }
    guard figure == .previousRank, let rank = entry.publishedPreviousRank, let previous else {
      return false
    }
    return previous.snapshot.entries.contains {
      $0.rank == rank
        && (SongIdentity.fold($0.title) == SongIdentity.fold(entry.title)
          || SongIdentity.baseTitle($0.title) == SongIdentity.baseTitle(entry.title))
    }
  }
}

extension ChartFigures {
  /// Decides the figures of a chart's snapshots from nothing but themselves, each with its next
  /// one known.
  ///
  /// - Parameters:
  ///   - snapshots: every snapshot of the chart, in chart-date order.
  ///   - frequency: how often the chart is published, when known (see
  ///     ``ChartHistoryLookup/frequency``): the chart's stored frequency, to decide as an import
  ///     does (without it, a snapshot after a skipped period is not known to follow a missing one).
  /// - Returns: the decided snapshots, same order.
  public static func decideAll(_ snapshots: [AuditedSnapshot], frequency: ChartFrequency? = nil)
    -> [DecidedSnapshot]
  {
    let history = HistoryInMemory(frequency: frequency)
    var decided: [DecidedSnapshot] = []
    decided.reserveCapacity(snapshots.count)
    for (index, snapshot) in snapshots.enumerated() {
      let item = decide(
        snapshot, previous: decided.last,
        next: index + 1 < snapshots.count ? snapshots[index + 1] : nil, lookup: history)
      // What the snapshot before it adds to the history: it is the next one's previous no more.
      if let last = decided.last { history.add(last) }
      decided.append(item)
    }
    return decided
  }
}

/// A chart's decided snapshots in memory, answering what deciding the next one asks.
final class HistoryInMemory: ChartHistoryLookup {
  let frequency: ChartFrequency?
  private var standings: [SongID: SongStanding] = [:]
  private var flagged: [FlaggedSnapshot] = []
  private var sizes: [(chartDate: ChartDate, entryCount: Int)] = []
  private var largest = 0
  private var byIdentity: [SongIdentity: Set<SongID>] = [:]
  private var byTitle: [String: Set<SongID>] = [:]
  private var ranksOnMissing: [SongID: Set<Int>] = [:]

  init(frequency: ChartFrequency?) { self.frequency = frequency }

  /// Adds a decided snapshot, later than every one added before.
  func add(_ decided: DecidedSnapshot) {
    let snapshot = decided.snapshot
    for index in snapshot.entries.indices
    where standings[snapshot.songs[index]]?.chartDate != snapshot.chartDate {
      let entry = snapshot.entries[index]
      let song = snapshot.songs[index]
      standings[song] = SongStanding(
        chartDate: snapshot.chartDate, entry: entry, figures: decided.figures[index])
      byIdentity[entry.songIdentity, default: []].insert(song)
      byTitle[
        SongIdentity.baseTitle(entry.title) + "\u{1F}" + SongIdentity.primaryArtist(entry.artist),
        default: []
      ].insert(song)
      if decided.followsMissingSnapshot, let rank = entry.publishedPreviousRank {
        ranksOnMissing[song, default: []].insert(rank)
      }
    }
    largest = max(largest, snapshot.entries.count)
    flagged.append(
      FlaggedSnapshot(
        chartDate: snapshot.chartDate, followsMissingSnapshot: decided.followsMissingSnapshot,
        entryCount: snapshot.entries.count))
  }

  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding? {
    standings[song].flatMap { $0.chartDate < chartDate ? $0 : nil }
  }

  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  {
    flagged.filter { item in
      (start.map { item.chartDate >= $0 } ?? true) && item.chartDate < end
        && (item.followsMissingSnapshot || item.entryCount < chartSize)
    }
  }

  func largestSnapshot(before chartDate: ChartDate) -> Int { largest }

  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID> {
    byIdentity[identity] ?? []
  }

  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID> {
    byTitle[key] ?? []
  }

  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int> {
    ranksOnMissing[song] ?? []
  }
}
