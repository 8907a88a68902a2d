public import ChartRanking

extension ArchiveReader {
  // MARK: - Figures

  /// The entries of a snapshot with the figures decided for them when it was stored (previous
  /// rank, movement, peak position, weeks on chart, run; see ``ChartFigures``), in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func placements(of snapshot: SnapshotSummary) throws(ArchiveError) -> [Placement] {
    try reading {
      let verdicts = try verdicts(of: snapshot.id)
      var placements: [Placement] = []
      placements.reserveCapacity(snapshot.entryCount)
      let statement = try database.statement(
        "SELECT e.song_id, \(Self.entryColumns), \(FigureColumns.sql) FROM entries e"
          + " WHERE e.snapshot_id = ? ORDER BY e.position")
      statement.bind(snapshot.id.rawValue, at: 1)
      defer { statement.reset() }
      while try statement.step() {
        let entry = Self.readEntry(statement, from: 1)
        placements.append(
          Placement(
            snapshot: snapshot.id, chartDate: snapshot.chartDate, entry: entry,
            song: SongID(statement.int64(at: 0)),
            figures: FigureColumns.read(
              statement, from: 1 + Self.entryColumnCount, entry: entry,
              verdicts: verdicts[placements.count] ?? [:])))
      }
      return placements
    }
  }

  /// The rank-change report of a snapshot against the chart's previous snapshot.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot to report on.
  ///   - limit: how many climbers and fallers to list.
  /// - Returns: the report and the previous snapshot (`nil` for the chart's first, when every
  ///   entry is a debut and the drop-outs are unknown).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func report(on snapshot: SnapshotSummary, limit: Int) throws(ArchiveError)
    -> (report: RankChangeReport, previous: SnapshotSummary?)
  {
    let placements = try placements(of: snapshot)
    let previous = try self.snapshot(before: snapshot)
    var dropOuts: [ArchivedEntry]?
    if let previous {
      dropOuts =
        RankPairing(
          newer: placements.map { ArchivedEntry(entry: $0.entry, song: $0.song) },
          older: try entries(of: previous.id)
        ).unpaired
    }
    return (RankChangeReport(placements: placements, dropOuts: dropOuts, limit: limit), previous)
  }

  /// The diff of two snapshots of one chart (see ``SnapshotDiff``): for consecutive snapshots,
  /// the movements decided for the newer one's entries, the same as `show` gives.
  ///
  /// - Parameters:
  ///   - older: the older snapshot.
  ///   - newer: the newer snapshot.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func diff(from older: SnapshotSummary, to newer: SnapshotSummary) throws(ArchiveError)
    -> SnapshotDiff
  {
    let olderEntries = try entries(of: older.id)
    if try snapshot(before: newer)?.id == older.id {
      return SnapshotDiff(previous: olderEntries, placements: try placements(of: newer))
    }
    let newerEntries = try entries(of: newer.id)
    // Only arrivals (entries the older snapshot has no entry of their song for) need to be looked
    // up: a few, not every entry.
    let olderRanks = RankPairing(newer: newerEntries, older: olderEntries).olderRanks
    let arrivals = zip(newerEntries, olderRanks).filter { $0.1 == nil }.map(\.0)
    var charted: Set<SongID> = []
    try reading {
      for arrival in arrivals {
        // On the chart by the older date: an entry then, or one up to the newer date whose run
        // the archive holds only in part (figure_flags bit 4: the source counts weeks from before
        // the archive's first of the song, as `show` marks it a re-entry).
        let found = try database.row(
          """
          SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE e.song_id = ?1
            AND (s.chart_time <= ?3 OR s.chart_time <= ?4 AND \(FigureFlags.isPartialRunSQL("e")))
            AND s.chart_id = (SELECT chart_id FROM snapshots WHERE id = ?2)
          LIMIT 1
          """,
          [
            arrival.song.rawValue, older.id.rawValue, older.chartDate.secondsSince1970,
            newer.chartDate.secondsSince1970,
          ], { _ in true })
        if found != nil { charted.insert(arrival.song) }
      }
    }
    return SnapshotDiff(older: olderEntries, newer: newerEntries, songsChartedByOlder: charted)
  }
}
