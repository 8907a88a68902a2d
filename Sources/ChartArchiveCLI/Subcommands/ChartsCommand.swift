import ChartRanking
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
    let charts = try query { try archive.charts() }
    var table = Table(columns: [
      Column(key: "chart", heading: "CHART"),
      Column(key: "frequency", heading: "FREQUENCY"),
      Column(key: "snapshots", heading: "SNAPSHOTS", alignRight: true),
      Column(key: "first_chart_date", heading: "FIRST"),
      Column(key: "last_chart_date", heading: "LAST"),
    ])
    table.rows = charts.map { chart in
      [
        .text(chart.name), optional(chart.frequency?.rawValue), .int(chart.snapshotCount),
        optional(chart.firstChartDate?.iso8601), optional(chart.lastChartDate?.iso8601),
      ]
    }
    var document = Document()
    document.sections = [("charts", "", table)]
    if charts.isEmpty, format == .table {
      console.print("The archive holds no charts yet: chart-archive import PATH…")
      return .success
    }
    document.render(format, console: console)
    return .success
  }
}

/// `chart-archive snapshots CHART`: the snapshots of one chart.
enum SnapshotsCommand: Subcommand {
  static let name = "snapshots"
  static let abstract = "List the snapshots of a chart, oldest first."
  static let discussion = ""
  static let arguments = [ArgumentSpec(name: "chart", help: "The chart's name, such as hot-100.")]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshots = try query { try archive.snapshots(of: chart) }
    var table = Table(columns: [
      Column(key: "chart_date", heading: "CHART DATE"),
      Column(key: "entries", heading: "ENTRIES", alignRight: true),
      Column(key: "source", heading: "SOURCE"),
    ])
    table.rows = snapshots.map {
      [.text($0.chartDate.iso8601), .int($0.entryCount), optional($0.source)]
    }
    var document = Document()
    document.fields = [("chart", .text(chart))]
    document.sections = [("snapshots", "", table)]
    document.render(format, console: console)
    return .success
  }
}
