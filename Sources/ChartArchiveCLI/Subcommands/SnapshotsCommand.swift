import ChartImport
import ChartPresentation
import ChartStorage

/// `chart-archive snapshots CHART`: the snapshots of one chart; `snapshots delete CHART DATE`
/// deletes one.
enum SnapshotsCommand: Subcommand {
  static let name = "snapshots"
  static let abstract = "List the snapshots of a chart, oldest first."
  static let discussion = """
    snapshots delete CHART DATE deletes a snapshot (one imported into the wrong chart, or a file
    that was not the chart it said): its entries go, with the songs left without entries, and the
    chart's later snapshots' figures are decided again. It is kept as a decision, listed by songs
    decisions; it cannot be undone (the deleted rows are not kept): import its file again.
    """
  static let examples = [
    "chart-archive snapshots hot-100", "chart-archive snapshots delete hot-100 2024-01-06",
  ]
  static let arguments = [
    SharedOptions.chart,
    ArgumentSpec(
      name: "date",
      help: "With delete before the chart: the chart date (YYYY-MM-DD) of the snapshot to delete.",
      isOptional: true, repeats: true, values: .snapshotDate),
  ]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let rest = arguments.arguments("date")
    if arguments.argument("chart") == "delete", !rest.isEmpty {
      guard rest.count == 2 else { throw UsageError("delete takes a chart and a chart date") }
      let date = try SharedOptions.chartDate(rest[1], argument: "date")!
      return try SongsCommand.correct(
        .deleteSnapshot(chart: rest[0], chartDate: date), arguments, format: format,
        console: console)
    }
    if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'") }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshots = try query { try archive.read { try $0.snapshots(of: chart) } }
    console.show(SnapshotsView(chart: chart, snapshots: snapshots), as: format)
    return .success
  }
}
