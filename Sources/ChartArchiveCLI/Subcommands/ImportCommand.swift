import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// `chart-archive import PATH…`: reads chart files and stores their snapshots, all or nothing.
enum ImportCommand: Subcommand {
  static let name = "import"
  static let abstract = "Import chart files (or folders of them) into the archive."
  static let discussion = """
    Each file's format is detected from its content (see FORMATS below); folders are walked for
    *.json, *.csv, *.html and *.htm files, which are imported in chart-date order. Every file is
    read and checked before the import is committed: if any file is invalid, every problem is
    listed, nothing is stored, and the exit status is 65. With --skip-invalid the valid files
    are stored (each whole) and the invalid ones listed; the exit status is 65 only when no file
    could be stored. A snapshot already stored with the same entries is left as it is
    ("unchanged"); a different snapshot of the same chart and chart date is refused unless
    --replace is given. Two different files for one chart and chart date in one import are
    refused even with --replace, but the pages of a chart published in pages (Apple Music's)
    imported together are joined into one. A file of many weeks (the Hot 100 datasets of
    data.world, TidyTuesday and Kaggle) is imported as its chart's snapshots, all or nothing.

    The chart's name is --chart when given, else the name in the file (ChartArchive and
    billboard.py formats, a charts CSV's chart column, the chart's address in the "Hot Stuff"
    dataset's rows; a ChartArchive file must give one) or in its name before the date (Spotify's
    downloads: regional-global-weekly-2024-03-21.csv), else
    the name of the folder that holds the file; a CSV with a region column adds "-<region>"
    (top200-global). The chart date is the file's own, else --date, else a YYYY-MM-DD (or
    YYYY-MM-DDTHH-MM for an hourly chart) in the file's name. The movements a source publishes
    (a charts CSV's trends, Spotify's entry statuses, the UK chart's New and RE, kworb's P+) are
    checked against the derived ones, and disagreements are listed as warnings.

    Two entries at one rank are a tie where the file marks it (a rank written =8 or 8= in a CSV,
    "tie": true in ChartArchive's JSON), or anywhere with --allow-ties; otherwise a rank given
    twice in a snapshot is refused.

    SPOOL:
    With --move-to DONE, the one folder given is a spool that chart files arrive in: each chart
    file in it (not in the folders in it) is imported in an import of its own, in chart-date
    order, then moved into DONE/imported (something was stored), DONE/unchanged (everything in it
    was in the archive) or DONE/rejected, with the words import printed for it in
    NAME.report.txt beside it; until the spool has no file left to take. A file is moved only once
    its import is committed, never over another file (a second 2024-01-06.json is
    2024-01-06.2.json). Files are written into the spool under a temporary name and renamed when
    whole: a name starting with a dot or ending in .part is left alone, as is any file whose name
    is not a chart file's. The exit status is 65 when a file was rejected (the others are stored
    and moved), 0 otherwise; a failure of the archive or of a move stops the run and leaves the
    file in the spool. --output-format json tells where each file went.

    FORMATS:
    \(formatList)
    """
  static let examples = [
    "chart-archive import ~/charts/billboard-hot-100 --chart hot-100",
    "chart-archive import top50-2024-05-01.json --chart app-daily",
    "chart-archive import /var/spool/chart-archive --chart hot-100"
      + " --move-to /var/lib/chart-archive/spool-done",
  ]
  /// Each format's name and summary, a line each, the summaries in a column.
  private static var formatList: String {
    let width = (ChartFormat.allCases.map(\.rawValue.count).max() ?? 0) + 2
    return ChartFormat.allCases.map {
      "  " + $0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0) + $0.summary
    }.joined(separator: "\n")
  }

  static let arguments = [
    ArgumentSpec(
      name: "path",
      help: "Chart files, or folders to walk for *.json, *.csv, *.html and *.htm files.",
      repeats: true, values: .fileOrFolder)
  ]
  static let options = [
    OptionSpec(
      name: "--chart", valueName: "name", help: "The chart's name for every file.", values: .chart),
    OptionSpec(
      name: "--date", valueName: "date",
      help: "The chart date for files that carry none: YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ."),
    OptionSpec(
      name: "--timezone", valueName: "zone",
      help: "The time zone of dates and times written without one (an hourly chart's local time):"
        + " an IANA name such as Asia/Seoul. Without it they are refused. A new chart keeps it:"
        + " its later imports read a file name's time in it, and another zone is refused."),
    OptionSpec(
      name: "--format", valueName: "format",
      help: "Read every file in this format instead of detecting it: "
        + ChartFormat.allCases.map(\.rawValue).joined(separator: ", ") + ".",
      values: .choices(ChartFormat.allCases.map(\.rawValue))),
    OptionSpec(
      name: "--frequency", valueName: "frequency",
      help: "How often the chart is published: "
        + ChartFrequency.allCases.map(\.rawValue).joined(separator: ", ")
        + ". Default: guessed from the chart's name.",
      values: .choices(ChartFrequency.allCases.map(\.rawValue))),
    OptionSpec(
      name: "--replace", valueName: nil,
      help: "Replace stored snapshots of the same chart and date that differ."),
    OptionSpec(
      name: "--allow-ties", valueName: nil,
      help: "Take two entries at one rank as a tie even where the file does not mark it (=8)."),
    OptionSpec(
      name: "--skip-invalid", valueName: nil,
      help: "Store the valid files and list the invalid ones, instead of storing nothing."),
    OptionSpec(
      name: "--move-to", valueName: "folder",
      help: "Take the path as a spool: import each file on its own, then move it into"
        + " folder/imported, folder/unchanged or folder/rejected (see SPOOL below).",
      values: .fileOrFolder),
    OptionSpec(
      name: "--output-format", valueName: "format",
      help: "With --move-to: text or json, where each file went. Default: text.",
      values: .choices(SpoolImport.OutputFormat.allCases.map(\.rawValue))),
    OptionSpec(
      name: "--quiet", valueName: nil, help: "Print only the summary, not a line per file.",
      shortName: "-q"),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let options = try importOptions(arguments)
    if arguments.option("--move-to") != nil {
      return try SpoolImport.run(arguments, options: options, console: console)
    }
    if arguments.option("--output-format") != nil {
      throw UsageError("--output-format goes with --move-to (where each file of a spool went)")
    }
    let sources: [ImportSource]
    do {
      sources = try ImportSource.files(in: arguments.arguments("path")).map(ImportSource.file)
    } catch { throw CommandError(.noInput, error.description) }
    if sources.isEmpty {
      throw CommandError(
        .noInput,
        "no *.json, *.csv or *.html chart files in"
          + " \(arguments.arguments("path").joined(separator: ", "))")
    }
    let path = try SharedOptions.databasePath(arguments, environment: console.environment)
    _ = try importAndPrint(sources, into: path, options: options, console: console).get()
    return .success
  }

  /// The import's options, from the command line's.
  ///
  /// - Throws: ``UsageError`` for a chart name, time zone, date, format or frequency that is not
  ///   one.
  static func importOptions(_ arguments: ParsedArguments) throws -> ImportOptions {
    var options = ImportOptions()
    options.chart = arguments.option("--chart")
    if let chart = options.chart, !Snapshot.isValidChartName(chart) {
      throw UsageError(
        "--chart '\(ChartFileError.printable(chart))' is not a valid chart name"
          + " (\(Snapshot.validChartNameRule))")
    }
    if let zone = arguments.option("--timezone") {
      guard let timeZone = TimeZone(identifier: zone) else {
        throw UsageError(
          "--timezone '\(zone)' is not a time zone (an IANA name such as Asia/Seoul)")
      }
      options.timeZone = timeZone
    }
    options.chartDate = try SharedOptions.chartDate(
      arguments.option("--date"), argument: "--date", timeZone: options.timeZone,
      zoneOption: "--timezone")
    options.format = try SharedOptions.choice(
      arguments, "--format", of: ChartFormat.self, named: "format")
    options.frequency = try SharedOptions.choice(
      arguments, "--frequency", of: ChartFrequency.self, named: "frequency")
    options.replacing = arguments.flag("--replace")
    options.skippingInvalid = arguments.flag("--skip-invalid")
    options.allowingTies = arguments.flag("--allow-ties")
    options.listingSnapshots = !arguments.flag("--quiet")
    return options
  }

  /// Imports sources into the archive at `path` and prints what the import did, as `import`
  /// prints it: a line per snapshot (unless the options list none), warnings, and the summary;
  /// when sources are refused, each one's problems on standard error.
  ///
  /// - Returns: the report; or, when sources were refused and nothing was stored, the error that
  ///   says so (status 65), for the caller to throw (`import`) or to keep with the file (a spool).
  /// - Throws: ``CommandError`` when the archive could not be opened, read or written: nothing
  ///   was stored, and no source is to blame.
  static func importAndPrint(
    _ sources: [ImportSource], into path: String, options: ImportOptions, console: Console
  ) throws -> Result<ImportReport, CommandError> {
    let bar = ProgressBar(console: console)
    let report: ImportReport
    do {
      defer { bar.finish() }
      report = try Importer.run(
        sources, intoArchiveAt: path, options: options, progress: bar.update)
    } catch .refused(let refused, let count) {
      for source in refused { console.printError(describe(source)) }
      return .failure(
        CommandError(
          .dataError,
          "\(refused.count) of \(count) file\(count == 1 ? "" : "s") could not be imported;"
            + " nothing was stored"))
    } catch .archive(let error) {
      throw CommandError(error)
    } catch .writeFailedWithUserObjects(let error, let objects) {
      var failure = CommandError(error)
      let named = objects.map { "\($0.type) '\($0.name)' on table \($0.table)" }
      failure.message +=
        " (the archive has \(named.joined(separator: ", ")), not ChartArchive's, which may be why:"
        + " drop or change \(objects.count == 1 ? "it" : "them"), for example with DROP"
        + " \(objects[0].type.uppercased()) \(objects[0].name))"
      throw failure
    }
    if report.imported + report.replaced > 0 {
      console.doneBeforeOutput =
        "the import is stored in \(path) (\(report.imported) new, \(report.replaced) replaced)"
    }
    printReport(report, of: sources, into: path, console: console)
    return .success(report)
  }

  /// A refused source's problems, one line each.
  private static func describe(_ source: RefusedSource) -> String {
    switch source.reason {
    case .invalid(let error): RemedyWords.describe(error)
    case .conflict(let error):
      "\(ChartFileError.printable(source.name)): \(CommandError(error).message)"
    case .otherFormatInFolder(let chart, let format, let other, let otherFormat):
      "\(ChartFileError.printable(source.name)): \(ImportWords.article(format.rawValue)) \(format.rawValue)"
        + " file, and \(ChartFileError.printable(other)) is"
        + " \(ImportWords.article(otherFormat.rawValue)) \(otherFormat.rawValue) file;"
        + " both would go to chart '\(chart)', named after their folder (import them one format"
        + " at a time, each with --chart NAME, or pass --chart \(chart) if they are one chart)"
    case .otherChart(let named, let required):
      "\(ChartFileError.printable(source.name)): the file is of chart"
        + " '\(ChartFileError.printable(named))', not of '\(ChartFileError.printable(required))'"
    }
  }

  /// Prints what an import did: a line per snapshot (unless --quiet), warnings and skipped files
  /// on standard error, and the summary.
  private static func printReport(
    _ report: ImportReport, of sources: [ImportSource], into path: String, console: Console
  ) {
    for item in report.snapshots {
      let action = item.outcome.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
      // A chart joined from its pages names each page's file.
      let files = ([item.source] + item.otherPages).map {
        ChartFileError.printable(sources[$0].name)
      }
      console.print(
        "\(action)\(item.chart) \(item.chartDate)  \(item.entryCount)"
          + (item.entryCount == 1 ? " entry  " : " entries  ") + files.joined(separator: ", "))
    }
    let names = sources.map { ChartFileError.printable($0.name) }
    for chart in report.unfinishedCharts {
      console.printError("warning: " + ImportWords.unfinished(chart, sourceNames: names))
    }
    for file in report.setAside {
      console.printError(
        "warning: renamed \(ChartFileError.printable(file.original)) to"
          + " \(ChartFileError.printable(file.renamed)): it was beside no archive, left by one deleted or"
          + " moved without it, and may hold that archive's last imports; put it back beside that"
          + " archive, named as the archive with -wal (or -journal) after it, before opening it")
    }
    if let error = report.logNotCopied {
      console.printError("warning: " + ImportWords.logNotCopied(error, path: path))
    }
    for (source, disagreement) in report.dateDisagreements {
      console.printError(
        "warning: "
          + ImportWords.dateDisagreement(disagreement, name: names[source], option: "--date"))
    }
    // Each line of a skipped file's problems says so, not only its first.
    for source in report.skipped {
      for line in describe(source).split(separator: "\n", omittingEmptySubsequences: false) {
        console.printError("skipped: \(line)")
      }
    }
    let notes = report.notes.map(ImportWords.describe)
    for line in notes.prefix(20) { console.printError("warning: \(line)") }
    if notes.count > 20 { console.printError("warning: … and \(notes.count - 20) more") }
    let disagreements = report.trendDisagreements
    if !disagreements.isEmpty {
      for item in disagreements.prefix(20) {
        console.printError("warning: " + ImportWords.trendDisagreement(item, sourceNames: names))
      }
      if disagreements.count > 20 {
        console.printError("warning: … and \(disagreements.count - 20) more")
      }
      console.printError("warning: " + ImportWords.trendSummary(disagreements.count))
    }
    printSummary(report, into: path, console: console)
  }

  /// Prints an import's summary: what it stored, the decisions it kept, the files it skipped.
  private static func printSummary(_ report: ImportReport, into path: String, console: Console) {
    let (new, replaced, unchanged) = (report.imported, report.replaced, report.unchanged)
    let entries = report.entriesStored
    let count = report.sourceCount
    let skipped = report.skipped.count
    let kept = report.decisionsKept
    if new == 0, replaced == 0, kept > 0 {
      console.print(
        (unchanged == 1
          ? "The snapshot was already" : "All \(unchanged) snapshots were already") + " in \(path)."
      )
    } else if new == 0, replaced == 0 {
      console.print(
        (unchanged == 1
          ? "Nothing new: the snapshot was already"
          : "Nothing new: all \(unchanged) snapshots were already") + " in \(path).")
    } else {
      console.print(
        "Imported "
          + (skipped > 0
            ? "\(count - skipped) of \(count) files" : "\(count) file\(count == 1 ? "" : "s")")
          + " into \(path):"
          + " \(new) new snapshot\(new == 1 ? "" : "s"), \(replaced) replaced,"
          + " \(unchanged) unchanged; \(entries) \(entries == 1 ? "entry" : "entries") stored.")
    }
    if kept > 0 {
      console.print(
        "Kept \(kept) decision\(kept == 1 ? "" : "s") the export carries (songs decisions lists"
          + " them).")
    }
    if skipped > 0 {
      console.print(
        "Skipped \(skipped) invalid file\(skipped == 1 ? "" : "s") (listed on standard error).")
    }
  }
}
