public import ChartRanking

/// The queries song linking asks of the archive (see ``SongLinking``): songs by ISRC, by identity,
/// by credit and by title, with the chart time they must have charted before. Each reads the
/// `songs` and `song_credits` tables through their indexes, and entries through
/// `entries_by_song` (`entries_by_isrc` by ISRC); joins are written with CROSS JOIN, whose order SQLite's planner keeps
/// (<https://www.sqlite.org/optoverview.html#crossjoin>).
extension ArchiveReader {
  /// The songs with an identity, and with a credit, in one of two orders.
  ///
  /// A song has the identity of each credit it charted under: its first (its own, `songs`) and
  /// those it took since (`song_credits`, a credit changed within a run).
  ///
  /// - Parameters:
  ///   - key: the identity's key (see ``SongIdentity/key``).
  ///   - credit: a title and credit in their matching forms (``SongKeys/foldedTitle``,
  ///     ``SongKeys/foldedArtist``): songs that took that credit since their first, or that have
  ///     it as their own beside a song URL's identity, are found too; `nil` for songs by their own
  ///     identity only.
  ///   - chartTime: an instant (a chart date's `secondsSince1970`).
  ///   - onlyChartedBefore: only songs with an entry, on any chart, before `chartTime`.
  ///   - latestEntryFirst: ordered by their latest entry before `chartTime`, latest first (then
  ///     by recording, latest first); otherwise by recording alone.
  /// - Returns: the songs in that order.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(
    withIdentity key: String, orCredit credit: (title: String, artist: String)?,
    chartTime: Int64, onlyChartedBefore: Bool, latestEntryFirst: Bool
  ) throws(ArchiveError) -> [SongID] {
    let condition =
      credit == nil
      ? "identity = ?1"
      : "id IN (SELECT id FROM songs WHERE identity = ?1 UNION ALL"
        + " SELECT id FROM songs WHERE title_key = ?3 AND artist_key = ?4 UNION ALL"
        + " SELECT song_id FROM song_credits WHERE title_key = ?3 AND artist_key = ?4)"
    let chartedBefore =
      onlyChartedBefore
      ? " AND EXISTS (SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
        + " WHERE e.song_id = songs.id AND s.chart_time < ?2)" : ""
    let sql =
      latestEntryFirst
      ? """
      SELECT id FROM songs WHERE \(condition)\(chartedBefore)
      ORDER BY (SELECT max(s.chart_time) FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
        WHERE e.song_id = songs.id AND s.chart_time < ?2) DESC, recording DESC
      """
      : "SELECT id FROM songs WHERE \(condition)\(chartedBefore) ORDER BY recording DESC"
    // Only the parameters the statement has are bound: SQLite refuses one beyond its last.
    var arguments: [any StatementArgument] = [key]
    if let credit {
      arguments += [chartTime, credit.title, credit.artist]
    } else if onlyChartedBefore || latestEntryFirst {
      arguments.append(chartTime)
    }
    return try reading { try database.rows(sql, arguments) { SongID($0.int64(at: 0)) } }
  }

  /// The songs that have a credit (a title and artist in their matching forms) other than by
  /// their own identity: those that took it since their first (a row in `song_credits`), and
  /// those whose identity is a song URL's.
  ///
  /// - Parameters:
  ///   - credit: the title and artist keys.
  ///   - key: the identity of that credit (``SongIdentity/key``): the songs with it are left out.
  ///   - orSongURLs: whether to read songs whose identity is a song URL's (`false` when the
  ///     archive has none: only `song_credits` is read).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(
    withLaterCredit credit: (title: String, artist: String), identity key: String,
    orSongURLs: Bool = true
  ) throws(ArchiveError) -> [SongID] {
    let sql =
      "SELECT song_id FROM song_credits WHERE title_key = ?1 AND artist_key = ?2"
      + (orSongURLs
        ? " UNION ALL SELECT id FROM songs WHERE title_key = ?1 AND artist_key = ?2"
          + " AND identity != ?3" : "")
    let arguments: [any StatementArgument] =
      orSongURLs ? [credit.title, credit.artist, key] : [credit.title, credit.artist]
    return try reading { try database.rows(sql, arguments) { SongID($0.int64(at: 0)) } }
  }

  /// Whether a song's identity is a song URL's (`url:`), read through the index of identities.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func hasSongWithSongURLIdentity() throws(ArchiveError) -> Bool {
    try reading {
      try database.row(
        "SELECT 1 FROM songs WHERE identity >= 'url:' AND identity < 'url;' LIMIT 1", [],
        { _ in true }) ?? false
    }
  }

  /// The songs with an identity (their own), or with a credit, that have no entry on a chart
  /// before an instant: songs of other charts, or of the chart's later snapshots, latest
  /// recording first.
  ///
  /// - Parameters:
  ///   - key: the identity's key (``SongIdentity/key``).
  ///   - credit: a title and artist in their matching forms: songs with that credit, their own or
  ///     one they took since, are found too; `nil` for songs by their own identity only.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(
    withIdentity key: String, orCredit credit: (title: String, artist: String)? = nil,
    notOnChart chart: ChartID, before chartTime: Int64
  ) throws(ArchiveError) -> [SongID] {
    let condition =
      credit == nil
      ? "g.identity = ?1"
      : "g.id IN (SELECT id FROM songs WHERE identity = ?1 UNION ALL"
        + " SELECT id FROM songs WHERE title_key = ?4 AND artist_key = ?5 UNION ALL"
        + " SELECT song_id FROM song_credits WHERE title_key = ?4 AND artist_key = ?5)"
    var arguments: [any StatementArgument] = [key, chart.rawValue, chartTime]
    if let credit { arguments += [credit.title, credit.artist] }
    return try reading {
      try database.rows(
        """
        SELECT g.id FROM songs g WHERE \(condition) AND NOT EXISTS (SELECT 1 FROM entries e
          CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE e.song_id = g.id AND s.chart_id = ?2 AND s.chart_time < ?3)
        ORDER BY g.recording DESC
        """, arguments
      ) { SongID($0.int64(at: 0)) }
    }
  }

  /// The songs of a base title and lead artist (see ``SongKeys``), by their own credit or one
  /// they took since, that have an entry on a chart before an instant, latest entry first.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(
    withBaseTitle baseTitle: String, primaryArtist: String, onChart chart: ChartID,
    before chartTime: Int64
  ) throws(ArchiveError) -> [SongID] {
    try reading {
      try database.rows(
        """
        SELECT g.id FROM songs g
          CROSS JOIN entries e ON e.song_id = g.id CROSS JOIN snapshots s ON s.id = e.snapshot_id
        WHERE g.id IN (
            SELECT id FROM songs WHERE base_title_key = ?1 AND primary_artist_key = ?2
            UNION ALL
            SELECT song_id FROM song_credits WHERE base_title_key = ?1 AND primary_artist_key = ?2)
          AND s.chart_id = ?3 AND s.chart_time < ?4
        GROUP BY g.id ORDER BY max(s.chart_time) DESC
        """, [baseTitle, primaryArtist, chart.rawValue, chartTime]
      ) { SongID($0.int64(at: 0)) }
    }
  }

  /// The songs of the entries with an ISRC, on any chart, the song of the most recent entry
  /// first: by their latest entry at or before an instant, then those whose entries are all after
  /// it (a chart's later snapshots, stored first) by their earliest. Read through the index of
  /// entries by ISRC, which holds only the entries that have one.
  ///
  /// - Parameters:
  ///   - isrc: the ISRC.
  ///   - chartTime: an instant (a chart date's `secondsSince1970`).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(withISRC isrc: ISRC, atOrBefore chartTime: Int64) throws(ArchiveError)
    -> [SongID]
  {
    try reading {
      try database.rows(
        """
        SELECT e.song_id FROM entries e INDEXED BY entries_by_isrc
          CROSS JOIN snapshots s ON s.id = e.snapshot_id
        WHERE e.isrc = ?1
        GROUP BY e.song_id
        ORDER BY max(CASE WHEN s.chart_time <= ?2 THEN s.chart_time END) IS NULL,
          max(CASE WHEN s.chart_time <= ?2 THEN s.chart_time END) DESC, min(s.chart_time)
        """, [isrc.code, chartTime], { SongID($0.int64(at: 0)) })
    }
  }

  /// Of the songs of a snapshot's entries that have a published previous rank, those with an
  /// entry on a chart before an instant.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songsWithPublishedPreviousRank(
    in snapshot: SnapshotID, onChart chart: ChartID, before chartTime: Int64
  ) throws(ArchiveError) -> Set<SongID> {
    try reading {
      Set(
        try database.rows(
          """
          SELECT DISTINCT e.song_id FROM entries n
            CROSS JOIN entries e INDEXED BY entries_by_song ON e.song_id = n.song_id
            CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE n.snapshot_id = ?1 AND n.published_previous_rank IS NOT NULL AND s.chart_id = ?2
            AND s.chart_time < ?3
          """, [snapshot.rawValue, chart.rawValue, chartTime], { SongID($0.int64(at: 0)) }))
    }
  }

  /// A song's own title and artist when neither the title nor the artist of a credit is among
  /// those it charted under (its own, or a credit in `song_credits` other than this one); `nil`
  /// when one is.
  ///
  /// - Parameters:
  ///   - song: the song.
  ///   - keys: the credit's keys (its folded title and artist are compared).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func otherCredit(of song: SongID, than keys: SongKeys) throws(ArchiveError) -> (
    title: String, artist: String
  )? {
    try reading {
      try database.row(
        """
        SELECT g.title, g.artist FROM songs g
        WHERE g.id = ?1 AND g.title_key != ?2 AND g.artist_key != ?3 AND NOT EXISTS (
          SELECT 1 FROM song_credits c WHERE c.song_id = ?1 AND (c.title_key = ?2 OR c.artist_key = ?3)
            AND NOT (c.title_key = ?2 AND c.artist_key = ?3))
        """, [song.rawValue, keys.foldedTitle, keys.foldedArtist],
        { ($0.string(at: 0), $0.string(at: 1)) })
    }
  }
}
