import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive period CHART (--year YYYY | --from DATE --to DATE)`: a chart of a span made
/// from the snapshots in it.
enum PeriodCommand: Subcommand {
  static let name = "period"
  static let abstract =
    "Rank the songs of a year or any span of a chart by the places they held on its snapshots."
  static let discussion = """
    This is the archive's own ranking from the charts it holds, not a publisher's year-end chart.

    Each song earns points on every snapshot of the span it was on; the songs are ranked by
    points, ties broken by the best rank in the span (PEAK), then the snapshots at that peak
    (AT PEAK), then the snapshots in the span (weeks on a weekly chart, days on a daily one).
    PREV is the song's rank in the period of the same length before (the year before for
    --year), with its movement: ▲ up, ▼ down, – the same, NEW not in that period. Points are
    shown rounded to a whole number.

    --scoring chooses the points of one place (rank 1-based, places the snapshot's number of
    entries):

      root       100 ÷ √rank: number one 100, number 4 50, number 100 10
      linear     places + 1 − rank (101 − rank on the Hot 100)
      billboard  linear, plus places for the week's number one (Billboard's 1970s year-end rule)
      streams    the streams the source published for the entry

    Default: streams when every entry of the span has a streams figure, else root. On the Hot 100
    from 1960 to 2024, root agrees with Billboard's published year-end number one in 44 of 65
    years, billboard in 37, linear in 21.

    A weekly chart's year (--year 1985) is Billboard's chart year: the charts dated from
    December 1 of the year before through November 30. Any other chart's year is the calendar
    year. --from and --to give any span, both days included.
    """
  static let examples = [
    "chart-archive period hot-100 --year 1985 --limit 10",
    "chart-archive period hot-100 --from 1985-01-01 --to 1985-12-31 --scoring linear",
    "chart-archive period hot-100 --year 2019 --format csv",
  ]
  static let arguments = [SharedOptions.chart]
  static let options = [
    OptionSpec(
      name: "--year", valueName: "year",
      help: "The year (YYYY): a weekly chart's charts dated December 1 before to November 30."),
    OptionSpec(name: "--from", valueName: "date", help: "The span's first day (with --to)."),
    OptionSpec(name: "--to", valueName: "date", help: "The span's last day (with --from)."),
    OptionSpec(name: "--limit", valueName: "n", help: "Show the top n songs only."),
    OptionSpec(
      name: "--scoring", valueName: "scoring",
      help: "How a place scores: root, linear, billboard or streams. Default: streams where every"
        + " entry has streams, else root.",
      values: .choices(PeriodScoring.allCases.map(\.rawValue))),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: Int.max)
    let scoring = try SharedOptions.choice(
      arguments, "--scoring", of: PeriodScoring.self, named: "scoring")
    let asked = try span(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let period = try query {
      try archive.read { reader in
        let span =
          switch asked {
          case .year(let year): try reader.periodSpan(ofYear: year, chart: chart)
          case .dates(let span): span
          }
        return try reader.periodChart(of: chart, span: span, scoring: scoring, limit: limit)
      }
    }
    console.show(PeriodView(period), as: format)
    return .success
  }

  /// The span the options ask for: a year, or two dates.
  enum AskedSpan {
    case year(Int)
    case dates(PeriodSpan)
  }

  /// Reads `--year`, or `--from` and `--to`.
  ///
  /// - Throws: ``UsageError`` when neither or both are given, the year is not one, or `--from`
  ///   is after `--to`.
  static func span(_ arguments: ParsedArguments) throws -> AskedSpan {
    let from = try SharedOptions.chartDate(arguments.option("--from"), argument: "--from")
    let to = try SharedOptions.chartDate(arguments.option("--to"), argument: "--to")
    if let text = arguments.option("--year") {
      guard from == nil, to == nil else { throw UsageError("give --year or --from and --to") }
      guard text.utf8.count == 4, let year = Int(text), year >= 1000 else {
        throw UsageError("--year: '\(text)' is not a year (YYYY)")
      }
      return .year(year)
    }
    guard let from, let to else {
      throw UsageError("give --year YYYY, or --from DATE and --to DATE")
    }
    if from > to {
      throw UsageError("--from \(from) is after --to \(to): give the earlier date first")
    }
    return .dates(PeriodSpan(from: from, to: to))
  }
}
