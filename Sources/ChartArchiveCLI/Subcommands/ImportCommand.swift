import ChartFormats
import ChartRanking
import ChartStorage
import Foundation

/// `chart-archive import PATH…`: reads chart files and stores their snapshots, all or nothing.
enum ImportCommand: Subcommand {
  static let name = "import"
  static let abstract = "Import chart files (or folders of them) into the archive."
  static let discussion = """
    Each file's format is detected from its content (see FORMATS below); folders are walked for
    *.json files, which are imported in chart-date order. Every file is read and checked before
    the import is committed: if any file is invalid, every problem is listed, nothing is stored,
    and the exit status is 65. A snapshot already stored with the same entries is left as it is
    ("unchanged"); a different snapshot of the same chart and chart date is refused unless
    --replace is given.

    The chart's name is --chart when given, else the name in the file (ChartArchive format), else
    the name of the folder that holds the file. The chart date is the file's own, else --date,
    else a YYYY-MM-DD in the file's name.

    FORMATS:
    \(ChartFormat.allCases.map { "  " + $0.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    EXAMPLES:
      chart-archive import ~/charts/billboard-hot-100 --chart hot-100
      chart-archive import top50-2024-05-01.json --chart app-daily
    """
  static let arguments = [
    ArgumentSpec(
      name: "path", help: "Chart files, or folders to walk for *.json files.", repeats: true)
  ]
  static let options = [
    OptionSpec(name: "--chart", valueName: "name", help: "The chart's name for every file."),
    OptionSpec(
      name: "--date", valueName: "date",
      help: "The chart date for files that carry none: YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SSZ."),
    OptionSpec(
      name: "--format", valueName: "format",
      help: "Read every file in this format instead of detecting it: "
        + ChartFormat.allCases.map(\.rawValue).joined(separator: ", ") + "."),
    OptionSpec(
      name: "--frequency", valueName: "frequency",
      help: "How often the chart is published: "
        + ChartFrequency.allCases.map(\.rawValue).joined(separator: ", ")
        + ". Default: guessed from the chart's name."),
    OptionSpec(
      name: "--replace", valueName: nil,
      help: "Replace stored snapshots of the same chart and date that differ."),
    OptionSpec(
      name: "--quiet", valueName: nil, help: "Print only the summary, not a line per file."),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    var reader = ChartFileReader()
    reader.chart = arguments.option("--chart")
    if let chart = reader.chart, chart.isEmpty { throw UsageError("--chart needs a name") }
    reader.chartDate = try SharedOptions.chartDate(arguments.option("--date"), argument: "date")
    if let text = arguments.option("--format") {
      guard let format = ChartFormat(rawValue: text) else {
        throw UsageError(
          "unknown format '\(text)' (expected "
            + ChartFormat.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      reader.format = format
    }
    var frequency: ChartFrequency?
    if let text = arguments.option("--frequency") {
      guard let value = ChartFrequency(rawValue: text) else {
        throw UsageError(
          "unknown frequency '\(text)' (expected "
            + ChartFrequency.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      frequency = value
    }
    let files = try collectFiles(arguments.arguments("path"))
    if files.isEmpty {
      throw CommandError(
        .noInput, "no *.json chart files in \(arguments.arguments("path").joined(separator: ", "))")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console, create: true)
    let replacing = arguments.flag("--replace")
    let progress = Progress(total: files.count, console: console)

    struct Stored {
      var path: String
      var chart: String
      var chartDate: ChartDate
      var entryCount: Int
      var outcome: ImportOutcome
    }
    var stored: [Stored] = []
    var failures: [String] = []
    var failedFiles: Set<String> = []
    do {
      try archive.write { batch in
        for (index, path) in files.enumerated() {
          progress.update(done: index)
          let file: DecodedChartFile
          do throws(ChartFileError) {
            file = try reader.read(contentsOf: path)
          } catch {
            failures.append(error.description)
            failedFiles.insert(path)
            continue
          }
          // After a failure nothing will be committed: keep checking the files, store no more.
          guard failures.isEmpty else { continue }
          for snapshot in file.snapshots {
            do {
              let outcome = try batch.store(
                snapshot, frequency: frequency ?? file.frequency, replacing: replacing, source: path
              )
              stored.append(
                Stored(
                  path: path, chart: snapshot.chart, chartDate: snapshot.chartDate,
                  entryCount: snapshot.entries.count, outcome: outcome))
            } catch let error as ArchiveError {
              if case .conflictingSnapshot = error {
                failures.append("\(path): \(error.description)")
                failedFiles.insert(path)
              } else {
                throw error
              }
            }
          }
        }
        progress.finish()
        if !failures.isEmpty { throw ImportFailed() }
      }
    } catch is ImportFailed {
      for failure in failures { console.printError(failure) }
      let count = failedFiles.count
      throw CommandError(
        .dataError,
        "\(count) of \(files.count) file\(files.count == 1 ? "" : "s") could not be imported;"
          + " nothing was stored")
    } catch let error as ArchiveError {
      throw CommandError(error)
    }

    if !arguments.flag("--quiet") {
      for item in stored {
        let outcome = item.outcome.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        console.print(
          "\(outcome)\(item.chart) \(item.chartDate)  \(item.entryCount) entries  \(item.path)")
      }
    }
    let new = stored.filter { $0.outcome == .imported }
    let replaced = stored.filter { $0.outcome == .replaced }
    let unchanged = stored.count - new.count - replaced.count
    let entries = (new + replaced).reduce(0) { $0 + $1.entryCount }
    if new.isEmpty, replaced.isEmpty {
      console.print(
        "Nothing new: all \(stored.count) snapshot\(stored.count == 1 ? " was" : "s were") already"
          + " in \(archive.path).")
    } else {
      console.print(
        "Imported \(files.count) file\(files.count == 1 ? "" : "s") into \(archive.path):"
          + " \(new.count) new snapshot\(new.count == 1 ? "" : "s"), \(replaced.count) replaced,"
          + " \(unchanged) unchanged; \(entries) entries stored.")
    }
    return .success
  }

  private struct ImportFailed: Error {}

  /// Expands folders into their `*.json` files (hidden files and folders skipped), keeping the
  /// files named directly; orders everything by the chart date in the file name, then path.
  static func collectFiles(_ paths: [String]) throws(CommandError) -> [String] {
    let manager = FileManager.default
    var files: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw CommandError(.noInput, "\(path): no such file or folder")
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      guard let walker = manager.enumerator(atPath: path) else {
        throw CommandError(.noInput, "\(path): cannot read the folder")
      }
      var found: [String] = []
      while let relative = walker.nextObject() as? String {
        let name = (relative as NSString).lastPathComponent
        if name.hasPrefix(".") {
          walker.skipDescendants()
          continue
        }
        if name.lowercased().hasSuffix(".json") {
          let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
          var isFolder: ObjCBool = false
          if manager.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
            found.append(full)
          }
        }
      }
      files += found
    }
    let dated = files.map { path in
      (path: path, date: ChartDate.inFileName((path as NSString).lastPathComponent))
    }
    return dated.enumerated().sorted { lhs, rhs in
      switch (lhs.element.date, rhs.element.date) {
      case (let left?, let right?) where left != right: return left < right
      case (nil, _?): return false
      case (_?, nil): return true
      default: return (lhs.element.path, lhs.offset) < (rhs.element.path, rhs.offset)
      }
    }.map(\.element.path)
  }
}

/// A progress bar on standard error, shown only on a terminal: files done, total, percentage and
/// rate, redrawn at most ten times a second.
final class Progress {
  private let total: Int
  private let console: Console
  private let start = monotonicSeconds()
  private var lastDrawn = 0.0
  private var shown = false

  init(total: Int, console: Console) {
    self.total = total
    self.console = console
  }

  func update(done: Int) {
    guard console.errorIsTerminal, total > 1 else { return }
    let now = monotonicSeconds()
    guard now - lastDrawn >= 0.1 else { return }
    lastDrawn = now
    shown = true
    let fraction = Double(done) / Double(total)
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let rate = Double(done) / max(now - start, 0.001)
    console.writeError(
      "\r\u{1B}[2KImporting \(bar) \(done)/\(total) files (\(Int(fraction * 100))%)"
        + " \(Int(rate)) files/s")
  }

  func finish() {
    if shown { console.writeError("\r\u{1B}[2K") }
  }
}
