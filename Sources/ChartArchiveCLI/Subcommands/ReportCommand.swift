import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive report CHART [DATE]`: the rank-change report of one snapshot.
enum ReportCommand: Subcommand {
  static let name = "report"
  static let abstract =
    "Report a snapshot's changes: number one, debuts, re-entries, climbers, fallers, drop-outs."
  static let discussion = """
    Compares the snapshot (the latest by default) with the chart's previous one. Previous ranks are
    the source's own when it publishes them (but where they cannot be right: the archive's,
    corrected), else derived from the archive.

    --format html writes the report as one web page, self-contained (its style sheet inside, no
    script; covers load from the sources' addresses): what chart-archive serve shows at
    /charts/CHART/report.
    """
  static let examples = [
    "chart-archive report hot-100 2024-01-06 --limit 5",
    "chart-archive report hot-100 --format html > report.html",
  ]
  static let arguments = [SharedOptions.chart, SharedOptions.latestDate]
  static let options = [
    OptionSpec(
      name: "--limit", valueName: "n", help: "How many climbers and fallers to list. Default: 10."),
    OptionSpec(
      name: "--format", valueName: "format",
      help: "Output format: table, json, csv, or html (a web page). Default: table.",
      values: .choices(["table", "json", "csv", "html"])),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let page = arguments.option("--format") == "html"
    let format = page ? .table : try SharedOptions.outputFormat(arguments, or: "html")
    let date = try SharedOptions.snapshotDate(arguments.argument("date"), argument: "date")
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: 10)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let (snapshot, (report, previous)) = try query {
      try archive.read { reader in
        let snapshot = try reader.snapshot(of: chart, at: date ?? .latest)
        return (snapshot, try reader.report(on: snapshot, limit: limit))
      }
    }
    let view = ReportView(chart: chart, snapshot: snapshot, previous: previous, report: report)
    if page {
      console.write(ReportPage(view).html(.file))
      return .success
    }
    console.show(view, as: format)
    return .success
  }
}
