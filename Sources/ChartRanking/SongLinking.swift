/// How an entry of a new snapshot was tied to a song.
public enum SongLink: Hashable, Sendable {
  /// The source's previous rank points at this song's entry on the previous snapshot, under the
  /// same title and primary artist (the artist credit may have changed).
  case previousRank(SongID)
  /// The same identity (see ``SongIdentity``) as an earlier entry of the chart.
  case identity(SongID)
  /// The same recording identifier (``ISRC``) as an entry of the previous snapshot or of any chart
  /// in the archive, whatever their titles and credits.
  case isrc(SongID)
  /// A re-entry under a changed artist credit: same title and primary artist, and the source says
  /// the song has been on the chart before.
  case reentry(SongID)
  /// The chart's next snapshot continues the entry: its entry whose previous rank is this entry's
  /// rank, under the same title, has this song, which no earlier snapshot of the chart has (an
  /// earlier week stored after the later ones, or replaced, under another credit).
  case nextRank(SongID)
  /// A song new to the archive (a first entry, or a second recording with the same title and
  /// artist as an earlier song).
  case newSong

  /// The song linked to, or `nil` for a new one.
  public var song: SongID? {
    switch self {
    case .previousRank(let song), .identity(let song), .isrc(let song), .reentry(let song),
      .nextRank(let song):
      song
    case .newSong: nil
    }
  }
}

/// Ties the entries of a new snapshot to the songs of the chart's earlier snapshots.
///
/// Rules, tried in order for each entry (in rank order):
/// 1. Previous rank: when the source publishes a previous rank and the previous snapshot's entry at
///    that rank (or one of the entries tied at it) has the same title (its letters and digits, ``SongIdentity/squashedTitle(_:)``),
///    or the same title before any parenthesis (``SongIdentity/baseTitle(_:)``) and the same lead
///    artist (``SongIdentity/primaryArtist(_:)``), the entry continues that song: a credit changed
///    ("Featuring" added, dropped or written differently, an artist renamed) or the title's
///    punctuation did. Not when that entry has another credit while the entry's own credit is on
///    the previous snapshot too (two versions of one title, the previous rank speaking of a chart
///    missing between them): the identity decides.
/// 2. Identity: for an entry with an ISRC, first the song of the most recent entry with that ISRC
///    (on the previous snapshot, then on any chart of the archive) that no entry of this snapshot
///    has taken yet: an ISRC names one recording whatever the title, credit, service or chart, and
///    whatever the source counts (its first week). Then the most recent song of the chart with the
///    entry's identity that no entry of this snapshot has taken yet (a different ISRC does not keep
///    apart what the identity joins: a remaster usually gets a new one); a song has the identity of every credit it charted under (the
///    archive's `songsWithIdentity` finds it by each). Two entries of one snapshot are never one
///    song. When the source says the entry is in its first week on the chart, it is a new
///    recording (a reissue or a remake) rather than an earlier song of this chart, but it is the
///    song of another chart with that identity (a first week is a first week on this chart), or
///    the song of this chart's later snapshots that has no entry before it (an earlier week
///    imported after the later ones keeps the song the later ones made; of several, the one the
///    next snapshot continues from this entry, rule 5); and a song URL names one recording
///    whatever the source counts (a streaming chart restarts its weeks after a week away).
/// 3. Re-entry under another credit: when the source says the song has been on the chart for more
///    than one week but has no previous rank, the most recent song with the same title before any
///    parenthesis and the same lead artist (under any credit it charted under) that was not on the
///    previous snapshot.
/// 4. A song with the identity that has no entry on the chart before this snapshot (the chart's
///    later snapshots, stored first, made it), unless the entry is in its first week (rule 2 took
///    it then): what a new song would be, its ID kept.
/// 5. Next rank: the song of the chart's next snapshot's entry whose published previous rank is
///    this entry's rank, under the same title (rule 1's test), when no earlier snapshot of the
///    chart has that song. An earlier week stored after the later ones, or replaced, under another
///    credit, is what the later ones continue by rule 1 once linked again: its song, ID kept,
///    rather than a new one that they would join.
/// 6. Otherwise a new song.
public enum SongLinking {
  /// A chart's previous snapshot as linking reads it: each entry with its rank, song and keys, in
  /// rank order. An import keeps the last one it stored per chart, so that the next snapshot links
  /// without reading it back.
  public struct PreviousSnapshot: Sendable {
    /// The entries, as published: a snapshot that repeats them is the same chart.
    public var entries: [ChartEntry]
    /// The entries' 1-based ranks (those of ``entries``, apart for the search by rank).
    public var ranks: [Int]
    /// The entries' songs.
    public var songs: [SongID]
    /// The entries' keys.
    public var keys: [SongKeys]

    /// No previous snapshot: the chart's first.
    public static let none = PreviousSnapshot(entries: [], songs: [], keys: [])

    /// A previous snapshot from its parts, all in the same order and of the same length, the
    /// entries in rank order (linking finds an entry by its rank with a binary search).
    public init(entries: [ChartEntry], songs: [SongID], keys: [SongKeys]) {
      precondition(
        entries.count == songs.count && songs.count == keys.count, "one of each per entry")
      self.entries = entries
      ranks = entries.map(\.rank)
      assert(zip(ranks, ranks.dropFirst()).allSatisfy { $0 <= $1 }, "ranks in rank order")
      self.songs = songs
      self.keys = keys
    }

    /// The index of the first entry at `rank`, found by a binary search (the ranks are in rank
    /// order), or `nil` when no entry has it.
    public func index(ofRank rank: Int) -> Int? {
      // Ranks run 1, 2, 3 … in most snapshots: the entry at a rank is at its rank's position.
      if rank >= 1, rank <= ranks.count, ranks[rank - 1] == rank,
        rank == 1 || ranks[rank - 2] != rank
      {
        return rank - 1
      }
      var low = 0
      var high = ranks.count
      while low < high {
        let middle = (low + high) / 2
        if ranks[middle] < rank { low = middle + 1 } else { high = middle }
      }
      return low < ranks.count && ranks[low] == rank ? low : nil
    }

    /// The indices of the entries at `rank`: one, several where entries tie at it, or none.
    public func indices(ofRank rank: Int) -> Range<Int> {
      guard let first = index(ofRank: rank) else { return 0..<0 }
      var end = first + 1
      while end < ranks.count, ranks[end] == rank { end += 1 }
      return first..<end
    }

    /// A previous snapshot from its entries with their songs, computing their keys.
    public init(_ entries: [ArchivedEntry]) {
      self.init(
        entries: entries.map(\.entry), songs: entries.map(\.song),
        keys: entries.map { SongKeys($0.entry) })
    }
  }

  /// Links the entries of one snapshot.
  ///
  /// - Parameters:
  ///   - entries: the new snapshot's entries, in rank order.
  ///   - publishesPreviousRank: whether the snapshot's previous ranks are the source's.
  ///   - previous: the chart's previous snapshot's entries with their songs, or `[]`.
  ///   - songsWithIdentity: the archive's songs with an identity that charted before this
  ///     snapshot, most recently charted first (asked only when the previous snapshot has no free
  ///     song with that identity).
  ///   - songsElsewhere: the archive's songs with an identity that have no entry on this chart
  ///     before this snapshot: songs of other charts, or of this chart's later snapshots (stored
  ///     first, out of order); asked for an entry in its first week.
  ///   - songsWithTitle: the chart's songs with a base title (``SongIdentity/baseTitle(_:)``) and
  ///     lead artist, most recently on the chart first.
  /// - Returns: one link per entry, same order.
  public static func link(
    _ entries: [ChartEntry], publishesPreviousRank: Bool, previous: [ArchivedEntry],
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsElsewhere: (SongIdentity) throws -> [SongID],
    songsWithTitle: (_ title: String, _ primaryArtist: String) throws -> [SongID]
  ) rethrows -> [SongLink] {
    try link(
      entries, keys: entries.map(SongKeys.init), publishesPreviousRank: publishesPreviousRank,
      previous: PreviousSnapshot(previous), songsWithIdentity: songsWithIdentity,
      songsElsewhere: songsElsewhere, songsWithTitle: songsWithTitle, songsWithISRC: { _ in [] })
  }

  /// Links the entries of one snapshot of a chart whose archive holds no other chart, its
  /// snapshots linked in chart-date order (no song has its entries elsewhere, or only after this
  /// snapshot).
  ///
  /// - Parameters: as ``link(_:publishesPreviousRank:previous:songsWithIdentity:songsElsewhere:songsWithTitle:)``.
  public static func link(
    _ entries: [ChartEntry], publishesPreviousRank: Bool, previous: [ArchivedEntry],
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsWithTitle: (_ title: String, _ primaryArtist: String) throws -> [SongID]
  ) rethrows -> [SongLink] {
    try link(
      entries, publishesPreviousRank: publishesPreviousRank, previous: previous,
      songsWithIdentity: songsWithIdentity, songsElsewhere: { _ in [] },
      songsWithTitle: songsWithTitle)
  }

  /// Links the entries of one snapshot with their keys already computed, against the previous
  /// snapshot as an import keeps it.
  ///
  /// - Parameters:
  ///   - keys: the keys of `entries`, same order.
  ///   - previous: the chart's previous snapshot, or ``PreviousSnapshot/none``.
  ///   - next: of the chart's next snapshot, when it publishes previous ranks, the entries whose
  ///     songs no snapshot of the chart before this one has (rule 5); ``PreviousSnapshot/none``
  ///     for a snapshot stored after the chart's others.
  ///   - songsWithISRC: the archive's songs of the entries with an ISRC, on any chart, the song of
  ///     the most recent entry first (asked only when the previous snapshot has no free song with
  ///     that ISRC).
  ///   - others: as in ``link(_:publishesPreviousRank:previous:songsWithIdentity:songsElsewhere:songsWithTitle:)``;
  ///     those overloads ask for no song by ISRC beyond the previous snapshot.
  public static func link(
    _ entries: [ChartEntry], keys: [SongKeys], publishesPreviousRank: Bool,
    previous: PreviousSnapshot, next: PreviousSnapshot = .none,
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsElsewhere: (SongIdentity) throws -> [SongID],
    songsWithTitle: (_ title: String, _ primaryArtist: String) throws -> [SongID],
    songsWithISRC: (ISRC) throws -> [SongID]
  ) rethrows -> [SongLink] {
    precondition(keys.count == entries.count, "one key per entry")
    // A snapshot that repeats the previous one, every entry as published (the same chart saved
    // under two dates, of which the import warns, as deciding figures tells it): each entry is the
    // song of the previous snapshot's entry at its place, whatever its previous rank and weeks on
    // chart say (a debut's first week is the one it had there, not a new recording's). The same
    // songs at the same ranks with other figures are another chart, linked entry by entry.
    if !entries.isEmpty, previous.entries == entries {
      return previous.songs.map { .identity($0) }
    }
    var context = Context(previous: previous, next: next, entryCount: entries.count)
    var links: [SongLink] = []
    links.reserveCapacity(entries.count)
    // Through buffers, `link` reads each entry's and its keys' fields in place: an entry or keys
    // passed as a value, even `borrowing`, is copied, which retains every text of both.
    try entries.withUnsafeBufferPointer { entries in
      try keys.withUnsafeBufferPointer { keys in
        for index in entries.indices {
          let link = try context.link(
            entryAt: index, of: entries, keys: keys, publishesPreviousRank: publishesPreviousRank,
            songsWithIdentity: songsWithIdentity, songsElsewhere: songsElsewhere,
            songsWithTitle: songsWithTitle, songsWithISRC: songsWithISRC)
          if let song = link.song { context.taken.insert(song) }
          links.append(link)
        }
      }
    }
    return links
  }

  /// A set of songs for the few hundred entries of one snapshot (see ``SongMap``).
  public struct SongSet: Sendable {
    private var map: SongMap<Bool>

    /// An empty set with room for `capacity` songs before it grows.
    public init(capacity: Int) { map = SongMap(capacity: capacity) }

    /// Whether `song` is in the set.
    public func contains(_ song: SongID) -> Bool { map[song] != nil }

    /// Adds `song`.
    public mutating func insert(_ song: SongID) { map[song] = true }

    /// How many songs the set holds.
    public var count: Int { map.count }
  }

  /// What linking one snapshot looks up in the previous one; the maps by identity and by song are
  /// built only when an entry needs them (most entries of a chart that publishes previous ranks
  /// are linked by rank alone).
  private struct Context {
    let previous: PreviousSnapshot
    let next: PreviousSnapshot
    var taken: SongSet
    private var songsByIdentity: [SongIdentity: [SongID]]?
    private var identityLookups = 0
    private static let lookupsBeforeMap = 32
    private var onPrevious: Set<SongID>?

    /// Whether an entry of the previous snapshot has a song URL: its credits are then compared
    /// apart from its identities. Found when first needed.
    private var previousHasSongURLs: Bool?

    init(previous: PreviousSnapshot, next: PreviousSnapshot, entryCount: Int) {
      self.previous = previous
      self.next = next
      taken = SongSet(capacity: entryCount)
    }

    /// The previous snapshot's songs whose entries have `identity`, or, for an identity of a
    /// title and credit, whose entries' title and credit have it (``SongKeys/creditIdentity``).
    mutating func previousSongs(with identity: SongIdentity) -> [SongID] {
      if !identity.isSongURL, previousHasSongURLs == nil {
        previousHasSongURLs = previous.keys.indices.contains { previous.keys[$0].hasSongURL }
      }
      guard identity.isSongURL || previousHasSongURLs != true else {
        var songs: [SongID] = []
        for index in previous.keys.indices where previous.keys[index].creditIdentity == identity {
          songs.append(previous.songs[index])
        }
        return songs
      }
      // Most snapshots ask for a few identities (debuts, re-entries): a scan, which mostly
      // compares fingerprints, costs less than a map. A chart without previous ranks asks for
      // every entry's, and gets the map.
      if songsByIdentity == nil, identityLookups < Self.lookupsBeforeMap {
        identityLookups += 1
        var songs: [SongID] = []
        for index in previous.keys.indices where previous.keys[index].identity == identity {
          songs.append(previous.songs[index])
        }
        return songs
      }
      if songsByIdentity == nil {
        var map: [SongIdentity: [SongID]] = [:]
        map.reserveCapacity(previous.keys.count)
        for (keys, song) in zip(previous.keys, previous.songs) {
          map[keys.identity, default: []].append(song)
        }
        songsByIdentity = map
      }
      return songsByIdentity?[identity] ?? []
    }

    mutating func wasOnPrevious(_ song: SongID) -> Bool {
      if onPrevious == nil { onPrevious = Set(previous.songs) }
      return onPrevious?.contains(song) ?? false
    }

    /// Links `entries[position]`, whose keys are `keys[position]`.
    mutating func link(
      entryAt position: Int, of entries: UnsafeBufferPointer<ChartEntry>,
      keys: UnsafeBufferPointer<SongKeys>, publishesPreviousRank: Bool,
      songsWithIdentity: (SongIdentity) throws -> [SongID],
      songsElsewhere: (SongIdentity) throws -> [SongID],
      songsWithTitle: (String, String) throws -> [SongID],
      songsWithISRC: (ISRC) throws -> [SongID]
    ) rethrows -> SongLink {
      let previousRank = entries[position].publishedPreviousRank
      // 1. The source's previous rank: the entry there, or one of the entries tied there.
      if publishesPreviousRank, let rank = previousRank {
        for index in previous.indices(ofRank: rank) where !taken.contains(previous.songs[index]) {
          // Field by field: a copy of the previous entry's keys would retain all their texts.
          if Self.sameTitle(previous.keys[index], keys[position]) {
            // Another credit of the title there, while this credit is on the previous snapshot
            // too: the previous rank speaks of another chart (one missing between them) or of
            // another version of the song, and the credit decides (rule 2).
            if previous.keys[index].identity != keys[position].identity,
              previousSongs(with: keys[position].identity).contains(where: { !taken.contains($0) })
            {
              continue
            }
            return .previousRank(previous.songs[index])
          }
        }
      }
      // 2. The ISRC, on any chart. Then the identity: on the previous snapshot first, then
      // anywhere in the archive; for an entry in its first week (unless a song URL names it), only
      // a song of other charts. An entry with a song URL is then matched by its title and credit
      // as one without.
      if let isrc = entries[position].isrc, let song = try firstFree(with: isrc, songsWithISRC) {
        return .isrc(song)
      }
      let identity = keys[position].identity
      if identity.isSongURL, let song = try firstFree(with: identity, songsWithIdentity) {
        return .identity(song)
      }
      let credit = keys[position].creditIdentity
      if !entries[position].saysFirstWeek {
        if let song = try firstFree(with: credit, songsWithIdentity) {
          return .identity(song)
        }
      } else if let song = try preferringNextRank(
        songsElsewhere(credit), forEntryAt: position, of: entries, keys: keys)
      {
        return .identity(song)
      }
      // 3. A re-entry under another credit.
      let noPreviousRank = !publishesPreviousRank || previousRank == nil
      if noPreviousRank, entries[position].saysChartedBefore {
        for song in try songsWithTitle(keys[position].baseTitle, keys[position].primaryArtist)
        where !taken.contains(song) && !wasOnPrevious(song) {
          return .reentry(song)
        }
      }
      // A song with the identity that has no entry on the chart before this snapshot (one that
      // the chart's later snapshots made, stored first): what a new song would be, its ID kept.
      for candidate in identity.isSongURL ? [identity, credit] : [identity]
      where !entries[position].saysFirstWeek || candidate.isSongURL {
        if let song = try preferringNextRank(
          songsElsewhere(candidate), forEntryAt: position, of: entries, keys: keys)
        {
          return .identity(song)
        }
      }
      // 5. The next snapshot's entry that continues this one by its previous rank.
      if let song = nextRankSong(forEntryAt: position, of: entries, keys: keys) {
        return .nextRank(song)
      }
      return .newSong
    }

    /// The first song not taken with `identity`: on the previous snapshot, then in the archive.
    mutating func firstFree(
      with identity: SongIdentity, _ songsWithIdentity: (SongIdentity) throws -> [SongID]
    ) rethrows -> SongID? {
      if let song = previousSongs(with: identity).first(where: { !taken.contains($0) }) {
        return song
      }
      return try songsWithIdentity(identity).first { !taken.contains($0) }
    }

    /// The song of the most recent entry with `isrc` not taken: on the previous snapshot, then in
    /// the archive, on any chart.
    mutating func firstFree(with isrc: ISRC, _ songsWithISRC: (ISRC) throws -> [SongID])
      rethrows -> SongID?
    {
      for index in previous.entries.indices
      where previous.entries[index].isrcCode == isrc.packed
        && !taken.contains(previous.songs[index])
      {
        return previous.songs[index]
      }
      return try songsWithISRC(isrc).first { !taken.contains($0) }
    }

    /// Rule 1's test of two entries' keys: the same title (its letters and digits), or the same
    /// title before any parenthesis by the same lead artist. Inlined, so that the keys are read
    /// in place, field by field: a copy of them would retain all their texts.
    @inline(__always)
    static func sameTitle(_ one: borrowing SongKeys, _ other: borrowing SongKeys) -> Bool {
      one.squashedTitle == other.squashedTitle
        || one.baseTitle == other.baseTitle && one.primaryArtist == other.primaryArtist
    }

    /// The song of the next snapshot's entry that continues `entries[position]` (rule 5): its
    /// previous rank is the entry's rank, its title the same; `nil` when there is none, or its
    /// song is taken.
    func nextRankSong(
      forEntryAt position: Int, of entries: UnsafeBufferPointer<ChartEntry>,
      keys: UnsafeBufferPointer<SongKeys>
    ) -> SongID? {
      let rank = entries[position].rank
      for index in next.entries.indices
      where next.entries[index].publishedPreviousRank == rank && !taken.contains(next.songs[index])
      {
        if Self.sameTitle(next.keys[index], keys[position]) { return next.songs[index] }
      }
      return nil
    }

    /// The first of `songs` not taken, or the one the next snapshot continues from the entry
    /// when it is among them: of two recordings that only later snapshots have, the one whose run
    /// the entry starts, as a date-order import gives it, rather than the latest recording.
    func preferringNextRank(
      _ songs: [SongID], forEntryAt position: Int, of entries: UnsafeBufferPointer<ChartEntry>,
      keys: UnsafeBufferPointer<SongKeys>
    ) -> SongID? {
      let free = songs.filter { !taken.contains($0) }
      guard free.count > 1,
        let continued = nextRankSong(forEntryAt: position, of: entries, keys: keys),
        free.contains(continued)
      else { return free.first }
      return continued
    }
  }
}
