import ChartRanking
import ChartStorage
import Foundation

/// The `chart-archive` command line: parses arguments, runs a subcommand, and turns errors into
/// messages on standard error and exit statuses (see ``ExitCode``).
///
/// Help follows swift-argument-parser's layout (OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS);
/// `-h`, `--help` and `help SUBCOMMAND` print it to standard output and exit 0. The subcommands'
/// specifications (``Subcommand``, ``OptionSpec``, ``ArgumentSpec``) are the one source of the
/// help, the shell completion scripts (``CompletionScript``) and the manual page
/// (``ManualPage``).
public enum ChartArchiveTool {
  /// The version `--version` prints (after the tool's name), and the Debian package's.
  public static let version = "0.1.0"

  /// The one sentence that says what the tool does: the help's OVERVIEW, the manual page's NAME.
  static let overview =
    "Keep an archive of music chart snapshots in SQLite and report how entries move: climbers,"
    + " fallers, debuts, re-entries and drop-outs."

  static var subcommands: [any Subcommand.Type] {
    [
      ImportCommand.self, ChartsCommand.self, SnapshotsCommand.self, ShowCommand.self,
      HistoryCommand.self, ArtistCommand.self, SongsCommand.self, DiffCommand.self,
      ReportCommand.self, RecordsCommand.self, AuditCommand.self, PeriodCommand.self,
      ExportCommand.self, CheckCommand.self, BackupCommand.self, FormatsCommand.self,
      ServeCommand.self,
      CompletionCommand.self, ManualCommand.self,
    ]
  }

  /// The options of the tool itself, given before a subcommand or instead of one.
  static let toolOptions = [
    OptionSpec(
      name: "--version", valueName: nil, help: "Show the version: chart-archive VERSION.",
      shortName: "-V"),
    OptionSpec(
      name: "--verbose", valueName: nil,
      help: "With --version: the schema version, SQLite version and git commit too."),
    OptionSpec(
      name: "--db", valueName: "path",
      help: "The archive file, for the subcommand that follows (as its own --db).",
      values: .file),
  ]

  /// `-h, --help`, which every subcommand takes too.
  static let helpOption = OptionSpec(
    name: "--help", valueName: nil, help: "Show help information.", shortName: "-h")

  /// Runs the tool.
  ///
  /// - Parameters:
  ///   - arguments: the command-line arguments without the program name.
  ///   - console: where output goes, and the environment.
  /// - Returns: the exit status.
  public static func run(_ arguments: [String], console: Console) -> ExitCode {
    let status = runCommand(arguments, console: console)
    // Output that could not be written is an error, but for a reader that went away (`| head`),
    // which ends the command quietly as SIGPIPE ends other tools.
    switch console.finishOutput() {
    case nil: return status
    case EPIPE?: return .outputClosed
    case let error?:
      console.printError(
        "Error: could not write to standard output (\(String(cString: strerror(error)))); what"
          + " was written is incomplete" + (console.doneBeforeOutput.map { ", but \($0)" } ?? ""))
      return .ioError
    }
  }

  private static func runCommand(_ arguments: [String], console: Console) -> ExitCode {
    // `--db PATH` may come before the subcommand too: hand it to the subcommand.
    var arguments = arguments
    var leading: [String] = []
    while let first = arguments.first, first == "--db" || first.hasPrefix("--db=") {
      let count = first == "--db" ? min(2, arguments.count) : 1
      leading += arguments.prefix(count)
      arguments.removeFirst(count)
    }
    // A subcommand that reads no archive (`formats`, `manual`) ignores it: `--db` before the
    // subcommand is what an alias or a script gives every command.
    if !leading.isEmpty, let name = arguments.first,
      subcommands.first(where: { $0.name == name })?.options.contains(where: {
        $0.name == "--db"
      }) ?? true
    {
      arguments.insert(contentsOf: leading, at: 1)
    }
    guard let first = arguments.first else {
      return usageError("missing subcommand", command: nil, console: console)
    }
    switch first {
    case "-h", "--help":
      console.write(mainHelp())
      return .success
    case "--version", "-V", "--verbose":
      return printVersion(arguments, console: console)
    case "help":
      guard arguments.count > 1 else {
        console.write(mainHelp())
        return .success
      }
      guard let command = subcommands.first(where: { $0.name == arguments[1] }) else {
        return usageError(unknownSubcommand(arguments[1]), command: nil, console: console)
      }
      console.write(help(command))
      return .success
    default:
      break
    }
    guard let command = subcommands.first(where: { $0.name == first }) else {
      let message =
        first.hasPrefix("-") ? "unknown option '\(first)'" : unknownSubcommand(first)
      return usageError(message, command: nil, console: console)
    }
    do {
      let parsed = try ParsedArguments.parse(
        Array(arguments.dropFirst()), options: command.options, arguments: command.arguments)
      if parsed.wantsHelp {
        console.write(help(command))
        return .success
      }
      return try command.run(parsed, console: console)
    } catch let error as UsageError {
      return usageError(error.message, command: command, console: console)
    } catch let error as CommandError {
      return failure(error, command: command, console: console)
    } catch let error as ArchiveError {
      return failure(CommandError(error), command: command, console: console)
    } catch {
      console.printError("Error: \(error)")
      return .software
    }
  }

  /// `--version` (`-V`): `chart-archive VERSION`; with `--verbose`, then the archive schema
  /// version this build reads and writes, the SQLite library's version in use
  /// (`sqlite3_libversion()`) and the git commit of the build, a `name: value` line each.
  private static func printVersion(_ arguments: [String], console: Console) -> ExitCode {
    let parsed: ParsedArguments
    do {
      parsed = try ParsedArguments.parse(arguments, options: toolOptions, arguments: [])
    } catch {
      return usageError(error.message, command: nil, console: console)
    }
    guard parsed.flag("--version") else {
      return usageError("--verbose goes with --version", command: nil, console: console)
    }
    console.print("chart-archive \(version)")
    if parsed.flag("--verbose") {
      console.print("schema version: \(Archive.schemaVersion)")
      console.print("SQLite version: \(Archive.sqliteVersion)")
      console.print("git commit: \(buildCommit)")
    }
    return .success
  }

  /// `unknown subcommand 'shwo' (did you mean show?)`: with the closest subcommand's name, when
  /// one is close (see ``Suggestions/closest(to:among:)``).
  private static func unknownSubcommand(_ name: String) -> String {
    let closest = Suggestions.closest(to: name, among: subcommands.map { $0.name }).first
    return "unknown subcommand '\(name)'" + (closest.map { " (did you mean \($0)?)" } ?? "")
  }

  /// A command's error on standard error, with the usage line when it is a usage error (two
  /// dates that name one snapshot, say, found once the archive is read).
  private static func failure(
    _ error: CommandError, command: any Subcommand.Type, console: Console
  ) -> ExitCode {
    guard error.exitCode != .usage else {
      return usageError(error.message, command: command, console: console)
    }
    console.printError("Error: \(error.message)")
    return error.exitCode
  }

  private static func usageError(
    _ message: String, command: (any Subcommand.Type)?, console: Console
  )
    -> ExitCode
  {
    console.printError("Error: \(message)")
    if let command {
      console.printError("Usage: \(usage(command))")
      console.printError("  See 'chart-archive \(command.name) --help' for more information.")
    } else {
      console.printError("Usage: chart-archive <subcommand>")
      console.printError("  See 'chart-archive --help' for more information.")
    }
    return .usage
  }

  // MARK: - Help

  static func usage(_ command: any Subcommand.Type) -> String {
    var parts = ["chart-archive", command.name]
    for argument in command.arguments {
      var text = "<\(argument.name)>"
      if argument.repeats { text += " ..." }
      parts.append(argument.isOptional ? "[\(text)]" : text)
    }
    for option in command.options {
      parts.append("[\(option.name)\(option.valueName.map { " <\($0)>" } ?? "")]")
    }
    return parts.joined(separator: " ")
  }

  private static func row(_ name: String, _ help: String) -> String {
    let width = 24
    let padded =
      name.count + 2 < width ? name.padding(toLength: width - 2, withPad: " ", startingAt: 0) : name
    let separator = name.count + 2 < width ? "" : "\n" + String(repeating: " ", count: width)
    return "  " + padded + separator + help
  }

  /// A subcommand's examples under `EXAMPLE:` or `EXAMPLES:`, indented; empty for none.
  static func examplesSection(_ command: any Subcommand.Type) -> String {
    guard !command.examples.isEmpty else { return "" }
    return (command.examples.count == 1 ? "EXAMPLE:" : "EXAMPLES:")
      + command.examples.map { "\n  " + $0 }.joined()
  }

  static func help(_ command: any Subcommand.Type) -> String {
    var text = "OVERVIEW: \(command.abstract)\n"
    let discussion = [command.discussion, examplesSection(command)].filter { !$0.isEmpty }
    if !discussion.isEmpty { text += "\n" + discussion.joined(separator: "\n\n") + "\n" }
    text += "\nUSAGE: \(usage(command))\n"
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in command.arguments {
        text += row("<\(argument.name)>", argument.help) + "\n"
      }
    }
    text += "\nOPTIONS:\n"
    for option in command.options + [helpOption] { text += optionRow(option) + "\n" }
    return text
  }

  /// An option's line of help: its names and value, then its help in a column.
  private static func optionRow(_ option: OptionSpec) -> String {
    row(
      (option.shortName.map { $0 + ", " } ?? "") + option.name
        + (option.valueName.map { " <\($0)>" } ?? ""), option.help)
  }

  /// Text broken into lines of at most `width` columns at spaces (a longer word stands alone), each
  /// after `indent` spaces but the first.
  static func wrapped(_ text: String, width: Int, indent: Int) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      let start = lines.isEmpty ? 0 : indent
      if !line.isEmpty, start + line.count + 1 + word.count > width {
        lines.append(line)
        line = String(word)
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    lines.append(line)
    return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
  }

  static func mainHelp() -> String {
    var text = "OVERVIEW: " + wrapped(overview, width: 90, indent: 0) + "\n\n"
    text += "USAGE: chart-archive <subcommand>\n\nOPTIONS:\n"
    for option in toolOptions + [helpOption] { text += optionRow(option) + "\n" }
    text += "\nSUBCOMMANDS:\n"
    for command in subcommands { text += row(command.name, command.abstract) + "\n" }
    text += """

      The archive is --db PATH, else $CHART_ARCHIVE_DB, else
      $XDG_DATA_HOME/chart-archive/archive.sqlite (~/.local/share/chart-archive/archive.sqlite).

      EXIT STATUS:

      """
    for status in ExitCode.allCases {
      let code = String(status.rawValue)
      text +=
        "  " + code + String(repeating: " ", count: 6 - code.count)
        + wrapped(status.meaning, width: 90, indent: 8) + "\n"
    }
    text += "\nSee 'chart-archive help <subcommand>' for detailed help.\n"
    return text
  }
}
