import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive records CHART [--from DATE] [--to DATE] [--limit N]`: a chart's leaderboards.
enum RecordsCommand: Subcommand {
  static let name = "records"
  static let abstract =
    "List a chart's records: weeks at number one, longest stays and runs, highest debuts, biggest"
    + " climbs and falls, fastest and slowest rises to number one; then artists' number ones,"
    + " top-10 songs, entries, weeks at number one and entries at once."
  static let discussion = """
    Each leaderboard is read from the figures the archive stored for every entry when its snapshot
    was imported (previous rank, weeks on chart, run): the same figures show and history print.
    Rows with equal figures share a rank (1, 1, 3); past --limit rows, ties are cut by date.

      weeks-at-number-one          weeks at number one in all, over every stay
      longest-stay-at-number-one   the longest unbroken stay at number one
      weeks-on-chart               weeks on the chart in all
      longest-run                  the longest run, from a debut or re-entry to leaving the chart
      highest-debut                the highest debuts (a re-entry is no debut; nor is an entry
                                   of the chart's first snapshot, where the archive starts)
      biggest-climb, biggest-fall  places moved from one chart to the next (a debut or re-entry
                                   has no previous rank and is no climb)
      fastest-rise-to-number-one   weeks on the chart from the debut to the first week at number
      longest-road-to-number-one   one, both counted: 1 for a debut at number one

    Then the artists credited on the songs (lead or featured), equal figures by name, every
    artist tied at the last rank listed:

      artist-number-ones           songs at number one
      artist-top-10s               songs in the top 10
      artist-entries               songs on the chart
      artist-weeks-at-number-one   weeks with one of the artist's songs at number one
      artist-entries-at-once       the most of the artist's songs on one chart

    A daily chart counts days, an hourly one hours, and each leaderboard's title says which.
    --from and --to limit the records to what happened between the two chart dates, both
    included: a stay or run that began earlier counts its weeks in the span only, and a rise
    counts when its first week at number one is in the span. A song at number one on the
    chart's first snapshot has no rise: the archive cannot tell it was its first week there.
    """
  static let examples = [
    "chart-archive records hot-100",
    "chart-archive records hot-100 --from 1980-01-01 --to 1989-12-31 --limit 5",
    "chart-archive records hot-100 --format csv > records.csv",
  ]
  static let arguments = [SharedOptions.chart]
  static let options = [
    OptionSpec(
      name: "--from", valueName: "date",
      help: "The first chart date counted (YYYY-MM-DD). Default: the chart's first."),
    OptionSpec(
      name: "--to", valueName: "date",
      help: "The last chart date counted (YYYY-MM-DD). Default: the chart's last."),
    OptionSpec(
      name: "--limit", valueName: "n", help: "How many rows each leaderboard lists. Default: 10."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let (from, to) = try SharedOptions.dateSpan(arguments)
    let limit = try SharedOptions.positiveInteger(arguments, "--limit", default: 10)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let records = try query {
      try archive.read { reader in
        try reader.records(of: chart, span: RecordSpan(from: from, to: to), limit: limit)
      }
    }
    console.show(RecordsView(records), as: format)
    return .success
  }
}
