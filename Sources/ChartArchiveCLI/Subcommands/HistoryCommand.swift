import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive history QUERY`: how one song moved over time.
enum HistoryCommand: Subcommand {
  static let name = "history"
  static let abstract = "Show how a song moved over time: every chart date, rank and movement."
  static let discussion = """
    QUERY is a title, or part of a title or artist credit; case, accents, Unicode composition and
    extra spaces do not matter, and every title and credit a song charted under is searched. When
    exactly one song's title is QUERY (the same letters and digits), that song is shown; otherwise
    the one song that matches. When several songs match, they are listed with their song IDs
    (exit status 1): whole titles first, then songs with every word of QUERY a whole word of a
    title or credit, and songs that match only inside words when there are none of those; each
    kind by best rank, then entries (most first). Narrow the search with --artist (a credit that
    is the artist wins over credits that contain it), --chart or a fuller title, or pick one with
    --song ID. --artist without a QUERY lists the artist's songs.

    After the chart dates come the song's peak position, weeks on chart (days or hours for a
    daily or hourly chart; counted across re-entries), runs and debut, for each chart it was on.

    --format svg draws the rank history as a picture (SVG 1.1) instead: rank 1 at the top, one
    point per chart date, the line broken where the song was off the chart, the peak marked, a
    panel per chart with its own dates and ranks. It draws several songs on one picture, each in
    a colour of its own and named at the end of its line, with a legend: each --song given (the
    option repeats), or the songs a search finds (at most 12, best matches first).
    """
  static let examples = [
    #"chart-archive history "Blinding Lights""#,
    #"chart-archive history "Unchained Melody" --artist "righteous""#,
    #"chart-archive history --artist "Taylor Swift""#,
    "chart-archive history --song 1234",
    #"chart-archive history "Blinding Lights" --format svg > run.svg"#,
    "chart-archive history --song 1234 --song 5678 --format svg > runs.svg",
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
      name: "--song", valueName: "id",
      help: "The song with this ID (listed by a search); repeat it to draw several songs.",
      repeats: true),
    OptionSpec(
      name: "--format", valueName: "format",
      help: "Output format: table, json, csv, or svg (a picture). Default: table.",
      values: .choices(["table", "json", "csv", "svg"])),
    SharedOptions.database,
  ]

  /// The most songs a search draws on one picture.
  static let pictureLimit = 12

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let request = try Request(arguments)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let output = Output(console: console, archive: archive, request: request)
    if !request.songIDs.isEmpty {
      try output.showSongs(request.songIDs)
      return .success
    }
    guard let text = request.text else { return try output.showSongs(by: request.artist ?? "") }
    return try output.showSearch(for: text)
  }

  /// What the command line asks for: a search (a query, an artist or both), or songs by their
  /// IDs; on a chart or all; as a table, JSON, CSV or a picture.
  private struct Request {
    /// The query, if given: part of a title or artist credit.
    var text: String?
    var artist: String?
    var chart: String?
    /// The songs given with `--song`, in order.
    var songIDs: [SongID] = []
    /// Whether the history is drawn (`--format svg`); ``format`` is then not used.
    var picture: Bool
    var format: OutputFormat

    /// The request of a command line.
    ///
    /// - Throws: ``UsageError`` for an unknown format, a song ID that is not one, several
    ///   `--song` but for a picture, a blank query, or nothing to look for.
    init(_ arguments: ParsedArguments) throws {
      picture = arguments.option("--format") == "svg"
      format = picture ? .table : try SharedOptions.outputFormat(arguments, or: "svg")
      text = arguments.argument("query")
      artist = arguments.option("--artist")
      chart = arguments.option("--chart")
      for value in arguments.options["--song"] ?? [] {
        guard let number = Int64(value), number > 0 else {
          throw UsageError("--song expects a song ID (a whole number), found '\(value)'")
        }
        songIDs.append(SongID(number))
      }
      if songIDs.count > 1, !picture {
        throw UsageError("--song is given once, but for --format svg (several songs on a picture)")
      }
      if let text, !text.contains(where: { !$0.isWhitespace }) {
        throw UsageError("<query> is empty: give a title, or part of a title or artist credit")
      }
      if text == nil, artist == nil, songIDs.isEmpty {
        throw UsageError("give a <query>, --artist or --song")
      }
    }

    /// The search as the messages give it: `'Query' by 'Artist' on chart`.
    var searched: String {
      "'\(text ?? "")'" + (artist.map { " by '\($0)'" } ?? "") + (chart.map { " on \($0)" } ?? "")
    }
  }

  /// What the command shows, from the archive, for a request.
  private struct Output {
    let console: Console
    let archive: Archive
    let request: Request

    /// The songs of `--song`, each of which must be in the archive.
    ///
    /// - Throws: ``CommandError`` naming an ID that names no song.
    func showSongs(_ ids: [SongID]) throws {
      let found = try query {
        try archive.read { reader -> Result<[SongRecording], MissingSong> in
          var songs: [SongSummary] = []
          for id in ids {
            guard let song = try reader.song(id) else { return .failure(MissingSong(id: id)) }
            songs.append(song)
          }
          return .success(try reader.recordings(of: songs, onChart: request.chart))
        }
      }
      switch found {
      case .success(let recordings): try show(recordings)
      case .failure(let missing):
        throw CommandError(.failure, "no song with ID \(missing.id.rawValue)")
      }
    }

    /// An artist's songs: listed, or drawn.
    ///
    /// - Throws: ``CommandError`` when the artist has none.
    func showSongs(by artist: String) throws -> ExitCode {
      let songs = try query {
        try archive.read {
          try $0.songs(matching: "", artist: request.artist, chart: request.chart)
        }
      }
      guard !songs.isEmpty else { throw CommandError(.failure, "no song by '\(artist)'") }
      if request.picture {
        try draw(songs, found: "are by '\(artist)'")
      } else {
        console.show(SongMatchesView(songs), as: request.format)
      }
      return .success
    }

    /// The song a search finds; when it finds several, they are drawn, or listed (exit status
    /// 1); when none, a search that would find some is suggested.
    ///
    /// - Throws: ``CommandError`` when no song matches, with the suggestion if there is one.
    func showSearch(for text: String) throws -> ExitCode {
      let (artist, chart) = (request.artist, request.chart)
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
        try show(recordings)
        return .success
      case .failure(.none):
        throw try noMatch(for: text)
      case .failure(.several(let songs)):
        if request.picture {
          try draw(songs, found: "match \(request.searched)")
          return .success
        }
        console.show(SongMatchesView(songs), as: request.format)
        console.printError(
          "\(songs.count) songs match \(request.searched); narrow the search with --artist,"
            + " --chart or a fuller title")
        return .failure
      }
    }

    /// The error of a search that matches no song, with the search the archive suggests instead
    /// and the first songs it finds, when there is one.
    private func noMatch(for text: String) throws -> CommandError {
      let suggestion = try query {
        try archive.read {
          try $0.suggestion(forSearch: text, artist: request.artist, chart: request.chart)
        }
      }
      guard let suggestion else {
        return CommandError(.failure, "no song matches \(request.searched)")
      }
      // Titles and credits from the archive, written so that none can reverse the line.
      let printable = ChartFileError.printable
      let songs = suggestion.songs.prefix(3).map {
        "\(printable($0.title)) by \(printable($0.artist))"
      }
      return CommandError(
        .failure,
        "no song matches \(request.searched) (did you mean '\(printable(suggestion.query))'"
          + (suggestion.artist.map { " by '\(printable($0))'" } ?? "") + "? "
          + songs.joined(separator: "; ") + (suggestion.songs.count > 3 ? "; …" : "") + ")")
    }

    /// The recordings found, as a table, JSON, CSV or a picture.
    ///
    /// - Throws: ``CommandError`` when a picture would have no chart date to draw.
    private func show(_ recordings: [SongRecording]) throws {
      let view = HistoryView(recordings)
      guard request.picture else { return console.show(view, as: request.format) }
      guard recordings.contains(where: { !$0.histories.isEmpty }) else {
        throw CommandError(
          .failure, "nothing to draw: no chart date" + (request.chart.map { " on \($0)" } ?? ""))
      }
      console.write(RankChart(view).svg(.file))
    }

    /// A picture of the first songs of a list, saying on standard error when some are left out.
    private func draw(_ songs: [SongSummary], found: String) throws {
      if songs.count > pictureLimit {
        console.printError(
          "\(songs.count) songs \(found); the first \(pictureLimit) are drawn (narrow the search,"
            + " or pick songs with --song ID)")
      }
      try show(
        try query {
          try archive.read {
            try $0.recordings(of: Array(songs.prefix(pictureLimit)), onChart: request.chart)
          }
        })
    }
  }

  /// A search that did not find one song.
  private enum SongSearchFailure: Error {
    case none
    case several([SongSummary])
  }

  /// A song ID that names no song.
  private struct MissingSong: Error {
    var id: SongID
  }
}
