import ChartFormats
public import ChartRanking
public import ChartStorage

/// A chart's records, its leaderboards one after another: in tables for people, one JSON object
/// (`chart`, `frequency`, `unit`, `from`, `to`, `limit`, then `leaderboards`: each with its
/// `kind`, `title`, `holder` (`song`, or `artist`), `figure` (what its figure counts: `weeks`,
/// `days` …, `rank`, `places`, or `songs` for an artist's songs) and `rows`, each row `rank`,
/// `holder` (`type`, `id`, and `title` and `artist` for a song, `name` for an artist), `figure`,
/// `first_chart_date`, `last_chart_date`, `from_rank`, `to_rank`), or one CSV table with a row per
/// leaderboard row.
public struct RecordsView: Presentation {
  /// The records.
  public var records: ChartRecords

  /// The view of a chart's records.
  public init(_ records: ChartRecords) { self.records = records }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    switch format {
    case .json: json.encoded() + "\n"
    case .csv: csv
    case .table: document.rendered(as: .table, style: style)
    }
  }

  /// The words of the chart's periods.
  var periods: Periods { Periods(records.frequency) }

  /// The span in words: "all snapshots", "from 1980-01-05", "to 1989-12-30" or both.
  public var spanWords: String {
    switch (records.span.from, records.span.to) {
    case (nil, nil): "all snapshots"
    case (let from?, nil): "from \(from)"
    case (nil, let to?): "to \(to)"
    case (let from?, let to?): "from \(from) to \(to)"
    }
  }

  /// A leaderboard's title, with its unit: "Most weeks at number one", "Biggest climbs (places
  /// from one chart to the next)".
  public func title(_ kind: RecordKind) -> String {
    let plural = periods.plural
    return switch kind {
    case .weeksAtNumberOne: "Most \(plural) at number one"
    case .longestStayAtNumberOne: "Longest stay at number one (\(plural) in a row)"
    case .weeksOnChart: "Most \(plural) on the chart"
    case .longestRun: "Longest single run (\(plural) in a row on the chart)"
    case .highestDebut: "Highest debuts (rank)"
    case .biggestClimb: "Biggest climbs (places up from one chart to the next)"
    case .biggestFall: "Biggest falls (places down from one chart to the next)"
    case .fastestRiseToNumberOne:
      "Fastest rise to number one (\(plural) on the chart from debut to number one, both counted)"
    case .longestRoadToNumberOne:
      "Longest road to number one (\(plural) on the chart from debut to number one, both counted)"
    case .artistNumberOnes: "Artists with the most number ones (songs at number one)"
    case .artistTopTens: "Artists with the most top-10 songs (songs in the top 10)"
    case .artistEntries: "Artists with the most entries (songs on the chart)"
    case .artistWeeksAtNumberOne:
      "Artists with the most \(plural) at number one (\(plural) with a song at number one)"
    case .artistEntriesAtOnce:
      "Artists with the most entries at once (songs on one chart)"
    }
  }

  /// What a leaderboard's figure counts: the chart's periods (`weeks`), `rank`, `places` or
  /// (by artist) `songs`.
  public func unit(_ kind: RecordKind) -> String {
    switch kind {
    case .highestDebut: "rank"
    case .biggestClimb, .biggestFall: "places"
    case _ where kind.subject == .artist && !kind.countsPeriods: "songs"
    default: periods.plural
    }
  }

  /// The figure's heading in tables for people.
  func heading(_ kind: RecordKind) -> String {
    switch kind {
    case .highestDebut: "DEBUT"
    case .biggestClimb: "UP"
    case .biggestFall: "DOWN"
    case _ where kind.subject == .artist && !kind.countsPeriods: "SONGS"
    default: periods.heading
    }
  }

  var document: Document {
    var document = Document()
    document.heading = ["\(records.chart) · records, \(spanWords)"]
    document.sections = records.leaderboards.map { board in
      let moves = board.kind == .biggestClimb || board.kind == .biggestFall
      let columns =
        [
          Column(key: "rank", heading: "#", alignRight: true),
          Column(key: "figure", heading: heading(board.kind), alignRight: true),
        ]
        + (moves
          ? [
            Column(key: "from_rank", heading: "FROM", alignRight: true),
            Column(key: "to_rank", heading: "TO", alignRight: true),
          ] : [])
        + (board.kind.subject == .song ? [Column(key: "title", heading: "TITLE")] : [])
        + [
          Column(key: "artist", heading: "ARTIST"),
          Column(key: "first_chart_date", heading: moves ? "DATE" : "FIRST"),
        ]
        + (board.kind.spansDates ? [Column(key: "last_chart_date", heading: "LAST")] : [])
      let rows = board.rows.map { row in
        let record = row.record
        let (title, artist) = record.holder.words
        return [Cell.int(row.rank), .int(record.figure)]
          + (moves ? [.optional(record.fromRank), .optional(record.toRank)] : [])
          + (board.kind.subject == .song ? [.text(title)] : [])
          + [.text(artist), .text(record.firstDate.iso8601)]
          + (board.kind.spansDates ? [.text(record.lastDate.iso8601)] : [])
      }
      return (board.kind.rawValue, title(board.kind), Table(columns: columns, rows: rows))
    }
    return document
  }

  var json: JSONValue {
    .object([
      ("chart", .string(records.chart)),
      ("frequency", records.frequency.map { .string($0.rawValue) } ?? .null),
      ("unit", .string(periods.plural)),
      ("from", records.span.from.map { .string($0.iso8601) } ?? .null),
      ("to", records.span.to.map { .string($0.iso8601) } ?? .null),
      ("limit", .int(records.limit)),
      (
        "leaderboards",
        .array(
          records.leaderboards.map { board in
            .object([
              ("kind", .string(board.kind.rawValue)), ("title", .string(title(board.kind))),
              ("holder", .string(board.kind.subject.rawValue)),
              ("figure", .string(unit(board.kind))),
              ("rows", .array(board.rows.map(Self.json))),
            ])
          })
      ),
    ])
  }

  static func json(_ row: RecordRow) -> JSONValue {
    let record = row.record
    return .object([
      ("rank", .int(row.rank)), ("holder", record.holder.json), ("figure", .int(record.figure)),
      ("first_chart_date", .string(record.firstDate.iso8601)),
      ("last_chart_date", .string(record.lastDate.iso8601)),
      ("from_rank", record.fromRank.map(JSONValue.int) ?? .null),
      ("to_rank", record.toRank.map(JSONValue.int) ?? .null),
    ])
  }

  /// The CSV columns: the chart, the leaderboard's kind and unit, then the row.
  static let csvColumns = [
    "chart", "leaderboard", "unit", "rank", "figure", "holder", "id", "title", "artist",
    "first_chart_date", "last_chart_date", "from_rank", "to_rank",
  ]

  var csv: String {
    var output = CSVWriter.record(Self.csvColumns)
    for board in records.leaderboards {
      for row in board.rows {
        let record = row.record
        let (title, artist) = record.holder.words
        let cells: [Cell] = [
          .text(records.chart), .text(board.kind.rawValue), .text(unit(board.kind)),
          .int(row.rank), .int(record.figure), .text(board.kind.subject.rawValue),
          .int(Int(record.holder.id)), record.holder.isSong ? .text(title) : .null, .text(artist),
          .text(record.firstDate.iso8601), .text(record.lastDate.iso8601),
          .optional(record.fromRank), .optional(record.toRank),
        ]
        output += CSVWriter.record(cells.map(\.csv))
      }
    }
    return output
  }
}

extension RecordKind {
  /// Whether a record spans dates (a stay, a run, a rise), so that its last date is shown.
  var spansDates: Bool {
    switch self {
    case .highestDebut, .biggestClimb, .biggestFall: false
    default: true
    }
  }
}

extension RecordHolder {
  /// A song's title and credit; an artist's name (as the credit, with no title).
  var words: (title: String, artist: String) {
    switch self {
    case .song(let song): (song.title, song.artist)
    case .artist(let artist): ("", artist.name)
    }
  }

  /// The archive's number for the song or artist.
  var id: Int64 {
    switch self {
    case .song(let song): song.id.rawValue
    case .artist(let artist): artist.id
    }
  }

  var isSong: Bool {
    if case .song = self { return true }
    return false
  }

  /// `{"type": "song", "id", "title", "artist"}` or `{"type": "artist", "id", "name"}`.
  var json: JSONValue {
    switch self {
    case .song(let song):
      .object([
        ("type", .string("song")), ("id", .int(Int(song.id.rawValue))),
        ("title", .string(song.title)), ("artist", .string(song.artist)),
      ])
    case .artist(let artist):
      .object([
        ("type", .string("artist")), ("id", .int(Int(artist.id))), ("name", .string(artist.name)),
      ])
    }
  }
}
