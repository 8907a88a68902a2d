import ChartRanking
import ChartStorage

/// `chart-archive diff CHART [OLDER] [NEWER]`: what changed between two snapshots.
enum DiffCommand: Subcommand {
  static let name = "diff"
  static let abstract = "Compare two snapshots of a chart: movements, arrivals and drop-outs."
  static let discussion = """
    Without dates, compares the chart's last two snapshots; with one date, the snapshot of that
    date against the one before it; with two, those two, in either order (they need not be
    consecutive). Movements are the difference between the two ranks; arrivals are debuts (NEW)
    or re-entries (RE, the song was on an earlier snapshot of the chart); drop-outs were on the
    older snapshot only.

    EXAMPLE:
      chart-archive diff hot-100 2023-12-30 2024-01-06
    """
  static let arguments = [
    ArgumentSpec(name: "chart", help: "The chart's name, such as hot-100."),
    ArgumentSpec(name: "older", help: "The older chart date (YYYY-MM-DD).", isOptional: true),
    ArgumentSpec(name: "newer", help: "The newer chart date (YYYY-MM-DD).", isOptional: true),
  ]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let firstDate = try SharedOptions.chartDate(arguments.argument("older"), argument: "older")
    let secondDate = try SharedOptions.chartDate(arguments.argument("newer"), argument: "newer")
    if let firstDate, firstDate == secondDate {
      throw UsageError("<older> and <newer> are the same date: give two different chart dates")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    var older: SnapshotSummary
    var newer: SnapshotSummary
    if let firstDate, let secondDate {
      older = try query { try archive.snapshot(of: chart, at: firstDate) }
      newer = try query { try archive.snapshot(of: chart, at: secondDate) }
      if newer.chartDate < older.chartDate { swap(&older, &newer) }
    } else {
      newer = try query { try archive.snapshot(of: chart, at: firstDate) }
      guard let previous = try query({ try archive.snapshot(before: newer) }) else {
        if firstDate != nil {
          throw CommandError(.failure, "\(chart) \(newer.chartDate) is the chart's first snapshot")
        }
        throw CommandError(
          ArchiveError.notEnoughSnapshots(chart: chart, needed: 2, stored: 1))
      }
      older = previous
    }
    let diff = try query { try archive.diff(from: older, to: newer) }

    let moveColumns = [
      Column(key: "rank", heading: "RANK", alignRight: true),
      Column(key: "movement", heading: "MOVE"),
      Column(key: "older_rank", heading: "WAS", alignRight: true),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ]
    func row(_ line: SnapshotDiff.Line) -> [Cell] {
      [
        .int(line.entry.entry.rank), .movement(line.movement), optional(line.olderRank),
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
        Table(
          columns: dropOutColumns(rankKey: "older_rank", heading: "WAS"),
          rows: diff.dropOuts.map { entryRow($0.entry) })
      ),
      (
        "movements",
        "On both (\(moves.count): \(up) up, \(down) down, \(moves.count - up - down) unchanged)",
        Table(columns: moveColumns, rows: moves.map(row))
      ),
    ]
    document.render(format, console: console)
    return .success
  }
}
