import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
import Foundation

/// `chart-archive import SPOOL --move-to DONE`: imports the chart files that arrive in a folder,
/// each in an import (a transaction) of its own, so that a broken file holds back none of the
/// others, and moves each, once its import is committed, into `DONE/imported`, `DONE/unchanged`
/// or `DONE/rejected` (with `NAME.report.txt` beside it: the words `import` prints for it).
///
/// A file is never imported twice and never lost: it leaves the spool only after its import
/// committed, and a run after a machine stopped between the commit and the move finds it
/// unchanged and moves it into `unchanged`. A run takes files until the spool has none left that
/// it has not taken (files that arrive while it runs are taken too), holding the spool so that a
/// second run waits for it (``Spool/lock(_:)``).
///
/// The exit status: 0 when every file was imported or unchanged (or there was none), 65 (as for
/// an import that refused a file) when a file was rejected; a failure of the archive (locked,
/// damaged, a full disk) or of a move stops the run with that failure's status, leaving the file
/// in the spool for the next run.
enum SpoolImport {
  /// How the run tells where each file went.
  enum OutputFormat: String, CaseIterable {
    case text, json
  }

  /// One file the run took, and where it went.
  struct Taken {
    /// Its path in the spool.
    var file: String
    var destination: Spool.Destination
    /// Its path in the destination's folder.
    var movedTo: String
    /// The path of the report beside a rejected file.
    var report: String?
    /// The snapshots its import stored or found stored.
    var snapshots: [ImportedSnapshot]
  }

  /// Runs `import SPOOL --move-to DONE`.
  ///
  /// - Throws: ``UsageError`` when more than one path is given, or with `--skip-invalid`;
  ///   ``CommandError`` when the spool is not a folder, or when the archive or a move fails.
  static func run(_ arguments: ParsedArguments, options: ImportOptions, console: Console) throws
    -> ExitCode
  {
    let paths = arguments.arguments("path")
    guard paths.count == 1, let spool = paths.first, let done = arguments.option("--move-to")
    else { throw UsageError("--move-to takes one spool folder, not \(paths.count) paths") }
    if options.skippingInvalid {
      throw UsageError(
        "--skip-invalid goes without --move-to: a spool imports each file on its own")
    }
    let format =
      try SharedOptions.choice(arguments, "--output-format", of: OutputFormat.self, named: "format")
      ?? .text
    var status = stat()
    guard stat(spool, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
      throw CommandError(.noInput, "\(ChartFileError.printable(spool)): no such folder (the spool)")
    }
    let database = try SharedOptions.databasePath(arguments, environment: console.environment)
    var options = options
    // Each snapshot's line, for the words kept with a file and for --output-format json.
    options.listingSnapshots = true
    var run = SpoolRun(
      spool: spool, done: done, database: database, options: options, console: console,
      printsLines: format == .text && !arguments.flag("--quiet"))
    do {
      try withExtendedLifetime(try spoolError { try Spool.lock(spool) }) { try run.takeAll() }
    } catch {
      run.finish(as: format, stopped: true)
      throw error
    }
    run.finish(as: format, stopped: false)
    return run.taken.contains { $0.destination == .rejected } ? .dataError : .success
  }

  /// Calls the library's spool, its error becoming the command's (status 74).
  static func spoolError<Result>(_ body: () throws -> Result) throws -> Result {
    do { return try body() } catch let error as SpoolError {
      throw CommandError(.ioError, error.description)
    }
  }
}

/// One run over a spool: the files taken so far.
private struct SpoolRun {
  let spool: String
  let done: String
  let database: String
  let options: ImportOptions
  let console: Console
  /// Whether a line is printed for each file as it is moved (text, without --quiet).
  let printsLines: Bool
  var taken: [SpoolImport.Taken] = []
  /// The files that are not chart files, left in the spool.
  var others: [String] = []

  /// Takes the spool's files, listing it again after each round, until a listing finds none it
  /// has not taken.
  mutating func takeAll() throws {
    var seen: Set<String> = []
    var madeFolders = false
    while true {
      let listing = try SpoolImport.spoolError { try Spool.list(spool) }
      others = listing.others
      let waiting = listing.files.filter { !seen.contains($0) }
      guard !waiting.isEmpty else { return }
      if !madeFolders {
        try SpoolImport.spoolError { try Spool.makeFolders(in: done) }
        madeFolders = true
      }
      for file in waiting {
        seen.insert(file)
        guard let item = try take(file) else { continue }
        taken.append(item)
        if printsLines { console.print(Self.line(item)) }
      }
    }
  }

  /// Imports one file on its own and moves it where its outcome says; `nil` when it is gone
  /// from the spool before it is read (moved or deleted by someone else).
  private func take(_ file: String) throws -> SpoolImport.Taken? {
    let words = CapturedWords(environment: console.environment)
    let outcome: Result<ImportReport, CommandError>
    do {
      let sources = try ImportSource.files(in: [file]).map(ImportSource.file)
      outcome = try ImportCommand.importAndPrint(
        sources, into: database, options: options, console: words.console)
    } catch let error as ImportSourceError {
      if access(file, F_OK) != 0, errno == ENOENT { return nil }
      outcome = .failure(CommandError(.noInput, error.description))
    }
    // An import's warnings and problems, on standard error as import gives them.
    for line in words.errorLines { console.printError(line) }
    switch outcome {
    case .success(let report):
      let destination: Spool.Destination = report.changedTheArchive ? .imported : .unchanged
      let target = try SpoolImport.spoolError {
        try Spool.move(file, into: Spool.folder(destination, in: done))
      }
      return .init(
        file: file, destination: destination, movedTo: target, report: nil,
        snapshots: report.snapshots)
    case .failure(let error):
      words.console.printError("Error: \(error.message)")
      let target = try SpoolImport.spoolError {
        try Spool.move(
          file, into: Spool.folder(.rejected, in: done), besides: [Spool.reportSuffix])
      }
      let report = target + Spool.reportSuffix
      try SpoolImport.spoolError { try Spool.writeNewFile(words.text, at: report) }
      return .init(
        file: file, destination: .rejected, movedTo: target, report: report, snapshots: [])
    }
  }

  /// `imported  SPOOL/FILE  moved to DONE/imported/FILE`, and for a rejected file where its
  /// report is.
  private static func line(_ item: SpoolImport.Taken) -> String {
    item.destination.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
      + ChartFileError.printable(item.file) + "  moved to " + ChartFileError.printable(item.movedTo)
      + (item.report.map { " (why: \(ChartFileError.printable($0)))" } ?? "")
  }

  /// Prints what the run did: the files left in the spool, and the summary (text; none for a run
  /// stopped before it took a file), or every file taken (JSON).
  func finish(as format: SpoolImport.OutputFormat, stopped: Bool) {
    for other in others {
      console.printError(
        "warning: left \(ChartFileError.printable(other)) in the spool: its name is not a chart"
          + " file's (*.json, *.csv, *.html or *.htm), nor a temporary one (a dot first, or .part"
          + " last)")
    }
    switch format {
    case .text: if !stopped || !taken.isEmpty { console.print(summary) }
    case .json: console.print(json.encoded())
    }
  }

  /// `Spool SPOOL: 2 imported, 1 unchanged, 1 rejected (…).`, or `Nothing new in SPOOL.`
  private var summary: String {
    guard !taken.isEmpty else { return "Nothing new in \(ChartFileError.printable(spool))." }
    let count = { (destination: Spool.Destination) in
      taken.filter { $0.destination == destination }.count
    }
    let rejected = count(.rejected)
    return "Spool \(ChartFileError.printable(spool)): \(count(.imported)) imported,"
      + " \(count(.unchanged)) unchanged, \(rejected) rejected"
      + (rejected == 0
        ? ""
        : " (each with NAME.report.txt beside it in"
          + " \(ChartFileError.printable(Spool.folder(.rejected, in: done))))")
      + "; moved into \(ChartFileError.printable(done))."
  }

  /// `{"spool", "move_to", "files": [{"file", "went", "moved_to", "report", "snapshots"}],
  /// "imported", "unchanged", "rejected", "left"}`.
  private var json: JSONValue {
    let files = taken.map { item in
      JSONValue.object([
        ("file", .string(item.file)), ("went", .string(item.destination.rawValue)),
        ("moved_to", .string(item.movedTo)), ("report", JSONValue(item.report)),
        (
          "snapshots",
          .array(item.snapshots.map(ImportWords.json(of:)))
        ),
      ])
    }
    var members: [(String, JSONValue)] = [
      ("spool", .string(spool)), ("move_to", .string(done)), ("files", .array(files)),
    ]
    for destination in Spool.Destination.allCases {
      members.append(
        (destination.rawValue, .int(taken.filter { $0.destination == destination }.count)))
    }
    members.append(("left", .array(others.map(JSONValue.string))))
    return .object(members)
  }
}

/// A console whose output is kept, in the order written: what `import` prints for one file.
private final class CapturedWords {
  private(set) var text = ""
  private(set) var errorLines: [String] = []
  private(set) var console: Console!

  init(environment: [String: String]) {
    console = Console(
      environment: environment, outputIsTerminal: false, errorIsTerminal: false,
      output: { [unowned self] in text += $0 },
      error: { [unowned self] line in
        text += line
        errorLines.append(String(line.dropLast(line.hasSuffix("\n") ? 1 : 0)))
      })
  }
}
