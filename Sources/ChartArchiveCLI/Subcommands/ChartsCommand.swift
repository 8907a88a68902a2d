import ChartImport
import ChartPresentation
import ChartStorage

/// `chart-archive charts [rename OLD NEW]`: the charts in the archive, or one renamed.
enum ChartsCommand: Subcommand {
  static let name = "charts"
  static let abstract = "List the charts in the archive with their snapshot counts and date spans."
  static let discussion = """
    charts rename OLD NEW gives a chart another name (a misspelled import --chart, say): its
    snapshots, songs and figures stay as they are. The rename is kept as a decision, listed by
    songs decisions and undone by songs undo N; a later import under the old name makes a new
    chart of it.
    """
  static let examples = ["chart-archive charts", "chart-archive charts rename hot100 hot-100"]
  static let arguments = [
    ArgumentSpec(
      name: "action", help: "rename, to rename a chart. Default: list the charts.",
      isOptional: true, values: .choices(["rename"])),
    ArgumentSpec(
      name: "name", help: "rename: the chart's name, then its new name.", isOptional: true,
      repeats: true, values: .chart),
  ]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    if let action = arguments.argument("action") {
      guard action == "rename" else {
        throw UsageError("unknown action '\(action)' (expected rename, or none to list)")
      }
      let names = arguments.arguments("name")
      guard names.count == 2 else {
        throw UsageError("rename takes the chart's name and its new one")
      }
      return try SongsCommand.correct(
        .renameChart(names[0], to: names[1]), arguments, format: format, console: console)
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let charts = try query { try archive.read { try $0.charts() } }
    if charts.isEmpty, format == .table {
      console.print("The archive holds no charts yet: chart-archive import PATH…")
      return .success
    }
    console.show(ChartsView(charts: charts), as: format)
    return .success
  }
}
