import ChartPresentation
import ChartStorage

/// `chart-archive charts`: the charts in the archive.
enum ChartsCommand: Subcommand {
  static let name = "charts"
  static let abstract = "List the charts in the archive with their snapshot counts and date spans."
  static let discussion = ""
  static let arguments: [ArgumentSpec] = []
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
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
