import ChartStorage

/// `chart-archive completion bash|zsh|fish`: a shell completion script, made from the
/// subcommands' specifications (see ``CompletionScript``).
enum CompletionCommand: Subcommand {
  static let name = "completion"
  static let abstract = "Print the shell completion script for bash, zsh or fish."
  static let discussion = """
    The script completes subcommands, options, the values of the options that take one of a few
    words (--format, --frequency), file names, and chart names from the archive: the one the line
    names with --db, else $CHART_ARCHIVE_DB or the default archive. It asks for the names with
    completion --chart-names. script/install and the Debian package install the scripts where
    the shells look for them; to try one in the shell at hand, run the first example (bash) or
    the last (fish), or write the zsh script as _chart-archive in a folder of $fpath.
    """
  static let examples = [
    "source <(chart-archive completion bash)",
    "chart-archive completion zsh > ~/.zfunc/_chart-archive",
    "chart-archive completion fish | source",
  ]
  static let arguments = [
    ArgumentSpec(
      name: "shell", help: "bash, zsh or fish.", isOptional: true,
      values: .choices(CompletionScript.Shell.allCases.map(\.rawValue)))
  ]
  static let options = [
    OptionSpec(
      name: "--chart-names", valueName: nil,
      help: "Print the names of the archive's charts, one a line, instead of a script: what the"
        + " scripts run to complete a chart."),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let shell = arguments.argument("shell")
    if arguments.flag("--chart-names") {
      if let shell { throw UsageError("give a <shell> or --chart-names, not both ('\(shell)')") }
      let archive = try SharedOptions.openArchive(arguments, console: console)
      for chart in try query({ try archive.read { try $0.charts() } }) {
        console.print(chart.name)
      }
      return .success
    }
    guard let shell else {
      throw UsageError("missing expected argument '<shell>' (bash, zsh or fish)")
    }
    guard let kind = CompletionScript.Shell(rawValue: shell) else {
      throw UsageError("unknown shell '\(shell)' (expected bash, zsh or fish)")
    }
    if arguments.option("--db") != nil {
      throw UsageError("--db goes with --chart-names: a script finds the archive when it runs")
    }
    console.write(CompletionScript(for: kind).text)
    return .success
  }
}
