import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// One subcommand of `chart-archive`: its help, its arguments, and what it does.
protocol Subcommand {
  static var name: String { get }
  /// One sentence for the subcommand list and the OVERVIEW line.
  static var abstract: String { get }
  /// More text for `--help` and the manual page; empty for none. Paragraphs are separated by a
  /// blank line; a line indented two spaces is kept as it is (a table, a list), and a line of
  /// capitals ending in `:` heads what follows (`FORMATS:`).
  static var discussion: String { get }
  /// Command lines that show the subcommand in use, for `--help` (after the discussion) and the
  /// manual page; none by default.
  static var examples: [String] { get }
  static var arguments: [ArgumentSpec] { get }
  static var options: [OptionSpec] { get }
  /// Runs the subcommand.
  ///
  /// - Throws: ``CommandError`` (or ``UsageError``) to end with a message and an exit status.
  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}

extension Subcommand {
  static var examples: [String] { [] }
}

// MARK: - Helpers of the subcommands

/// Calls the library, turning an archive error into a ``CommandError``.
func query<Result>(_ body: () throws -> Result) throws -> Result {
  do { return try body() } catch let error as ArchiveError { throw CommandError(error) }
}

extension Console {
  /// Writes a view in a format to standard output, in colour on a terminal (tables only).
  func show(_ view: some Presentation, as format: OutputFormat) {
    write(view.rendered(as: format, style: style))
  }
}
