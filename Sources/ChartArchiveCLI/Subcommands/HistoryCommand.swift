import ChartPresentation
import ChartStorage

/// `chart-archive history QUERY`: how one song moved over time.
enum HistoryCommand: Subcommand {
  static let name = "history"
  static let abstract = "Show how a song moved over time: every chart date, rank and movement."
  static let discussion = """
    QUERY is a title, or part of a title or artist credit; case, Unicode composition and extra
    spaces do not matter. When exactly one song's title equals QUERY, that song is shown; otherwise
    the one song that matches. When several songs match, they are listed (exit status 1), exact
    titles first: narrow the search with --artist, --chart or a fuller title.

    After the chart dates come the song's peak position, weeks on chart (counted across
    re-entries) and debut, for each chart it was on.

    EXAMPLES:
      chart-archive history "Blinding Lights"
      chart-archive history "Unchained Melody" --artist "righteous"
    """
  static let arguments = [
    ArgumentSpec(name: "query", help: "A title, or part of a title or artist credit.")
  ]
  static let options = [
    OptionSpec(name: "--artist", valueName: "artist", help: "Part of the artist credit."),
    OptionSpec(name: "--chart", valueName: "name", help: "Only this chart's history."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let text = arguments.argument("query")!
    guard text.contains(where: { !$0.isWhitespace }) else {
      throw UsageError("<query> is empty: give a title, or part of a title or artist credit")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let artist = arguments.option("--artist")
    let chart = arguments.option("--chart")
    let searched =
      "'\(text)'" + (artist.map { " by '\($0)'" } ?? "") + (chart.map { " on \($0)" } ?? "")
    let found = try query {
      try archive.read { reader -> Result<[SongRecording], SongSearchFailure> in
        switch try reader.song(matching: text, artist: artist, chart: chart) {
        case .found(let songs): .success(try reader.recordings(of: songs, onChart: chart))
        case .several(let songs): .failure(.several(songs))
        case .none: .failure(.none)
        }
      }
    }
    switch found {
    case .success(let recordings):
      console.show(HistoryView(recordings), as: format)
      return .success
    case .failure(.none):
      throw CommandError(.failure, "no song matches \(searched)")
    case .failure(.several(let songs)):
      console.show(SongMatchesView(songs), as: format)
      console.printError(
        "\(songs.count) songs match \(searched); narrow the search with --artist, --chart or a"
          + " fuller title")
      return .failure
    }
  }

  /// A search that did not find one song.
  private enum SongSearchFailure: Error {
    case none
    case several([SongSummary])
  }
}
