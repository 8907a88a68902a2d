import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// The parameters the service's routes take, each written once with the rule that reads it and
/// the words that refuse what it does not take (the command line's, where it has the same
/// option), and shared by the routes that take it: the API's and the pages'.
enum Parameters {
  // MARK: - In paths

  /// `{chart}`: a chart's name, as it is.
  static let chart = Parameter<String>(
    "chart", in: .path, "The chart's name, as chart-archive charts lists it", schema: textSchema,
    example: .string("hot-100"), component: "chart"
  ) { $0 ?? "" }

  /// `{chart}` of an upload: the name of the chart it is stored in, which an upload may create.
  /// Refused (422): `.` and `..`, which name folders, and a name holding a bidirectional control
  /// (Unicode's Bidi_Control: U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), which
  /// reverses or isolates the text after it wherever the name is shown.
  static let uploadChart = Parameter<String>(
    "chart", in: .path, "The chart's name, as chart-archive charts lists it", schema: textSchema,
    example: .string("hot-100"), component: "chart"
  ) { text throws(ServerProblem) in
    let name = text ?? ""
    if name == "." || name == ".." {
      throw ServerProblem(422, "a chart cannot be named '\(name)'")
    }
    if let control = name.unicodeScalars.first(where: \.properties.isBidiControl) {
      let code = String(control.value, radix: 16, uppercase: true)
      throw ServerProblem(
        422,
        "a chart's name cannot hold the bidirectional control U+\(code): it reorders the text"
          + " shown after it")
    }
    return name
  }

  /// `{date}`: a snapshot's chart date, `latest` or `previous`.
  static let snapshotDate = Parameter<SnapshotDate?>(
    "date", in: .path, "A chart date (YYYY-MM-DD), latest or previous", schema: textSchema,
    example: .string("latest")
  ) { text throws(ServerProblem) in try Self.snapshotDate(text, name: "date") }

  /// `{id}`: a song's ID, a whole number from 1; another is no song (404).
  static let song = Parameter<SongID>(
    "id", in: .path, "A song ID, as a search gives it",
    schema: .object([("type", .string("integer"))]),
    example: .int(1)
  ) { text throws(ServerProblem) in
    guard let text, let id = Int64(text), id > 0 else {
      throw ServerProblem(404, "no song with ID \(text ?? "")")
    }
    return SongID(id)
  }

  /// `{id}`: an artist's ID, a whole number from 1; another is no artist (404).
  static let artistID = Parameter<ArtistID>(
    "id", in: .path, "An artist ID, as a search gives it",
    schema: .object([("type", .string("integer"))]),
    example: .int(1)
  ) { text throws(ServerProblem) in
    guard let text, let id = Int64(text), id > 0 else {
      throw ServerProblem(404, "no artist with ID \(text ?? "")")
    }
    return ArtistID(id)
  }

  /// `{category}`: a feed's category (`daily`).
  static let category = Parameter<String>(
    "category", in: .path,
    "total, time (hourly), daily, weekly or monthly (or one given with --feed)",
    schema: textSchema, example: .string("daily")
  ) { $0 ?? "" }

  /// `{year}`: a year chart's year (YYYY); another is no page (404).
  static let pathYear = Parameter<Int>(
    "year", in: .path, "The year (YYYY)", schema: textSchema, example: .string("1985")
  ) { text throws(ServerProblem) in
    guard let text, text.utf8.count == 4, let year = Int(text), year >= 1000 else {
      throw ServerProblem(404, "no year '\(text ?? "")': a year is YYYY")
    }
    return year
  }

  /// `{name}`: a page asset's file name (`style.css`).
  static let asset = Parameter<String>(
    "name", in: .path, "An asset's file name: style.css or icon.svg", schema: textSchema,
    example: .string("style.css")
  ) { $0 ?? "" }

  // MARK: - In queries

  /// `format`: `json` or `csv`, for a route that answers both; `nil` when not given (the
  /// `Accept` header decides then).
  static let format = Parameter<OutputFormat?>(
    "format", in: .query, "json (the default) or csv; Accept: text/csv asks for CSV too",
    schema: oneOf(["json", "csv"]), component: "format"
  ) { text throws(ServerProblem) in
    switch text {
    case nil: return nil
    case "json": return .json
    case "csv": return .csv
    case let other?: throw ServerProblem(400, "format must be json or csv, found '\(other)'")
    }
  }

  /// `from`: the older snapshot of a diff.
  static let from = Parameter<SnapshotDate?>(
    "from", in: .query,
    "The older chart date (YYYY-MM-DD, latest or previous); by default the one before to",
    schema: textSchema
  ) { text throws(ServerProblem) in try Self.snapshotDate(text, name: "from") }

  /// `to`: the newer snapshot of a diff.
  static let to = Parameter<SnapshotDate?>(
    "to", in: .query, "The newer chart date; by default the latest", schema: textSchema
  ) { text throws(ServerProblem) in try Self.snapshotDate(text, name: "to") }

  /// `date`: a report's snapshot.
  static let reportDate = Parameter<SnapshotDate?>(
    "date", in: .query, "The chart date (YYYY-MM-DD, latest or previous); by default the latest",
    schema: textSchema
  ) { text throws(ServerProblem) in try Self.snapshotDate(text, name: "date") }

  /// `from`: the first chart date a chart's records count.
  static let recordsFrom = Parameter<ChartDate?>(
    "from", in: .query, "The first chart date counted (YYYY-MM-DD); by default the chart's first",
    schema: textSchema
  ) { text throws(ServerProblem) in try Self.spanDate(text, name: "from") }

  /// `to`: the last chart date a chart's records count.
  static let recordsTo = Parameter<ChartDate?>(
    "to", in: .query, "The last chart date counted (YYYY-MM-DD); by default the chart's last",
    schema: textSchema
  ) { text throws(ServerProblem) in try Self.spanDate(text, name: "to") }

  /// `limit`: the most rows each of a chart's leaderboards lists (10 when not given, at most 100:
  /// without a bound, a client could have the biggest climbs list every entry of the archive,
  /// and with each other number a new answer computed and kept).
  static let recordsLimit = limit(
    "The most rows each leaderboard lists", default: 10, maximum: Self.recordsLimitMaximum)

  /// The most rows a leaderboard of the API lists.
  static let recordsLimitMaximum = 100

  /// `limit`: the most entries of a snapshot given, from rank 1 or `offset` (all when not
  /// given, at most ``Paging/maximum``).
  static let snapshotLimit = limit(
    "The most entries given, from rank 1 (or offset)", default: nil, maximum: Paging.maximum)

  /// `limit`: the most snapshots of a chart given, oldest first (all when not given, at most
  /// ``Paging/maximum``).
  static let snapshotsLimit = limit(
    "The most snapshots given, oldest first (or after)", default: nil, maximum: Paging.maximum)

  /// `limit`: the most matches of a search given, best first (all when not given, at most
  /// ``Paging/maximum``).
  static let searchLimit = limit(
    "The most matches given, best first (or after)", default: nil, maximum: Paging.maximum)

  /// `limit`: the most entries of a song's history given, in the answer's order (all when not
  /// given, at most ``Paging/maximum``).
  static let historyLimit = limit(
    "The most entries given, in the answer's order from the first (or offset)", default: nil,
    maximum: Paging.maximum)

  /// `limit`: the most climbers and fallers a report lists (10 when not given).
  static let reportLimit = limit("The most climbers and fallers listed", default: 10)

  /// `limit`: the most entries a feed gives, from rank 1 or `offset` (20 when not given, at most
  /// ``Paging/maximum``).
  static let feedLimit = limit(
    "The most entries given, from rank 1 (or offset)", default: 20, maximum: Paging.maximum)

  /// `limit`: the most of something given, a whole number from 0 (to `maximum`, when given);
  /// `fallback` when not given.
  ///
  /// - Throws: ``ServerProblem`` (400) for another text.
  static func limit(_ description: String, default fallback: Int?, maximum: Int? = nil)
    -> Parameter<Int?>
  {
    var schema: [(String, JSONValue)] = [("type", .string("integer")), ("minimum", .int(0))]
    if let maximum { schema.append(("maximum", .int(maximum))) }
    if let fallback { schema.append(("default", .int(fallback))) }
    return Parameter("limit", in: .query, description, schema: .object(schema)) {
      text throws(ServerProblem) in
      guard let text else { return fallback }
      guard let value = Int(text), value >= 0, value <= maximum ?? .max else {
        throw ServerProblem(
          400,
          "limit must be a whole number of 0 or more"
            + (maximum.map { " and at most \($0)" } ?? "") + ", found '\(text)'")
      }
      return value
    }
  }

  /// `q`: words of a title or credit, as typed.
  static let words = Parameter<String?>(
    "q", in: .query, "Words of a title or credit", schema: textSchema, example: .string("night sky")
  ) { $0 }

  /// `q` of an artist search: an artist's name, part of one, or a credit, as typed.
  static let artistWords = Parameter<String?>(
    "q", in: .query, "An artist's name, part of one, or a credit", schema: textSchema,
    example: .string("taylor swift")
  ) { $0 }

  /// `artist`: words of an artist credit, as typed.
  static let artist = Parameter<String?>(
    "artist", in: .query, "Words of the artist credit", schema: textSchema
  ) { $0 }

  /// `chart`: a chart a search keeps to; none when empty.
  static let onChart = Parameter<String?>(
    "chart", in: .query, "Only songs that were on this chart", schema: textSchema
  ) { $0.flatMap { $0.isEmpty ? nil : $0 } }

  /// `year`: a period chart's year (YYYY).
  static let year = Parameter<Int?>(
    "year", in: .query,
    "The year (YYYY): a weekly chart's charts dated December 1 of the year before to November 30,"
      + " another chart's calendar year. Give year, or from and to",
    schema: .object([
      ("type", .string("integer")), ("minimum", .int(1000)), ("maximum", .int(9999)),
    ]),
    example: .int(2024)
  ) { text throws(ServerProblem) in try Self.year(text, name: "year") }

  /// `from`: a period chart's first day.
  static let periodFrom = Parameter<ChartDate?>(
    "from", in: .query, "The span's first day (YYYY-MM-DD), with to", schema: textSchema
  ) { text throws(ServerProblem) in
    try text.map { text throws(ServerProblem) in try chartDate(text, name: "from") }
  }

  /// `to`: a period chart's last day.
  static let periodTo = Parameter<ChartDate?>(
    "to", in: .query, "The span's last day (YYYY-MM-DD), with from", schema: textSchema
  ) { text throws(ServerProblem) in
    try text.map { text throws(ServerProblem) in try chartDate(text, name: "to") }
  }

  /// `scoring`: how a period chart scores a place; `nil` for the chart's default.
  static let scoring = Parameter<PeriodScoring?>(
    "scoring", in: .query,
    "root (100 ÷ √rank), linear (places + 1 − rank), billboard (linear, and places more for number"
      + " one) or streams; by default streams where every entry has them, else root",
    schema: oneOf(PeriodScoring.allCases.map(\.rawValue))
  ) { text throws(ServerProblem) in
    guard let text else { return nil }
    guard let scoring = PeriodScoring(rawValue: text) else {
      throw ServerProblem(
        400, "unknown scoring '\(text)' (expected root, linear, billboard, streams)")
    }
    return scoring
  }

  /// `limit`: the most songs of a period chart given, from rank 1 (all when not given).
  static let periodLimit = limit("The most songs given, from rank 1", default: nil)

  // MARK: - An upload's

  /// `date`: an uploaded file's chart date, when it gives none.
  static let fileDate = Parameter<ChartDate?>(
    "date", in: .query, "The chart date, when the file does not give one (YYYY-MM-DD)",
    schema: textSchema
  ) { text throws(ServerProblem) in
    guard let text else { return nil }
    return try chartDate(text)
  }

  /// `format`: an uploaded file's format, when its content does not tell.
  static let fileFormat = Parameter<ChartFormat?>(
    "format", in: .query,
    "The file's format, when it cannot be told from its content (see chart-archive formats)",
    schema: textSchema
  ) { text throws(ServerProblem) in
    guard let text else { return nil }
    guard let format = ChartFormat(rawValue: text) else {
      throw ServerProblem(400, "unknown format '\(text)'")
    }
    return format
  }

  /// `frequency`: how often the uploaded chart is published.
  static let frequency = Parameter<ChartFrequency?>(
    "frequency", in: .query, "How often the chart is published",
    schema: oneOf(ChartFrequency.allCases.map(\.rawValue))
  ) { text throws(ServerProblem) in
    guard let text else { return nil }
    guard let frequency = ChartFrequency(rawValue: text) else {
      throw ServerProblem(400, "unknown frequency '\(text)'")
    }
    return frequency
  }

  /// `replace`: whether an upload replaces a different snapshot of the same chart date.
  static let replace = Parameter<Bool>(
    "replace", in: .query, "true to replace a different snapshot stored for the same chart date",
    schema: oneOf(["true", "false"])
  ) { text throws(ServerProblem) in
    switch text {
    case nil, "false": return false
    case "true": return true
    case let other?: throw ServerProblem(400, "replace must be true or false, found '\(other)'")
    }
  }

  // MARK: - A page's

  /// `date`: the date the chart page's date picker sends; none when empty.
  static let pickedDate = Parameter<ChartDate?>(
    "date", in: .query,
    "A date (YYYY-MM-DD): the snapshot of that date, else the one in force that day",
    schema: textSchema
  ) { text throws(ServerProblem) in
    guard let text, !text.isEmpty else { return nil }
    return try chartDate(text)
  }

  // MARK: - Rules

  /// A chart date, `latest` or `previous`; `nil` for no text or an empty one.
  ///
  /// - Throws: ``ServerProblem`` (400) naming the parameter and the text.
  static func snapshotDate(_ text: String?, name: String) throws(ServerProblem) -> SnapshotDate? {
    guard let text, !text.isEmpty else { return nil }
    if let keyword = SnapshotDate(keyword: text) { return keyword }
    guard let date = try? ChartDate(iso8601: text) else {
      throw ServerProblem(
        400, "\(name) '\(text)' is not a chart date (YYYY-MM-DD, latest or previous)")
    }
    return .on(date)
  }

  /// A chart date of a span (ISO 8601), `nil` when not given.
  ///
  /// - Throws: ``ServerProblem`` (400) naming the parameter.
  static func spanDate(_ text: String?, name: String) throws(ServerProblem) -> ChartDate? {
    guard let text, !text.isEmpty else { return nil }
    guard let date = try? ChartDate(iso8601: text) else {
      throw ServerProblem(400, "\(name) '\(text)' is not a chart date (YYYY-MM-DD)")
    }
    return date
  }

  /// A chart date (ISO 8601).
  ///
  /// - Parameter name: the parameter that gave it, for the problem's words.
  /// - Throws: ``ServerProblem`` (400) with the text.
  static func chartDate(_ text: String, name: String = "date") throws(ServerProblem) -> ChartDate {
    guard let date = try? ChartDate(iso8601: text) else {
      throw ServerProblem(400, "\(name) '\(text)' is not a chart date (YYYY-MM-DD)")
    }
    return date
  }

  /// A year (YYYY); `nil` for no text.
  ///
  /// - Throws: ``ServerProblem`` (400) naming the parameter and the text.
  static func year(_ text: String?, name: String) throws(ServerProblem) -> Int? {
    guard let text else { return nil }
    guard text.utf8.count == 4, let year = Int(text), year >= 1000 else {
      throw ServerProblem(400, "\(name) '\(text)' is not a year (YYYY)")
    }
    return year
  }

  /// The schema of a text.
  private static let textSchema = JSONValue.object([("type", .string("string"))])

  /// The schema of a text that is one of `values`.
  private static func oneOf(_ values: [String]) -> JSONValue {
    .object([("type", .string("string")), ("enum", .array(values.map(JSONValue.string)))])
  }
}
