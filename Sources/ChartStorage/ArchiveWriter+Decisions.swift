public import ChartRanking

extension ArchiveWriter {
  // MARK: - Decisions

  /// Inserts a decision with the entries it names.
  ///
  /// - Parameters:
  ///   - kind: what it decides.
  ///   - songs: a merge's songs, each by the entries it names; a split's one entry; empty for
  ///     the others.
  ///   - chart: a rename's old name, a delete's chart.
  ///   - chartDate: a delete's chart date.
  ///   - detail: a rename's new name, a delete's source file.
  ///   - madeAt: when it was made (ISO 8601, UTC); `nil` for now (a decision an export carries
  ///     keeps the time it was first made).
  /// - Returns: its number.
  public func insertDecision(
    _ kind: Decision.Kind, songs: [[DecisionEntry]], chart: String? = nil,
    chartDate: ChartDate? = nil, detail: String? = nil, madeAt: String? = nil
  ) throws(ArchiveError) -> Int {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT INTO decisions (kind, made_at, chart, chart_date, detail) VALUES (?, ?, ?, ?, ?)",
        kind.rawValue, madeAt ?? importedAt, chart, chartDate?.iso8601, detail)
      let number = Int(database.lastInsertedRowID)
      for (song, entries) in songs.enumerated() {
        for entry in entries {
          try database.run(
            "INSERT OR IGNORE INTO decision_entries (decision, song, chart, chart_date, title,"
              + " artist, song_url) VALUES (?, ?, ?, ?, ?, ?, ?)", number, song, entry.chart,
            entry.chartDate.iso8601, entry.title, entry.artist, entry.songURL)
        }
      }
      return number
    }
  }

  /// Deletes a decision with its entries and what undoing it would restore.
  public func deleteDecision(_ number: Int) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      // Foreign keys, and so their cascades, are off while a write runs.
      try database.run("DELETE FROM decision_undo WHERE decision = ?", number)
      try database.run("DELETE FROM decision_entries WHERE decision = ?", number)
      try database.run("DELETE FROM decisions WHERE number = ?", number)
    }
  }

  /// Records what undoing a decision restores, and the entry count of the songs it left by which
  /// undoing knows that nothing changed them since; `nil` forgets both (the decision was applied
  /// again, and undoing it links by the rules).
  public func setUndo(_ undo: DecisionUndo?, entryCount: Int?, of number: Int)
    throws(ArchiveError)
  {
    try writing { () throws(DatabaseError) in
      try database.run("DELETE FROM decision_undo WHERE decision = ?", number)
      try database.run(
        "UPDATE decisions SET entry_count = ? WHERE number = ?", undo == nil ? nil : entryCount,
        number)
      guard let undo else { return }
      for move in undo.moves {
        try database.run(
          "INSERT INTO decision_undo (decision, kind, snapshot_id, position, song_id)"
            + " VALUES (?, 0, ?, ?, ?)", number, move.snapshot.rawValue, move.position,
          move.song.rawValue)
      }
      for (kind, rows) in [
        (1, undo.deletedSongs), (2, undo.deletedCredits), (3, undo.addedCredits),
      ] {
        for row in rows {
          try database.run(
            "INSERT INTO decision_undo (decision, kind, song_id, identity, recording, title, artist,"
              + " title_key, artist_key, base_title_key, primary_artist_key)"
              + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", number, kind, row.id.rawValue,
            kind == 1 ? row.identity : nil, kind == 1 ? row.recording : nil, row.title,
            row.artist, row.titleKey, row.artistKey, row.baseTitleKey, row.primaryArtistKey)
        }
      }
    }
  }

  /// Names a chart's entries in the decisions by another chart name (the chart was renamed).
  public func renameChartInDecisions(_ old: String, to new: String) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run("UPDATE decision_entries SET chart = ? WHERE chart = ?", new, old)
    }
  }

  // MARK: - Rows put back

  /// Inserts a song again with its row as it was (its ID, identity and recording): a song a
  /// decision deleted, which undoing it restores.
  public func restoreSong(_ row: SongRow) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT INTO songs (id, identity, recording, title, artist, title_key, artist_key,"
          + " base_title_key, primary_artist_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row.id.rawValue, row.identity, row.recording, row.title, row.artist, row.titleKey,
        row.artistKey, row.baseTitleKey, row.primaryArtistKey)
    }
    written.createdSongs.insert(row.id.rawValue)
    written.songsOrCreditsRemoved = true
  }

  /// Inserts a credit of a song again, as it was.
  public func restoreCredit(_ row: SongRow) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT OR IGNORE INTO song_credits (song_id, title, artist, title_key, artist_key,"
          + " base_title_key, primary_artist_key) VALUES (?, ?, ?, ?, ?, ?, ?)", row.id.rawValue,
        row.title, row.artist, row.titleKey, row.artistKey, row.baseTitleKey,
        row.primaryArtistKey)
      guard database.changes > 0 else { return }
      written.addedCredits.insert(
        CreditKey(song: row.id.rawValue, titleKey: row.titleKey, artistKey: row.artistKey))
      written.songsOrCreditsRemoved = true
    }
  }

  /// Deletes one credit of a song (a trigger takes it out of the full-text index).
  public func deleteCredit(_ row: SongRow) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "DELETE FROM song_credits WHERE song_id = ? AND title_key = ? AND artist_key = ?",
        row.id.rawValue, row.titleKey, row.artistKey)
    }
    written.songsOrCreditsRemoved = true
  }

  // MARK: - Charts and snapshots

  /// Gives a chart another name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)`` (a `UNIQUE` constraint when the name is taken).
  public func renameChart(_ chart: ChartID, to name: String) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run("UPDATE charts SET name = ? WHERE id = ?", name, chart.rawValue)
    }
  }

  /// Deletes a snapshot with its entries and their verdicts.
  public func deleteSnapshot(_ snapshot: SnapshotID) throws(ArchiveError) {
    try deleteEntries(of: snapshot)
    try writing { () throws(DatabaseError) in
      try database.run("DELETE FROM snapshots WHERE id = ?", snapshot.rawValue)
    }
  }
}
