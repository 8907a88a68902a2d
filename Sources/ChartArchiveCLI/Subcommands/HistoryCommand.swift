import ChartFormats
import ChartRanking
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
    // The songs titled exactly so first (an index lookup); all that match when they are not one.
    var songs = try query {
      try archive.songs(matching: text, artist: artist, chart: chart, exactTitle: true)
    }
    if Set(songs.map(\.identity)).count != 1 {
      songs = try query { try archive.songs(matching: text, artist: artist, chart: chart) }
    }
    let searched =
      "'\(text)'" + (artist.map { " by '\($0)'" } ?? "") + (chart.map { " on \($0)" } ?? "")
    let folded = SongIdentity.fold(text)
    let exact = songs.filter { SongIdentity.fold($0.title) == folded }
    // One song, or several recordings of one title and artist, which are shown together.
    let chosen = [exact, songs].first { !$0.isEmpty && Set($0.map(\.identity)).count == 1 } ?? []
    guard !chosen.isEmpty else {
      if songs.isEmpty { throw CommandError(.failure, "no song matches \(searched)") }
      listCandidates(songs, format: format, console: console)
      console.printError(
        "\(songs.count) songs match \(searched); narrow the search with --artist, --chart or a"
          + " fuller title")
      return .failure
    }
    var recordings: [(song: SongSummary, histories: [ChartHistory])] = []
    for song in chosen.sorted(by: { $0.firstChartDate < $1.firstChartDate }) {
      var histories = try query { try archive.history(of: song.id) }
      if let chart { histories = histories.filter { $0.chart == chart } }
      recordings.append((song, histories))
    }
    render(recordings, format: format, console: console)
    return .success
  }

  static let columns = [
    Column(key: "chart_date", heading: "CHART DATE"),
    Column(key: "rank", heading: "RANK", alignRight: true),
    Column(key: "movement", heading: "MOVE"),
    Column(key: "previous_rank", heading: "LAST", alignRight: true),
    Column(key: "peak_position", heading: "PEAK", alignRight: true),
    Column(key: "weeks_on_chart", heading: "WKS", alignRight: true),
    Column(key: "streams", heading: "STREAMS", alignRight: true, hiddenWhenEmpty: true),
  ]

  static func rows(_ history: SongHistory) -> [[Cell]] {
    history.placements.map { placement in
      [
        .text(placement.chartDate.iso8601), .int(placement.rank), .movement(placement.movement),
        optional(placement.previousRank), .int(placement.peakPosition),
        .int(placement.weeksOnChart), optional(placement.entry.streams),
      ]
    }
  }

  static func render(
    _ recordings: [(song: SongSummary, histories: [ChartHistory])], format: OutputFormat,
    console: Console
  ) {
    let song = recordings[0].song
    switch format {
    case .json:
      let list: [JSONValue] = recordings.enumerated().map { index, recording in
        .object([
          ("recording", .int(index + 1)),
          ("first_chart_date", .string(recording.song.firstChartDate.iso8601)),
          (
            "charts",
            .array(
              recording.histories.map { item in
                .object([
                  ("chart", .string(item.chart)),
                  ("peak_position", item.history.peakPosition.map(JSONValue.int) ?? .null),
                  ("weeks_at_peak", .int(item.history.weeksAtPeak)),
                  ("weeks_on_chart", .int(item.history.weeksOnChart)),
                  ("debut_date", item.history.debutDate.map { .string($0.iso8601) } ?? .null),
                  ("debut_rank", item.history.debutRank.map(JSONValue.int) ?? .null),
                  (
                    "credit_changes",
                    .array(
                      item.history.creditChanges.map {
                        .object([
                          ("chart_date", .string($0.chartDate.iso8601)), ("from", .string($0.from)),
                          ("to", .string($0.to)),
                        ])
                      })
                  ),
                  ("entries", Table(columns: columns, rows: rows(item.history)).json),
                ])
              })
          ),
        ])
      }
      console.print(
        JSONValue.object([
          ("title", .string(song.title)), ("artist", .string(song.artist)),
          ("recordings", .array(list)),
        ]).encoded())
    case .csv:
      var document = Document()
      document.fields = [("title", .text(song.title)), ("artist", .text(song.artist))]
      var table = Table(
        columns: [Column(key: "recording", heading: ""), Column(key: "chart", heading: "CHART")]
          + columns)
      for (index, recording) in recordings.enumerated() {
        for item in recording.histories {
          table.rows += rows(item.history).map { [.int(index + 1), .text(item.chart)] + $0 }
        }
      }
      document.sections = [("entries", "", table)]
      document.render(.csv, console: console)
    case .table:
      let style = console.style
      // Control characters in a title cannot reach the terminal, as in tables.
      var blocks = [
        style.bold("\(Cell.text(song.title).display) — \(Cell.text(song.artist).display)")
      ]
      if recordings.count > 1 {
        blocks[0] +=
          "\n\(recordings.count) recordings with this title and artist charted as separate songs"
          + " (a reissue and a remake, or two versions at once); each has its own history."
      }
      for (index, recording) in recordings.enumerated() {
        for item in recording.histories {
          let history = item.history
          var block =
            recordings.count > 1 ? "Recording \(index + 1), \(item.chart)\n" : "\(item.chart)\n"
          block += Table(columns: columns, rows: rows(history)).text(style: style)
          block += "\n\nPeak position:  \(history.peakPosition.map(String.init) ?? "–")"
          block += " (\(history.weeksAtPeak) week\(history.weeksAtPeak == 1 ? "" : "s") at peak)"
          block += "\nWeeks on chart: \(history.weeksOnChart)"
          if let debut = history.debutDate, let rank = history.debutRank {
            block += "\nDebut:          \(debut) at \(rank)"
          }
          for change in history.creditChanges {
            block +=
              "\nCredit change:  \(change.chartDate) '\(change.from)' → '\(change.to)' (one run)"
          }
          blocks.append(block)
        }
      }
      console.print(blocks.joined(separator: "\n\n"))
    }
  }

  /// The most candidates listed in a table for people; JSON and CSV list them all.
  static let candidateLimit = 50

  static func listCandidates(_ songs: [SongSummary], format: OutputFormat, console: Console) {
    var table = Table(columns: [
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
      Column(key: "first_chart_date", heading: "FIRST"),
      Column(key: "best_rank", heading: "BEST", alignRight: true),
      Column(key: "entries", heading: "ENTRIES", alignRight: true),
    ])
    let shown = format == .table ? Array(songs.prefix(candidateLimit)) : songs
    table.rows = shown.map {
      [
        .text($0.title), .text($0.artist), .text($0.firstChartDate.iso8601), .int($0.bestRank),
        .int($0.entryCount),
      ]
    }
    var document = Document()
    document.sections = [("matches", "", table)]
    if shown.count < songs.count { document.footer = ["… and \(songs.count - shown.count) more"] }
    document.render(format, console: console)
  }
}
