import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive artist NAME`: an artist's career on the charts.
enum ArtistCommand: Subcommand {
  static let name = "artist"
  static let abstract =
    "Show an artist's career: every song credited to them as lead or featured, with totals."
  static let discussion = """
    NAME is an artist's name, part of one, or a credit; case and accents do not matter, nor
    'and' for '&'. Credits are split into artists by the credit splitter (see the rules):
    'Drake Featuring Rihanna' credits Drake and Rihanna, while an act such as 'Simon &
    Garfunkel' stays one artist. An artist whose whole name is NAME is shown; otherwise the one
    artist whose name holds every word of NAME, or, for a credit, the artists it names. When
    several match, they are listed with their artist IDs (exit status 1): pick one with --id.

    For each chart (or --chart only), every song credited to the artist, by debut: debut date and
    rank, peak position, weeks at peak, weeks on chart (days or hours for a daily or hourly
    chart), runs and how the artist is credited (lead, or featured: named after the first
    artist). Above them the totals: entries (songs), top 10s, number ones with their weeks at
    number one, weeks on the chart, and the first and latest entry. The figures are those stored
    at import.

    --format svg draws the songs' runs on one time axis instead (SVG 1.1): a song per row, a strip
    for each run, each song its own colour and label, its peak written beside it.
    """
  static let examples = [
    #"chart-archive artist "Taylor Swift""#,
    #"chart-archive artist beyonce --chart hot-100 --format json"#,
    "chart-archive artist --id 1234 --format svg > career.svg",
  ]
  static let arguments = [
    ArgumentSpec(
      name: "name", help: "An artist's name, part of one, or a credit.", isOptional: true)
  ]
  static let options = [
    OptionSpec(
      name: "--chart", valueName: "name", help: "Only this chart's songs.", values: .chart),
    OptionSpec(
      name: "--id", valueName: "id", help: "The artist with this ID (listed by a search)."),
    OptionSpec(
      name: "--format", valueName: "format",
      help: "Output format: table, json, csv, or svg (a picture). Default: table.",
      values: .choices(["table", "json", "csv", "svg"])),
    SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let picture = arguments.option("--format") == "svg"
    let format = picture ? .table : try SharedOptions.outputFormat(arguments, or: "svg")
    let chart = arguments.option("--chart")
    let name = arguments.argument("name")
    var id: ArtistID?
    if let value = arguments.option("--id") {
      guard let number = Int64(value), number > 0 else {
        throw UsageError("--id expects an artist ID (a whole number), found '\(value)'")
      }
      id = ArtistID(number)
    }
    if let name, !name.contains(where: { !$0.isWhitespace }) {
      throw UsageError("<name> is empty: give an artist's name, or part of one")
    }
    guard id != nil || name != nil else { throw UsageError("give a <name> or --id") }
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let found = try query {
      try archive.read { reader -> ArtistSearch in
        if let id {
          guard let artist = try reader.artist(id) else { return .missing }
          return .found(artist, try reader.careers(of: artist.id, onChart: chart))
        }
        let artists = try reader.artists(matching: name ?? "")
        guard artists.count == 1 else {
          return artists.isEmpty
            ? .none(try reader.artistSuggestion(forSearch: name ?? "")) : .several(artists)
        }
        return .found(artists[0], try reader.careers(of: artists[0].id, onChart: chart))
      }
    }
    switch found {
    case .found(let artist, let careers):
      let view = ArtistView(artist, careers: careers)
      if picture {
        guard !careers.isEmpty else {
          throw CommandError(
            .failure, "nothing to draw: no song" + (chart.map { " on \($0)" } ?? ""))
        }
        console.write(ArtistPicture(view).svg(.file))
      } else {
        console.show(view, as: format)
      }
      return .success
    case .several(let artists):
      console.show(ArtistMatchesView(artists), as: format)
      console.printError(
        "\(artists.count) artists match '\(name ?? "")'; pick one with --id, or give a fuller name")
      return .failure
    case .missing:
      throw CommandError(.failure, "no artist with ID \(id?.rawValue ?? 0)")
    case .none(let suggestion):
      let printable = ChartFileError.printable
      guard let suggestion else {
        throw CommandError(.failure, "no artist matches '\(printable(name ?? ""))'")
      }
      let names = suggestion.artists.prefix(3).map { printable($0.name) }
      throw CommandError(
        .failure,
        "no artist matches '\(printable(name ?? ""))' (did you mean"
          + " '\(printable(suggestion.query))'? " + names.joined(separator: "; ")
          + (suggestion.artists.count > 3 ? "; …" : "") + ")")
    }
  }

  /// What a search or an ID found.
  private enum ArtistSearch {
    case found(ArtistSummary, [ArtistCareer])
    case several([ArtistSummary])
    case none((query: String, artists: [ArtistSummary])?)
    case missing
  }
}
