public import ChartRanking

/// The queries deciding a snapshot's figures asks of a chart's earlier snapshots (see
/// ``ChartHistoryLookup``): a song's last entry and its figures, the snapshots that follow a
/// missing one or hold fewer entries, and songs by identity and title. Joins are written with
/// CROSS JOIN, whose order SQLite's planner keeps
/// (<https://www.sqlite.org/optoverview.html#crossjoin>).
extension ArchiveReader {
  /// Where a song's last entry on a chart before an instant is: its snapshot and position
  /// (0-based), the first of the song's entries on that snapshot; `nil` when it has none.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func lastEntry(of song: SongID, onChart chart: ChartID, before chartTime: Int64)
    throws(ArchiveError) -> (snapshot: SnapshotID, position: Int)?
  {
    try reading {
      try database.row(
        "SELECT e.snapshot_id, e.position FROM entries e INDEXED BY entries_by_song"
          + " CROSS JOIN snapshots s ON s.id = e.snapshot_id"
          + " WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ?"
          + " ORDER BY s.chart_time DESC, e.position LIMIT 1",
        [song.rawValue, chart.rawValue, chartTime],
        { (SnapshotID($0.int64(at: 0)), $0.int(at: 1)) })
    }
  }

  /// An entry as a standing: with its snapshot's chart date, its figures and their verdicts;
  /// `nil` when there is no entry at that position.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func standing(ofEntryAt position: Int, in snapshot: SnapshotID) throws(ArchiveError)
    -> SongStanding?
  {
    try reading {
      // One row per verdict (most entries have none).
      var standing: SongStanding?
      let statement = try database.statement(
        "SELECT s.chart_date, s.chart_time, v.figure, v.derived, v.cause,"
          + " \(Self.entryColumns), \(FigureColumns.sql)"
          + " FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
          + " LEFT JOIN verdicts v ON v.snapshot_id = e.snapshot_id AND v.position = e.position"
          + " WHERE e.snapshot_id = ? AND e.position = ?")
      statement.bind([snapshot.rawValue, position])
      defer { statement.reset() }
      while try statement.step() {
        if standing == nil {
          let entry = Self.readEntry(statement, from: 5)
          standing = SongStanding(
            chartDate: ChartDate(
              trustedISO8601: statement.string(at: 0), secondsSince1970: statement.int64(at: 1)),
            entry: entry,
            figures: FigureColumns.read(
              statement, from: 5 + Self.entryColumnCount, entry: entry, verdicts: [:]))
        }
        guard let figure = statement.optionalInt(at: 2) else { continue }
        let verdict = FigureVerdict(
          derived: statement.optionalInt(at: 3),
          cause: VerdictCodes.cause(code: statement.int(at: 4)))
        standing?.figures.setVerdict(verdict, on: VerdictCodes.figures[figure])
      }
      return standing
    }
  }

  /// A chart's snapshots in a span that follow a missing snapshot, or hold fewer entries than a
  /// size, in chart-date order.
  ///
  /// - Parameters:
  ///   - chart: the chart.
  ///   - start: the span's first instant (a chart date's `secondsSince1970`).
  ///   - end: the instant after the span.
  ///   - chartSize: the size; 0 for those that follow a missing snapshot only (read from a
  ///     partial index).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func flaggedSnapshots(
    ofChart chart: ChartID, from start: Int64, before end: Int64, chartSize: Int
  ) throws(ArchiveError) -> [FlaggedSnapshot] {
    let sql =
      chartSize > 0
      ? "SELECT chart_date, chart_time, follows_missing_snapshot, entry_count FROM snapshots"
        + " WHERE chart_id = ?1 AND chart_time >= ?2 AND chart_time < ?3"
        + " AND (follows_missing_snapshot = 1 OR entry_count < ?4) ORDER BY chart_time"
      : "SELECT chart_date, chart_time, follows_missing_snapshot, entry_count FROM snapshots"
        + " WHERE chart_id = ?1 AND chart_time >= ?2 AND chart_time < ?3"
        + " AND follows_missing_snapshot = 1 ORDER BY chart_time"
    let arguments: [any StatementArgument] =
      [chart.rawValue, start, end]
      + (chartSize > 0 ? [chartSize] : [])
    return try reading {
      try database.rows(sql, arguments) { row in
        FlaggedSnapshot(
          chartDate: ChartDate(
            trustedISO8601: row.string(at: 0), secondsSince1970: row.int64(at: 1)),
          followsMissingSnapshot: row.bool(at: 2), entryCount: row.int(at: 3))
      }
    }
  }

  /// The most entries one of a chart's snapshots from an instant and before another holds (chart
  /// times, seconds since 1970); `nil` when it has none there.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func largestEntryCount(ofChart chart: ChartID, from start: Int64, before end: Int64)
    throws(ArchiveError) -> Int?
  {
    try reading {
      // A span from the chart's first snapshot is read from the largest snapshot down
      // (`snapshots_by_size`, migration 0018): the first in the span is the answer, where the
      // index by chart time would read each snapshot of the chart. A later span (a few snapshots,
      // as an import asks after its first answer) is read by chart time. A snapshot without
      // entries counts 0 either way.
      try database.row(
        start == Int64.min
          ? "SELECT entry_count FROM snapshots INDEXED BY snapshots_by_size"
            + " WHERE chart_id = ? AND entry_count > 0 AND chart_time >= ? AND chart_time < ?"
            + " ORDER BY entry_count DESC LIMIT 1"
          : "SELECT max(entry_count) FROM snapshots WHERE chart_id = ? AND chart_time >= ?"
            + " AND chart_time < ?",
        [chart.rawValue, start, end]
      ) { $0.optionalInt(at: 0) } ?? nil
    }
  }

  /// The songs whose own credit, or one they took since, is a folded title and artist.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(withCredit credit: (title: String, artist: String)) throws(ArchiveError)
    -> [SongID]
  {
    try reading {
      try database.rows(
        "SELECT id FROM songs WHERE title_key = ?1 AND artist_key = ?2 UNION"
          + " SELECT song_id FROM song_credits WHERE title_key = ?1 AND artist_key = ?2",
        [credit.title, credit.artist]
      ) { SongID($0.int64(at: 0)) }
    }
  }

  /// The songs whose own identity is this one (see ``SongIdentity/key``).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(withIdentity key: String) throws(ArchiveError) -> [SongID] {
    try reading {
      try database.rows("SELECT id FROM songs WHERE identity = ?", [key]) {
        SongID($0.int64(at: 0))
      }
    }
  }

  /// The songs whose own base title and lead artist (see ``SongKeys``), or those of a credit they
  /// took since, are these.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songs(withBaseTitle baseTitle: String, primaryArtist: String) throws(ArchiveError)
    -> [SongID]
  {
    try reading {
      try database.rows(
        "SELECT id FROM songs WHERE base_title_key = ?1 AND primary_artist_key = ?2 UNION"
          + " SELECT song_id FROM song_credits WHERE base_title_key = ?1"
          + " AND primary_artist_key = ?2", [baseTitle, primaryArtist]
      ) { SongID($0.int64(at: 0)) }
    }
  }

  /// Whether a song has an entry on a chart before an instant.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func hasEntry(of song: SongID, onChart chart: ChartID, before chartTime: Int64)
    throws(ArchiveError) -> Bool
  {
    try reading {
      try database.row(
        "SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
          + " WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ? LIMIT 1",
        [song.rawValue, chart.rawValue, chartTime], { _ in true }) != nil
    }
  }

  /// The previous ranks a chart's snapshots that follow a missing one, before an instant,
  /// published for a song's entries: the ranks it held on the missing charts.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func ranksOnMissingSnapshots(
    of song: SongID, onChart chart: ChartID, before chartTime: Int64
  ) throws(ArchiveError) -> [Int] {
    try reading {
      try database.rows(
        "SELECT e.published_previous_rank FROM entries e CROSS JOIN snapshots s"
          + " ON s.id = e.snapshot_id WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ?"
          + " AND s.follows_missing_snapshot = 1 AND e.published_previous_rank IS NOT NULL",
        [song.rawValue, chart.rawValue, chartTime], { $0.int(at: 0) })
    }
  }
}
