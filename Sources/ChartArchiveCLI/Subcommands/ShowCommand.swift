import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive show CHART [DATE]`: one snapshot with movements.
enum ShowCommand: Subcommand {
  static let name = "show"
  static let abstract = "Show a snapshot of a chart with each entry's movement, peak and weeks."
  static let discussion = """
    MOVE is ▲n (up n places), ▼n (down n), – (unchanged), NEW (debut) or RE (re-entry), against
    the chart's previous snapshot; LAST is the previous rank as published, or as derived from the
    archive when the source publishes none; marked ! when the published one cannot be right and
    the archive's is given. PEAK and WKS (days, hours, months or snapshots for other charts) are
    the archive's up to this chart date; marked * when they are the source's, the archive not
    holding the start of the song's run. The figures were decided when the snapshot was stored.
    """
  static let arguments = [SharedOptions.chart, SharedOptions.latestDate]
  static let options = [
    OptionSpec(name: "--limit", valueName: "n", help: "Show the top n entries only."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let date = try SharedOptions.snapshotDate(arguments.argument("date"), argument: "date")
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: Int.max)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshot = try query {
      try archive.read { try $0.chartSnapshot(of: chart, at: date ?? .latest) }
    }
    console.show(SnapshotView(snapshot, limit: limit), as: format)
    return .success
  }
}
