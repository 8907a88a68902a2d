import ChartRanking
import ChartStorage

/// `chart-archive report CHART [DATE]`: the rank-change report of one snapshot.
enum ReportCommand: Subcommand {
  static let name = "report"
  static let abstract =
    "Report a snapshot's changes: number one, debuts, re-entries, climbers, fallers, drop-outs."
  static let discussion = """
    Compares the snapshot (the latest by default) with the chart's previous one. Previous ranks are
    the source's own when it publishes them, else derived from the archive.

    EXAMPLE:
      chart-archive report hot-100 2024-01-06 --limit 5
    """
  static let arguments = [
    ArgumentSpec(name: "chart", help: "The chart's name, such as hot-100."),
    ArgumentSpec(
      name: "date", help: "The chart date (YYYY-MM-DD). Default: the latest snapshot.",
      isOptional: true),
  ]
  static let options = [
    OptionSpec(
      name: "--limit", valueName: "n", help: "How many climbers and fallers to list. Default: 10."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let date = try SharedOptions.chartDate(arguments.argument("date"), argument: "date")
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: 10)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshot = try query { try archive.snapshot(of: chart, at: date) }
    let (report, previous) = try query { try archive.report(on: snapshot, limit: limit) }

    var document = Document()
    document.fields = [
      ("chart", .text(chart)), ("chart_date", .text(snapshot.chartDate.iso8601)),
      ("previous_chart_date", optional(previous?.chartDate.iso8601)),
    ]
    document.heading = [
      "\(chart) · \(snapshot.chartDate)"
        + (previous.map { " (against \($0.chartDate))" } ?? " (first snapshot)")
    ]
    func table(_ placements: [Placement]) -> Table {
      Table(columns: placementColumns, rows: placements.map(placementRow))
    }
    document.sections = [
      ("number_one", "Number one", table(report.numberOne)),
      ("debuts", "Debuts (\(report.debuts.count))", table(report.debuts)),
      ("reentries", "Re-entries (\(report.reentries.count))", table(report.reentries)),
      ("climbers", "Biggest climbers", table(report.climbers)),
      ("fallers", "Biggest fallers", table(report.fallers)),
      (
        "drop_outs", "Drop-outs (\(report.dropOuts.count))",
        Table(
          columns: dropOutColumns(rankKey: "previous_rank", heading: "LAST"),
          rows: report.dropOuts.map { entryRow($0.entry) })
      ),
    ]
    document.render(format, console: console)
    return .success
  }
}
