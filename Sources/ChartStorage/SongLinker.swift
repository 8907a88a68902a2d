import ChartRanking

/// Ties the entries of snapshots being stored to the archive's songs (the rules of
/// ``SongLinking``), creating the new songs, and links a chart's later snapshots again after an
/// earlier one was stored.
final class SongLinker {
  let database: Database
  /// The songs the last call of
  /// ``songs(of:keys:publishesPreviousRank:chartID:chartTime:previousSnapshot:lastStored:hasLater:)``
  /// created.
  private(set) var newSongs: [Int64] = []
  /// The entries of the last snapshot linked (by index) that its song URL joined to a song whose
  /// title and artist both differ from the entry's, with that song's title and artist: the same
  /// recording, says the URL, under another title and credit (a scraper's wrong URL, or a
  /// renamed track).
  private(set) var joinedByURLAlone: [(index: Int, title: String, artist: String)] = []
  /// Every song this linker created and every credit it added, for the full-text index, which the
  /// batch fills before it commits (``searchableRows()``); some may have been undone since, by a
  /// savepoint rolled back or a relink.
  private var createdSongs: Set<Int64> = []
  private var addedCredits: Set<CreditKey> = []

  /// The songs and credits that ``addToSearchIndex()`` will add, as a whole: a savepoint rolled
  /// back puts back what it was when the savepoint began (see ``ImportBatch/inSavepoint(_:)``).
  var searchRowsToAdd: (songs: Set<Int64>, credits: Set<CreditKey>) {
    get { (createdSongs, addedCredits) }
    set { (createdSongs, addedCredits) = newValue }
  }

  /// A credit's row in `song_credits`: its song and folded title and artist.
  struct CreditKey: Hashable {
    var song: Int64
    var titleKey: String
    var artistKey: String
  }

  /// The texts of the song being inserted, bound in place.
  private let texts = TextArena(capacity: 4_096)

  init(database: Database) { self.database = database }

  /// Adds the songs and credits this linker created that are still there to the full-text index
  /// `song_search` (migration 0005: no trigger does it), once each.
  ///
  /// - Throws: ``DatabaseError``.
  func addToSearchIndex() throws(DatabaseError) {
    // New songs take the row IDs after the largest one (https://www.sqlite.org/autoinc.html), so
    // the IDs a batch creates follow one another: a statement per run of them, which reads the
    // songs by row ID (a first import has one run).
    for run in Self.runs(of: createdSongs) {
      try database.run(
        "INSERT INTO song_search (title, artist, song_id) SELECT title, artist, id FROM songs"
          + " WHERE id BETWEEN ? AND ?", run.lowerBound, run.upperBound)
    }
    for credit in addedCredits {
      try database.run(
        "INSERT INTO song_search (title, artist, song_id) SELECT title, artist, song_id"
          + " FROM song_credits WHERE song_id = ? AND title_key = ? AND artist_key = ?",
        credit.song, credit.titleKey, credit.artistKey)
    }
    createdSongs = []
    addedCredits = []
  }

  /// The runs of consecutive numbers in `ids`, in ascending order: [1, 2, 3, 7, 8] has 1...3
  /// and 7...8 (an ID given twice counts once). Every ID of a run is one of `ids`: a song among
  /// them that was deleted since adds nothing.
  static func runs(of ids: some Sequence<Int64>) -> [ClosedRange<Int64>] {
    var runs: [ClosedRange<Int64>] = []
    for id in ids.sorted() {
      if let last = runs.last, last.upperBound == id { continue }
      if let last = runs.last, last.upperBound == id - 1 {
        runs[runs.count - 1] = last.lowerBound...id
      } else {
        runs.append(id...id)
      }
    }
    return runs
  }

  /// The songs of a snapshot's entries, creating the new ones.
  ///
  /// - Parameters:
  ///   - entries: the snapshot's entries, in rank order.
  ///   - keys: their keys, same order.
  ///   - publishesPreviousRank: whether the previous ranks are the source's.
  ///   - chartID: the chart.
  ///   - chartTime: the snapshot's chart time; the previous snapshot is the last one before it.
  ///   - previousSnapshot: the chart's snapshot before this one (its row ID and chart time), when
  ///     the caller has looked it up; `nil` to look it up here.
  ///   - lastStored: the chart's snapshot stored last by this batch, with its chart time, when
  ///     there is one: used instead of reading the previous snapshot back when it is that one.
  ///   - hasLater: whether the chart may hold songs with no entry before this chart time: songs
  ///     of snapshots stored after this one, of this one when it is linked again, or of the
  ///     snapshot it replaces (whose entries are gone, its songs not yet). Such a song is no
  ///     earlier song of the chart, and a debut continues it.
  /// - Returns: one song ID per entry.
  /// - Throws: ``DatabaseError``.
  func songs(
    of entries: [ChartEntry], keys: [SongKeys], publishesPreviousRank: Bool, chartID: Int64,
    chartTime: Int64, previousSnapshot: (id: Int64, chartTime: Int64)?? = nil,
    lastStored: (chartTime: Int64, snapshot: SongLinking.PreviousSnapshot)?, hasLater: Bool
  ) throws -> [Int64] {
    var previous = SongLinking.PreviousSnapshot.none
    let found =
      try previousSnapshot
      ?? database.row(
        "SELECT id, chart_time FROM snapshots WHERE chart_id = ? AND chart_time < ?"
          + " ORDER BY chart_time DESC LIMIT 1", [chartID, chartTime],
        { (id: $0.int64(at: 0), chartTime: $0.int64(at: 1)) })
    if let (id, time) = found {
      if let lastStored, lastStored.chartTime == time {
        previous = lastStored.snapshot
      } else {
        previous = SongLinking.PreviousSnapshot(
          try ArchiveReader.entries(of: SnapshotID(id), in: database))
      }
    }
    let next = hasLater ? try nextSnapshot(ofChart: chartID, after: chartTime) : .none
    // Songs of other charts exist only when the archive holds another chart.
    let otherCharts =
      try database.row(
        "SELECT 1 FROM charts WHERE id != ? LIMIT 1", [chartID], { _ in true }) ?? false
    let links = try SongLinking.link(
      entries, keys: keys, publishesPreviousRank: publishesPreviousRank, previous: previous,
      next: next,
      songsWithIdentity: { identity in
        // Most identities have one song or none: only several recordings need the order, whose
        // subquery reads every entry of each. A song may have no entry before this snapshot only
        // when the archive holds another chart or later snapshots of this one: then only songs
        // charted before it are asked for (the rest are found as songs with no entry before it).
        let chartedBefore =
          otherCharts || hasLater
          ? " AND EXISTS (SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
            + " WHERE e.song_id = songs.id AND s.chart_time < ?2)" : ""
        // A song has the identity of each credit it charted under: its first (its own) and those
        // it took since (a credit changed within a run, "Otto Brandt" then "Otto Brand"), by which
        // a re-entry finds it whichever credit was imported first. Those that took it since are
        // found apart (most songs have none); only when one of them is not among the songs found
        // by their own identity are they all asked for at once. Only the parameters each query
        // has are bound.
        var condition = "identity = ?1"
        var arguments: [any StatementArgument] = [identity.key, chartTime]
        var songs = try database.rows(
          "SELECT id FROM songs WHERE \(condition)\(chartedBefore) ORDER BY recording DESC",
          chartedBefore.isEmpty ? [identity.key] : arguments
        ) { SongID($0.int64(at: 0)) }
        if let credit = identity.foldedCredit,
          try database.rows(
            "SELECT song_id FROM song_credits WHERE title_key = ? AND artist_key = ?",
            [credit.title, credit.artist], { SongID($0.int64(at: 0)) }
          ).contains(where: { !songs.contains($0) })
        {
          condition =
            "id IN (SELECT id FROM songs WHERE identity = ?1 UNION ALL"
            + " SELECT song_id FROM song_credits WHERE title_key = ?3 AND artist_key = ?4)"
          arguments += [credit.title, credit.artist]
          songs = try database.rows(
            "SELECT id FROM songs WHERE \(condition)\(chartedBefore) ORDER BY recording DESC",
            arguments
          ) { SongID($0.int64(at: 0)) }
        }
        guard songs.count > 1 else { return songs }
        return try database.rows(
          """
          SELECT id FROM songs WHERE \(condition)\(chartedBefore)
          ORDER BY (SELECT max(s.chart_time) FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.song_id = songs.id AND s.chart_time < ?2) DESC, recording DESC
          """, arguments
        ) { SongID($0.int64(at: 0)) }
      },
      songsElsewhere: { identity in
        // Only songs of other charts, or of this chart's later snapshots, can have no entry on the
        // chart before this one.
        guard otherCharts || hasLater else { return [] }
        return try database.rows(
          """
          SELECT g.id FROM songs g WHERE g.identity = ?1 AND NOT EXISTS (SELECT 1 FROM entries e
            CROSS JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.song_id = g.id AND s.chart_id = ?2 AND s.chart_time < ?3)
          ORDER BY g.recording DESC
          """, [identity.key, chartID, chartTime]
        ) { SongID($0.int64(at: 0)) }
      },
      songsWithTitle: { baseTitle, primaryArtist in
        // By the song's own credit or one it took since, as for the identity.
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
          """, [baseTitle, primaryArtist, chartID, chartTime]
        ) { SongID($0.int64(at: 0)) }
      })
    var songs: [Int64] = []
    songs.reserveCapacity(entries.count)
    newSongs = []
    joinedByURLAlone = []
    var insertSong: Statement?
    for (index, link) in links.enumerated() {
      if let song = link.song {
        songs.append(song.rawValue)
        // A credit the song may not have charted under yet: a run joined across a credit
        // change, a re-entry under another credit, a URL's entry under another title.
        let sameCredit: Bool =
          switch link {
          case .previousRank(let linked):
            // The previous entry linked to: the one at the rank, or among those tied there.
            entries[index].publishedPreviousRank.flatMap { rank in
              previous.indices(ofRank: rank).first { previous.songs[$0] == linked }
            }.map {
              previous.keys[$0].foldedTitle == keys[index].foldedTitle
                && previous.keys[$0].foldedArtist == keys[index].foldedArtist
            } ?? false
          case .identity: !keys[index].identity.isSongURL
          default: false
          }
        if !sameCredit,
          try addCredit(of: entries[index], keys: keys[index], to: song.rawValue),
          case .identity = link, keys[index].identity.isSongURL,
          let other = try otherCredit(of: song.rawValue, than: keys[index])
        {
          joinedByURLAlone.append((index, other.title, other.artist))
        }
        continue
      }
      let insert =
        try insertSong
        ?? database.statement(
          "INSERT INTO songs (identity, recording, title, artist, title_key, artist_key,"
            + " base_title_key, primary_artist_key) VALUES (?1,"
            + " (SELECT coalesce(max(recording), 0) + 1 FROM songs WHERE identity = ?1),"
            + " ?2, ?3, ?4, ?5, ?6, ?7)")
      insertSong = insert
      // The texts bound in place from one arena, rather than each copied by SQLite into memory of
      // its own. The statement stays in the connection's cache after this linker and its arena are
      // gone, so its reset also clears the bindings.
      let song = keys[index]
      texts.clear(
        reserving: song.identity.key.utf8.count + entries[index].title.utf8.count
          + entries[index].artist.utf8.count + song.foldedTitle.utf8.count
          + song.foldedArtist.utf8.count + song.baseTitle.utf8.count
          + song.primaryArtist.utf8.count)
      insert.bind(borrowedText: texts.append(song.identity.key), at: 1)
      insert.bind(borrowedText: texts.append(entries[index].title), at: 2)
      insert.bind(borrowedText: texts.append(entries[index].artist), at: 3)
      insert.bind(borrowedText: texts.append(song.foldedTitle), at: 4)
      insert.bind(borrowedText: texts.append(song.foldedArtist), at: 5)
      insert.bind(borrowedText: texts.append(song.baseTitle), at: 6)
      insert.bind(borrowedText: texts.append(song.primaryArtist), at: 7)
      defer { insert.reset() }
      try insert.run()
      songs.append(database.lastInsertedRowID)
      newSongs.append(database.lastInsertedRowID)
      createdSongs.insert(database.lastInsertedRowID)
    }
    return songs
  }

  /// Of the chart's first snapshot after a chart time, when it publishes previous ranks, the
  /// entries that have one and whose songs have no entry on the chart before that time: those that
  /// a snapshot stored at that time can continue (rule 5 of ``SongLinking``). ``SongLinking/PreviousSnapshot/none``
  /// when there is none.
  private func nextSnapshot(ofChart chartID: Int64, after chartTime: Int64) throws(DatabaseError)
    -> SongLinking.PreviousSnapshot
  {
    guard
      let (id, publishes) = try database.row(
        "SELECT id, publishes_previous_rank FROM snapshots WHERE chart_id = ? AND chart_time > ?"
          + " ORDER BY chart_time LIMIT 1", [chartID, chartTime],
        { ($0.int64(at: 0), $0.bool(at: 1)) }),
      publishes
    else { return .none }
    let earlier = Set(
      try database.rows(
        """
        SELECT DISTINCT e.song_id FROM entries n
          CROSS JOIN entries e INDEXED BY entries_by_song ON e.song_id = n.song_id
          CROSS JOIN snapshots s ON s.id = e.snapshot_id
        WHERE n.snapshot_id = ?1 AND n.published_previous_rank IS NOT NULL AND s.chart_id = ?2
          AND s.chart_time < ?3
        """, [id, chartID, chartTime], { $0.int64(at: 0) }))
    let entries = try ArchiveReader.entries(of: SnapshotID(id), in: database).filter {
      $0.entry.publishedPreviousRank != nil && !earlier.contains($0.song.rawValue)
    }
    return SongLinking.PreviousSnapshot(entries)
  }

  /// Records a title and credit a song charted under besides its first (`song_credits`), once;
  /// the first is the song's own (`songs`), so an entry under it (one linked by its song URL)
  /// adds nothing, and the song is found once by a search.
  ///
  /// - Returns: whether the credit is new to the song.
  @discardableResult
  private func addCredit(of entry: ChartEntry, keys: SongKeys, to song: Int64)
    throws(DatabaseError) -> Bool
  {
    try database.run(
      "INSERT OR IGNORE INTO song_credits (song_id, title, artist, title_key, artist_key,"
        + " base_title_key, primary_artist_key) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
        + " WHERE NOT EXISTS (SELECT 1 FROM songs WHERE id = ?1 AND title_key = ?4"
        + " AND artist_key = ?5)", song, entry.title, entry.artist, keys.foldedTitle,
      keys.foldedArtist, keys.baseTitle, keys.primaryArtist)
    guard database.changes > 0 else { return false }
    addedCredits.insert(
      CreditKey(song: song, titleKey: keys.foldedTitle, artistKey: keys.foldedArtist))
    return true
  }

  /// The song's own title and artist when neither the title nor the artist of `keys` is among
  /// those it charted under (its own, or a credit besides the one just added); `nil` when one is.
  private func otherCredit(of song: Int64, than keys: SongKeys) throws(DatabaseError) -> (
    title: String, artist: String
  )? {
    try database.row(
      """
      SELECT g.title, g.artist FROM songs g
      WHERE g.id = ?1 AND g.title_key != ?2 AND g.artist_key != ?3 AND NOT EXISTS (
        SELECT 1 FROM song_credits c WHERE c.song_id = ?1 AND (c.title_key = ?2 OR c.artist_key = ?3)
          AND NOT (c.title_key = ?2 AND c.artist_key = ?3))
      """, [song, keys.foldedTitle, keys.foldedArtist], { ($0.string(at: 0), $0.string(at: 1)) })
  }

  /// Links the songs of a chart's snapshots after a chart time (and before another, if given)
  /// again, in chart-date order: a snapshot stored before others of its chart (an import out of
  /// order, a replacement) can change which songs the later ones continue. Songs left without
  /// entries are deleted.
  ///
  /// - Returns: how many snapshots were linked again, and the songs their entries refer to now.
  /// - Throws: ``DatabaseError``.
  func relink(chart chartID: Int64, after chartTime: Int64, before end: Int64?) throws -> (
    snapshots: Int, songs: [Int64]
  ) {
    let later = try database.rows(
      "SELECT id, chart_time, publishes_previous_rank FROM snapshots"
        + " WHERE chart_id = ? AND chart_time > ? AND chart_time < ? ORDER BY chart_time",
      [chartID, chartTime, end ?? .max]
    ) { ($0.int64(at: 0), $0.int64(at: 1), $0.bool(at: 2)) }
    var touched: Set<Int64> = []
    var linked: [Int64] = []
    for (snapshotID, time, publishes) in later {
      let stored = try ArchiveReader.entries(of: SnapshotID(snapshotID), in: database)
      let songs = try self.songs(
        of: stored.map(\.entry), keys: stored.map { SongKeys($0.entry) },
        publishesPreviousRank: publishes, chartID: chartID, chartTime: time, lastStored: nil,
        hasLater: true)
      linked += songs
      for (position, (old, new)) in zip(stored.map(\.song.rawValue), songs).enumerated()
      where old != new {
        try database.run(
          "UPDATE entries SET song_id = ? WHERE snapshot_id = ? AND position = ?", new, snapshotID,
          position)
        touched.insert(old)
      }
    }
    try deleteSongsWithoutEntries(touched)
    return (later.count, linked)
  }

  /// Deletes those of `songs` that no entry refers to any more.
  ///
  /// - Throws: ``DatabaseError``.
  func deleteSongsWithoutEntries(_ songs: some Sequence<Int64>) throws(DatabaseError) {
    for song in songs {
      try database.run(
        "DELETE FROM songs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entries WHERE song_id = ?)",
        song, song)
      // Foreign keys, and so their cascades, are off while a batch writes.
      if database.changes > 0 {
        try database.run("DELETE FROM song_credits WHERE song_id = ?", song)
      }
    }
  }
}
