import ChartFormats
import ChartRanking
public import ChartStorage
import Foundation

/// Imports chart files into an archive, all or nothing: every source is read and checked (on a
/// second thread, a few ahead of the storing), its snapshots stored in one write transaction, and
/// what happened returned as values, for any front end to word.
///
/// ```swift
/// let report = try Importer.run(
///   [.file("charts/hot-100/2024-01-06.json")], intoArchiveAt: "archive.sqlite",
///   options: ImportOptions(chart: "hot-100"))
/// print(report.imported)
/// ```
///
/// The policy: one invalid source (a file that does not read, or whose snapshot conflicts with a
/// stored one or with another source's) and nothing is stored, after every source was checked so
/// that every problem is reported; with ``ImportOptions/skippingInvalid`` the valid sources are
/// stored, each whole (in a savepoint), and nothing only when none is valid. A snapshot stored
/// already with the same entries is ``ImportOutcome/unchanged``; a different one of the same chart
/// date is refused unless ``ImportOptions/replacing``. The pages of a chart published in pages
/// (Apple Music's) are joined into one snapshot when they are imported together (see
/// ``PageGathering``). The movements a source publishes (a charts
/// CSV's trends, Spotify's entry statuses, the UK chart's and kworb's markers) are checked against
/// the derived ones once every file is stored.
public enum Importer {
  /// Imports into the archive at `path`, creating it when it does not exist.
  ///
  /// A new archive is built beside `path` and appears there whole, with the import, or not at all
  /// (see ``NewArchive``): a failed import into an archive that did not exist leaves no archive,
  /// nor the folders made for it. When another import created the archive meanwhile, this one is
  /// stored into it instead.
  ///
  /// - Parameters:
  ///   - sources: the files (or bytes), in the order they are stored.
  ///   - path: the archive's path.
  ///   - options: how to read and store.
  ///   - progress: called on the calling thread before each source is stored, after each part of a
  ///     dataset stored a few weeks at a time, and once at the end.
  /// - Returns: what was stored.
  /// - Throws: ``ImportError``: nothing was stored.
  public static func run(
    _ sources: [ImportSource], intoArchiveAt path: String, options: ImportOptions = .init(),
    progress: (ImportProgress) -> Void = { _ in }
  ) throws(ImportError) -> ImportReport {
    // No archive there yet: nothing at the path, or an empty file, which is left as it is when
    // the import fails.
    var status = stat()
    let noArchive =
      stat(path, &status) != 0 || (status.st_mode & S_IFMT == S_IFREG && status.st_size == 0)
    if path != ":memory:", noArchive {
      let createdFolders = foldersCreated(byCreating: path)
      do {
        if let report = try intoNewArchive(
          at: path, sources: sources, options: options, progress: progress)
        {
          return report
        }
      } catch {
        // Folders are removed only while empty: another import may have written into them.
        for folder in createdFolders.reversed() { rmdir(folder) }
        throw error
      }
    } else if path != ":memory:" {
      // What killed first imports left in the folder.
      NewArchive.deleteAbandonedBuildFiles(besides: path)
    }
    // The damage check's scan of the file and the reading of the sources start before the
    // archive is opened: a one-week import's file is read, and the scan most of the way through,
    // by the time the archive is open.
    let damage = path == ":memory:" ? nil : DamageCheck(scanning: path)
    return try withoutActuallyEscaping(progress) { (progress) throws(ImportError) in
      let run = ImportRun(sources: sources, options: options, progress: progress)
      let archive: Archive
      do throws(ArchiveError) {
        archive = try Archive(path: path, access: .create, upgrade: .decidingFigures)
      } catch {
        run.readAhead.cancel()
        damage?.finish()
        throw .archive(error)
      }
      damage?.attach(archive)
      return try importing(run, into: archive, damage: damage)
    }
  }

  /// Imports into an archive that is open (the HTTP service's uploads).
  ///
  /// An import is committed in the archive's write-ahead log; once committed, it is copied into
  /// the archive file as far as readers let it (``Archive/checkpoint()``), so that the file alone
  /// holds it; when that fails (a full disk), ``ImportReport/logNotCopied`` says so and the log
  /// must stay with the archive.
  ///
  /// - Parameters: as ``run(_:intoArchiveAt:options:progress:)``.
  /// - Precondition: the archive was opened for writing.
  /// - Throws: ``ImportError``: nothing was stored.
  public static func run(
    _ sources: [ImportSource], into archive: Archive, options: ImportOptions = .init(),
    progress: (ImportProgress) -> Void = { _ in }
  ) throws(ImportError) -> ImportReport {
    // The run keeps `progress` only while it runs.
    try withoutActuallyEscaping(progress) { (progress) throws(ImportError) in
      try importing(
        ImportRun(sources: sources, options: options, progress: progress), into: archive,
        damage: DamageCheck(archive))
    }
  }

  /// ``run(_:into:options:progress:)`` with its run begun (its sources being read ahead), and the
  /// archive's damage check (`nil` for none: an archive being built, or in memory).
  private static func importing(
    _ run: ImportRun, into archive: Archive, damage: DamageCheck?
  ) throws(ImportError) -> ImportReport {
    defer { run.readAhead.cancel() }
    // Nothing is committed into an archive with damaged pages; no check outlives the import.
    defer { damage?.finish() }
    do {
      // The check's answer is waited for last, after what the write does before it commits (the
      // artist index and totals, the full-text index): the scan of a large archive goes on
      // meanwhile.
      let waitForTheCheck = { () throws -> Void in try damage?.wait() }
      try archive.importing(beforeCommit: waitForTheCheck) { store in
        try run.store(into: store)
      }
    } catch let error as ImportError {
      throw error
    } catch let error as ArchiveError {
      // A damaged page the import met is told as the check tells it.
      if case .database(_, let failure) = error, failure.isDamage {
        do { try damage?.wait() } catch { throw .archive(error) }
      }
      // A user's trigger or index on the archive's tables may be why a write failed.
      if case .database = error,
        let objects = try? archive.read({ try $0.userObjectsOnArchiveTables() }), !objects.isEmpty
      {
        throw .writeFailedWithUserObjects(error, objects)
      }
      throw .archive(error)
    } catch {
      preconditionFailure("a write of the importer throws ImportError or ArchiveError: \(error)")
    }
    run.report.skipped = run.refused
    if archive.readsBesideWrites, run.report.imported + run.report.replaced > 0 {
      do { try archive.checkpoint() } catch { run.report.logNotCopied = error }
    }
    return run.report
  }

  /// One import under way: the sources, read ahead on a second thread, and what storing them
  /// found so far.
  private final class ImportRun {
    let sources: [ImportSource]
    let options: ImportOptions
    let progress: (ImportProgress) -> Void
    let readAhead: ReadAhead
    var report: ImportReport
    var refused: [RefusedSource] = []
    /// The charts named after a folder, with the first file and format that went to each.
    var folderCharts: [String: (source: String, format: ChartFormat)] = [:]
    /// The published trends of the snapshots stored, checked once every figure is settled.
    var trends: [PublishedTrends] = []
    /// The pages of charts published in pages, until each chart is whole.
    var pages = PageGathering()

    init(
      sources: [ImportSource], options: ImportOptions, progress: @escaping (ImportProgress) -> Void
    ) {
      var reader = ChartFileReader()
      reader.chart = options.chart
      reader.chartDate = options.chartDate
      reader.timeZone = options.timeZone
      reader.format = options.format
      reader.allowsTies = options.allowingTies
      reader.readsChartNamesInContent = options.chartIsRequired && options.chart != nil
      self.sources = sources
      self.options = options
      self.progress = progress
      readAhead = ReadAhead(sources: sources, reader: reader)
      report = ImportReport(sourceCount: sources.count)
    }

    /// Whether sources are still stored: none was refused, or invalid sources are skipped (after
    /// a refusal nothing will be committed: the sources are still checked, none stored).
    var isStoring: Bool { refused.isEmpty || options.skippingInvalid }

    /// Refuses a source.
    func refuse(_ source: Int, _ reason: RefusedSource.Reason) {
      refused.append(RefusedSource(source: source, name: sources[source].name, reason: reason))
    }

    /// Stores every source with the import engine, then settles the figures and reads the notes
    /// and the published trends that disagree.
    ///
    /// - Throws: ``ImportError/refused(_:sourceCount:)`` when a source was refused (and invalid
    ///   sources are not skipped, or none was valid); ``ArchiveError``.
    func store(into store: SnapshotStore) throws {
      for index in sources.indices {
        progress(ImportProgress(done: index, total: sources.count))
        switch readAhead.file(at: index) {
        case .success(let prepared): try storeSource(prepared, source: index, with: store)
        case .failure(let error): refuse(index, .invalid(error))
        }
      }
      try storeRestOfPages(with: store)
      progress(ImportProgress(done: sources.count, total: sources.count))
      if !refused.isEmpty,
        !options.skippingInvalid || report.imported + report.replaced + report.unchanged == 0
      {
        throw ImportError.refused(refused, sourceCount: sources.count)
      }
      try store.finish()
      report.notes = store.takeNotes()
      report.trendDisagreements = try Importer.trendDisagreements(trends, reader: store.reader)
    }

    /// Stores a source read ahead: a page of a chart waits for the chart's other pages.
    private func storeSource(
      _ prepared: consuming PreparedFile, source index: Int, with store: SnapshotStore
    ) throws {
      if let other = Importer.takeRequiredChart(in: &prepared.file, options: options) {
        // As for a file of another format in the folder: a problem in the rest is told instead.
        let unreadable = prepared.continues ? readAhead.skipRest(of: index) : nil
        refuse(index, unreadable.map { .invalid($0) } ?? other)
        return
      }
      if !prepared.file.pages.isEmpty {
        for joined in pages.add(prepared, source: index) where isStoring {
          try storeJoined(joined, with: store)
        }
        return
      }
      guard isStoring else {
        if prepared.continues, let error = readAhead.skipRest(of: index) {
          refuse(index, .invalid(error))
        }
        return
      }
      try storeFile(prepared, source: index, otherPages: [], with: store)
      // The file's memory is freed on the reading thread.
      readAhead.recycle(consume prepared)
    }

    /// The charts whose pages were not all sure to be whole, stored; those whose last pages were
    /// not imported, stored as far as they go; pages that cannot be joined, refused.
    private func storeRestOfPages(with store: SnapshotStore) throws {
      let (rest, unjoinable) = pages.finish()
      refused += unjoinable
      for joined in rest where isStoring {
        if let next = joined.continuesAt {
          let snapshot = joined.prepared.file.snapshots[0]
          report.unfinishedCharts.append(
            UnfinishedChart(
              sources: joined.sources, chart: snapshot.chart, chartDate: snapshot.chartDate,
              entryCount: snapshot.entries.count, nextOffset: next))
        }
        try storeJoined(joined, with: store)
      }
    }

    /// Stores a chart joined from its pages, and frees the pages' files.
    private func storeJoined(_ joined: PageGathering.Joined, with store: SnapshotStore) throws {
      let refusedBefore = refused.count
      try storeFile(
        joined.prepared, source: joined.sources[0], otherPages: Array(joined.sources.dropFirst()),
        with: store)
      // Refused, the chart's other pages are too, for the same reason.
      if refused.count > refusedBefore, let reason = refused.last?.reason {
        for source in joined.sources.dropFirst() { refuse(source, reason) }
      }
      for page in joined.pages { readAhead.recycle(page) }
    }

    /// Stores a file's snapshots, or refuses it; `otherPages` are the sources of the other pages
    /// of its chart when it is pages joined.
    private func storeFile(
      _ prepared: PreparedFile, source index: Int, otherPages: [Int], with store: SnapshotStore
    ) throws {
      guard takesFolderChart(of: prepared, source: index) else { return }
      for disagreement in prepared.file.dateDisagreements {
        report.dateDisagreements.append((index, disagreement))
      }
      do {
        trends += try Importer.store(
          prepared, source: index, otherPages: otherPages, in: store, options: options,
          into: &report, readAhead: readAhead
        ) { fraction in
          progress(ImportProgress(done: index, total: sources.count, fractionOfSource: fraction))
        }
      } catch let part as RefusedPart {
        refuse(index, part.reason)
      } catch let error as ArchiveError {
        guard refusesTheSource(error) else { throw error }
        refuse(index, .conflict(error))
      }
      // The memory of the snapshots linking let go is freed on the reading thread.
      readAhead.recycle(store.takeRetiredSnapshots())
    }

    /// Whether a file whose chart is named after its folder is of the format the folder's first
    /// file was; refuses it when it is not.
    private func takesFolderChart(of prepared: PreparedFile, source index: Int) -> Bool {
      guard prepared.file.chartNamedAfterFolder, let chart = prepared.file.snapshots.first?.chart
      else { return true }
      if let first = folderCharts[chart], first.format != prepared.file.format {
        // The rest of a file read in parts is read (the reading thread waits for it to be
        // taken), and a problem in it refuses the file, as the file read whole is refused.
        let unreadable = prepared.continues ? readAhead.skipRest(of: index) : nil
        refuse(
          index,
          unreadable.map { .invalid($0) }
            ?? .otherFormatInFolder(
              chart: chart, format: prepared.file.format, otherSource: first.source,
              otherFormat: first.format))
        return false
      }
      folderCharts[chart] = folderCharts[chart] ?? (sources[index].name, prepared.file.format)
      return true
    }
  }

  /// A stored snapshot some of whose entries have a published trend, with the index of its
  /// source: its trends that disagree are read back once every figure is settled.
  typealias PublishedTrends = (source: Int, chart: String, chartDate: ChartDate)

  /// A file read in parts that has a problem in a part after the first (see
  /// ``PreparedFile/continues``), or whose later part is of another chart than the one required:
  /// the parts stored before it are undone with the file.
  private struct RefusedPart: Error {
    var reason: RefusedSource.Reason
  }

  /// Gives a file's snapshots the chart required (``ImportOptions/chartIsRequired``), or tells why
  /// the file is refused: a snapshot whose content names another chart (the chart's name and a
  /// row's region), or, where the content names none, that would go to another (the chart
  /// required and a row's region).
  ///
  /// - Returns: the reason to refuse the file, naming the chart its content names, else the one
  ///   it would go to; `nil` when every snapshot is of the chart required, or none is required.
  static func takeRequiredChart(in file: inout DecodedChartFile, options: ImportOptions)
    -> RefusedSource.Reason?
  {
    guard options.chartIsRequired, let required = options.chart else { return nil }
    for index in file.snapshots.indices {
      let named = index < file.chartsNamedInContent.count ? file.chartsNamedInContent[index] : []
      // Where the content names the chart whole, it replaces the chart given with a row's region
      // after it.
      for chart in named.isEmpty ? [file.snapshots[index].chart] : named where chart != required {
        return .otherChart(named: chart, required: required)
      }
      file.snapshots[index].chart = required
    }
    return nil
  }

  /// Stores one file's snapshots (in a savepoint when invalid files are skipped, so that the file
  /// is stored whole or not at all), taking the rest of its parts from `readAhead` when it
  /// ``PreparedFile/continues``.
  ///
  /// `partStored` is called with the fraction of the file stored after each part of a file read
  /// in parts.
  ///
  /// - Returns: the published trends of the snapshots stored, to check once every figure is
  ///   settled.
  /// - Throws: ``RefusedPart`` when a later part of the file has a problem or is of another chart
  ///   than the one required; `ArchiveError`.
  ///   The file's parts are read to the end either way.
  private static func store(
    _ prepared: PreparedFile, source: Int, otherPages: [Int], in batch: SnapshotStore,
    options: ImportOptions, into report: inout ImportReport, readAhead: ReadAhead,
    partStored: (Double) -> Void
  ) throws -> [PublishedTrends] {
    var continues = prepared.continues
    defer {
      if continues { _ = readAhead.skipRest(of: source) }
    }
    var trends: [PublishedTrends] = []
    var decisionsKept = 0
    func storeFile() throws -> [ImportedSnapshot] {
      var stored: [ImportedSnapshot] = []
      trends = []
      decisionsKept = 0
      func storePart(_ part: PreparedFile) throws {
        let file = part.file
        if !file.decisions.isEmpty { decisionsKept += try batch.keep(file.decisions) }
        for (read, keys) in zip(file.snapshots, part.keys) {
          var snapshot = read
          if file.dateIsLocalTimeReadAsUTC {
            snapshot.chartDate = try batch.chartDate(
              ofLocalTime: snapshot.chartDate, chart: snapshot.chart)
          }
          let outcome = try batch.store(
            snapshot, keys: keys, frequency: options.frequency ?? file.frequency,
            timeZone: options.timeZone?.identifier, replacing: options.replacing,
            source: file.path)
          stored.append(
            ImportedSnapshot(
              source: source, chart: snapshot.chart, chartDate: snapshot.chartDate,
              entryCount: snapshot.entries.count, outcome: outcome, otherPages: otherPages))
          if snapshot.entries.contains(where: { $0.publishedTrend != nil }) {
            trends.append((source, snapshot.chart, snapshot.chartDate))
          }
        }
      }
      try storePart(prepared)
      if continues { partStored(prepared.fractionRead) }
      while continues {
        switch readAhead.file(at: source) {
        case .success(var part):
          continues = part.continues
          if let other = takeRequiredChart(in: &part.file, options: options) {
            throw RefusedPart(reason: other)
          }
          try storePart(part)
          partStored(part.fractionRead)
          readAhead.recycle(part)
          readAhead.recycle(batch.takeRetiredSnapshots())
        case .failure(let error):
          continues = false
          throw RefusedPart(reason: .invalid(error))
        }
      }
      return stored
    }
    // Without skipping, a failure undoes the whole import, and a savepoint would only cost a copy
    // of each page the file changes (its journal).
    let stored: [ImportedSnapshot]
    do {
      stored = options.skippingInvalid ? try batch.inSavepoint(storeFile) : try storeFile()
    } catch let error as ArchiveError where continues && refusesTheSource(error) {
      // A problem in a later part refuses the file for that problem, not for the conflict an
      // earlier part met: the file read whole is refused before any of it is stored.
      continues = false
      if let unreadable = readAhead.skipRest(of: source) {
        throw RefusedPart(reason: .invalid(unreadable))
      }
      throw error
    }
    report.decisionsKept += decisionsKept
    for item in stored {
      switch item.outcome {
      case .imported: report.imported += 1
      case .replaced: report.replaced += 1
      case .unchanged: report.unchanged += 1
      }
      if item.outcome != .unchanged { report.entriesStored += item.entryCount }
    }
    if options.listingSnapshots { report.snapshots += stored }
    return trends
  }

  /// Whether storing a snapshot failed with `error` because of the snapshot (a conflict with a
  /// stored snapshot or another source's, or another frequency), which refuses its source, rather
  /// than because of the archive.
  private static func refusesTheSource(_ error: ArchiveError) -> Bool {
    switch error {
    case .conflictingSnapshot, .conflictingSnapshotsInOneImport, .frequencyConflict,
      .timeZoneConflict:
      true
    default: false
    }
  }

  /// The published trends that disagree with the movements the archive decided: the entries
  /// whose movement has a verdict (see ``EntryFigures/movementVerdict``; the rule is
  /// ``PublishedTrend/agrees(with:)``, applied where the archive can tell how an entry moved).
  private static func trendDisagreements(
    _ trends: [PublishedTrends], reader: ArchiveReader
  ) throws(ArchiveError) -> [TrendDisagreement] {
    var disagreements: [TrendDisagreement] = []
    for item in trends {
      let summary = try reader.snapshot(of: item.chart, at: item.chartDate)
      for placement in try reader.placements(of: summary) {
        guard placement.figures.movementVerdict != nil, let trend = placement.entry.publishedTrend
        else { continue }
        disagreements.append(
          TrendDisagreement(
            source: item.source, chart: item.chart, chartDate: item.chartDate,
            rank: placement.rank, title: placement.entry.title, published: trend,
            derived: placement.movement))
      }
    }
    return disagreements
  }

  /// Stores an import into a new archive built for `path` and publishes it there.
  ///
  /// - Returns: what the import did, or `nil` when another archive appeared at `path` meanwhile
  ///   (nothing was published).
  private static func intoNewArchive(
    at path: String, sources: [ImportSource], options: ImportOptions,
    progress: (ImportProgress) -> Void
  ) throws(ImportError) -> ImportReport? {
    let new: NewArchive
    do { new = try NewArchive(at: path) } catch { throw .archive(error) }
    var report = try run(sources, into: new.archive, options: options, progress: progress)
    do {
      guard try new.publish() else { return nil }
    } catch {
      throw .archive(error)
    }
    report.setAside = new.setAside
    return report
  }

  /// The folders that opening `path` for writing would create (its missing parent folders,
  /// outermost first), to remove after a failed import.
  private static func foldersCreated(byCreating path: String) -> [String] {
    let manager = FileManager.default
    var folders: [String] = []
    var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    while !manager.fileExists(atPath: folder.path), folder.path != "/" {
      folders.insert(folder.path, at: 0)
      folder = folder.deletingLastPathComponent()
    }
    return folders
  }
}
