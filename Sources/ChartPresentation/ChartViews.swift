public import ChartRanking
public import ChartStorage

// MARK: - Entries

/// What a chart's periods are called: weeks for a weekly chart, days for a daily one, hours for
/// an hourly one, months for a monthly one, and snapshots for an all-time one, whose snapshots
/// are each a new state of one list, at no fixed interval (the JSON and CSV keys stay
/// `weeks_on_chart`).
struct Periods {
  /// The column heading: `WKS`, `DAYS`, `HRS`, `MOS` or `SNAPS`.
  var heading: String
  /// The word, plural and singular: `weeks` and `week`.
  var plural: String
  var singular: String

  init(_ frequency: ChartFrequency?) {
    switch frequency {
    case .daily: (heading, plural, singular) = ("DAYS", "days", "day")
    case .hourly: (heading, plural, singular) = ("HRS", "hours", "hour")
    case .monthly: (heading, plural, singular) = ("MOS", "months", "month")
    case .allTime: (heading, plural, singular) = ("SNAPS", "snapshots", "snapshot")
    default: (heading, plural, singular) = ("WKS", "weeks", "week")
    }
  }

  /// `1 week`, `2 weeks`.
  func count(_ number: Int) -> String { "\(number) \(number == 1 ? singular : plural)" }

  /// How long a song held its peak, in words: "2 weeks at peak", or, when the peak is the
  /// source's from before the archive's first entry of the song (no entry held there holds it),
  /// "reached before the archive's entries".
  func atPeak(_ number: Int) -> String {
    number == 0 ? "reached before the archive's entries" : "\(count(number)) at peak"
  }
}

/// The mark of a figure that is the source's because the archive lacks the start of the song's
/// run, and of a previous rank the archive corrected.
let partialMark = "*"
let correctedMark = "!"

/// The lines under a table that explain its marks, for those that appear.
func markNotes(_ figures: some Sequence<EntryFigures>) -> [String] {
  var notes: [String] = []
  if figures.contains(where: { $0.previousRankSource == .corrected }) {
    notes.append(
      "\(correctedMark) the source's previous rank cannot be right; the archive's is given")
  }
  if figures.contains(where: \.isPartialRun) {
    notes.append(
      "\(partialMark) the source's figure: the archive does not hold the start of the song's run")
  }
  return notes
}

/// The columns of entries with their figures: rank, movement, previous rank, peak position, weeks
/// on chart, streams (in tables only when some entry has them), title and artist; in JSON and CSV
/// also where the previous rank comes from, the run, image and song URLs, and the published and
/// the archive's own figures (the run among them) where they differ from those given. ``HistoryView`` shows the first
/// six.
func placementColumns(_ periods: Periods) -> [Column] {
  [
    Column(key: "rank", heading: "RANK", alignRight: true),
    Column(key: "movement", heading: "MOVE"),
    Column(key: "previous_rank", heading: "LAST", alignRight: true),
    Column(key: "peak_position", heading: "PEAK", alignRight: true),
    Column(key: "weeks_on_chart", heading: periods.heading, alignRight: true),
    Column(key: "streams", heading: "STREAMS", alignRight: true, hiddenWhenEmpty: true),
    Column(key: "title", heading: "TITLE"),
    Column(key: "artist", heading: "ARTIST"),
    Column(key: "image_url", heading: "IMAGE", shownInTable: false),
    Column(key: "song_url", heading: "URL", shownInTable: false),
  ] + figureDetailColumns
}

/// Where the figures come from, for machines: in JSON and CSV only.
let figureDetailColumns = [
  Column(key: "previous_rank_source", heading: "SOURCE", shownInTable: false),
  Column(key: "run", heading: "RUN", shownInTable: false),
  Column(key: "partial_run", heading: "PARTIAL", shownInTable: false),
  Column(key: "published_previous_rank", heading: "PUBLISHED LAST", shownInTable: false),
  Column(key: "published_peak_position", heading: "PUBLISHED PEAK", shownInTable: false),
  Column(key: "published_weeks_on_chart", heading: "PUBLISHED WKS", shownInTable: false),
  Column(key: "archive_peak_position", heading: "ARCHIVE PEAK", shownInTable: false),
  Column(key: "archive_weeks_on_chart", heading: "ARCHIVE WKS", shownInTable: false),
  Column(key: "published_run", heading: "PUBLISHED RUN", shownInTable: false),
  Column(key: "archive_run", heading: "ARCHIVE RUN", shownInTable: false),
]

/// The cells of ``figureDetailColumns``: a published or archive figure only where it differs from
/// the one given.
func figureDetailCells(_ entry: ChartEntry, _ figures: EntryFigures) -> [Cell] {
  func differing(_ value: Int?, from given: Int?) -> Cell {
    value == given ? .null : .optional(value)
  }
  return [
    .text(figures.previousRankSource.rawValue),
    figures.run != figures.archiveRun ? .marked(figures.run, mark: partialMark) : .int(figures.run),
    .bool(figures.isPartialRun),
    figures.previousRankSource == .derived
      ? .null : differing(entry.publishedPreviousRank, from: figures.previousRank),
    differing(entry.publishedPeakPosition, from: figures.peakPosition),
    differing(entry.publishedWeeksOnChart, from: figures.weeksOnChart),
    differing(figures.archivePeakPosition, from: figures.peakPosition),
    differing(figures.archiveWeeksOnChart, from: figures.weeksOnChart),
    differing(entry.publishedRun, from: figures.run),
    differing(figures.archiveRun, from: figures.run),
  ]
}

/// The previous rank, peak and weeks cells of an entry, marked where they are not the archive's
/// own.
func figureCells(_ figures: EntryFigures) -> (previous: Cell, peak: Cell, weeks: Cell) {
  let previous: Cell =
    figures.previousRankSource == .corrected
    ? figures.previousRank.map { .marked($0, mark: correctedMark) }
      ?? .markedNull(mark: correctedMark)
    : .optional(figures.previousRank)
  let partial = figures.isPartialRun
  return (
    previous,
    figures.peakPosition != figures.archivePeakPosition
      ? .marked(figures.peakPosition, mark: partialMark) : .int(figures.peakPosition),
    partial && figures.weeksOnChart != figures.archiveWeeksOnChart
      ? .marked(figures.weeksOnChart, mark: partialMark) : .int(figures.weeksOnChart)
  )
}

/// A placement's cells under ``placementColumns(_:)``.
func placementRow(_ placement: Placement) -> [Cell] {
  let cells = figureCells(placement.figures)
  return [
    .int(placement.rank), .movement(placement.movement), cells.previous, cells.peak, cells.weeks,
    .optional(placement.entry.streams), .text(placement.entry.title),
    .text(placement.entry.artist), .optional(placement.entry.imageURL),
    .optional(placement.entry.songURL),
  ] + figureDetailCells(placement.entry, placement.figures)
}

/// A table of placements.
func placementTable(_ placements: some Sequence<Placement>, periods: Periods) -> Table {
  Table(columns: placementColumns(periods), rows: placements.map(placementRow))
}

/// A table of drop-outs: their rank on the older snapshot (under the given key and heading),
/// title and artist.
func dropOutTable(_ entries: [ArchivedEntry], rankKey: String, heading: String) -> Table {
  Table(
    columns: [
      Column(key: rankKey, heading: heading, alignRight: true),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ],
    rows: entries.map { [.int($0.entry.rank), .text($0.entry.title), .text($0.entry.artist)] })
}

// MARK: - Charts and snapshots

/// The charts of an archive: name, frequency, snapshot count, first and last chart dates.
public struct ChartsView: Presentation {
  /// The charts, by name.
  public var charts: [ChartSummary]

  /// The view of the charts.
  public init(charts: [ChartSummary]) { self.charts = charts }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    return Document(
      "charts",
      Table(
        columns: [
          Column(key: "chart", heading: "CHART"),
          Column(key: "frequency", heading: "FREQUENCY"),
          Column(key: "snapshots", heading: "SNAPSHOTS", alignRight: true),
          Column(key: "first_chart_date", heading: "FIRST"),
          Column(key: "last_chart_date", heading: "LAST"),
        ],
        rows: charts.map { chart in
          [
            .text(chart.name), .optional(chart.frequency?.rawValue), .int(chart.snapshotCount),
            .optional(chart.firstChartDate?.iso8601), .optional(chart.lastChartDate?.iso8601),
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
  /// How many entries to show, from the top.
  public var limit: Int

  /// The view of a snapshot, its top `limit` entries.
  public init(_ snapshot: ChartSnapshot, limit: Int = .max) {
    self.snapshot = snapshot
    self.limit = limit
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
        + (snapshot.previous.map { " (previous: \($0.chartDate))" } ?? " (first snapshot)")
    ]
    let shown = snapshot.placements.prefix(limit)
    document.sections = [
      ("entries", "", placementTable(shown, periods: Periods(summary.frequency)))
    ]
    document.footer = markNotes(shown.map(\.figures))
    return document.rendered(as: format, style: style)
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
