import ChartPresentation
import ChartStorage

/// `chart-archive snapshots CHART`: the snapshots of one chart.
enum SnapshotsCommand: Subcommand {
  static let name = "snapshots"
  static let abstract = "List the snapshots of a chart, oldest first."
  static let discussion = ""
  static let arguments = [SharedOptions.chart]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshots = try query { try archive.read { try $0.snapshots(of: chart) } }
    console.show(SnapshotsView(chart: chart, snapshots: snapshots), as: format)
    return .success
  }
}
