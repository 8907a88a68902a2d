public import ChartRanking

extension ArchiveWriter {
  // MARK: - Songs

  /// Inserts a song: the next recording of its identity (1 for the first song with it).
  ///
  /// - Parameters:
  ///   - entry: the entry it first charted as: its title and artist become the song's own.
  ///   - keys: the entry's keys (identity, folded title and artist, base title, lead artist).
  /// - Returns: its ID.
  public func insertSong(chartedAs entry: ChartEntry, keys: SongKeys) throws(ArchiveError)
    -> SongID
  {
    try writing { () throws(DatabaseError) in
      let insert: Statement
      if let prepared = songInsert {
        insert = prepared
      } else {
        insert = try database.statement(
          "INSERT INTO songs (identity, recording, title, artist, title_key, artist_key,"
            + " base_title_key, primary_artist_key) VALUES (?1,"
            + " (SELECT coalesce(max(recording), 0) + 1 FROM songs WHERE identity = ?1),"
            + " ?2, ?3, ?4, ?5, ?6, ?7)")
        songInsert = insert
      }
      // The texts bound in place from one arena, rather than each copied by SQLite into memory of
      // its own. The statement stays in the connection's cache after this writer and its arena
      // are gone, so its reset also clears the bindings.
      songTexts.clear()
      insert.bind(borrowedText: songTexts.append(keys.identity.key), at: 1)
      insert.bind(borrowedText: songTexts.append(entry.title), at: 2)
      insert.bind(borrowedText: songTexts.append(entry.artist), at: 3)
      insert.bind(borrowedText: songTexts.append(keys.foldedTitle), at: 4)
      insert.bind(borrowedText: songTexts.append(keys.foldedArtist), at: 5)
      insert.bind(borrowedText: songTexts.append(keys.baseTitle), at: 6)
      insert.bind(borrowedText: songTexts.append(keys.primaryArtist), at: 7)
      defer { insert.reset() }
      try insert.run()
      let id = database.lastInsertedRowID
      written.createdSongs.insert(id)
      written.createdCredits[id] = CreditRow(
        song: id, hasSongURL: keys.identity.key.hasPrefix("url:"), title: entry.title,
        artist: entry.artist, isOwn: true)
      return SongID(id)
    }
  }

  /// Records a title and credit a song charted under besides its first (`song_credits`), once;
  /// the first is the song's own (`songs`), so an entry under it adds nothing, and the song is
  /// found once by a search.
  ///
  /// - Parameters:
  ///   - entry: the entry: its title and artist are the credit.
  ///   - keys: the entry's keys.
  ///   - song: the song.
  /// - Returns: whether the credit is new to the song.
  @discardableResult
  public func insertCredit(of entry: ChartEntry, keys: SongKeys, to song: SongID)
    throws(ArchiveError) -> Bool
  {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT OR IGNORE INTO song_credits (song_id, title, artist, title_key, artist_key,"
          + " base_title_key, primary_artist_key) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7"
          + " WHERE NOT EXISTS (SELECT 1 FROM songs WHERE id = ?1 AND title_key = ?4"
          + " AND artist_key = ?5)", song.rawValue, entry.title, entry.artist, keys.foldedTitle,
        keys.foldedArtist, keys.baseTitle, keys.primaryArtist)
      guard database.changes > 0 else { return false }
      written.addedCredits.insert(
        CreditKey(song: song.rawValue, titleKey: keys.foldedTitle, artistKey: keys.foldedArtist))
      return true
    }
  }

  /// Deletes a song, with its credits, when no entry refers to it any more.
  ///
  /// - Returns: whether it was deleted.
  @discardableResult
  public func deleteSongIfUnused(_ song: SongID) throws(ArchiveError) -> Bool {
    try writing { () throws(DatabaseError) in
      try database.run(
        "DELETE FROM songs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entries WHERE song_id = ?)",
        song.rawValue, song.rawValue)
      guard database.changes > 0 else { return false }
      // Foreign keys, and so their cascades, are off while a write runs.
      try database.run("DELETE FROM song_credits WHERE song_id = ?", song.rawValue)
      written.songsOrCreditsRemoved = true
      return true
    }
  }
}
