import Foundation

/// A JSON object key given by its text.
struct AnyKey: CodingKey {
  let stringValue: String
  let intValue: Int?
  init(_ string: String) {
    stringValue = string
    intValue = nil
  }
  init?(stringValue: String) { self.init(stringValue) }
  init?(intValue: Int) {
    stringValue = String(intValue)
    self.intValue = intValue
  }
}

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

  static let native = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "previous_rank",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: "image_url",
    songURL: "song_url", streams: "streams")
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

  static func forFormat(_ format: ChartFormat) -> EntryKeys {
    switch format {
    case .native: .native
    case .billboardWeekly: .billboardWeekly
    case .billboardPy: .billboardPy
    case .appFeed: .appFeed
    case .streamingCSV, .weeklyCSV, .chartsCSV, .nativeCSV: CSVLayout.keys(for: format)
    }
  }
}

/// Reads fields of one JSON object, turning a wrong type into a problem instead of failing the
/// whole file, so that every problem of a file is reported at once.
struct FieldReader {
  let container: KeyedDecodingContainer<AnyKey>
  var problems: [ChartFileProblem] = []

  init(_ decoder: any Decoder, problems: inout [ChartFileProblem], field: String?) {
    do {
      container = try decoder.container(keyedBy: AnyKey.self)
    } catch {
      problems.append(ChartFileProblem(field: field, message: "expected a JSON object"))
      container = KeyedDecodingContainer(EmptyContainer())
    }
  }

  func has(_ key: String?) -> Bool { key.map { container.contains(AnyKey($0)) } ?? false }

  mutating func int(_ key: String?) -> Int? {
    guard let key else { return nil }
    do {
      return try container.decodeIfPresent(Int.self, forKey: AnyKey(key))
    } catch {
      problems.append(ChartFileProblem(field: key, message: "expected an integer or null"))
      return nil
    }
  }

  mutating func string(_ key: String?) -> String? {
    guard let key else { return nil }
    do {
      return try container.decodeIfPresent(String.self, forKey: AnyKey(key))
    } catch DecodingError.typeMismatch {
      problems.append(ChartFileProblem(field: key, message: "expected a string or null"))
      return nil
    } catch {
      // JSONDecoder's own error for a string that is not UTF-8 or holds a raw control character.
      problems.append(
        ChartFileProblem(
          field: key, message: "not valid text (invalid UTF-8, or a control character not escaped)")
      )
      return nil
    }
  }

  mutating func entries(_ key: String, keys: EntryKeys) -> [RawEntry]? {
    guard container.contains(AnyKey(key)) else { return nil }
    do {
      if try container.decodeNil(forKey: AnyKey(key)) {
        problems.append(ChartFileProblem(field: key, message: "expected an array of entries"))
        return nil
      }
      var list = try container.nestedUnkeyedContainer(forKey: AnyKey(key))
      return try RawEntry.decodeAll(&list, keys: keys)
    } catch {
      problems.append(ChartFileProblem(field: key, message: "expected an array of entries"))
      return nil
    }
  }
}

/// A keyed container with no keys, standing in for a value that was not an object.
private struct EmptyContainer: KeyedDecodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  var allKeys: [AnyKey] { [] }
  func contains(_ key: AnyKey) -> Bool { false }
  func decodeNil(forKey key: AnyKey) throws -> Bool { true }
  func decode<T: Decodable>(_ type: T.Type, forKey key: AnyKey) throws -> T {
    throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
  }
  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: AnyKey)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
  }
  func nestedUnkeyedContainer(forKey key: AnyKey) throws -> any UnkeyedDecodingContainer {
    throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
  }
  func superDecoder() throws -> any Decoder {
    throw DecodingError.keyNotFound(
      AnyKey("super"), .init(codingPath: [], debugDescription: "missing"))
  }
  func superDecoder(forKey key: AnyKey) throws -> any Decoder {
    throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "missing"))
  }
}

/// One entry as written in a file, before it is checked.
struct RawEntry {
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
  /// A published movement (a charts CSV's `trend`), unchecked.
  var trend: String?
  /// Whether the entry is a JSON object at all (when not, its fields are all missing).
  var isObject: Bool
  var problems: [ChartFileProblem]

  /// An entry of a CSV row, filled by the caller.
  init(row: Int) {
    self.row = row
    hasPreviousRank = false
    isObject = true
    problems = []
  }

  init(from decoder: any Decoder, keys: EntryKeys) {
    var problems: [ChartFileProblem] = []
    var reader = FieldReader(decoder, problems: &problems, field: nil)
    isObject = problems.isEmpty
    problems = []
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
    self.problems = problems + reader.problems
  }

  static func decodeAll(_ list: inout any UnkeyedDecodingContainer, keys: EntryKeys) throws
    -> [RawEntry]
  {
    var entries: [RawEntry] = []
    if let count = list.count { entries.reserveCapacity(count) }
    while !list.isAtEnd {
      entries.append(RawEntry(from: try list.superDecoder(), keys: keys))
    }
    return entries
  }
}

/// A whole JSON file as written: every top-level field any JSON format has.
struct RawFile: Decodable {
  /// The user-info key that carries a format named with `--format`, so that entries are read
  /// with its field names.
  static let forcedFormatKey = CodingUserInfoKey(rawValue: "forcedFormat")!

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
  var snapshots: [RawFile]?
  var hasEntriesKey = false
  var hasDataKey = false
  /// Whether the object is billboard.py's: `name` or `previousDate`, entries with `lastPos`, and
  /// no `chart`.
  var isBillboardPy = false
  var problems: [ChartFileProblem] = []

  init(from decoder: any Decoder) throws {
    let forced = (decoder.userInfo[Self.forcedFormatKey] as? String).flatMap(ChartFormat.init)
    if var list = try? decoder.unkeyedContainer() {
      feedEntries = try RawEntry.decodeAll(&list, keys: .appFeed)
      return
    }
    var problems: [ChartFileProblem] = []
    var reader = FieldReader(decoder, problems: &problems, field: nil)
    guard problems.isEmpty else {
      throw DecodingError.typeMismatch(
        RawFile.self, .init(codingPath: [], debugDescription: "expected a JSON object or array"))
    }
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
    if reader.has("snapshots") {
      do {
        snapshots = try reader.container.decode([RawFile].self, forKey: AnyKey("snapshots"))
      } catch {
        reader.problems.append(
          ChartFileProblem(field: "snapshots", message: "expected an array of snapshots"))
      }
    }
    self.problems = reader.problems
  }
}
