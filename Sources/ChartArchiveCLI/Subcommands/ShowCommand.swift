import ChartRanking
import ChartStorage

/// `chart-archive show CHART [DATE]`: one snapshot with movements.
enum ShowCommand: Subcommand {
  static let name = "show"
  static let abstract = "Show a snapshot of a chart with each entry's movement, peak and weeks."
  static let discussion = """
    MOVE is ▲n (up n places), ▼n (down n), – (unchanged), NEW (debut) or RE (re-entry), against
    the chart's previous snapshot; LAST is the previous rank as published, or as derived from the
    archive when the source publishes none. PEAK and WKS are derived from the archive up to this
    chart date.
    """
  static let arguments = [
    ArgumentSpec(name: "chart", help: "The chart's name, such as hot-100."),
    ArgumentSpec(
      name: "date", help: "The chart date (YYYY-MM-DD). Default: the latest snapshot.",
      isOptional: true),
  ]
  static let options = [
    OptionSpec(name: "--limit", valueName: "n", help: "Show the top n entries only."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let date = try SharedOptions.chartDate(arguments.argument("date"), argument: "date")
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: Int.max)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshot = try query { try archive.snapshot(of: chart, at: date) }
    let previous = try query { try archive.snapshot(before: snapshot) }
    let placements = try query { try archive.placements(of: snapshot) }
    var table = Table(columns: placementColumns)
    table.rows = placements.prefix(limit).map(placementRow)
    var document = Document()
    document.fields = [
      ("chart", .text(chart)), ("chart_date", .text(snapshot.chartDate.iso8601)),
      ("previous_chart_date", optional(previous?.chartDate.iso8601)),
    ]
    document.heading = [
      "\(chart) · \(snapshot.chartDate)"
        + (previous.map { " (previous: \($0.chartDate))" } ?? " (first snapshot)")
    ]
    document.sections = [("entries", "", table)]
    document.render(format, console: console)
    return .success
  }
}
