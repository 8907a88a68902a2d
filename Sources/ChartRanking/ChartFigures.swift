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
    _ snapshot: LinkedSnapshot, previous: DecidedSnapshot?, next: LinkedSnapshot?,
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
  static func shiftedRanks(of snapshot: LinkedSnapshot, byNext next: LinkedSnapshot) -> [(
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
    of snapshot: LinkedSnapshot, next: LinkedSnapshot?, frequency: ChartFrequency?
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
    _ decided: DecidedSnapshot, next: LinkedSnapshot, frequency: ChartFrequency?
  ) -> Bool {
    decided.figures.contains { $0.peakPositionVerdict != nil }
      || trueRanks(of: decided.snapshot, next: next, frequency: frequency) != decided.trueRanks
  }

  /// Whether two snapshots hold the same entries, every published field included. Two charts of
  /// no entries (a listener's two weeks without plays) are two weeks, not a repeat.
  static func isRepeat(_ snapshot: LinkedSnapshot, of previous: LinkedSnapshot) -> Bool {
    !snapshot.entries.isEmpty && snapshot.entries.count == previous.entries.count
      && snapshot.entries.indices.allSatisfy { snapshot.entries[$0] == previous.entries[$0] }
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
  public static func decideAll(_ snapshots: [LinkedSnapshot], frequency: ChartFrequency? = nil)
    -> [DecidedSnapshot]
  {
    let history = InMemoryChartHistory(frequency: frequency)
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
