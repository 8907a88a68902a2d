import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive diff CHART [OLDER] [NEWER]`: what changed between two snapshots.
enum DiffCommand: Subcommand {
  static let name = "diff"
  static let abstract = "Compare two snapshots of a chart: movements, arrivals and drop-outs."
  static let discussion = """
    Without dates, compares the chart's last two snapshots; with one date, the snapshot of that
    date against the one before it; with two, those two, in either order (they need not be
    consecutive). Between a snapshot and the one before it, each entry moves as show says (WAS is
    the previous rank the archive gives); between snapshots further apart, by the difference of
    the two ranks. Arrivals are debuts (NEW) or re-entries (RE, the song was on the chart by the
    older date); drop-outs were on the older snapshot only.
    """
  static let examples = [
    "chart-archive diff hot-100 2023-12-30 2024-01-06"
  ]
  static let arguments = [
    SharedOptions.chart,
    ArgumentSpec(
      name: "older", help: "The older chart date (YYYY-MM-DD, latest or previous).",
      isOptional: true, values: .snapshotDate),
    ArgumentSpec(
      name: "newer", help: "The newer chart date (YYYY-MM-DD, latest or previous).",
      isOptional: true, values: .snapshotDate),
  ]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let firstDate = try SharedOptions.snapshotDate(arguments.argument("older"), argument: "older")
    let secondDate = try SharedOptions.snapshotDate(arguments.argument("newer"), argument: "newer")
    if let firstDate, firstDate == secondDate {
      throw UsageError("<older> and <newer> are the same date: give two different chart dates")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let view = try query {
      try archive.read { reader in
        let (older, newer) = try reader.snapshotsToCompare(of: chart, firstDate, secondDate)
        return DiffView(
          chart: chart, older: older, newer: newer, diff: try reader.diff(from: older, to: newer))
      }
    }
    console.show(view, as: format)
    return .success
  }
}
