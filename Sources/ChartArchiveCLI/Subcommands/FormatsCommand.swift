import ChartFormats

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
    let format = try SharedOptions.outputFormat(arguments)
    var table = Table(columns: [
      Column(key: "format", heading: "FORMAT"),
      Column(key: "kind", heading: "KIND"),
      Column(key: "description", heading: "DESCRIPTION"),
    ])
    table.rows = ChartFormat.allCases.map {
      [.text($0.rawValue), .text($0.isJSON ? "JSON" : "CSV"), .text($0.summary)]
    }
    var document = Document()
    document.sections = [("formats", "", table)]
    document.render(format, console: console)
    return .success
  }
}
