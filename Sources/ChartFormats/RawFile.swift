/// The names an entry's fields have in one format (`nil`: the format has no such field).
struct EntryKeys {
  var rank: String
  var title: String
  var artist: String
  var previousRank: String
  var peakPosition: String
  var weeksOnChart: String
  var imageURL: String?
  var songURL: String?
  var streams: String?
  /// The song's run as the source numbers it (the native `run`, the "Hot Stuff" dataset's
  /// `instance`).
  var run: String? = nil
  /// What the format writes for "not on the previous chart", for messages: `null` in JSON, `-`
  /// or `-1` in a CSV.
  var previousRankNone = "null"
  /// The field that marks an entry tied with another at its rank (`tie`, the native format's).
  var tie: String? = nil

  static let native = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "previous_rank",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: "image_url",
    songURL: "song_url", streams: "streams", run: "run", tie: "tie")
  static let billboardWeekly = EntryKeys(
    rank: "this_week", title: "song", artist: "artist", previousRank: "last_week",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: nil, songURL: nil)
  static let billboardPy = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "lastPos",
    peakPosition: "peakPos",
    weeksOnChart: "weeks", imageURL: "image", songURL: nil)
  static let appFeed = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "last",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: "image",
    songURL: "url")

  /// The names of a JSON format's entry fields; a CSV file's are those of its header
  /// (``CSVLayout/keys``).
  static func forFormat(_ format: ChartFormat) -> EntryKeys {
    switch format {
    case .billboardWeekly: .billboardWeekly
    case .billboardPy: .billboardPy
    case .appFeed: .appFeed
    default: .native
    }
  }
}

/// Reads fields of one JSON object, turning a wrong type into a problem instead of failing the
/// whole file, so that every problem of a file is reported at once.
struct FieldReader {
  let object: JSONObject
  /// Whether the value read is an object (when not, every field is missing).
  let isObject: Bool
  var problems: [ChartFileProblem] = []

  /// A reader of `value`, or of an empty object (with a problem) when `value` is not an object.
  /// A key given twice in the object is a problem: which value is meant cannot be told.
  init(_ value: JSONTree) {
    if case .object(let object) = value {
      self.object = object
      isObject = true
      for key in object.repeatedKeys {
        problems.append(ChartFileProblem(field: key, message: "given more than once"))
      }
    } else {
      object = JSONObject(keys: [], values: [])
      isObject = false
      problems.append(ChartFileProblem(field: nil, message: "expected a JSON object"))
    }
  }

  func has(_ key: String?) -> Bool { key.map { object[$0] != nil } ?? false }

  mutating func int(_ key: String?) -> Int? {
    guard let key, let value = object[key] else { return nil }
    if case .null = value { return nil }
    guard let integer = value.integer else {
      problems.append(
        ChartFileProblem(field: key, message: notAnInteger(value, expected: "an integer or null")))
      return nil
    }
    return integer
  }

  /// A boolean field: `true`, `false`, or null or absent (`false`).
  mutating func bool(_ key: String?) -> Bool {
    guard let key, let value = object[key] else { return false }
    switch value {
    case .null: return false
    case .bool(let flag): return flag
    default:
      problems.append(ChartFileProblem(field: key, message: "expected true, false or null"))
      return false
    }
  }

  mutating func string(_ key: String?) -> String? {
    guard let key, let value = object[key] else { return nil }
    switch value {
    case .null: return nil
    case .string(let text): return text
    default:
      problems.append(ChartFileProblem(field: key, message: "expected a string or null"))
      return nil
    }
  }

  mutating func entries(_ key: String, keys: EntryKeys) -> [RawEntry]? {
    guard let value = object[key] else { return nil }
    guard case .array(let list) = value else {
      problems.append(ChartFileProblem(field: key, message: "expected an array of entries"))
      return nil
    }
    guard list.count <= ChartFileReader.maximumRank else {
      problems.append(Self.tooManyEntries(list.count, field: key))
      return nil
    }
    return list.map { RawEntry(json: $0, keys: keys) }
  }

  /// A list longer than any chart: refused before its entries are read one by one.
  static func tooManyEntries(_ count: Int, field: String?) -> ChartFileProblem {
    ChartFileProblem(
      field: field,
      message: "\(count) entries; a chart has at most \(ChartFileReader.maximumRank)")
  }
}

/// What is wrong with a whole number beyond the 64-bit range, as written (its first 20
/// characters and its length when it is longer than 40): `99999999999999999999 is too large (at
/// most 9223372036854775807)`.
///
/// - Parameters:
///   - text: the number as written in the file.
///   - tooLarge: whether it is above the range (otherwise below it).
func beyondRange(_ text: String, tooLarge: Bool) -> String {
  let shown = text.count > 40 ? "\(text.prefix(20))… (\(text.count) characters)" : text
  return tooLarge
    ? "\(shown) is too large (at most \(Int.max))" : "\(shown) is too small (at least \(Int.min))"
}

/// What is wrong with a JSON value that should be an integer and is not one that fits: a whole
/// number beyond 64 bits is an integer, only too large (see ``beyondRange(_:tooLarge:)``);
/// anything else is not what was `expected`.
func notAnInteger(_ value: JSONTree, expected: String) -> String {
  if case .number(let text) = value, let whole = JSONTree.wholeNumber(text),
    whole == .tooLarge || whole == .tooSmall
  {
    return beyondRange(text, tooLarge: whole == .tooLarge)
  }
  return "expected \(expected)"
}

/// What is wrong with a text that should be a whole number and that `Int(_:)` does not read:
/// digits alone (with a sign or not) are beyond the 64-bit range (see ``beyondRange(_:tooLarge:)``);
/// anything else is not a whole number.
func wholeNumberProblem(_ text: String) -> String {
  let digits = text.utf8.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
  return text.utf8.count - digits.count <= 1 && !digits.isEmpty
    && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    ? beyondRange(text, tooLarge: text.utf8.first != UInt8(ascii: "-"))
    : "expected a whole number, found '\(escaped(text))'"
}

/// One entry as written in a file, before it is checked.
struct RawEntry: Equatable {
  /// The row of a CSV file the entry is on (1-based, the header counted); `nil` in JSON.
  var row: Int?
  var rank: Int?
  var title: String?
  var artist: String?
  var previousRank: Int?
  /// Whether the entry has the previous-rank field at all (even as null).
  var hasPreviousRank: Bool
  var peakPosition: Int?
  var weeksOnChart: Int?
  var imageURL: String?
  var songURL: String?
  var streams: Int?
  /// The song's run as the source numbered it.
  var run: Int?
  /// The movement the source published (a charts CSV's `trend`), when it did.
  var trend: PublishedTrend?
  /// Whether the source marks the entry tied with another at its rank (`=8` in a CSV, `"tie":
  /// true` in the native JSON): two entries may then share the rank.
  var tied = false
  /// Whether the entry is a JSON object at all (when not, its fields are all missing).
  var isObject: Bool
  var problems: [ChartFileProblem]

  /// An entry of a JSON file with no field read yet, filled by the caller.
  init() {
    hasPreviousRank = false
    isObject = true
    problems = []
  }

  /// An entry of a CSV row, filled by the caller.
  init(row: Int) {
    self.row = row
    hasPreviousRank = false
    isObject = true
    problems = []
  }

  /// An entry of a JSON file: `json` should be an object with the fields named by `keys`.
  init(json: JSONTree, keys: EntryKeys) {
    var reader = FieldReader(json)
    isObject = reader.isObject
    rank = reader.int(keys.rank)
    title = reader.string(keys.title)
    artist = reader.string(keys.artist)
    hasPreviousRank = reader.has(keys.previousRank)
    previousRank = reader.int(keys.previousRank)
    peakPosition = reader.int(keys.peakPosition)
    weeksOnChart = reader.int(keys.weeksOnChart)
    imageURL = reader.string(keys.imageURL)
    songURL = reader.string(keys.songURL)
    streams = reader.int(keys.streams)
    run = reader.int(keys.run)
    tied = reader.bool(keys.tie)
    problems = reader.problems
  }
}

/// The top-level fields of a JSON chart file (or of one snapshot of an export), as written and
/// read before the file's format is known: every field any JSON format has there, its entries
/// read with the field names of each format that has such a list.
struct JSONFileFields: Equatable {
  var chart: String?
  var chartDate: String?
  var date: String?
  var name: String?
  var frequency: String?
  /// `entries`, read as the native format or billboard.py's.
  var entries: [RawEntry]?
  var billboardEntries: [RawEntry]?
  var feedEntries: [RawEntry]?
  /// An export's snapshots: `{"snapshots": [native snapshot, …]}`.
  var snapshots: [JSONFileFields]?
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
    if isBillboardPy { name = reader.string("name") }
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
    problems = reader.problems
  }
}
