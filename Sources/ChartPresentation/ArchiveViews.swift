import ChartFormats
public import ChartRanking
public import ChartStorage
import Foundation

/// The audit of a chart: agreement per figure, disagreements per cause, and each disagreement.
/// CSV gives the disagreements only, one a line. A table for people leaves out the run and the
/// movement when the source publishes none (few do), and the cause joined by hand when no
/// disagreement has it (an archive without decisions); JSON has every figure and cause.
public struct AuditView: Presentation {
  /// The chart's name.
  public var chart: String
  /// The first and last chart dates audited, when limited.
  public var from: ChartDate?
  public var to: ChartDate?
  /// The audit.
  public var audit: ChartAudit
  /// Whether to leave the disagreements out (JSON and tables; CSV is the disagreements).
  public var summaryOnly: Bool

  /// The view of an audit.
  public init(
    chart: String, from: ChartDate?, to: ChartDate?, audit: ChartAudit, summaryOnly: Bool
  ) {
    self.chart = chart
    self.from = from
    self.to = to
    self.audit = audit
    self.summaryOnly = summaryOnly
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let summary = Table(
      columns: [
        Column(key: "figure", heading: "FIGURE"),
        Column(key: "compared", heading: "COMPARED", alignRight: true),
        Column(key: "agreeing", heading: "AGREEING", alignRight: true),
        Column(key: "percentage", heading: "%", alignRight: true),
      ],
      rows: audit.agreements.filter {
        format != .table || ($0.figure != .run && $0.figure != .movement) || $0.compared > 0
      }.map {
        [
          .text($0.figure.rawValue), .int($0.compared), .int($0.agreeing),
          $0.percentage.map { .text(String(format: "%.3f", $0)) } ?? .null,
        ]
      })
    let counts = audit.causeCounts
    let causes = Table(
      columns: [
        Column(key: "cause", heading: "CAUSE"),
        Column(key: "disagreements", heading: "DISAGREEMENTS", alignRight: true),
      ],
      rows: DisagreementCause.allCases.filter {
        format != .table || $0 != .joinedByHand || counts[$0] != nil
      }.map { [.text($0.rawValue), .int(counts[$0] ?? 0)] })
    var list = Table(columns: [
      Column(key: "chart_date", heading: "CHART DATE"),
      Column(key: "rank", heading: "RANK", alignRight: true),
      Column(key: "figure", heading: "FIGURE"),
      Column(key: "published", heading: "PUBLISHED", alignRight: true),
      Column(key: "derived", heading: "DERIVED", alignRight: true),
      Column(key: "cause", heading: "CAUSE"),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ])
    if !summaryOnly {
      list.rows = audit.disagreements.map {
        [
          .text($0.chartDate.iso8601), .int($0.entry.rank), .text($0.figure.rawValue),
          $0.entry.publishedTrend.map { .figure($0.text) } ?? .optional($0.published),
          $0.derivedMovement.map { .text(ImportWords.words(for: $0)) } ?? .optional($0.derived),
          .text($0.cause.rawValue), .text($0.entry.title), .text($0.entry.artist),
        ]
      }
    }
    var document = Document()
    if format == .csv {
      // One table for machines: the disagreements, or with the summary only, the agreement per
      // figure (the whole summary is in JSON and in the table).
      document.fields = [("chart", .text(chart))]
      document.sections = [summaryOnly ? ("agreement", "", summary) : ("disagreements", "", list)]
      return document.rendered(as: format, style: style)
    }
    document.fields = [
      ("chart", .text(chart)), ("from", .optional(from?.iso8601)), ("to", .optional(to?.iso8601)),
    ]
    document.heading = [
      "Audit of \(chart)" + (from.map { " from \($0)" } ?? "") + (to.map { " to \($0)" } ?? "")
    ]
    document.sections = [("agreement", "", summary), ("causes", "", causes)]
    if !summaryOnly {
      document.sections.append(
        ("disagreements", "Disagreements (\(audit.disagreements.count))", list))
    }
    return document.rendered(as: format, style: style)
  }
}

/// The results of an archive's checks: each check, ok or failed, with its problems.
public struct ChecksView: Presentation {
  /// The archive's path.
  public var path: String
  /// The checks, in the order run.
  public var checks: [ArchiveCheck]

  /// The view of a check's results.
  public init(path: String, checks: [ArchiveCheck]) {
    self.path = path
    self.checks = checks
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    return Document(
      "checks",
      Table(
        columns: [
          Column(key: "check", heading: "CHECK"),
          Column(key: "result", heading: "RESULT"),
          Column(key: "problems", heading: "PROBLEMS"),
        ],
        rows: checks.map {
          [
            .text(Self.name(of: $0.kind)), .text($0.passed ? "ok" : "failed"),
            .text($0.findings.map(Self.words).joined(separator: "; ")),
          ]
        }), fields: [("archive", .text(path))]
    )
    .rendered(as: format, style: style)
  }

  /// What a check is, as a short phrase.
  static func name(of kind: ArchiveCheck.Kind) -> String {
    switch kind {
    case .integrity: "SQLite integrity"
    case .foreignKeys: "foreign keys"
    case .ranks: "ranks positive and in order per snapshot"
    case .snapshots: "snapshots dated, ordered and not empty"
    case .songs: "every entry's song present"
    case .checkConstraints: "numbers within CHECK constraints"
    case .artistTotals: "artist totals agree with the entries"
    }
  }

  /// A finding, in one line.
  static func words(_ finding: ArchiveFinding) -> String {
    switch finding {
    case .schemaUnreadable(let message):
      "the schema cannot be read: \(message)"
    case .notChecked(let message):
      "could not be checked: \(message)"
    case .notCheckedFurther(let message):
      "could not be checked further: \(message)"
    case .integrity(let line):
      line
    case .missingReference(let table, let rowID, let parent):
      "\(table) row \(rowID) refers to a missing \(parent) row"
    case .rankOutOfOrder(let chart, let chartDate, let position, let rank, let previousRank):
      "\(chart) \(chartDate): entry \(position) has rank \(rank), below the rank \(previousRank)"
        + " of the entry before it"
    case .rankBelowOne(let chart, let chartDate, let rank):
      "\(chart) \(chartDate): rank \(rank) is below 1"
    case .emptySnapshot(let chart, let chartDate):
      "\(chart) \(chartDate): no entries"
    case .invalidChartDate(let chart, let text):
      "\(chart) '\(text)': not an ISO 8601 chart date"
    case .instantDisagrees(let chart, let chartDate, let stored, let dated):
      "\(chart) \(chartDate): stored as the instant \(stored), which is \(dated)"
    case .missingSong(let chartDate, let rank, let song):
      "\(chartDate) rank \(rank): song \(song) is missing"
    case .brokenConstraint(let row, let constraint):
      "\(words(row)): \(constraint)"
    case .artistTotalDisagrees(let chart, let artist, let figure, let kept, let counted):
      "\(chart), \(artist), \(figure.rawValue): kept \(words(kept)), counted \(words(counted))"
    }
  }

  private static func words(_ row: ArchiveRow) -> String {
    switch row {
    case .entry(let chart, let chartDate, let position): "\(chart) \(chartDate) entry \(position)"
    case .snapshot(let id): "snapshot \(id)"
    case .song(let id): "song \(id)"
    case .chart(let id): "chart \(id)"
    case .verdict(let snapshot, let position): "verdict of snapshot \(snapshot) entry \(position)"
    case .decision(let number): "decision \(number)"
    }
  }

  /// A kept or counted artist total: `12 (2009-05-02 to 2023-01-07)`, or `none`.
  private static func words(_ total: ArtistTotal?) -> String {
    guard let total else { return "none" }
    return "\(total.total) (\(total.firstDate) to \(total.lastDate))"
  }
}

/// A backup of the archive: where it was copied from and to, and what the copy holds. For people,
/// a sentence; JSON, one object of these fields; CSV, their row under a header.
public struct BackupView: Presentation {
  /// The archive's path, as given.
  public var archive: String
  /// The copy's path, as given.
  public var backup: String
  /// The copy's charts, as ``ArchiveReader/charts()`` lists them.
  public var charts: [ChartSummary]

  /// The view of a backup.
  public init(archive: String, backup: String, charts: [ChartSummary]) {
    self.archive = archive
    self.backup = backup
    self.charts = charts
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let snapshots = charts.reduce(0) { $0 + $1.snapshotCount }
    // Every copy published passed SQLite's quick_check: one that fails it is an error.
    let fields: [(key: String, value: Cell)] = [
      ("archive", .text(archive)), ("backup", .text(backup)), ("charts", .int(charts.count)),
      ("snapshots", .int(snapshots)), ("quick_check", .text("ok")),
    ]
    switch format {
    case .table:
      return
        "Backed up \(archive) into \(backup): \(snapshots) snapshot\(snapshots == 1 ? "" : "s")"
        + " of \(charts.count) chart\(charts.count == 1 ? "" : "s"), checked by SQLite's"
        + " quick_check.\n"
    case .json:
      var document = Document()
      document.fields = fields
      return document.rendered(as: format, style: style)
    case .csv:
      return CSVWriter.record(fields.map(\.key)) + CSVWriter.record(fields.map(\.value.csv))
    }
  }
}
