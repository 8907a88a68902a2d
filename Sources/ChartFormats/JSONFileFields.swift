import ChartRanking

/// The top-level fields of a JSON chart file (or of one snapshot of an export), as written and
/// read before the file's format is known: every field any JSON format has there, its entries
/// read with the field names of each format that has such a list.
struct JSONFileFields: Equatable {
  var chart: String?
  var chartDate: String?
  var date: String?
  var name: String?
  var frequency: String?
  /// billboard.py's `year` of a year-end chart (`2023` or `"2023"`), whose `date` is null.
  var year: Int?
  /// `entries`, read as the native format or billboard.py's.
  var entries: [RawEntry]?
  var billboardEntries: [RawEntry]?
  var feedEntries: [RawEntry]?
  /// An export's snapshots: `{"snapshots": [native snapshot, …]}`.
  var snapshots: [JSONFileFields]?
  /// An export's decisions: `{"decisions": [decision, …], "snapshots": […]}`.
  var decisions: [SongDecision]?
  /// Whether the file is an array of entries (the app-feed format).
  var isFeed = false
  var hasEntriesKey = false
  var hasDataKey = false
  /// Whether the object is billboard.py's: `name` or `previousDate`, entries with `lastPos`, and
  /// no `chart`.
  var isBillboardPy = false
  var problems: [ChartFileProblem] = []

  /// A file with nothing read yet.
  init() {}

  /// Reads a file's JSON value.
  ///
  /// - Parameters:
  ///   - json: the file's value: an object, or an array of entries (the app-feed format).
  ///   - forced: the format named with `--format`, whose field names the entries are read with.
  /// - Returns: `nil` when `json` is neither an object nor an array.
  init?(json: JSONTree, forced: ChartFormat?) {
    if case .array(let list) = json {
      isFeed = true
      if list.count > ChartFileReader.maximumRank {
        problems.append(FieldReader.tooManyEntries(list.count, field: nil))
      } else {
        feedEntries = list.map { RawEntry(json: $0, keys: .appFeed) }
      }
      return
    }
    guard json.isObject else { return nil }
    var reader = FieldReader(json)
    chart = reader.string("chart")
    chartDate = reader.string("chart_date")
    date = reader.string("date")
    frequency = reader.string("frequency")
    hasEntriesKey = reader.has("entries")
    hasDataKey = reader.has("data")
    isBillboardPy =
      forced == .billboardPy
      || forced == nil && !reader.has("chart") && hasEntriesKey
        && (reader.has("name") || reader.has("previousDate"))
    if isBillboardPy {
      name = reader.string("name")
      year = Self.year(reader.object["year"], problems: &reader.problems)
    }
    entries = reader.entries("entries", keys: isBillboardPy ? .billboardPy : .native)
    billboardEntries = reader.entries("data", keys: .billboardWeekly)
    if let value = reader.object["snapshots"] {
      // Every snapshot must be an object (an array inside would be read as an app feed).
      if case .array(let list) = value, list.allSatisfy(\.isObject) {
        // Each snapshot of an export is in the native format, whatever its fields.
        snapshots = list.compactMap { JSONFileFields(json: $0, forced: .native) }
      } else {
        reader.problems.append(
          ChartFileProblem(field: "snapshots", message: "expected an array of snapshots"))
      }
    }
    if let value = reader.object["decisions"] {
      decisions = SongDecision.read(value, problems: &reader.problems)
    }
    problems = reader.problems
  }

  /// The chart date of billboard.py's year-end chart: December 31 of its ``year``
  /// (`2023-12-31`), the last day of the year it ranks, after every weekly chart of that year.
  var yearEndDate: String? {
    guard let year else { return nil }
    let digits = String(year)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-12-31"
  }

  /// billboard.py's `year`: an integer, or its digits as text (the year billboard.py was asked
  /// for, kept as given), from 1 to 9999; `nil` for null or none.
  private static func year(_ value: JSONTree?, problems: inout [ChartFileProblem]) -> Int? {
    let year: Int?
    switch value {
    case nil, .null?: return nil
    case .string(let text)?: year = text.count == 4 ? Int(text) : nil
    case let other?: year = other.integer
    }
    guard let year, (1...9999).contains(year) else {
      problems.append(ChartFileProblem(field: "year", message: "expected a year, YYYY"))
      return nil
    }
    return year
  }
}
