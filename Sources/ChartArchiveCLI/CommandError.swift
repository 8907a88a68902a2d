import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// An error that ends a command: its message for standard error and its exit status.
struct CommandError: Error {
  var exitCode: ExitCode
  var message: String

  init(_ exitCode: ExitCode, _ message: String) {
    self.exitCode = exitCode
    self.message = message
  }

  /// The error's exit status and its message in the command line's words: what to run or pass
  /// to mend it, where there is something.
  init(_ error: ArchiveError) {
    let code: ExitCode =
      switch error {
      case .notFound: .noInput
      case .notAnArchive, .newerSchema, .conflictingSnapshot, .conflictingSnapshotsInOneImport,
        .frequencyConflict, .timeZoneConflict:
        .dataError
      case .invalidChartName, .sameSnapshot: .usage
      case .noSuchChart, .noSuchSnapshot, .severalSnapshotsOnDay, .noEarlierSnapshot,
        .notEnoughSnapshots:
        .failure
      case .database: error.isLocked ? .temporaryFailure : .ioError
      case .upgradeNotWritable, .damaged, .movedWhileWritten: .ioError
      }
    let hint: String? =
      switch error {
      case .notFound: "import charts first: chart-archive import PATH…"
      case .conflictingSnapshot: "use --replace to replace it"
      case .upgradeNotWritable:
        "run any chart-archive command on it once as a user who can write it; the upgrade keeps"
          + " every snapshot"
      case .frequencyConflict(_, let stored, _):
        "import it into another chart with --chart NAME, or give --frequency \(stored.rawValue) if"
          + " it is this chart"
      case .timeZoneConflict(_, let stored?, _):
        "give --timezone \(stored), the chart's zone, or import into another"
          + " chart with --chart NAME"
      case .timeZoneConflict(_, nil, _):
        "import without --timezone, as the chart's snapshots were, or into"
          + " another chart with --chart NAME"
      case .damaged:
        "nothing was written to it; chart-archive check tells what is wrong: restore it from a"
          + " backup, or import its charts again into a new archive"
      case .movedWhileWritten:
        "nothing of it is in a file now at that path; run the command again"
      case .noSuchChart, .noSuchSnapshot, .severalSnapshotsOnDay:
        ArchiveErrorWords.hint(for: error)
      default: nil
      }
    self.init(code, error.description + (hint.map { " (\($0))" } ?? ""))
  }
}
