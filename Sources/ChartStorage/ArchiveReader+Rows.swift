public import ChartRanking

/// A snapshot's row as a chart orders its snapshots: what an import asks of the snapshots around
/// the one it stores.
public struct StoredSnapshot: Hashable, Sendable {
  /// The archive's number for the snapshot.
  public var id: SnapshotID
  /// Its chart date.
  public var chartDate: ChartDate
  /// Whether its source publishes previous ranks.
  public var publishesPreviousRank: Bool
}

/// A chart's row.
public struct StoredChart: Hashable, Sendable {
  /// The archive's number for the chart.
  public var id: ChartID
  /// How often it is published; `nil` when no import gave it.
  public var frequency: ChartFrequency?
  /// The IANA time zone its snapshots are cut in (`Asia/Seoul`), set by its first import that
  /// gave one; `nil` for UTC.
  public var timeZone: String?
}

/// A stored snapshot with its entries, their songs and the figures decided for them.
public struct StoredFigures: Sendable {
  /// The snapshot, its entries and their songs, as deciding figures takes them.
  public var snapshot: LinkedSnapshot
  /// Each entry's figures as stored, same order.
  public var figures: [EntryFigures]
  /// Whether the source's previous chart is missing from the archive, as decided.
  public var followsMissingSnapshot: Bool
}

extension ArchiveReader {
  /// The columns of a ``StoredSnapshot``, read by `storedSnapshot(_:)`.
  private static let storedSnapshotColumns = "id, chart_date, chart_time, publishes_previous_rank"

  private static func storedSnapshot(_ row: Statement) -> StoredSnapshot {
    StoredSnapshot(
      id: SnapshotID(row.int64(at: 0)),
      chartDate: ChartDate(trustedISO8601: row.string(at: 1), secondsSince1970: row.int64(at: 2)),
      publishesPreviousRank: row.bool(at: 3))
  }

  /// The chart's snapshot at an instant (a chart date's `secondsSince1970`), or `nil`.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(ofChart chart: ChartID, at chartTime: Int64) throws(ArchiveError)
    -> StoredSnapshot?
  {
    try reading {
      try database.row(
        "SELECT \(Self.storedSnapshotColumns) FROM snapshots WHERE chart_id = ? AND chart_time = ?",
        [chart.rawValue, chartTime], Self.storedSnapshot)
    }
  }

  /// The chart's previous snapshot: its last one before an instant (a chart date's
  /// `secondsSince1970`), or `nil` when it has none before it. The one query of "the snapshot
  /// before", for the import and for every command.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(ofChart chart: ChartID, before chartTime: Int64) throws(ArchiveError)
    -> StoredSnapshot?
  {
    try reading {
      try database.row(
        "SELECT \(Self.storedSnapshotColumns) FROM snapshots WHERE chart_id = ? AND chart_time < ?"
          + " ORDER BY chart_time DESC LIMIT 1", [chart.rawValue, chartTime], Self.storedSnapshot)
    }
  }

  /// The chart's next snapshot: its first one after an instant, or `nil` when it has none after it.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(ofChart chart: ChartID, after chartTime: Int64) throws(ArchiveError)
    -> StoredSnapshot?
  {
    try reading {
      try database.row(
        "SELECT \(Self.storedSnapshotColumns) FROM snapshots WHERE chart_id = ? AND chart_time > ?"
          + " ORDER BY chart_time LIMIT 1", [chart.rawValue, chartTime], Self.storedSnapshot)
    }
  }

  /// The chart's snapshots from an instant (a chart date's `secondsSince1970`) and before another,
  /// in chart-date order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshots(ofChart chart: ChartID, from start: Int64, before end: Int64)
    throws(ArchiveError) -> [StoredSnapshot]
  {
    try reading {
      try database.rows(
        "SELECT \(Self.storedSnapshotColumns) FROM snapshots"
          + " WHERE chart_id = ? AND chart_time >= ? AND chart_time < ? ORDER BY chart_time",
        [chart.rawValue, start, end], Self.storedSnapshot)
    }
  }

  /// The chart with this name, or `nil` when the archive has none.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func chart(named name: String) throws(ArchiveError) -> StoredChart? {
    try reading {
      try database.row(
        "SELECT id, frequency, time_zone FROM charts WHERE name = ?", [name],
        {
          StoredChart(
            id: ChartID($0.int64(at: 0)),
            frequency: $0.optionalString(at: 1).flatMap(ChartFrequency.init),
            timeZone: $0.optionalString(at: 2))
        })
    }
  }

  /// The names of every chart, in no particular order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func chartNames() throws(ArchiveError) -> [String] {
    try reading { try database.rows("SELECT name FROM charts", [], { $0.string(at: 0) }) }
  }

  /// The name of a chart, or `nil` when there is no such chart.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func name(ofChart chart: ChartID) throws(ArchiveError) -> String? {
    try reading {
      try database.row(
        "SELECT name FROM charts WHERE id = ?", [chart.rawValue], { $0.string(at: 0) })
    }
  }

  /// The frequency stored for a chart, `nil` when it has none.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func frequency(ofChart chart: ChartID) throws(ArchiveError) -> ChartFrequency? {
    try reading {
      try database.row(
        "SELECT frequency FROM charts WHERE id = ?", [chart.rawValue],
        { $0.optionalString(at: 0).flatMap(ChartFrequency.init(rawValue:)) }) ?? nil
    }
  }

  /// Whether the archive holds a chart other than this one.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func hasChart(otherThan chart: ChartID) throws(ArchiveError) -> Bool {
    try reading {
      try database.row(
        "SELECT 1 FROM charts WHERE id != ? LIMIT 1", [chart.rawValue], { _ in true }) ?? false
    }
  }

  /// A stored snapshot with its entries, songs and decided figures, or `nil` when there is none
  /// with this ID.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func storedFigures(of id: SnapshotID) throws(ArchiveError) -> StoredFigures? {
    try reading { () throws(DatabaseError) -> StoredFigures? in
      guard
        let (date, time, publishes, follows) = try database.row(
          "SELECT chart_date, chart_time, publishes_previous_rank, follows_missing_snapshot"
            + " FROM snapshots WHERE id = ?", [id.rawValue],
          { ($0.string(at: 0), $0.int64(at: 1), $0.bool(at: 2), $0.bool(at: 3)) })
      else { return nil }
      let verdicts = try verdicts(of: id)
      var entries: [ArchivedEntry] = []
      var figures: [EntryFigures] = []
      let statement = try database.statement(
        "SELECT e.song_id, \(Self.entryColumns), \(FigureColumns.sql)"
          + " FROM entries e WHERE e.snapshot_id = ? ORDER BY e.position")
      statement.bind(id.rawValue, at: 1)
      defer { statement.reset() }
      while try statement.step() {
        let entry = Self.readEntry(statement, from: 1)
        entries.append(ArchivedEntry(entry: entry, song: SongID(statement.int64(at: 0))))
        figures.append(
          FigureColumns.read(
            statement, from: 1 + Self.entryColumnCount, entry: entry,
            verdicts: verdicts[figures.count] ?? [:]))
      }
      return StoredFigures(
        snapshot: LinkedSnapshot(
          id: id, chartDate: ChartDate(trustedISO8601: date, secondsSince1970: time),
          publishesPreviousRank: publishes, entries: entries),
        figures: figures, followsMissingSnapshot: follows)
    }
  }

  /// The verdicts of a snapshot's entries, by position.
  func verdicts(of snapshot: SnapshotID) throws(DatabaseError) -> [Int: [AuditFigure:
    FigureVerdict]]
  {
    var verdicts: [Int: [AuditFigure: FigureVerdict]] = [:]
    for (position, figure, derived, cause) in try database.rows(
      "SELECT position, figure, derived, cause FROM verdicts WHERE snapshot_id = ?",
      [snapshot.rawValue], { ($0.int(at: 0), $0.int(at: 1), $0.optionalInt(at: 2), $0.int(at: 3)) })
    {
      verdicts[position, default: [:]][VerdictCodes.figures[figure]] = FigureVerdict(
        derived: derived, cause: VerdictCodes.cause(code: cause))
    }
    return verdicts
  }
}
