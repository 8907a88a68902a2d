import ChartRanking
import ChartStorage
import Foundation

/// `chart-archive audit CHART`: derived figures against the published ones.
enum AuditCommand: Subcommand {
  static let name = "audit"
  static let abstract =
    "Compare the previous ranks, peaks and weeks on chart the archive derives with the published."
  static let discussion = """
    For every entry whose source published a previous rank, peak position or weeks on chart, the
    figure the archive derives from its own snapshots is compared with the published one. The
    summary gives the agreement per figure; then each disagreement is listed with its cause,
    found in the data:

      source gap      a snapshot holds fewer entries than the chart's size, or the source's
                      previous chart is missing from the archive
      rank shift      a run of one snapshot's published previous ranks is off by the same amount
      credit change   one title by one lead artist is split over several songs
      two recordings  several songs share the title and artist (a reissue and a remake)
      tie             two entries claim the same previous rank
      unexplained     none of the above

    A disagreement carried over from an earlier one (weeks on chart one off for the rest of a
    run, or a peak the source keeps giving while the archive's climbs towards it) has the cause
    of the entry where it first appeared.

    EXAMPLE:
      chart-archive audit hot-100 --from 1976-01-01 --to 1977-12-31
    """
  static let arguments = [ArgumentSpec(name: "chart", help: "The chart's name, such as hot-100.")]
  static let options = [
    OptionSpec(name: "--from", valueName: "date", help: "The first chart date audited."),
    OptionSpec(name: "--to", valueName: "date", help: "The last chart date audited."),
    OptionSpec(
      name: "--summary", valueName: nil, help: "Print the summary only, not each disagreement."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let from = try SharedOptions.chartDate(arguments.option("--from"), argument: "from")
    let to = try SharedOptions.chartDate(arguments.option("--to"), argument: "to")
    if let from, let to, from > to {
      throw UsageError("--from \(from) is after --to \(to): give the earlier chart date first")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let chart = arguments.argument("chart")!
    let snapshots = try query { try archive.auditedSnapshots(of: chart) }
    let audit = ChartAudit(snapshots: snapshots, from: from, to: to)

    var summary = Table(columns: [
      Column(key: "figure", heading: "FIGURE"),
      Column(key: "compared", heading: "COMPARED", alignRight: true),
      Column(key: "agreeing", heading: "AGREEING", alignRight: true),
      Column(key: "percentage", heading: "%", alignRight: true),
    ])
    summary.rows = audit.agreements.map {
      [
        .text($0.figure.rawValue), .int($0.compared), .int($0.agreeing),
        $0.percentage.map { .text(String(format: "%.3f", $0)) } ?? .null,
      ]
    }
    var causes = Table(columns: [
      Column(key: "cause", heading: "CAUSE"),
      Column(key: "disagreements", heading: "DISAGREEMENTS", alignRight: true),
    ])
    let counts = audit.causeCounts
    causes.rows = DisagreementCause.allCases.map { [.text($0.rawValue), .int(counts[$0] ?? 0)] }
    var list = Table(columns: [
      Column(key: "chart_date", heading: "CHART DATE"),
      Column(key: "rank", heading: "RANK", alignRight: true),
      Column(key: "figure", heading: "FIGURE"),
      Column(key: "published", heading: "PUBLISHED", alignRight: true),
      Column(key: "derived", heading: "DERIVED", alignRight: true),
      Column(key: "cause", heading: "CAUSE"),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ])
    if !arguments.flag("--summary") {
      list.rows = audit.disagreements.map {
        [
          .text($0.chartDate.iso8601), .int($0.entry.rank), .text($0.figure.rawValue),
          optional($0.published), optional($0.derived), .text($0.cause.rawValue),
          .text($0.entry.title), .text($0.entry.artist),
        ]
      }
    }
    var document = Document()
    document.fields = [
      ("chart", .text(chart)), ("from", optional(from?.iso8601)), ("to", optional(to?.iso8601)),
    ]
    document.heading = [
      "Audit of \(chart)" + (from.map { " from \($0)" } ?? "") + (to.map { " to \($0)" } ?? "")
    ]
    document.sections = [("agreement", "", summary), ("causes", "", causes)]
    if !arguments.flag("--summary") {
      document.sections.append(
        ("disagreements", "Disagreements (\(audit.disagreements.count))", list))
    }
    if format == .csv {
      // One table for machines: the disagreements (the summary is in JSON and in the table).
      document.fields = [("chart", .text(chart))]
      document.sections = [("disagreements", "", list)]
    }
    document.render(format, console: console)
    return .success
  }
}
