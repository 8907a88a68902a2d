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
    *.json and *.csv files, which are imported in chart-date order. Every file is read and checked
    before the import is committed: if any file is invalid, every problem is listed, nothing is
    stored, and the exit status is 65. With --skip-invalid the valid files are stored (each whole)
    and the invalid ones listed; the exit status is 65 only when no file could be stored. A
    snapshot already stored with the same entries is left as it is ("unchanged"); a different
    snapshot of the same chart and chart date is refused unless --replace is given. Two different
    files for one chart and chart date in one import are refused even with --replace.

    The chart's name is --chart when given, else the name in the file (ChartArchive and
    billboard.py formats, a charts CSV's chart column; a ChartArchive file must give one), else
    the name of the folder that holds the file; a CSV with a region column adds "-<region>"
    (top200-global). The chart date is the file's own, else --date, else a YYYY-MM-DD (or
    YYYY-MM-DDTHH-MM for an hourly chart) in the file's name. A charts CSV's published trends are
    checked against the derived movements, and disagreements are listed as warnings.

    FORMATS:
    \(ChartFormat.allCases.map { "  " + $0.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    EXAMPLES:
      chart-archive import ~/charts/billboard-hot-100 --chart hot-100
      chart-archive import top50-2024-05-01.json --chart app-daily
    """
  static let arguments = [
    ArgumentSpec(
      name: "path", help: "Chart files, or folders to walk for *.json and *.csv files.",
      repeats: true)
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
      name: "--skip-invalid", valueName: nil,
      help: "Store the valid files and list the invalid ones, instead of storing nothing."),
    OptionSpec(
      name: "--quiet", valueName: nil, help: "Print only the summary, not a line per file."),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    var reader = ChartFileReader()
    reader.chart = arguments.option("--chart")
    if let chart = reader.chart, !Snapshot.isValidChartName(chart) {
      throw UsageError(
        "--chart '\(chart)' is not a valid chart name (1 to 200 characters, no control characters)")
    }
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
        .noInput,
        "no *.json or *.csv chart files in \(arguments.arguments("path").joined(separator: ", "))")
    }
    // A failed import into an archive that did not exist leaves no archive behind.
    let path = try SharedOptions.databasePath(arguments, environment: console.environment)
    let createdFolders = foldersCreated(byCreating: path)
    func store(into archive: Archive) throws -> ImportResult {
      try Self.store(
        files, into: archive, reader: reader, frequency: frequency,
        replacing: arguments.flag("--replace"), skipInvalid: arguments.flag("--skip-invalid"),
        listing: !arguments.flag("--quiet"), console: console)
    }
    let outcome: ImportResult
    do {
      // A new archive is built beside its path and appears there whole (see NewArchive); when
      // another import created the archive meanwhile, this one is stored into it instead.
      if path != ":memory:", !FileManager.default.fileExists(atPath: path),
        let published = try storeIntoNewArchive(at: path, store)
      {
        outcome = published
      } else {
        // What killed first imports left in the folder.
        if path != ":memory:" { NewArchive.deleteAbandonedBuildFiles(besides: path) }
        outcome = try store(
          into: SharedOptions.openArchive(arguments, console: console, create: true))
      }
    } catch {
      // Folders are removed only while empty: another import may have written into them.
      for folder in createdFolders.reversed() { rmdir(folder) }
      throw error
    }

    if !arguments.flag("--quiet") {
      for item in outcome.stored {
        let action = item.outcome.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
        console.print(
          "\(action)\(outcome.charts[Int(item.chart)]) \(item.chartDate)  \(item.entryCount)"
            + (item.entryCount == 1 ? " entry  " : " entries  ") + files[Int(item.file)])
      }
    }
    for file in outcome.setAside {
      console.printError(
        "warning: renamed \(file): it was beside no archive, left by one deleted or moved without"
          + " it, and may hold that archive's last imports; put it back beside that archive, named"
          + " as the archive with -wal (or -journal) after it, before opening it")
    }
    // Each line of a skipped file's problems says so, not only its first.
    for problem in outcome.skipped {
      for line in problem.split(separator: "\n", omittingEmptySubsequences: false) {
        console.printError("skipped: \(line)")
      }
    }
    if !outcome.trendDisagreements.isEmpty {
      for line in outcome.trendDisagreements.prefix(20) { console.printError("warning: \(line)") }
      if outcome.trendDisagreements.count > 20 {
        console.printError("warning: … and \(outcome.trendDisagreements.count - 20) more")
      }
      console.printError(
        "warning: \(outcome.trendDisagreements.count) published"
          + (outcome.trendDisagreements.count == 1 ? " trend disagrees" : " trends disagree")
          + " with the derived movement")
    }
    let (new, replaced, unchanged) = (outcome.new, outcome.replaced, outcome.unchanged)
    let entries = outcome.entries
    if new == 0, replaced == 0 {
      console.print(
        (unchanged == 1
          ? "Nothing new: the snapshot was already"
          : "Nothing new: all \(unchanged) snapshots were already") + " in \(path).")
    } else {
      console.print(
        "Imported "
          + (outcome.skippedFiles > 0
            ? "\(files.count - outcome.skippedFiles) of \(files.count) files"
            : "\(files.count) file\(files.count == 1 ? "" : "s")")
          + " into \(path):"
          + " \(new) new snapshot\(new == 1 ? "" : "s"), \(replaced) replaced,"
          + " \(unchanged) unchanged; \(entries) \(entries == 1 ? "entry" : "entries") stored.")
    }
    if outcome.skippedFiles > 0 {
      console.print(
        "Skipped \(outcome.skippedFiles) invalid file\(outcome.skippedFiles == 1 ? "" : "s")"
          + " (listed on standard error).")
    }
    return .success
  }

  /// What one snapshot of an import did, in a few bytes: an import of many files keeps one per
  /// snapshot until it commits.
  struct StoredSnapshot {
    /// The index of the file in the import's list.
    var file: Int32
    /// The index of the chart's name in ``ImportResult/charts``.
    var chart: Int32
    var chartDate: ChartDate
    var entryCount: Int32
    var outcome: ImportOutcome
  }

  struct ImportResult {
    /// What each snapshot did, when the import lists them (not with --quiet).
    var stored: [StoredSnapshot] = []
    /// How many snapshots were new, replaced and unchanged, and how many entries were stored.
    var new = 0
    var replaced = 0
    var unchanged = 0
    var entries = 0
    /// The names of the charts of `stored`, each once.
    var charts: [String] = []
    /// Entries whose published movement (a charts CSV's trend) disagrees with the derived one.
    var trendDisagreements: [String] = []
    /// The problems of the files skipped with --skip-invalid, and how many files they are.
    var skipped: [String] = []
    var skippedFiles = 0
    /// What a new archive found at its path and renamed aside (see `NewArchive.setAside`).
    var setAside: [String] = []
  }

  /// Reads every file and stores its snapshots in one transaction; after the first bad file the
  /// rest are still read and checked, so that every problem is listed, and nothing is committed.
  ///
  /// - Throws: ``CommandError`` with ``ExitCode/dataError`` listing the problems on standard error.
  private static func store(
    _ files: [String], into archive: Archive, reader: ChartFileReader, frequency: ChartFrequency?,
    replacing: Bool, skipInvalid: Bool, listing: Bool, console: Console
  ) throws -> ImportResult {
    let progress = Progress(total: files.count, console: console)
    let readAhead = ReadAhead(files: files, reader: reader)
    defer { readAhead.cancel() }
    var result = ImportResult()
    var chartIndex: [String: Int32] = [:]
    var trendDisagreements: [String] = []
    var failures: [String] = []
    var failedFiles: Set<String> = []
    do {
      try archive.write { batch in
        batch.retire = { readAhead.recycle($0) }
        for (index, path) in files.enumerated() {
          progress.update(done: index)
          let file: DecodedChartFile
          let keys: [[SongKeys]]
          switch readAhead.file(at: index) {
          case .success(let prepared): (file, keys) = (prepared.file, prepared.keys)
          case .failure(let error):
            failures.append(Remedies.describe(error))
            failedFiles.insert(path)
            continue
          }
          // After a failure nothing will be committed (unless invalid files are skipped): keep
          // checking the files, store no more.
          guard failures.isEmpty || skipInvalid else { continue }
          var withTrends: [(Snapshot, [PublishedTrend?])] = []
          do {
            func storeFile() throws -> [StoredSnapshot] {
              try zip(file.snapshots, keys).map { snapshot, keys in
                let outcome = try batch.store(
                  snapshot, keys: keys, frequency: frequency ?? file.frequency,
                  replacing: replacing, source: path)
                if chartIndex[snapshot.chart] == nil {
                  chartIndex[snapshot.chart] = Int32(result.charts.count)
                  result.charts.append(snapshot.chart)
                }
                return StoredSnapshot(
                  file: Int32(index), chart: chartIndex[snapshot.chart]!,
                  chartDate: snapshot.chartDate, entryCount: Int32(snapshot.entries.count),
                  outcome: outcome)
              }
            }
            // With --skip-invalid one file is stored whole or not at all, in a savepoint. Without,
            // a failure undoes the whole import, and a savepoint would only cost a copy of each
            // page the file changes (its journal).
            let fileStored = skipInvalid ? try batch.inSavepoint(storeFile) : try storeFile()
            for item in fileStored {
              switch item.outcome {
              case .imported: result.new += 1
              case .replaced: result.replaced += 1
              case .unchanged: result.unchanged += 1
              }
              if item.outcome != .unchanged { result.entries += Int(item.entryCount) }
            }
            if listing { result.stored += fileStored }
            withTrends = Array(zip(file.snapshots, file.publishedTrends))
          } catch let error as ArchiveError {
            switch error {
            case .conflictingSnapshot, .conflictingSnapshotsInOneImport:
              failures.append("\(path): \(CommandError(error).message)")
              failedFiles.insert(path)
            default:
              throw error
            }
          }
          // The published trends against the derived movements, once the file's snapshots are in.
          for (snapshot, trends) in withTrends {
            let summary = try archive.snapshot(of: snapshot.chart, at: snapshot.chartDate)
            for (placement, trend) in zip(try archive.placements(of: summary), trends) {
              guard let trend, !trend.agrees(with: placement.movement) else { continue }
              trendDisagreements.append(
                "\(path): \(snapshot.chart) \(snapshot.chartDate) rank \(placement.rank)"
                  + " '\(placement.entry.title)': published \(trend.rawValue), derived"
                  + " \(placement.movement.kind)")
            }
          }
          // The file's memory is freed on the reading thread.
          withTrends = []
          readAhead.recycle(PreparedFile(file: consume file, keys: consume keys))
        }
        progress.finish()
        if !failures.isEmpty, !skipInvalid || result.new + result.replaced + result.unchanged == 0 {
          throw ImportFailed()
        }
      }
    } catch is ImportFailed {
      for failure in failures { console.printError(failure) }
      throw CommandError(
        .dataError,
        "\(failedFiles.count) of \(files.count) file\(files.count == 1 ? "" : "s") could not be"
          + " imported; nothing was stored")
    } catch let error as ArchiveError {
      progress.finish()
      throw CommandError(error)
    }
    result.trendDisagreements = trendDisagreements
    result.skipped = failures
    result.skippedFiles = failedFiles.count
    return result
  }

  /// Stores an import into a new archive built for `path` and publishes it there.
  ///
  /// - Returns: what the import did, or `nil` when another archive appeared at `path` meanwhile
  ///   (nothing was published).
  /// - Throws: what `store` throws, or ``CommandError`` when the new archive cannot be built or
  ///   published.
  private static func storeIntoNewArchive(
    at path: String, _ store: (Archive) throws -> ImportResult
  ) throws -> ImportResult? {
    let new: NewArchive
    do { new = try NewArchive(at: path) } catch { throw CommandError(error) }
    var result = try store(new.archive)
    do {
      guard try new.publish() else { return nil }
    } catch {
      throw CommandError(error)
    }
    result.setAside = new.setAside
    return result
  }

  /// The folders that opening `path` for writing would create (its missing parent folders,
  /// outermost first), to remove after a failed import.
  private static func foldersCreated(byCreating path: String) -> [String] {
    let manager = FileManager.default
    guard path != ":memory:", !manager.fileExists(atPath: path) else { return [] }
    var folders: [String] = []
    var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    while !manager.fileExists(atPath: folder.path), folder.path != "/" {
      folders.insert(folder.path, at: 0)
      folder = folder.deletingLastPathComponent()
    }
    return folders
  }

  private struct ImportFailed: Error {}

  /// Expands folders into their `*.json` and `*.csv` files (hidden files and folders skipped),
  /// keeping the files named directly; orders everything by the chart date in the file name, then
  /// path.
  ///
  /// - Throws: ``CommandError`` with ``ExitCode/noInput`` naming every path that does not exist or
  ///   cannot be read: a folder that cannot be listed, a link to nothing.
  static func collectFiles(_ paths: [String]) throws(CommandError) -> [String] {
    let manager = FileManager.default
    var files: [String] = []
    var problems: [String] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        problems.append("\(path): no such file or folder")
        continue
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let root = URL(fileURLWithPath: path)
      let walker = manager.enumerator(
        at: root, includingPropertiesForKeys: [.isDirectoryKey],
        options: [.skipsHiddenFiles],
        errorHandler: { url, error in
          problems.append("\(url.path): cannot be read (\(error.localizedDescription))")
          return true
        })
      while let url = walker?.nextObject() as? URL {
        let name = url.lastPathComponent.lowercased()
        guard name.hasSuffix(".json") || name.hasSuffix(".csv") else { continue }
        // The path as the user wrote it, for messages and the archive's record.
        let relative = String(url.path.dropFirst(root.path.count)).drop { $0 == "/" }
        let full = (path.hasSuffix("/") ? path : path + "/") + relative
        var isFolder: ObjCBool = false
        if !manager.fileExists(atPath: full, isDirectory: &isFolder) {
          problems.append("\(full): a link to nothing")
        } else if !isFolder.boolValue {
          files.append(full)
        }
      }
    }
    if !problems.isEmpty {
      throw CommandError(.noInput, problems.joined(separator: "\n"))
    }
    // The name after the last slash: NSString's lastPathComponent costs some 20,000 instructions
    // a file, which a whole history's thousands of files wait for before the first is read.
    let dated = files.map { path in
      (path: path, date: ChartDate.inFileName(String(path.split(separator: "/").last ?? "")))
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
