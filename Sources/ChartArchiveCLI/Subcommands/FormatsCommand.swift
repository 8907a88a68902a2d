import ChartPresentation

/// `chart-archive formats`: the file formats import reads.
enum FormatsCommand: Subcommand {
  static let name = "formats"
  static let abstract = "List the chart file formats that import reads."
  static let discussion = """
    Each file's format is detected from its content; `import --format NAME` reads every file in
    one format instead.
    """
  static let arguments: [ArgumentSpec] = []
  static let options = [SharedOptions.format]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    console.show(FormatsView(), as: try SharedOptions.outputFormat(arguments))
    return .success
  }
}
