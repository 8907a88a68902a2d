import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive audit CHART`: derived figures against the published ones.
enum AuditCommand: Subcommand {
  static let name = "audit"
  static let abstract =
    "Compare the previous ranks, peaks and weeks on chart the archive derives with the published."
  static let discussion = """
    For every entry whose source published a previous rank, peak position, weeks on chart or run
    number, the figure the archive derives from its own snapshots is compared with the published
    one. The summary gives the agreement per figure; then each disagreement is listed with its
    cause, found in the data:

      source gap      a snapshot holds fewer entries than the chart's size, or the source's
                      previous chart is missing from the archive
      rank shift      a run of one snapshot's published previous ranks or peaks is off by the
                      same amount
      credit change   one title by one lead artist is split over several songs, or a
                      previous rank names an entry with the same title before any parenthesis
      two recordings  several songs share the title and artist (a reissue and a remake)
      tie             two entries claim the same previous rank
      joined by hand  a person's merge joined the song's entries with another song's, or a
                      split parted them from one (songs merge, songs split)
      unexplained     none of the above

    A disagreement carried over from an earlier one (weeks on chart one off for the rest of a
    run, or a peak the source keeps giving while the archive's climbs towards it) has the cause
    of the entry where it first appeared.
    """
  static let examples = [
    "chart-archive audit hot-100 --from 1976-01-01 --to 1977-12-31"
  ]
  static let arguments = [SharedOptions.chart]
  static let options = [
    OptionSpec(name: "--from", valueName: "date", help: "The first chart date audited."),
    OptionSpec(name: "--to", valueName: "date", help: "The last chart date audited."),
    OptionSpec(
      name: "--summary", valueName: nil,
      help: "Print the summary only, not each disagreement (in CSV, the agreement per figure)."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let (from, to) = try SharedOptions.dateSpan(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let audit = try query { try archive.read { try $0.audit(of: chart, from: from, to: to) } }
    console.show(
      AuditView(
        chart: chart, from: from, to: to, audit: audit, summaryOnly: arguments.flag("--summary")),
      as: format)
    return .success
  }
}
