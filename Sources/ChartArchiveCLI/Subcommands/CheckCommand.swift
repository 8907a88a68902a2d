import ChartImport
import ChartPresentation
import ChartStorage

/// `chart-archive check`: is the archive sound?
enum CheckCommand: Subcommand {
  static let name = "check"
  static let abstract = "Check the archive's integrity and invariants (exit status 0 or 1)."
  static let discussion = """
    Runs SQLite's integrity and foreign-key checks, then the archive's own: ranks positive and in
    order per snapshot (two entries share a rank only as a tie), snapshots with entries and valid,
    ordered chart dates, every entry's song present, every number within the schema's CHECK
    constraints, the artist totals kept for the leaderboards equal to a count of the entries.
    Exit status 0 when every check passes, 1 when one fails, a damaged file included (a check
    SQLite cannot finish fails with its words).
    """
  static let arguments: [ArgumentSpec] = []
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let path = try SharedOptions.databasePath(arguments, environment: console.environment)
    let checks = try query { try Archive.check(path: path, upgrade: .decidingFigures) }
    console.show(ChecksView(path: path, checks: checks), as: format)
    return checks.allSatisfy(\.passed) ? .success : .failure
  }
}
