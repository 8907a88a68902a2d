public import ChartRanking

extension ArchiveWriter {
  // MARK: - Entries

  /// Inserts a snapshot's entries with their songs and decided figures (their verdicts are
  /// inserted apart, ``insertVerdicts(of:)``), up to ``EntryInserter/rowsPerInsert`` per
  /// statement.
  ///
  /// - Parameters:
  ///   - entries: the entries, in rank order; each one's position is its index.
  ///   - snapshot: their snapshot, which has no entries.
  ///   - songs: each entry's song, same order.
  ///   - figures: each entry's decided figures, same order.
  /// - Throws: ``ArchiveError/database(path:_:)``, SQLite's `SQLITE_CONSTRAINT_CHECK` error for
  ///   an entry that breaks the schema's CHECK constraints.
  public func insertEntries(
    _ entries: [ChartEntry], of snapshot: SnapshotID, songs: [SongID], figures: [EntryFigures]
  ) throws(ArchiveError) {
    precondition(songs.count == entries.count && figures.count == entries.count)
    try writing { () throws(DatabaseError) in
      try inserter.insert(entries, snapshot: snapshot.rawValue, songs: songs, figures: figures)
    }
    written.referencedSnapshots.insert(snapshot.rawValue)
    for song in songs { written.referencedSongs.insert(song.rawValue) }
    // Entries of an earlier snapshot than the latest end the log.
    changeLog(holding: snapshot) {
      $0.append(entries, of: snapshot.rawValue, songs: songs, figures: figures)
    }
  }

  /// Makes a change to the entry log (``ChartEntryLog``) that holds the snapshot, if one does,
  /// as the write changed the snapshot's rows; ends the log when `change` answers that it cannot
  /// follow.
  func changeLog(holding snapshot: SnapshotID, _ change: (inout ChartEntryLog) -> Bool) {
    guard let chart = loggedSnapshots[snapshot.rawValue], entryLogs[chart] != nil else { return }
    if !change(&entryLogs[chart]!) { endLog(ofChart: chart) }
  }

  /// Deletes a snapshot's entries and their verdicts (explicitly: foreign keys, and so their
  /// `ON DELETE CASCADE`, are off while a write runs).
  public func deleteEntries(of snapshot: SnapshotID) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run("DELETE FROM entries WHERE snapshot_id = ?", snapshot.rawValue)
    }
    try noteRewritten(snapshot)
    changeLog(holding: snapshot) { _ in false }
    try deleteVerdicts(of: snapshot)
  }

  /// Ties an entry to another song.
  ///
  /// - Parameters:
  ///   - song: the song.
  ///   - position: the entry's position in its snapshot (0-based: its index in rank order).
  ///   - snapshot: its snapshot.
  public func setSong(_ song: SongID, ofEntryAt position: Int, in snapshot: SnapshotID)
    throws(ArchiveError)
  {
    try writing { () throws(DatabaseError) in
      try database.run(
        "UPDATE entries SET song_id = ? WHERE snapshot_id = ? AND position = ?", song.rawValue,
        snapshot.rawValue, position)
    }
    written.referencedSongs.insert(song.rawValue)
    try noteRewritten(snapshot)
    changeLog(holding: snapshot) { $0.setSong(song, ofEntryAt: position, in: snapshot.rawValue) }
  }

  /// Writes an entry's decided figures again (its verdicts are written apart).
  ///
  /// - Parameters:
  ///   - figures: the figures.
  ///   - entry: the entry, as stored, to test its row against the CHECK constraints.
  ///   - position: its position in its snapshot (0-based).
  ///   - snapshot: its snapshot.
  /// - Throws: ``ArchiveError/database(path:_:)``, SQLite's `SQLITE_CONSTRAINT_CHECK` error for
  ///   figures that break the schema's CHECK constraints.
  public func updateFigures(
    _ figures: EntryFigures, of entry: ChartEntry, at position: Int, in snapshot: SnapshotID
  ) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try EntryInserter.check(entry, figures)
      try database.run(
        "UPDATE entries SET previous_rank = ?, peak_position = ?, weeks_on_chart = ?, run = ?,"
          + " figure_flags = ? WHERE snapshot_id = ? AND position = ?", figures.previousRank,
        figures.peakPosition, figures.weeksOnChart, figures.run, FigureFlags(figures).rawValue,
        snapshot.rawValue, position)
    }
    try noteRewritten(snapshot)
    changeLog(holding: snapshot) {
      $0.setFigures(figures, ofEntryAt: position, in: snapshot.rawValue)
    }
  }

  // MARK: - Verdicts

  /// Deletes the verdicts of a snapshot's entries.
  public func deleteVerdicts(of snapshot: SnapshotID) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run("DELETE FROM verdicts WHERE snapshot_id = ?", snapshot.rawValue)
    }
  }

  /// Inserts the verdicts of a decided snapshot's entries, one row per figure whose published
  /// value disagrees with the archive's (see ``FigureVerdict``); the snapshot has none stored.
  public func insertVerdicts(of decided: DecidedSnapshot) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      for position in decided.figures.indices where decided.figures[position].hasVerdicts {
        for figure in VerdictCodes.figures {
          guard let verdict = decided.figures[position].verdict(on: figure) else { continue }
          try database.run(
            "INSERT INTO verdicts (snapshot_id, position, figure, derived, cause)"
              + " VALUES (?, ?, ?, ?, ?)", decided.snapshot.id.rawValue, position,
            VerdictCodes.code(figure), verdict.derived, VerdictCodes.code(verdict.cause))
        }
      }
    }
  }
}
