import ChartRanking

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
  /// The recording's ISRC, when the file gives one.
  var isrc: ISRC?
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

  /// The problem of a native `trend` that is not a ``PublishedTrend/notation``.
  static func notATrend(_ text: String, field: String?) -> ChartFileProblem {
    ChartFileProblem(
      field: field,
      message: "expected what the source's marker says, ': ' and the marker (up 3: +3, down: "
        + "MOVE_DOWN, unchanged: =, debut: NEW, re-entry: RE, not on previous: NEW_ENTRY), found '"
        + escaped(text) + "'")
  }

  /// Reads the ISRC written in `field`, with a problem when it is not one (ISO 3901: two letters,
  /// three letters or digits, seven digits; hyphens left out, letters upper-cased). Empty text is
  /// none, as an empty CSV cell is.
  mutating func readISRC(_ text: String?, field: String?) {
    guard let text, !text.isEmpty else { return }
    isrc = ISRC(text)
    if isrc == nil {
      problems.append(
        ChartFileProblem(
          field: field,
          message: "expected an ISRC: 12 letters and digits, CC-XXX-YY-NNNNN (two letters, three"
            + " letters or digits, two digits, five digits; hyphens may be left out), found '"
            + escaped(text) + "'"))
    }
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
    if let key = keys.trend, let text = reader.string(key) {
      trend = PublishedTrend(notation: text)
      if trend == nil { reader.problems.append(Self.notATrend(text, field: key)) }
    }
    let isrcText = keys.isrc.flatMap { reader.string($0) }
    problems = reader.problems
    readISRC(isrcText, field: keys.isrc)
  }
}
