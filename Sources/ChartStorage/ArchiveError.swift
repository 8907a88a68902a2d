public import ChartRanking

/// What can go wrong when opening, reading or writing an archive.
public enum ArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
  /// There is no archive file at the path (queries do not create one).
  case notFound(path: String)
  /// The file exists but is not a SQLite database, or not one of ChartArchive's.
  case notAnArchive(path: String, reason: String)
  /// The archive was written by a newer ChartArchive, with a schema version this build does not
  /// know.
  case newerSchema(path: String, version: Int, supported: Int)
  /// The archive has an older schema version, which must be upgraded (once, in place, keeping
  /// every row) before this build can read it, and the upgrade could not write the file or its
  /// folder; `reason` is SQLite's.
  case upgradeNotWritable(path: String, version: Int, supported: Int, reason: String)
  /// A different snapshot of the same chart and chart date is already stored, and replacing was
  /// not asked for.
  case conflictingSnapshot(chart: String, chartDate: ChartDate)
  /// One batch stored two different snapshots of the same chart and chart date (two files of one
  /// import); replacing does not choose between them. `otherSource` is where the one stored
  /// first came from, when known.
  case conflictingSnapshotsInOneImport(chart: String, chartDate: ChartDate, otherSource: String?)
  /// The chart is stored with another frequency than the one given (by the user, a file or the
  /// chart's name): the file is probably another chart's.
  case frequencyConflict(chart: String, stored: ChartFrequency, given: ChartFrequency)
  /// The chart's snapshots are cut in another time zone than the one the import gave
  /// (`--timezone`): `stored` and `given` are IANA zones, `nil` for UTC (a chart imported without
  /// a zone). A chart's zone is set by its first import and never changes, so that its stored
  /// instants never move.
  case timeZoneConflict(chart: String, stored: String?, given: String)
  /// The chart name is not valid (see ``Snapshot/isValidChartName(_:)``).
  case invalidChartName(String)
  /// No chart of that name is stored; `charts` are the archive's, by name (for suggestions).
  case noSuchChart(String, charts: [String])
  /// The chart has no snapshot at that chart date; `before` and `after` are the chart dates of
  /// its snapshots nearest to it, when there are any.
  case noSuchSnapshot(chart: String, chartDate: ChartDate, before: ChartDate?, after: ChartDate?)
  /// The chart is cut in a time zone (`timeZone`, IANA) and has several snapshots on that day in
  /// it (a chart published more than once a day): `chartDates` are theirs, in order; a date and
  /// time names one.
  case severalSnapshotsOnDay(
    chart: String, day: ChartDate, timeZone: String, chartDates: [ChartDate])
  /// The chart's snapshot at that chart date is its first: there is none before it to compare it
  /// with.
  case noEarlierSnapshot(chart: String, chartDate: ChartDate)
  /// The chart has no snapshot at all, or too few for the question.
  case notEnoughSnapshots(chart: String, needed: Int, stored: Int)
  /// Two chart dates given to compare name one snapshot (`latest` and its date).
  case sameSnapshot(chart: String, chartDate: ChartDate)
  /// SQLite reported an error while using the archive at `path`.
  case database(path: String, DatabaseError)
  /// Pages of the archive's tables cannot be read as SQLite wrote them (the file was damaged on
  /// disk or by another program); `pages` are the first found (see
  /// ``ArchiveReader/damagedPages(limit:)``). Nothing is written to such an archive.
  case damaged(path: String, pages: [DamagedPage])
  /// The archive file was moved, replaced (another file renamed over it) or deleted while a write
  /// was under way: the write is undone, or, moved as it committed, in the file no name reaches;
  /// nothing of it is written to a file now at the path (``Archive/write(beforeCommit:_:)``).
  case movedWhileWritten(path: String)

  /// Runs SQLite calls for the archive at `path`, turning their errors into ``database(path:_:)``
  /// and letting archive errors through.
  static func mapping<Result>(path: String, _ body: () throws -> Result) throws(ArchiveError)
    -> Result
  {
    do {
      return try body()
    } catch let error as ArchiveError {
      throw error
    } catch let error as DatabaseError {
      throw .database(path: path, error)
    } catch {
      throw .database(path: path, .other("\(error)"))
    }
  }

  /// Whether the error is SQLite's `SQLITE_BUSY` or `SQLITE_LOCKED`: another connection held the
  /// archive for longer than the busy timeout.
  public var isLocked: Bool {
    if case .database(_, let error) = self { return error.isBusy }
    return false
  }

  public var description: String {
    switch self {
    case .notFound(let path):
      "no archive at \(path)"
    case .notAnArchive(let path, let reason):
      "\(path) is not a ChartArchive archive: \(reason)"
    case .newerSchema(let path, let version, let supported):
      "\(path) has schema version \(version), written by a newer ChartArchive; this build knows"
        + " versions up to \(supported)"
    case .upgradeNotWritable(let path, let version, let supported, let reason):
      "\(path) has schema version \(version), and this build reads it after upgrading it to"
        + " version \(supported), which needs write access to the file and its folder: \(reason)"
    case .conflictingSnapshot(let chart, let chartDate):
      "\(chart) \(chartDate) is already stored with different entries"
    case .conflictingSnapshotsInOneImport(let chart, let chartDate, let otherSource):
      "another file of this import" + (otherSource.map { ", \($0)," } ?? "")
        + " holds a different snapshot of \(chart) \(chartDate)"
    case .frequencyConflict(let chart, let stored, let given):
      "chart '\(chart)' is \(stored.rawValue) in the archive, and this snapshot is said to be"
        + " \(given.rawValue)"
    case .timeZoneConflict(let chart, let stored, let given):
      "chart '\(chart)' is cut in \(stored ?? "UTC")"
        + (stored == nil ? " (its snapshots were imported without a time zone)" : "")
        + ", and this import gives the time zone \(given)"
    case .invalidChartName(let name):
      "'\(name)' is not a valid chart name (\(Snapshot.validChartNameRule))"
    case .noSuchChart(let name, _):
      "no chart named '\(name)' in the archive"
    case .noSuchSnapshot(let chart, let chartDate, _, _):
      "chart '\(chart)' has no snapshot dated \(chartDate)"
    case .severalSnapshotsOnDay(let chart, let day, let timeZone, let chartDates):
      "chart '\(chart)' has \(chartDates.count) snapshots on \(day) in its time zone, \(timeZone)"
    case .noEarlierSnapshot(let chart, let chartDate):
      "\(chart) \(chartDate) is the chart's first snapshot"
    case .notEnoughSnapshots(let chart, let needed, let stored):
      "chart '\(chart)' has \(stored) snapshot\(stored == 1 ? "" : "s"); \(needed) are needed"
    case .sameSnapshot(let chart, let chartDate):
      "both dates name the snapshot of \(chart) on \(chartDate): give two different chart dates"
    case .database(let path, let error):
      isLocked
        ? "the archive \(path) is in use by another process (waited"
          + " \(Database.busyTimeoutMilliseconds / 1000) s); try again"
        : "cannot use the archive \(path): \(error)"
    case .damaged(let path, let pages):
      "the archive \(path) is damaged: "
        + pages.prefix(3).map { "page \($0.page)" + ($0.table.isEmpty ? "" : " of \($0.table)") }
        .joined(separator: ", ")
        + (pages.count > 3 ? " and more" : "") + " cannot be read as SQLite wrote "
        + (pages.count == 1 ? "it" : "them")
    case .movedWhileWritten(let path):
      "the archive \(path) was moved, replaced or deleted while it was written"
    }
  }
}
