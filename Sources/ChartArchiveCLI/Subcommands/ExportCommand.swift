import ChartFormats
import ChartRanking
import ChartStorage

/// `chart-archive export CHART [DATE…]`: snapshots in ChartArchive's own formats.
enum ExportCommand: Subcommand {
  static let name = "export"
  static let abstract = "Write a chart's snapshots in ChartArchive's JSON or CSV, for import."
  static let discussion = """
    Writes every snapshot of the chart (or those of the dates given, each once) to standard
    output, oldest first: JSON ({"snapshots": […]}, the chart-archive format) or CSV (the
    chart-archive-csv format). Importing an export into an empty archive gives back the same
    snapshots, entry for entry: ranks, published previous ranks, peaks, weeks on chart, run
    numbers and movements, titles, artists, URLs, streams and ISRCs (the CSV has a column isrc
    for a chart whose entries have ISRCs, run for one whose source numbers runs, and trend for
    one whose source publishes movements). The JSON also carries the chart's frequency and the
    merges and splits made with songs merge and songs split that name an entry of the chart
    ({"decisions": […]} before the snapshots), which the archive it is imported into keeps and
    applies; the CSV has neither, so give the frequency again with import --frequency. A
    snapshot of no entries (a Last.fm listener's week without plays) is exported as JSON only: a
    CSV of the chart is refused.
    """
  static let examples = [
    "chart-archive export hot-100 > hot-100.json",
    "chart-archive export hot-100 2024-01-06 2024-01-13 --format csv",
  ]
  static let arguments = [
    SharedOptions.chart,
    ArgumentSpec(
      name: "date",
      help: "Chart dates (YYYY-MM-DD, latest or previous) to export. Default: every snapshot.",
      isOptional: true, repeats: true, values: .snapshotDate),
  ]
  static let options = [
    OptionSpec(
      name: "--format", valueName: "format", help: "json or csv. Default: json.",
      values: .choices(["json", "csv"])),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let csv: Bool
    switch arguments.option("--format") ?? "json" {
    case "json": csv = false
    case "csv": csv = true
    case let other: throw UsageError("unknown format '\(other)' (expected json or csv)")
    }
    var dates: [SnapshotDate] = []
    for text in arguments.arguments("date") {
      if let date = try SharedOptions.snapshotDate(text, argument: "date") { dates.append(date) }
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    // One read: every snapshot exported is of one state of the archive.
    try query {
      try archive.read { reader in
        // Each snapshot once, oldest first, however the dates were given (twice, or `latest`
        // before `previous`): a file of one chart date twice cannot be imported again.
        var summaries =
          dates.isEmpty
          ? try reader.snapshots(of: chart)
          : try dates.map { date throws(ArchiveError) in try reader.snapshot(of: chart, at: date) }
        if !dates.isEmpty {
          var seen = Set<SnapshotID>()
          summaries = summaries.filter { seen.insert($0.id).inserted }
            .sorted { $0.chartDate < $1.chartDate }
        }
        // A chart of no entries (a Last.fm listener's week without plays) has no row to be: the
        // CSV would leave it out, and an import of it would not give it back.
        if csv, let empty = summaries.first(where: { $0.entryCount == 0 }) {
          throw CommandError(
            .dataError,
            "\(chart) \(empty.chartDate) has no entries, which a CSV cannot hold (a row is an"
              + " entry): export the chart as JSON")
        }
        let frequency = try reader.charts().first { $0.name == chart }?.frequency
        // A CSV has a column for ISRCs, one for run numbers and one for trends only when the
        // source gave some.
        let isrcs = try csv && reader.hasISRCs(summaries.map(\.id))
        let runs = try csv && reader.publishesRuns(summaries.map(\.id))
        let trends = try csv && reader.publishesTrends(summaries.map(\.id))
        // The JSON carries the merges and splits a person made that name an entry of the chart,
        // for the archive it is imported into to apply again.
        let decisions =
          csv
          ? []
          : try reader.decisions().compactMap(\.songDecision).filter { decision in
            decision.songs.joined().contains { $0.chart == chart }
          }
        console.write(
          csv
            ? NativeFormatWriter.csvHeader(isrcs: isrcs, runs: runs, trends: trends)
            : NativeFormatWriter.jsonOpening(decisions: decisions))
        for (index, summary) in summaries.enumerated() {
          // Nothing more once the output cannot be written (the command then says so).
          guard !console.outputFailed else { break }
          let snapshot = Snapshot(
            chart: chart, chartDate: summary.chartDate,
            publishesPreviousRank: summary.publishesPreviousRank,
            entries: try reader.entries(of: summary.id).map(\.entry))
          if csv {
            console.write(
              NativeFormatWriter.csv(snapshot, isrcs: isrcs, runs: runs, trends: trends))
          } else {
            if index > 0 { console.write(NativeFormatWriter.jsonSeparator) }
            console.write(NativeFormatWriter.json(snapshot, frequency: frequency))
          }
        }
        if !csv { console.write(NativeFormatWriter.jsonClosing) }
      }
    }
    return .success
  }
}
