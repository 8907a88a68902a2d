/// Finds, from the data, why a derived figure differs from the published one.
struct CauseFinder {
  let snapshot: LinkedSnapshot
  let publishes: Bool
  let previous: DecidedSnapshot?
  let next: LinkedSnapshot?
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
    snapshot: LinkedSnapshot, publishes: Bool, previous: DecidedSnapshot?,
    next: LinkedSnapshot?, lookup: any ChartHistoryLookup, horizon: ChartDate, chartSize: Int,
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
    handDecided = HandDecidedSongs(
      snapshot: snapshot, previous: previous?.snapshot, lookup: lookup, horizon: horizon)
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
    let snapshots: [LinkedSnapshot]
    lazy var identities: [(identity: SongIdentity, song: SongID)] = snapshots.flatMap { snapshot in
      snapshot.entries.indices.map { (snapshot.entries[$0].songIdentity, snapshot.songs[$0]) }
    }
    lazy var titleKeys: [(key: String, song: SongID)] = snapshots.flatMap { snapshot in
      snapshot.entries.indices.map {
        (CauseFinder.titleKey(snapshot.entries[$0]), snapshot.songs[$0])
      }
    }

    init(_ snapshots: [LinkedSnapshot]) { self.snapshots = snapshots }
  }

  /// This snapshot's entries and the previous one's.
  private let recentEntries: RecentEntries

  /// The chart's songs whose entries a person's merges joined, or splits parted from the entries
  /// before, on the chart at or before this snapshot: found when first asked for, from the
  /// entries the decisions name (those of this snapshot and the previous one found on them, the
  /// earlier ones by the lookup).
  private final class HandDecidedSongs {
    let snapshot: LinkedSnapshot
    let previous: LinkedSnapshot?
    let lookup: any ChartHistoryLookup
    let horizon: ChartDate
    /// The songs holding two or more of one merge's entries (the first entries on the chart of
    /// two of its songs), and those holding a split's entry (the first of the other song).
    lazy var songs: (joined: Set<SongID>, split: Set<SongID>) = find()

    init(
      snapshot: LinkedSnapshot, previous: LinkedSnapshot?, lookup: any ChartHistoryLookup,
      horizon: ChartDate
    ) {
      self.snapshot = snapshot
      self.previous = previous
      self.lookup = lookup
      self.horizon = horizon
    }

    private func find() -> (joined: Set<SongID>, split: Set<SongID>) {
      var joined: Set<SongID> = []
      var split: Set<SongID> = []
      // Per merge, per song, which of the merge's songs' first entries it holds.
      var groups: [Int: [SongID: Set<Int>]] = [:]
      for named in lookup.handDecidedEntries where named.chartDate <= snapshot.chartDate {
        guard let song = song(holding: named) else { continue }
        switch named.kind {
        case .split:
          split.insert(song)
        case .merge:
          groups[named.decision, default: [:]][song, default: []].insert(named.group)
          if (groups[named.decision]?[song]?.count ?? 0) > 1 { joined.insert(song) }
        }
      }
      return (joined, split)
    }

    /// The song holding an entry a decision names, dated at or before this snapshot.
    private func song(holding named: HandDecidedEntry) -> SongID? {
      let known = [snapshot, previous].compactMap(\.self).first {
        $0.chartDate == named.chartDate
      }
      if let known { return known.entries.firstIndex(where: named.names).map { known.songs[$0] } }
      return lookup.song(holding: named, before: horizon)
    }
  }

  private let handDecided: HandDecidedSongs

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
  /// in the archive's snapshots around the entry, a person's decision that joined or split the
  /// song (see ``isJoinedByHand(_:song:figure:derived:)``), what explains a peak or a previous rank in
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
  ///   - derived: the archive's figure (`nil`: a previous rank, the song not on the previous
  ///     snapshot).
  func cause(
    of entry: ChartEntry, song: SongID, trueRank: Int, since: ChartDate?,
    earlierCredit: (title: String, artist: String)?, previousIndex: Int?, figure: AuditFigure,
    derived: Int?
  ) -> DisagreementCause {
    // A previous rank that names an entry of the previous snapshot, which the archive holds:
    // neither this snapshot being short nor weeks the archive lacks before it explain another
    // song there. (One past the previous snapshot's ranks speaks of another chart, missing.)
    let checksPrevious =
      figure == .previousRank
      && entry.publishedPreviousRank.map { previous?.trueRanks.contains($0) ?? false } ?? false
    if hasGap(since: since, checksPrevious: checksPrevious) { return .sourceGap }
    if isJoinedByHand(entry, song: song, figure: figure, derived: derived) { return .joinedByHand }
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

  /// Whether a person's decision explains the disagreement (docs/rules.md, "Corrections"): the
  /// song's entries on the chart up to this snapshot were joined by a merge (it holds the first
  /// entries on the chart of two of the merge's songs), and the archive's figure says more than
  /// the source's, which counts the songs apart (more weeks on chart, a later run, a better peak,
  /// a previous rank where the source gives none); or they were parted by a split (the song holds
  /// the first entry of the split's other song), and the archive's figure says less than the
  /// source's, which counts them as one (fewer weeks, an earlier run, a worse peak). A published
  /// previous rank naming another song's entry on the previous snapshot is explained when either
  /// song was joined or split (the split's first entry, whose previous rank names the entries
  /// before it). Nothing is asked of a chart no decision names.
  private func isJoinedByHand(
    _ entry: ChartEntry, song: SongID, figure: AuditFigure, derived: Int?
  ) -> Bool {
    guard !lookup.handDecidedEntries.isEmpty else { return false }
    let (joined, split) = handDecided.songs
    switch figure {
    case .weeksOnChart, .run:
      guard let derived,
        let published = figure == .run ? entry.publishedRun : entry.publishedWeeksOnChart
      else { return false }
      return joined.contains(song) && derived > published
        || split.contains(song) && derived < published
    case .peakPosition:
      guard let derived, let published = entry.publishedPeakPosition else { return false }
      return joined.contains(song) && derived < published
        || split.contains(song) && derived > published
    case .previousRank:
      guard let rank = entry.publishedPreviousRank else {
        return joined.contains(song) && derived != nil
      }
      guard let previous else { return false }
      let others = previous.snapshot.songs.indices.filter {
        previous.trueRanks[$0] == rank && previous.snapshot.songs[$0] != song
      }.map { previous.snapshot.songs[$0] }
      return !others.isEmpty
        && ([song] + others).contains { joined.contains($0) || split.contains($0) }
    case .movement:
      return false
    }
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
