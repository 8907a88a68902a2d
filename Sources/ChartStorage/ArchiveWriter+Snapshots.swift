public import ChartRanking

extension ArchiveWriter {
  // MARK: - Snapshots

  /// Inserts a snapshot without entries (``insertEntries(_:of:songs:figures:)`` adds them), imported
  /// now.
  ///
  /// - Parameters:
  ///   - chart: its chart.
  ///   - chartDate: its chart date; no other snapshot of the chart has its instant.
  ///   - publishesPreviousRank: whether its source publishes previous ranks.
  ///   - source: where it came from (a file path), when known.
  /// - Returns: its ID.
  public func insertSnapshot(
    ofChart chart: ChartID, chartDate: ChartDate, publishesPreviousRank: Bool, source: String?
  ) throws(ArchiveError) -> SnapshotID {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank, source,"
          + " imported_at) VALUES (?, ?, ?, ?, ?, ?)",
        chart.rawValue, chartDate.iso8601, chartDate.secondsSince1970, publishesPreviousRank,
        source, importedAt)
      written.referencedCharts.insert(chart.rawValue)
      written.totals.insertedSince[chart.rawValue] = min(
        written.totals.insertedSince[chart.rawValue] ?? .max, chartDate.secondsSince1970)
      let id = database.lastInsertedRowID
      if entryLogs[chart.rawValue] != nil {
        if entryLogs[chart.rawValue]!.append(snapshot: id, chartDate: chartDate) {
          loggedSnapshots[id] = chart.rawValue
        } else {
          endLog(ofChart: chart.rawValue)
        }
      }
      return SnapshotID(id)
    }
  }

  /// Rewrites a snapshot's row as another file of the same chart date gives it, imported now; its
  /// ID, chart and instant stay.
  public func updateSnapshot(
    _ snapshot: SnapshotID, chartDate: ChartDate, publishesPreviousRank: Bool, source: String?
  ) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "UPDATE snapshots SET chart_date = ?, publishes_previous_rank = ?, source = ?,"
          + " imported_at = ? WHERE id = ?", chartDate.iso8601, publishesPreviousRank, source,
        importedAt, snapshot.rawValue)
    }
    try noteRewritten(snapshot)
    changeLog(holding: snapshot) { _ in false }
  }

  /// Records what deciding a snapshot's figures found of the snapshot itself: how many entries it
  /// holds and whether the source's previous chart is missing from the archive (see
  /// ``DecidedSnapshot/followsMissingSnapshot``).
  public func setEntryCount(
    _ entryCount: Int, followsMissingSnapshot: Bool, of snapshot: SnapshotID
  ) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "UPDATE snapshots SET entry_count = ?, follows_missing_snapshot = ? WHERE id = ?",
        entryCount, followsMissingSnapshot, snapshot.rawValue)
    }
  }
}
