import ChartPresentation
import ChartStorage

/// `chart-archive check`: is the archive sound?
enum CheckCommand: Subcommand {
  static let name = "check"
  static let abstract = "Check the archive's integrity and invariants (exit status 0 or 1)."
  static let discussion = """
    Runs SQLite's integrity and foreign-key checks, then the archive's own: ranks positive and
    unique per snapshot, snapshots with entries and valid, ordered chart dates, every entry's song
    present. Exit status 0 when every check passes, 1 when one fails.
    """
  static let arguments: [ArgumentSpec] = []
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let checks = try query { try archive.read { try $0.check() } }
    console.show(ChecksView(path: archive.path, checks: checks), as: format)
    return checks.allSatisfy(\.passed) ? .success : .failure
  }
}
