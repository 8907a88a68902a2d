public import ChartRanking
import Foundation

/// A chart as stored: its name, frequency and the span of its snapshots.
public struct ChartSummary: Hashable, Sendable {
  /// The chart's name.
  public var name: String
  /// How often it is published, when known.
  public var frequency: ChartFrequency?
  /// The IANA time zone its snapshots are cut in (`Asia/Seoul`), `nil` for UTC: a date names the
  /// chart's snapshot of that day in this zone.
  public var timeZone: String?
  /// How many snapshots are stored.
  public var snapshotCount: Int
  /// The earliest chart date, `nil` when there is no snapshot.
  public var firstChartDate: ChartDate?
  /// The latest chart date, `nil` when there is no snapshot.
  public var lastChartDate: ChartDate?
}

/// A snapshot as stored, without its entries.
public struct SnapshotSummary: Hashable, Sendable {
  /// The archive's number for the snapshot.
  public var id: SnapshotID
  /// The chart's name.
  public var chart: String
  /// The chart date.
  public var chartDate: ChartDate
  /// How many entries it holds.
  public var entryCount: Int
  /// Whether its source publishes previous ranks.
  public var publishesPreviousRank: Bool
  /// The file it was imported from, as given, when known.
  public var source: String?
  /// How often the chart is published, when known.
  public var frequency: ChartFrequency?
  /// When it was stored, or last replaced (ISO 8601, UTC: `2026-12-02T08:00:00Z`).
  public var importedAt: String
  /// The IANA time zone the chart is cut in (`Asia/Seoul`), `nil` for UTC.
  public var timeZone: String?
}

/// Which snapshot of a chart a query means.
public enum SnapshotDate: Hashable, Sendable {
  /// The snapshot of this chart date.
  case on(ChartDate)
  /// The chart's latest snapshot.
  case latest
  /// The snapshot before the chart's latest.
  case previous

  /// `latest` or `previous`, the words that stand for a date wherever one is asked for.
  public init?(keyword: String) {
    switch keyword {
    case "latest": self = .latest
    case "previous": self = .previous
    default: return nil
    }
  }
}

/// A snapshot as `show` presents it: the snapshot, the chart's snapshot before it and every
/// entry with its figures.
public struct ChartSnapshot: Sendable {
  /// The snapshot.
  public var summary: SnapshotSummary
  /// The chart's snapshot before it, `nil` for the chart's first.
  public var previous: SnapshotSummary?
  /// Its entries with their previous rank, movement, peak position and weeks on chart, in rank
  /// order.
  public var placements: [Placement]
}

extension ArchiveReader {
  /// An entry's columns as published, from the table aliased `e`: read by ``readEntry(_:from:)``.
  static let entryColumns =
    "e.rank, e.title, e.artist, e.published_previous_rank, e.published_peak_position,"
    + " e.published_weeks_on_chart, e.image_url, e.song_url, e.streams, e.published_run,"
    + " e.published_trend, e.isrc"

  /// How many columns ``entryColumns`` has.
  static let entryColumnCount: Int32 = 12

  /// Reads an entry from ``entryColumns`` at column `offset`.
  static func readEntry(_ row: Statement, from offset: Int32) -> ChartEntry {
    ChartEntry(
      rank: row.int(at: offset), title: row.string(at: offset + 1),
      artist: row.string(at: offset + 2), publishedPreviousRank: row.optionalInt(at: offset + 3),
      publishedPeakPosition: row.optionalInt(at: offset + 4),
      publishedWeeksOnChart: row.optionalInt(at: offset + 5),
      imageURL: row.optionalString(at: offset + 6), songURL: row.optionalString(at: offset + 7),
      streams: row.optionalInt(at: offset + 8), publishedRun: row.optionalInt(at: offset + 9),
      publishedTrend: row.optionalString(at: offset + 10).flatMap(PublishedTrend.init(notation:)),
      isrc: row.optionalString(at: offset + 11).flatMap(ISRC.init))
  }
}

let snapshotColumns = """
  s.id, c.name, s.chart_date, s.chart_time, s.entry_count, s.publishes_previous_rank, s.source,
  c.frequency, s.imported_at, c.time_zone
  """

func readSnapshot(_ row: Statement) -> SnapshotSummary {
  SnapshotSummary(
    id: SnapshotID(row.int64(at: 0)), chart: row.string(at: 1),
    chartDate: ChartDate(trustedISO8601: row.string(at: 2), secondsSince1970: row.int64(at: 3)),
    entryCount: row.int(at: 4), publishesPreviousRank: row.bool(at: 5),
    source: row.optionalString(at: 6),
    frequency: row.optionalString(at: 7).flatMap(ChartFrequency.init),
    importedAt: row.string(at: 8), timeZone: row.optionalString(at: 9))
}

extension ArchiveReader {
  // MARK: - Charts and snapshots

  /// When the archive last stored a snapshot: the latest `imported_at` (ISO 8601, UTC), or `nil`
  /// for an empty archive. A client compares it to decide whether to fetch again.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func lastImportTime() throws(ArchiveError) -> ChartDate? {
    let text = try reading {
      try database.row("SELECT max(imported_at) FROM snapshots") { $0.optionalString(at: 0) } ?? nil
    }
    return text.flatMap { try? ChartDate(iso8601: $0) }
  }

  /// Every chart, by name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func charts() throws(ArchiveError) -> [ChartSummary] {
    try reading {
      try database.rows(
        """
        SELECT c.name, c.frequency, c.time_zone, count(s.id),
          (SELECT chart_date FROM snapshots WHERE chart_id = c.id ORDER BY chart_time LIMIT 1),
          min(s.chart_time),
          (SELECT chart_date FROM snapshots WHERE chart_id = c.id ORDER BY chart_time DESC LIMIT 1),
          max(s.chart_time)
        FROM charts c LEFT JOIN snapshots s ON s.chart_id = c.id GROUP BY c.id ORDER BY c.name
        """
      ) { row in
        ChartSummary(
          name: row.string(at: 0),
          frequency: row.optionalString(at: 1).flatMap(ChartFrequency.init),
          timeZone: row.optionalString(at: 2),
          snapshotCount: row.int(at: 3),
          firstChartDate: row.optionalString(at: 4).map {
            ChartDate(trustedISO8601: $0, secondsSince1970: row.int64(at: 5))
          },
          lastChartDate: row.optionalString(at: 6).map {
            ChartDate(trustedISO8601: $0, secondsSince1970: row.int64(at: 7))
          })
      }
    }
  }

  /// Every snapshot of a chart, by chart date.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func snapshots(of chart: String) throws(ArchiveError) -> [SnapshotSummary] {
    let chartID = try self.chartID(chart)
    return try reading {
      try database.rows(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE s.chart_id = ? ORDER BY s.chart_time", [chartID], readSnapshot)
    }
  }

  /// The snapshot of a chart at a chart date, or its latest one.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - chartDate: the chart date; `nil` for the latest snapshot.
  /// - Throws: as ``snapshot(of:at:)-(_,SnapshotDate)``.
  public func snapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> SnapshotSummary
  {
    try snapshot(of: chart, at: chartDate.map(SnapshotDate.on) ?? .latest)
  }

  /// A snapshot of a chart: of a chart date, the latest, or the one before the latest.
  ///
  /// A calendar date (`2024-06-08`) names the snapshot of that date; for a chart cut in a time
  /// zone (``ChartSummary/timeZone``), the snapshot whose instant falls on that day in the zone
  /// (a weekly chart cut at 12:00 Korea time, stored as `2024-06-08T03:00:00Z`). A chart without
  /// a zone has only the snapshot of that date, midnight UTC.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)``;
  ///   ``ArchiveError/noSuchSnapshot(chart:chartDate:before:after:)`` with the chart dates nearest
  ///   the one asked for;
  ///   ``ArchiveError/severalSnapshotsOnDay(chart:day:timeZone:chartDates:)`` for a day of a
  ///   chart with a zone that has several; ``ArchiveError/notEnoughSnapshots(chart:needed:stored:)`` when the chart
  ///   has too few for `latest` or `previous`; or ``ArchiveError/database(path:_:)``.
  public func snapshot(of chart: String, at when: SnapshotDate) throws(ArchiveError)
    -> SnapshotSummary
  {
    let chartID = try self.chartID(chart)
    let select = "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
    switch when {
    case .on(let chartDate):
      if let found = try reading({
        try database.row(
          select + " WHERE s.chart_id = ? AND s.chart_time = ?",
          [chartID, chartDate.secondsSince1970], readSnapshot)
      }) {
        return found
      }
      if let found = try snapshot(ofChart: chart, id: chartID, onDay: chartDate) { return found }
      // The chart dates around the one asked for.
      let time = chartDate.secondsSince1970
      throw .noSuchSnapshot(
        chart: chart, chartDate: chartDate,
        before: try snapshot(ofChart: ChartID(chartID), before: time)?.chartDate,
        after: try snapshot(ofChart: ChartID(chartID), after: time)?.chartDate)
    case .latest, .previous:
      let skipped = when == .latest ? 0 : 1
      let found = try reading {
        try database.row(
          select + " WHERE s.chart_id = ? ORDER BY s.chart_time DESC LIMIT 1 OFFSET ?",
          [chartID, skipped], readSnapshot)
      }
      if let found { return found }
      let stored = try reading {
        try database.row("SELECT count(*) FROM snapshots WHERE chart_id = ?", [chartID]) {
          $0.int(at: 0)
        } ?? 0
      }
      throw .notEnoughSnapshots(chart: chart, needed: skipped + 1, stored: stored)
    }
  }

  /// The snapshot of a chart at a chart date (its latest when `nil`), the one before it and its
  /// entries' figures: what `show` presents.
  ///
  /// - Throws: as ``snapshot(of:at:)``.
  public func chartSnapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> ChartSnapshot
  {
    try chartSnapshot(of: chart, at: chartDate.map(SnapshotDate.on) ?? .latest)
  }

  /// A snapshot (see ``snapshot(of:at:)-(_,SnapshotDate)``), the one before it and its entries'
  /// figures: what `show` presents.
  ///
  /// - Throws: as ``snapshot(of:at:)-(_,SnapshotDate)``.
  public func chartSnapshot(of chart: String, at when: SnapshotDate) throws(ArchiveError)
    -> ChartSnapshot
  {
    let summary = try snapshot(of: chart, at: when)
    return ChartSnapshot(
      summary: summary, previous: try snapshot(before: summary),
      placements: try placements(of: summary))
  }

  /// The two snapshots a diff compares, older first: with no date, the chart's last two; with one,
  /// the snapshot of that date and the one before it; with two, those (in either order).
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - first: a chart date, or `nil`.
  ///   - second: another chart date, or `nil` (only when `first` is given).
  /// - Throws: ``ArchiveError/noSuchChart(_:)``, ``ArchiveError/noSuchSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/noEarlierSnapshot(chart:chartDate:)`` when the one date given is the
  ///   chart's first, ``ArchiveError/notEnoughSnapshots(chart:needed:stored:)`` when the chart
  ///   has one snapshot, ``ArchiveError/sameSnapshot(chart:chartDate:)`` when the two dates name
  ///   one snapshot (`latest` and its date), or ``ArchiveError/database(path:_:)``.
  public func snapshotsToCompare(of chart: String, _ first: SnapshotDate?, _ second: SnapshotDate?)
    throws(ArchiveError) -> (older: SnapshotSummary, newer: SnapshotSummary)
  {
    if let first, let second {
      let one = try snapshot(of: chart, at: first)
      let other = try snapshot(of: chart, at: second)
      guard one.id != other.id else { throw .sameSnapshot(chart: chart, chartDate: one.chartDate) }
      return one.chartDate < other.chartDate ? (one, other) : (other, one)
    }
    let newer = try snapshot(of: chart, at: first ?? .latest)
    guard let older = try snapshot(before: newer) else {
      if first != nil { throw .noEarlierSnapshot(chart: chart, chartDate: newer.chartDate) }
      throw .notEnoughSnapshots(chart: chart, needed: 2, stored: 1)
    }
    return (older, newer)
  }

  /// The snapshot just before another of the same chart, or `nil` when it is the first.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(before snapshot: SnapshotSummary) throws(ArchiveError) -> SnapshotSummary? {
    guard let chart = try chart(named: snapshot.chart),
      let previous = try self.snapshot(
        ofChart: chart.id, before: snapshot.chartDate.secondsSince1970)
    else { return nil }
    return try summary(of: previous.id)
  }

  /// The snapshot just after another of the same chart, or `nil` when it is the latest.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(after snapshot: SnapshotSummary) throws(ArchiveError) -> SnapshotSummary? {
    guard let chart = try chart(named: snapshot.chart),
      let next = try self.snapshot(ofChart: chart.id, after: snapshot.chartDate.secondsSince1970)
    else { return nil }
    return try summary(of: next.id)
  }

  /// The summary of a snapshot, or `nil` when there is none with this ID.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  func summary(of snapshot: SnapshotID) throws(ArchiveError) -> SnapshotSummary? {
    try reading {
      try database.row(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE s.id = ?", [snapshot.rawValue], readSnapshot)
    }
  }

  /// The entries of a snapshot with their songs, in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entries(of snapshot: SnapshotID) throws(ArchiveError) -> [ArchivedEntry] {
    try reading { try Self.entries(of: snapshot, in: database) }
  }

  /// Whether the source of any of these snapshots numbered the runs of its songs (an entry has
  /// a published run): an export then writes them.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func publishesRuns(_ snapshots: [SnapshotID]) throws(ArchiveError) -> Bool {
    try anyEntry(of: snapshots, has: "published_run")
  }

  /// Whether an entry of any of these snapshots has an ISRC: an export then writes them.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func hasISRCs(_ snapshots: [SnapshotID]) throws(ArchiveError) -> Bool {
    try anyEntry(of: snapshots, has: "isrc")
  }

  /// Whether the source of any of these snapshots published the movement of an entry (an entry
  /// has a published trend): an export then writes them.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func publishesTrends(_ snapshots: [SnapshotID]) throws(ArchiveError) -> Bool {
    try anyEntry(of: snapshots, has: "published_trend")
  }

  /// Whether an entry of these snapshots has a value in `column` (a column of `entries`, named
  /// by the code, never by a user).
  private func anyEntry(of snapshots: [SnapshotID], has column: String) throws(ArchiveError)
    -> Bool
  {
    try reading {
      for snapshot in snapshots {
        let found = try database.row(
          "SELECT 1 FROM entries WHERE snapshot_id = ? AND \(column) IS NOT NULL LIMIT 1",
          [snapshot.rawValue], { _ in true })
        if found != nil { return true }
      }
      return false
    }
  }

  static func entries(of snapshot: SnapshotID, in database: Database) throws(DatabaseError)
    -> [ArchivedEntry]
  {
    try database.rows(
      "SELECT e.song_id, \(entryColumns) FROM entries e WHERE e.snapshot_id = ?"
        + " ORDER BY e.position", [snapshot.rawValue]
    ) { ArchivedEntry(entry: readEntry($0, from: 1), song: SongID($0.int64(at: 0))) }
  }

  /// The one snapshot of a chart cut in a time zone whose instant falls on `day` in its zone;
  /// `nil` for a chart without a zone, a date and time, or a day without a snapshot.
  ///
  /// - Throws: ``ArchiveError/severalSnapshotsOnDay(chart:day:timeZone:chartDates:)``, or
  ///   ``ArchiveError/database(path:_:)``.
  private func snapshot(ofChart chart: String, id chartID: Int64, onDay day: ChartDate)
    throws(ArchiveError) -> SnapshotSummary?
  {
    guard !day.hasTime, let zoneName = try self.chart(named: chart)?.timeZone,
      let zone = TimeZone(identifier: zoneName)
    else { return nil }
    let span = ChartDate.instants(ofDay: day, in: zone)
    let found = try reading {
      try database.rows(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE s.chart_id = ? AND s.chart_time >= ? AND s.chart_time < ?"
          + " ORDER BY s.chart_time", [chartID, span.lowerBound, span.upperBound], readSnapshot)
    }
    guard found.count > 1 else { return found.first }
    throw .severalSnapshotsOnDay(
      chart: chart, day: day, timeZone: zoneName, chartDates: found.map(\.chartDate))
  }

  /// The time zone a chart's days are in, as a span of dates (records, periods) reads them: the
  /// zone its snapshots are cut in (``ChartSummary/timeZone``), UTC for a chart without one.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  func timeZone(ofChart chartID: Int64) throws(ArchiveError) -> TimeZone {
    let name = try reading {
      try database.row("SELECT time_zone FROM charts WHERE id = ?", [chartID]) {
        $0.optionalString(at: 0)
      } ?? nil
    }
    return name.flatMap(TimeZone.init(identifier:)) ?? .gmt
  }

  // MARK: - Helpers

  func chartID(_ name: String) throws(ArchiveError) -> Int64 {
    guard
      let id = try reading({
        try database.row("SELECT id FROM charts WHERE name = ?", [name]) {
          $0.int64(at: 0)
        }
      })
    else {
      let charts = try reading {
        try database.rows("SELECT name FROM charts ORDER BY name") { $0.string(at: 0) }
      }
      throw .noSuchChart(name, charts: charts)
    }
    return id
  }
}

/// The archive's version (table `archive_version`): it grows with every committed change, so
/// that a client that polls it never misses one.
public struct ArchiveVersion: Hashable, Sendable {
  /// 0 for an archive nothing was written to; one more with each committed change.
  public var version: Int
  /// When the archive last changed, in seconds since 1970-01-01T00:00:00Z: 0 for an archive
  /// nothing was written to, and different for every version (a change within the second of the
  /// one before takes the next second).
  public var updated: Int
}

extension ArchiveReader {
  /// The archive's version and when it last changed.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func version() throws(ArchiveError) -> ArchiveVersion {
    try reading {
      try database.row("SELECT version, updated FROM archive_version") {
        ArchiveVersion(version: $0.int(at: 0), updated: $0.int(at: 1))
      } ?? ArchiveVersion(version: 0, updated: 0)
    }
  }
}
