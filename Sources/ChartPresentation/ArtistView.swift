import ChartFormats
public import ChartRanking

/// An artist's career on each chart: every song credited to them as lead or featured with its
/// debut, peak, weeks at peak, weeks on chart and runs, then the totals (entries, top 10s, number
/// ones, weeks, weeks at number one) and the first and latest entry.
public struct ArtistView: Presentation {
  /// The artist.
  public var artist: ArtistSummary
  /// Their careers, one per chart, by chart name.
  public var careers: [ArtistCareer]

  /// The view of an artist's careers.
  public init(_ artist: ArtistSummary, careers: [ArtistCareer]) {
    self.artist = artist
    self.careers = careers
  }

  /// The columns of a career's songs.
  static let columns = [
    Column(key: "song_id", heading: "SONG", alignRight: true),
    Column(key: "title", heading: "TITLE"),
    Column(key: "credit", heading: "CREDIT"),
    Column(key: "role", heading: "ROLE"),
    Column(key: "debut_date", heading: "DEBUT"),
    Column(key: "debut_rank", heading: "AT", alignRight: true),
    Column(key: "peak_position", heading: "PEAK", alignRight: true),
    Column(key: "weeks_at_peak", heading: "AT PEAK", alignRight: true),
    Column(key: "weeks_on_chart", heading: "WEEKS", alignRight: true),
    Column(key: "runs", heading: "RUNS", alignRight: true),
    Column(key: "last_date", heading: "LAST", shownInTable: false),
    Column(key: "partial_run", heading: "PARTIAL", shownInTable: false),
  ]

  static func row(_ song: ArtistSong) -> [Cell] {
    [
      .int(Int(song.song.rawValue)), .text(song.title), .text(song.credit), .text(song.role.name),
      .text(song.debutDate.iso8601), .int(song.debutRank), .int(song.peakPosition),
      .int(song.weeksAtPeak), .int(song.weeksOnChart), .int(song.runs),
      .text(song.lastDate.iso8601), .bool(song.isPartialRun),
    ]
  }

  /// A career's totals as the table's title gives them: `23 entries, 9 top 10s, 2 number ones
  /// (5 weeks at number one), 187 weeks on the chart`, in the chart's unit (days for a daily
  /// chart).
  static func totals(_ career: ArtistCareer) -> String {
    func count(_ number: Int, _ one: String, _ many: String) -> String {
      "\(number) \(number == 1 ? one : many)"
    }
    let periods = Periods(career.frequency)
    return count(career.entryCount, "entry", "entries") + ", "
      + count(career.topTenCount, "top 10", "top 10s") + ", "
      + count(career.numberOneCount, "number one", "number ones")
      + (career.numberOneCount > 0
        ? " (" + periods.count(career.weeksAtNumberOne) + " at number one)" : "")
      + ", " + periods.count(career.weeksOnChart) + " on the chart"
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    guard format == .json else {
      var document = Document()
      document.fields = [
        ("artist_id", .int(Int(artist.id.rawValue))), ("artist", .text(artist.name)),
      ]
      document.heading = [artist.name]
      for career in careers {
        let first = career.firstEntry.map { "first \($0.debutDate.iso8601) \($0.title)" } ?? ""
        let latest = career.latestEntry.map { "latest \($0.debutDate.iso8601) \($0.title)" } ?? ""
        document.sections.append(
          (
            career.chart,
            career.chart + ": " + Self.totals(career) + "; " + first
              + "; " + latest,
            Table(columns: Self.columns, rows: career.songs.map(Self.row))
          ))
      }
      if careers.isEmpty { document.footer = ["(no song on the chart)"] }
      return document.rendered(as: format, style: style)
    }
    return json.encoded() + "\n"
  }

  /// The JSON: the artist, then each chart's totals, first and latest entry and songs.
  var json: JSONValue {
    func entry(_ song: ArtistSong?) -> JSONValue {
      guard let song else { return .null }
      return .object([
        ("song_id", .int(Int(song.song.rawValue))), ("title", .string(song.title)),
        ("credit", .string(song.credit)), ("chart_date", .string(song.debutDate.iso8601)),
      ])
    }
    return .object([
      ("artist_id", .int(Int(artist.id.rawValue))), ("artist", .string(artist.name)),
      (
        "charts",
        .array(
          careers.map { career in
            .object([
              ("chart", .string(career.chart)), ("entries", .int(career.entryCount)),
              ("top_10s", .int(career.topTenCount)), ("number_ones", .int(career.numberOneCount)),
              ("weeks_at_number_one", .int(career.weeksAtNumberOne)),
              ("weeks_on_chart", .int(career.weeksOnChart)),
              ("first_entry", entry(career.firstEntry)),
              ("latest_entry", entry(career.latestEntry)),
              ("songs", Table(columns: Self.columns, rows: career.songs.map(Self.row)).json),
            ])
          })
      ),
    ])
  }
}

/// The artists a search matched, when it did not pick out one: artist ID (for `artist --id`),
/// name and number of songs.
public struct ArtistMatchesView: Presentation {
  /// The artists, best matches first.
  public var artists: [ArtistSummary]

  /// The view of a search's matches.
  public init(_ artists: [ArtistSummary]) { self.artists = artists }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let shown = format == .table ? Array(artists.prefix(SongMatchesView.tableLimit)) : artists
    var document = Document(
      "matches",
      Table(
        columns: [
          Column(key: "artist_id", heading: "ARTIST ID", alignRight: true),
          Column(key: "artist", heading: "ARTIST"),
          Column(key: "songs", heading: "SONGS", alignRight: true),
        ],
        rows: shown.map { [.int(Int($0.id.rawValue)), .text($0.name), .int($0.songCount)] }))
    if shown.count < artists.count {
      document.footer = ["… and \(artists.count - shown.count) more"]
    }
    return document.rendered(as: format, style: style)
  }
}
