public import ChartRanking
public import ChartStorage
import Foundation

// MARK: - Charts and snapshots

/// The charts of an archive: name, frequency, snapshot count, first and last chart dates, and,
/// when a chart is cut in a time zone, each chart's zone (`time_zone`, `TIME ZONE`: an IANA name,
/// or none for UTC); an archive without zones lists no such column.
public struct ChartsView: Presentation {
  /// The charts, by name.
  public var charts: [ChartSummary]

  /// The view of the charts.
  public init(charts: [ChartSummary]) { self.charts = charts }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let zoned = charts.contains { $0.timeZone != nil }
    return Document(
      "charts",
      Table(
        columns: [
          Column(key: "chart", heading: "CHART"),
          Column(key: "frequency", heading: "FREQUENCY"),
        ] + (zoned ? [Column(key: "time_zone", heading: "TIME ZONE")] : []) + [
          Column(key: "snapshots", heading: "SNAPSHOTS", alignRight: true),
          Column(key: "first_chart_date", heading: "FIRST"),
          Column(key: "last_chart_date", heading: "LAST"),
        ],
        rows: charts.map { chart in
          [.text(chart.name), .optional(chart.frequency?.rawValue)]
            + (zoned ? [.optional(chart.timeZone)] : []) + [
              .int(chart.snapshotCount), .optional(chart.firstChartDate?.iso8601),
              .optional(chart.lastChartDate?.iso8601),
            ]
        })
    )
    .rendered(as: format, style: style)
  }
}

/// The snapshots of one chart, oldest first: chart date, entry count and source.
public struct SnapshotsView: Presentation {
  /// The chart's name.
  public var chart: String
  /// Its snapshots, by chart date.
  public var snapshots: [SnapshotSummary]

  /// The view of a chart's snapshots.
  public init(chart: String, snapshots: [SnapshotSummary]) {
    self.chart = chart
    self.snapshots = snapshots
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    return Document(
      "snapshots",
      Table(
        columns: [
          Column(key: "chart_date", heading: "CHART DATE"),
          Column(key: "entries", heading: "ENTRIES", alignRight: true),
          Column(key: "source", heading: "SOURCE"),
        ],
        rows: snapshots.map {
          [.text($0.chartDate.iso8601), .int($0.entryCount), .optional($0.source)]
        }), fields: [("chart", .text(chart))]
    )
    .rendered(as: format, style: style)
  }
}

/// One snapshot with each entry's movement, previous rank, peak position and weeks on chart.
public struct SnapshotView: Presentation {
  /// The snapshot, the one before it and the placements (see ``ChartSnapshot``).
  public var snapshot: ChartSnapshot
  /// How many entries to show, from the top (after ``offset``).
  public var limit: Int
  /// How many entries to leave out before those shown, from the top (a page of the service's).
  public var offset: Int

  /// The view of a snapshot, its top `limit` entries after the first `offset`.
  public init(_ snapshot: ChartSnapshot, limit: Int = .max, offset: Int = 0) {
    self.snapshot = snapshot
    self.limit = limit
    self.offset = offset
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let summary = snapshot.summary
    var document = Document()
    document.fields = [
      ("chart", .text(summary.chart)), ("chart_date", .text(summary.chartDate.iso8601)),
      ("previous_chart_date", .optional(snapshot.previous?.chartDate.iso8601)),
    ]
    document.heading = [
      "\(summary.chart) · \(summary.chartDate)"
        + (summary.timeZone.flatMap { Self.localTime(of: summary.chartDate, in: $0) } ?? "")
        + (snapshot.previous.map { " (previous: \($0.chartDate))" } ?? " (first snapshot)")
    ]
    let shown = snapshot.placements.dropFirst(offset).prefix(limit)
    document.sections = [
      ("entries", "", placementTable(shown, periods: Periods(summary.frequency)))
    ]
    document.footer = markNotes(shown.map(\.figures))
    return document.rendered(as: format, style: style)
  }
}

extension SnapshotView {
  /// A chart date and time as the clocks of the chart's zone showed it, after the stored instant
  /// in the heading of a chart cut in a zone: `, 12:00 on 2024-06-08 in Asia/Seoul`; `nil` for a
  /// calendar date or a zone this system does not know.
  static func localTime(of chartDate: ChartDate, in zoneName: String) -> String? {
    guard chartDate.hasTime, let zone = TimeZone(identifier: zoneName) else { return nil }
    let offset = zone.secondsFromGMT(
      for: Date(timeIntervalSince1970: TimeInterval(chartDate.secondsSince1970)))
    guard let local = ChartDate(secondsSince1970: chartDate.secondsSince1970 + Int64(offset))
    else { return nil }
    let time = local.hasTime ? String(local.iso8601.dropFirst(11).prefix(5)) : "00:00"
    return ", \(time) on \(local.day) in \(zoneName)"
  }
}

/// What changed between two snapshots: arrivals (debuts and re-entries), drop-outs and the
/// movements of the entries on both.
public struct DiffView: Presentation {
  /// The chart's name.
  public var chart: String
  /// The older snapshot.
  public var older: SnapshotSummary
  /// The newer snapshot.
  public var newer: SnapshotSummary
  /// The diff.
  public var diff: SnapshotDiff

  /// The view of a diff.
  public init(chart: String, older: SnapshotSummary, newer: SnapshotSummary, diff: SnapshotDiff) {
    self.chart = chart
    self.older = older
    self.newer = newer
    self.diff = diff
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let moveColumns = [
      Column(key: "rank", heading: "RANK", alignRight: true),
      Column(key: "movement", heading: "MOVE"),
      Column(key: "older_rank", heading: "WAS", alignRight: true),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ]
    func row(_ line: SnapshotDiff.Line) -> [Cell] {
      [
        .int(line.entry.entry.rank), .movement(line.movement),
        line.figures.map { figureCells($0).previous } ?? .optional(line.olderRank),
        .text(line.entry.entry.title), .text(line.entry.entry.artist),
      ]
    }
    let moves = diff.moves
    let arrivals = diff.arrivals
    let up = moves.filter { ($0.movement.change ?? 0) > 0 }.count
    let down = moves.filter { ($0.movement.change ?? 0) < 0 }.count
    var document = Document()
    document.fields = [
      ("chart", .text(chart)), ("older_chart_date", .text(older.chartDate.iso8601)),
      ("newer_chart_date", .text(newer.chartDate.iso8601)),
    ]
    document.heading = ["\(chart): \(older.chartDate) → \(newer.chartDate)"]
    document.sections = [
      (
        "arrivals", "Debuts and re-entries (\(arrivals.count))",
        Table(columns: moveColumns, rows: arrivals.map(row))
      ),
      (
        "drop_outs", "Drop-outs (\(diff.dropOuts.count))",
        dropOutTable(diff.dropOuts, rankKey: "older_rank", heading: "WAS")
      ),
      (
        "movements",
        "On both (\(moves.count): \(up) up, \(down) down, \(moves.count - up - down) unchanged)",
        Table(columns: moveColumns, rows: moves.map(row))
      ),
    ]
    document.footer = markNotes(diff.lines.compactMap(\.figures)).filter {
      $0.hasPrefix(correctedMark)
    }
    return document.rendered(as: format, style: style)
  }
}

/// A snapshot's rank-change report: number one, debuts, re-entries, climbers, fallers and
/// drop-outs.
public struct ReportView: Presentation {
  /// The chart's name.
  public var chart: String
  /// The snapshot reported on.
  public var snapshot: SnapshotSummary
  /// The snapshot it is compared with, `nil` for the chart's first.
  public var previous: SnapshotSummary?
  /// The report.
  public var report: RankChangeReport

  /// The view of a report.
  public init(
    chart: String, snapshot: SnapshotSummary, previous: SnapshotSummary?, report: RankChangeReport
  ) {
    self.chart = chart
    self.snapshot = snapshot
    self.previous = previous
    self.report = report
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    var document = Document()
    document.fields = [
      ("chart", .text(chart)), ("chart_date", .text(snapshot.chartDate.iso8601)),
      ("previous_chart_date", .optional(previous?.chartDate.iso8601)),
    ]
    document.heading = [
      "\(chart) · \(snapshot.chartDate)"
        + (previous.map { " (against \($0.chartDate))" } ?? " (first snapshot)")
    ]
    let periods = Periods(snapshot.frequency)
    document.sections = [
      ("number_one", "Number one", placementTable(report.numberOne, periods: periods)),
      (
        "debuts", "Debuts (\(report.debuts.count))", placementTable(report.debuts, periods: periods)
      ),
      (
        "reentries", "Re-entries (\(report.reentries.count))",
        placementTable(report.reentries, periods: periods)
      ),
      ("climbers", "Biggest climbers", placementTable(report.climbers, periods: periods)),
      ("fallers", "Biggest fallers", placementTable(report.fallers, periods: periods)),
    ]
    if let dropOuts = report.dropOuts {
      document.sections.append(
        (
          "drop_outs", "Drop-outs (\(dropOuts.count))",
          dropOutTable(dropOuts, rankKey: "previous_rank", heading: "LAST")
        ))
    } else {
      document.unknownSections.append(
        ("drop_outs", "Drop-outs: unknown (the archive holds no snapshot before this one)"))
    }
    let shown = [
      report.numberOne, report.debuts, report.reentries, report.climbers, report.fallers,
    ]
    document.footer = markNotes(shown.joined().map(\.figures))
    return document.rendered(as: format, style: style)
  }
}
