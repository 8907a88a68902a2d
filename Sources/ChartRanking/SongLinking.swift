/// How an entry of a new snapshot was tied to a song.
public enum SongLink: Hashable, Sendable {
  /// The source's previous rank points at this song's entry on the previous snapshot, under the
  /// same title and primary artist (the artist credit may have changed).
  case previousRank(SongID)
  /// The same identity (see ``SongIdentity``) as an earlier entry of the chart.
  case identity(SongID)
  /// A re-entry under a changed artist credit: same title and primary artist, and the source says
  /// the song has been on the chart before.
  case reentry(SongID)
  /// A song new to the archive (a first entry, or a second recording with the same title and
  /// artist as an earlier song).
  case newSong

  /// The song linked to, or `nil` for a new one.
  public var song: SongID? {
    switch self {
    case .previousRank(let song), .identity(let song), .reentry(let song): song
    case .newSong: nil
    }
  }
}

/// Ties the entries of a new snapshot to the songs of the chart's earlier snapshots.
///
/// Rules, tried in order for each entry (in rank order):
/// 1. Previous rank: when the source publishes a previous rank and the previous snapshot's entry at
///    that rank has the same title (its letters and digits, ``SongIdentity/squashedTitle(_:)``),
///    or the same title before any parenthesis (``SongIdentity/baseTitle(_:)``) and the same lead
///    artist (``SongIdentity/primaryArtist(_:)``), the entry continues that song: a credit changed
///    ("Featuring" added, dropped or written differently, an artist renamed) or the title's
///    punctuation did.
/// 2. Identity: the most recent song of the chart with the entry's identity that no entry of this
///    snapshot has taken yet. Two entries of one snapshot are never one song. When the source says
///    the entry is in its first week on the chart, it is a new recording (a reissue or a remake)
///    rather than the earlier song.
/// 3. Re-entry under another credit: when the source says the song has been on the chart for more
///    than one week but has no previous rank, the most recent song with the same title before any
///    parenthesis and the same lead artist that was not on the previous snapshot.
/// 4. Otherwise a new song.
public enum SongLinking {
  /// Links the entries of one snapshot.
  ///
  /// - Parameters:
  ///   - entries: the new snapshot's entries, in rank order.
  ///   - publishesPreviousRank: whether the snapshot's previous ranks are the source's.
  ///   - previous: the chart's previous snapshot's entries with their songs, or `[]`.
  ///   - songsWithIdentity: the archive's songs with an identity, most recently charted first
  ///     (asked only when the previous snapshot has no free song with that identity).
  ///   - songsWithTitle: the chart's songs with a base title (``SongIdentity/baseTitle(_:)``) and
  ///     lead artist, most recently on the chart first.
  /// - Returns: one link per entry, same order.
  public static func link(
    _ entries: [ChartEntry], publishesPreviousRank: Bool, previous: [ArchivedEntry],
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsWithTitle: (_ title: String, _ primaryArtist: String) throws -> [SongID]
  ) rethrows -> [SongLink] {
    try link(
      entries, keys: entries.map(SongKeys.init), publishesPreviousRank: publishesPreviousRank,
      previous: previous, previousKeys: previous.map { SongKeys($0.entry) },
      songsWithIdentity: songsWithIdentity, songsWithTitle: songsWithTitle)
  }

  /// Links the entries of one snapshot with their keys already computed (an import carries the
  /// previous snapshot's keys from one snapshot to the next).
  ///
  /// - Parameters:
  ///   - keys: the keys of `entries`, same order.
  ///   - previousKeys: the keys of `previous`, same order.
  ///   - others: as in ``link(_:publishesPreviousRank:previous:songsWithIdentity:songsWithTitle:)``.
  public static func link(
    _ entries: [ChartEntry], keys: [SongKeys], publishesPreviousRank: Bool,
    previous: [ArchivedEntry], previousKeys: [SongKeys],
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsWithTitle: (_ title: String, _ primaryArtist: String) throws -> [SongID]
  ) rethrows -> [SongLink] {
    var previousByRank: [Int: (entry: ArchivedEntry, keys: SongKeys)] = [:]
    var previousByIdentity: [SongIdentity: [SongID]] = [:]
    for (entry, entryKeys) in zip(previous, previousKeys) {
      if previousByRank[entry.entry.rank] == nil {
        previousByRank[entry.entry.rank] = (entry, entryKeys)
      }
      previousByIdentity[entryKeys.identity, default: []].append(entry.song)
    }
    let onPrevious = Set(previous.map(\.song))
    var taken: Set<SongID> = []
    var links: [SongLink] = []
    links.reserveCapacity(entries.count)
    for (entry, entryKeys) in zip(entries, keys) {
      let link = try linkOne(
        entry, keys: entryKeys, publishesPreviousRank: publishesPreviousRank,
        previousByRank: previousByRank, onPrevious: onPrevious,
        previousByIdentity: previousByIdentity, taken: taken,
        songsWithIdentity: songsWithIdentity, songsWithTitle: songsWithTitle)
      if let song = link.song { taken.insert(song) }
      links.append(link)
    }
    return links
  }

  private static func linkOne(
    _ entry: ChartEntry, keys: SongKeys, publishesPreviousRank: Bool,
    previousByRank: [Int: (entry: ArchivedEntry, keys: SongKeys)], onPrevious: Set<SongID>,
    previousByIdentity: [SongIdentity: [SongID]], taken: Set<SongID>,
    songsWithIdentity: (SongIdentity) throws -> [SongID],
    songsWithTitle: (String, String) throws -> [SongID]
  ) rethrows -> SongLink {
    // 1. The source's previous rank.
    if publishesPreviousRank, let rank = entry.publishedPreviousRank,
      let earlier = previousByRank[rank], !taken.contains(earlier.entry.song),
      earlier.keys.squashedTitle == keys.squashedTitle
        || earlier.keys.baseTitle == keys.baseTitle
          && earlier.keys.primaryArtist == keys.primaryArtist
    {
      return .previousRank(earlier.entry.song)
    }
    // 2. The identity: on the previous snapshot first, then anywhere in the archive.
    if entry.publishedWeeksOnChart != 1 {
      if let song = previousByIdentity[keys.identity]?.first(where: { !taken.contains($0) }) {
        return .identity(song)
      }
      if let song = try songsWithIdentity(keys.identity).first(where: { !taken.contains($0) }) {
        return .identity(song)
      }
    }
    // 3. A re-entry under another credit.
    let noPreviousRank = !publishesPreviousRank || entry.publishedPreviousRank == nil
    if noPreviousRank, (entry.publishedWeeksOnChart ?? 0) > 1,
      let song = try songsWithTitle(keys.baseTitle, keys.primaryArtist).first(where: {
        !taken.contains($0) && !onPrevious.contains($0)
      })
    {
      return .reentry(song)
    }
    return .newSong
  }
}
