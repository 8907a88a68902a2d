import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive history QUERY`: how one song moved over time.
enum HistoryCommand: Subcommand {
  static let name = "history"
  static let abstract = "Show how a song moved over time: every chart date, rank and movement."
  static let discussion = """
    QUERY is a title, or part of a title or artist credit; case, Unicode composition and extra
    spaces do not matter, and every title and credit a song charted under is searched. When
    exactly one song's title equals QUERY, that song is shown; otherwise the one song that
    matches. When several songs match, they are listed with their song IDs (exit status 1), exact
    titles first: narrow the search with --artist (a credit that is the artist wins over credits
    that contain it), --chart or a fuller title, or pick one with --song ID. --artist without a
    QUERY lists the artist's songs.

    After the chart dates come the song's peak position, weeks on chart (days or hours for a
    daily or hourly chart; counted across re-entries), runs and debut, for each chart it was on.
    """
  static let examples = [
    #"chart-archive history "Blinding Lights""#,
    #"chart-archive history "Unchained Melody" --artist "righteous""#,
    #"chart-archive history --artist "Taylor Swift""#,
    "chart-archive history --song 1234",
  ]
  static let arguments = [
    ArgumentSpec(
      name: "query", help: "A title, or part of a title or artist credit.", isOptional: true)
  ]
  static let options = [
    OptionSpec(name: "--artist", valueName: "artist", help: "Part of the artist credit."),
    OptionSpec(
      name: "--chart", valueName: "name", help: "Only this chart's history.", values: .chart),
    OptionSpec(
      name: "--song", valueName: "id", help: "The song with this ID (listed by a search)."),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let text = arguments.argument("query")
    let artist = arguments.option("--artist")
    let chart = arguments.option("--chart")
    var songID: SongID?
    if let value = arguments.option("--song") {
      guard let number = Int64(value), number > 0 else {
        throw UsageError("--song expects a song ID (a whole number), found '\(value)'")
      }
      songID = SongID(number)
    }
    if let text, !text.contains(where: { !$0.isWhitespace }) {
      throw UsageError("<query> is empty: give a title, or part of a title or artist credit")
    }
    if text == nil, artist == nil, songID == nil {
      throw UsageError("give a <query>, --artist or --song")
    }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    if let songID {
      let recordings = try query {
        try archive.read { reader -> [SongRecording]? in
          guard let song = try reader.song(songID) else { return nil }
          return try reader.recordings(of: [song], onChart: chart)
        }
      }
      guard let recordings else {
        throw CommandError(.failure, "no song with ID \(songID.rawValue)")
      }
      console.show(HistoryView(recordings), as: format)
      return .success
    }
    guard let text else {
      // An artist's songs.
      let songs = try query {
        try archive.read { try $0.songs(matching: "", artist: artist, chart: chart) }
      }
      guard !songs.isEmpty else {
        throw CommandError(.failure, "no song by '\(artist ?? "")'")
      }
      console.show(SongMatchesView(songs), as: format)
      return .success
    }
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
      let suggestion = try query {
        try archive.read { try $0.suggestion(forSearch: text, artist: artist, chart: chart) }
      }
      guard let suggestion else { throw CommandError(.failure, "no song matches \(searched)") }
      let songs = suggestion.songs.prefix(3).map { "\($0.title) by \($0.artist)" }
      throw CommandError(
        .failure,
        "no song matches \(searched) (did you mean '\(suggestion.query)'"
          + (suggestion.artist.map { " by '\($0)'" } ?? "") + "? "
          + songs.joined(separator: "; ") + (suggestion.songs.count > 3 ? "; …" : "") + ")")
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
