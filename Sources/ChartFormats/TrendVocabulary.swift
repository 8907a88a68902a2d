import ChartRanking

/// The words one source uses for an entry's movement.
enum TrendVocabulary {
  /// A charts CSV's `trend` (the Spotify charts data set of 2017 to 2021): `MOVE_UP`,
  /// `MOVE_DOWN`, `SAME_POSITION`, `NEW_ENTRY` (a debut or a re-entry).
  case chartsCSV
  /// Spotify's `entryStatus` (charts.spotify.com): `NEW_ENTRY`, `RE_ENTRY`, `MOVED_UP`,
  /// `MOVED_DOWN`, `NO_CHANGE`.
  case spotifyEntryStatus
  /// The markers the UK chart writes in its last-week column instead of a rank: `New` (or
  /// `NEW`) and `RE`.
  case chartMarkers
  /// kworb.net's `P+`: `=` (the same rank), `+3` and `-2` (up and down by so many places), `NEW`
  /// and `RE`.
  case kworb

  /// The markers, as written.
  var words: [String] { meanings.map(\.0) }

  /// The markers, as written, with what each says.
  private var meanings: [(String, PublishedTrend.Kind)] {
    switch self {
    case .chartsCSV:
      [
        ("MOVE_UP", .up(places: nil)), ("MOVE_DOWN", .down(places: nil)),
        ("SAME_POSITION", .unchanged), ("NEW_ENTRY", .notOnPrevious),
      ]
    case .spotifyEntryStatus:
      [
        ("NEW_ENTRY", .debut), ("RE_ENTRY", .reentry), ("MOVED_UP", .up(places: nil)),
        ("MOVED_DOWN", .down(places: nil)), ("NO_CHANGE", .unchanged),
      ]
    case .chartMarkers: [("New", .debut), ("NEW", .debut), ("RE", .reentry)]
    case .kworb: [("=", .unchanged), ("NEW", .debut), ("RE", .reentry)]
    }
  }

  /// The published movement a marker says, or `nil` when it is none of the vocabulary's.
  func trend(_ text: String) -> PublishedTrend? {
    if let word = meanings.first(where: { $0.0 == text }) {
      return PublishedTrend(word.1, text: text)
    }
    // kworb's places: a sign, then digits (at least 1).
    guard self == .kworb, let sign = text.first, sign == "+" || sign == "-",
      let places = Int(text.dropFirst()), places > 0,
      text.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    return PublishedTrend(sign == "+" ? .up(places: places) : .down(places: places), text: text)
  }

  /// What is wrong with a marker that is not one of the vocabulary's.
  func problem(_ text: String) -> String {
    let expected =
      self == .kworb
      ? "=, +N, -N (N places up or down), NEW or RE" : "one of " + words.joined(separator: ", ")
    return "expected \(expected), found '\(escaped(text))'"
  }
}
