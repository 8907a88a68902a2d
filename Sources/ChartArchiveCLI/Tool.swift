import ChartStorage
import Foundation

/// The `chart-archive` command line: parses arguments, runs a subcommand, and turns errors into
/// messages on standard error and exit statuses (see ``ExitCode``).
///
/// Help follows swift-argument-parser's layout (OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS);
/// `-h`, `--help` and `help SUBCOMMAND` print it to standard output and exit 0.
public enum ChartArchiveTool {
  /// The version `--version` prints.
  public static let version = "0.1.0"

  static var subcommands: [any Subcommand.Type] {
    [
      ImportCommand.self, ChartsCommand.self, SnapshotsCommand.self, ShowCommand.self,
      HistoryCommand.self, DiffCommand.self, ReportCommand.self, AuditCommand.self,
      ExportCommand.self, CheckCommand.self, FormatsCommand.self, ServeCommand.self,
    ]
  }

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
          + " was written is incomplete")
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
    if !leading.isEmpty, !arguments.isEmpty { arguments.insert(contentsOf: leading, at: 1) }
    guard let first = arguments.first else {
      return usageError("missing subcommand", command: nil, console: console)
    }
    switch first {
    case "-h", "--help":
      console.write(mainHelp())
      return .success
    case "--version":
      console.print(version)
      return .success
    case "help":
      guard arguments.count > 1 else {
        console.write(mainHelp())
        return .success
      }
      guard let command = subcommands.first(where: { $0.name == arguments[1] }) else {
        return usageError("unknown subcommand '\(arguments[1])'", command: nil, console: console)
      }
      console.write(help(command))
      return .success
    default:
      break
    }
    guard let command = subcommands.first(where: { $0.name == first }) else {
      let message =
        first.hasPrefix("-") ? "unknown option '\(first)'" : "unknown subcommand '\(first)'"
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
      console.printError("Error: \(error.message)")
      return error.exitCode
    } catch let error as ArchiveError {
      let error = CommandError(error)
      console.printError("Error: \(error.message)")
      return error.exitCode
    } catch {
      console.printError("Error: \(error)")
      return .software
    }
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

  static func help(_ command: any Subcommand.Type) -> String {
    var text = "OVERVIEW: \(command.abstract)\n"
    if !command.discussion.isEmpty { text += "\n" + command.discussion + "\n" }
    text += "\nUSAGE: \(usage(command))\n"
    if !command.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in command.arguments {
        text += row("<\(argument.name)>", argument.help) + "\n"
      }
    }
    text += "\nOPTIONS:\n"
    for option in command.options {
      text += row(option.name + (option.valueName.map { " <\($0)>" } ?? ""), option.help) + "\n"
    }
    text += row("-h, --help", "Show help information.") + "\n"
    return text
  }

  static func mainHelp() -> String {
    var text = """
      OVERVIEW: Keep an archive of music chart snapshots in SQLite and report how entries move:
      climbers, fallers, debuts, re-entries and drop-outs.

      USAGE: chart-archive <subcommand>

      OPTIONS:
      \(row("--version", "Show the version."))
      \(row("-h, --help", "Show help information."))

      SUBCOMMANDS:

      """
    for command in subcommands { text += row(command.name, command.abstract) + "\n" }
    text += """

      The archive is --db PATH, else $CHART_ARCHIVE_DB, else
      $XDG_DATA_HOME/chart-archive/archive.sqlite (~/.local/share/chart-archive/archive.sqlite).

      EXIT STATUS: 0 done; 1 the answer is no (no such chart, snapshot or song, several songs
      match a search, or a check failed); 64 usage error; 65 invalid input data (nothing stored);
      66 no such input file or archive; 74 archive I/O error; 75 archive locked by another
      process.

      See 'chart-archive help <subcommand>' for detailed help.

      """
    return text
  }
}
