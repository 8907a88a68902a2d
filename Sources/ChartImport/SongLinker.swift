import ChartRanking
import ChartStorage

/// Ties the entries of snapshots being stored to the archive's songs (the rules of
/// ``SongLinking``), creating the new songs, and links a chart's later snapshots again after an
/// earlier one was stored. It decides; the ``ArchiveWriter`` it is given asks and writes.
final class SongLinker {
  let writer: ArchiveWriter
  /// The songs the last call of ``link(_:keys:chart:chartTime:publishesPreviousRank:previous:hasLater:)``
  /// created.
  private(set) var newSongs: [SongID] = []
  /// The entries of the last snapshot linked (by index) that its song URL joined to a song whose
  /// title and artist both differ from the entry's, with that song's title and artist: the same
  /// recording, says the URL, under another title and credit (a scraper's wrong URL, or a
  /// renamed track).
  private(set) var joinedByURLAlone: [(index: Int, title: String, artist: String)] = []

  init(writer: ArchiveWriter) { self.writer = writer }

  /// Whether the archive has a song whose identity is a song URL's, asked once, then kept true
  /// when this linker makes one: only such a song has a credit of its own other than its
  /// identity's, which a lookup by credit must then read too.
  private var songURLSongs: Bool?

  private func hasSongURLSongs() throws -> Bool {
    if let songURLSongs { return songURLSongs }
    let answer = try writer.reader.hasSongWithSongURLIdentity()
    songURLSongs = answer
    return answer
  }

  /// The chart's snapshot before a snapshot being linked, as linking reads it.
  enum Previous {
    /// The chart has none before it.
    case none
    /// The chart's snapshot before it, kept in memory by the import (its last stored).
    case kept(SongLinking.PreviousSnapshot)
    /// The chart's snapshot before it in the archive, read when needed.
    case stored(SnapshotID)
  }

  /// The songs of a snapshot's entries, creating the new ones and recording the credits songs
  /// take.
  ///
  /// - Parameters:
  ///   - entries: the snapshot's entries, in rank order.
  ///   - keys: their keys, same order.
  ///   - chart: the chart.
  ///   - chartTime: the snapshot's chart time.
  ///   - publishesPreviousRank: whether the previous ranks are the source's.
  ///   - previous: the chart's snapshot before this one.
  ///   - hasLater: whether the chart may hold songs with no entry before this chart time: songs
  ///     of snapshots stored after this one, of this one when it is linked again, or of the
  ///     snapshot it replaces (whose entries are gone, its songs not yet). Such a song is no
  ///     earlier song of the chart, and a debut continues it.
  /// - Returns: one song per entry.
  /// - Throws: ``ArchiveError``.
  func link(
    _ entries: [ChartEntry], keys: [SongKeys], chart: ChartID, chartTime: Int64,
    publishesPreviousRank: Bool, previous: Previous, hasLater: Bool
  ) throws -> [SongID] {
    let reader = writer.reader
    let previousSnapshot: SongLinking.PreviousSnapshot =
      switch previous {
      case .none: .none
      case .kept(let kept): kept
      case .stored(let id): try storedSnapshot(id, reusingKeysOf: entries, keys: keys)
      }
    let next = hasLater ? try nextSnapshot(ofChart: chart, after: chartTime) : .none
    // Songs of other charts exist only when the archive holds another chart.
    let elsewhere = try reader.hasChart(otherThan: chart) || hasLater
    let links = try SongLinking.link(
      entries, keys: keys, publishesPreviousRank: publishesPreviousRank,
      previous: previousSnapshot, next: next,
      songsWithIdentity: { identity in
        try songs(withIdentity: identity, chartTime: chartTime, elsewhere: elsewhere)
      },
      songsElsewhere: { identity in
        // Only songs of other charts, or of this chart's later snapshots, can have no entry on the
        // chart before this one.
        guard elsewhere else { return [] }
        return try reader.songs(
          withIdentity: identity.key, orCredit: identity.foldedCredit, notOnChart: chart,
          before: chartTime)
      },
      songsWithTitle: { baseTitle, primaryArtist in
        // By the song's own credit or one it took since, as for the identity.
        try reader.songs(
          withBaseTitle: baseTitle, primaryArtist: primaryArtist, onChart: chart,
          before: chartTime)
      },
      songsWithISRC: { isrc in
        // On any chart: an ISRC names one recording.
        try reader.songs(withISRC: isrc, atOrBefore: chartTime)
      })
    return try songs(of: links, entries: entries, keys: keys, previous: previousSnapshot)
  }

  /// The songs with an identity that linking may continue, most likely first.
  ///
  /// Most identities have one song or none: only several recordings need the order, whose query
  /// reads every entry of each. A song may have no entry before this snapshot only when the
  /// archive holds another chart or later snapshots of this one (`elsewhere`): then only songs
  /// charted before it are asked for (the rest are found as songs with no entry before it). A
  /// song has the identity of each credit it charted under: its first (its own) and those it took
  /// since (a credit changed within a run, "Otto Brandt" then "Otto Brand"), by which a re-entry
  /// finds it whichever credit was imported first. Those that took it since are found apart (most
  /// songs have none); only when one of them is not among the songs found by their own identity
  /// are they all asked for at once.
  private func songs(withIdentity identity: SongIdentity, chartTime: Int64, elsewhere: Bool)
    throws -> [SongID]
  {
    let reader = writer.reader
    var credit: (title: String, artist: String)?
    var songs = try reader.songs(
      withIdentity: identity.key, orCredit: nil, chartTime: chartTime,
      onlyChartedBefore: elsewhere, latestEntryFirst: false)
    if let folded = identity.foldedCredit,
      try reader.songs(
        withLaterCredit: folded, identity: identity.key, orSongURLs: try hasSongURLSongs()
      ).contains(where: { !songs.contains($0) })
    {
      credit = folded
      songs = try reader.songs(
        withIdentity: identity.key, orCredit: folded, chartTime: chartTime,
        onlyChartedBefore: elsewhere, latestEntryFirst: false)
    }
    guard songs.count > 1 else { return songs }
    return try reader.songs(
      withIdentity: identity.key, orCredit: credit, chartTime: chartTime,
      onlyChartedBefore: elsewhere, latestEntryFirst: true)
  }

  /// The songs of linked entries: the one each link names, with the credit it charted under
  /// recorded when it is new to the song, or a new song.
  private func songs(
    of links: [SongLink], entries: [ChartEntry], keys: [SongKeys],
    previous: SongLinking.PreviousSnapshot
  ) throws -> [SongID] {
    var songs: [SongID] = []
    songs.reserveCapacity(entries.count)
    newSongs = []
    joinedByURLAlone = []
    for (index, link) in links.enumerated() {
      guard let song = link.song else {
        let song = try writer.insertSong(chartedAs: entries[index], keys: keys[index])
        if keys[index].hasSongURL { songURLSongs = true }
        songs.append(song)
        newSongs.append(song)
        continue
      }
      songs.append(song)
      // A credit the song may not have charted under yet: a run joined across a credit change, a
      // re-entry under another credit, a URL's entry under another title.
      guard !Self.isSameCredit(link, entry: entries[index], keys: keys[index], previous: previous),
        try writer.insertCredit(of: entries[index], keys: keys[index], to: song),
        case .identity = link, keys[index].identity.isSongURL,
        let other = try writer.reader.otherCredit(of: song, than: keys[index])
      else { continue }
      joinedByURLAlone.append((index, other.title, other.artist))
    }
    return songs
  }

  /// Whether a link ties an entry to a song under the credit the song is known by already: the
  /// previous entry it continues has the same folded title and artist, or it was found by its
  /// own identity (not a song URL's).
  private static func isSameCredit(
    _ link: SongLink, entry: ChartEntry, keys: SongKeys, previous: SongLinking.PreviousSnapshot
  ) -> Bool {
    switch link {
    case .previousRank(let linked):
      // The previous entry linked to: the one at the rank, or among those tied there.
      entry.publishedPreviousRank.flatMap { rank in
        previous.indices(ofRank: rank).first { previous.songs[$0] == linked }
      }.map {
        previous.keys[$0].foldedTitle == keys.foldedTitle
          && previous.keys[$0].foldedArtist == keys.foldedArtist
      } ?? false
    case .identity: !keys.identity.isSongURL
    default: false
    }
  }

  /// The chart's snapshot `id`, before the snapshot being linked, as linking reads it. An entry
  /// spelled as one of `entries` (the same title, artist and song URL, which are all its keys come
  /// from) takes that one's keys rather than folding its texts again: a chart repeats most of its
  /// entries from one snapshot to the next, and a one-week import reads the snapshot before it
  /// from the archive.
  private func storedSnapshot(
    _ id: SnapshotID, reusingKeysOf entries: [ChartEntry], keys: [SongKeys]
  ) throws -> SongLinking.PreviousSnapshot {
    var known = RecentKeys()
    for (entry, keys) in zip(entries, keys) { known.remember(keys, of: entry) }
    let stored = try writer.reader.entries(of: id)
    return SongLinking.PreviousSnapshot(
      entries: stored.map(\.entry), songs: stored.map(\.song),
      keys: stored.map { known.keys(of: $0.entry) })
  }

  /// Of the chart's first snapshot after a chart time, when it publishes previous ranks, the
  /// entries that have one and whose songs have no entry on the chart before that time: those that
  /// a snapshot stored at that time can continue (rule 5 of ``SongLinking``).
  /// ``SongLinking/PreviousSnapshot/none`` when there is none.
  private func nextSnapshot(ofChart chart: ChartID, after chartTime: Int64) throws
    -> SongLinking.PreviousSnapshot
  {
    let reader = writer.reader
    guard let next = try reader.snapshot(ofChart: chart, after: chartTime),
      next.publishesPreviousRank
    else { return .none }
    let earlier = try reader.songsWithPublishedPreviousRank(
      in: next.id, onChart: chart, before: chartTime)
    let entries = try reader.entries(of: next.id).filter {
      $0.entry.publishedPreviousRank != nil && !earlier.contains($0.song)
    }
    return SongLinking.PreviousSnapshot(entries)
  }

  /// Links the songs of a chart's snapshots after a chart time (and before another, if given)
  /// again, in chart-date order: a snapshot stored before others of its chart (an import out of
  /// order, a replacement) can change which songs the later ones continue. Songs left without
  /// entries are deleted.
  ///
  /// - Returns: how many snapshots were linked again.
  /// - Throws: ``ArchiveError``.
  func relink(chart: ChartID, after chartTime: Int64, before end: Int64?) throws -> Int {
    let later = try writer.reader.snapshots(
      ofChart: chart, from: chartTime + 1, before: end ?? .max)
    var touched: Set<SongID> = []
    for snapshot in later {
      let stored = try writer.reader.entries(of: snapshot.id)
      let songs = try link(
        stored.map(\.entry), keys: stored.map { SongKeys($0.entry) }, chart: chart,
        chartTime: snapshot.chartDate.secondsSince1970,
        publishesPreviousRank: snapshot.publishesPreviousRank,
        previous: try writer.reader.snapshot(
          ofChart: chart, before: snapshot.chartDate.secondsSince1970
        ).map { .stored($0.id) } ?? .none, hasLater: true)
      for (position, (old, new)) in zip(stored.map(\.song), songs).enumerated() where old != new {
        try writer.setSong(new, ofEntryAt: position, in: snapshot.id)
        touched.insert(old)
      }
    }
    try deleteSongsWithoutEntries(touched)
    return later.count
  }

  /// Deletes those of `songs` that no entry refers to any more.
  ///
  /// - Throws: ``ArchiveError``.
  func deleteSongsWithoutEntries(_ songs: some Sequence<SongID>) throws {
    for song in songs { try writer.deleteSongIfUnused(song) }
  }
}
