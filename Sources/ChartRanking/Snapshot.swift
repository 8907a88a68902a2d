/// One published chart at one chart date: its entries in rank order.
public struct Snapshot: Hashable, Sendable {
  /// Whether a text can name a chart: not empty nor blank, at most 200 characters, without
  /// control characters (a line break or tab would break every listing) or bidirectional controls
  /// (Unicode's Bidi_Control, U+202E and the like, which reorder the text shown after the name),
  /// and not `.` or `..`, which name folders (a chart's name is a folder's in an export, a path
  /// segment in the service's addresses).
  public static func isValidChartName(_ name: String) -> Bool {
    !name.allSatisfy(\.isWhitespace) && name.unicodeScalars.count <= 200 && name != "."
      && name != ".."
      && !name.unicodeScalars.contains {
        $0.properties.generalCategory == .control || $0.properties.isBidiControl
      }
  }

  /// What a valid chart name is, in words, for messages.
  public static let validChartNameRule =
    "1 to 200 characters, no control or bidirectional control characters, not . or .."

  /// The song URLs that more than one entry has, each with those entries' ranks: a URL names one
  /// recording, so that is a repeated row (a scraper's duplicated #1).
  public var repeatedSongURLs: [(url: String, ranks: [Int])] {
    var ranks: [String: [Int]] = [:]
    var order: [String] = []
    for entry in entries {
      guard let url = entry.songURL, !url.isEmpty else { continue }
      if ranks[url] == nil { order.append(url) }
      ranks[url, default: []].append(entry.rank)
    }
    return order.compactMap { url in ranks[url]!.count > 1 ? (url, ranks[url]!) : nil }
  }

  /// The chart's name, such as `hot-100` or `spotify-daily-us`.
  public var chart: String
  /// The chart date.
  public var chartDate: ChartDate
  /// Whether the source publishes previous ranks for this snapshot. When it does, an entry whose
  /// ``ChartEntry/publishedPreviousRank`` is `nil` was not on the previous chart (a debut or a
  /// re-entry); when it does not, the previous rank is derived from the archive.
  public var publishesPreviousRank: Bool
  /// The entries, ordered by rank.
  public var entries: [ChartEntry]

  /// Creates a snapshot; entries are sorted by rank (stable for equal ranks).
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - chartDate: the chart date.
  ///   - publishesPreviousRank: whether `nil` previous ranks are published facts.
  ///   - entries: the entries in any order.
  public init(
    chart: String, chartDate: ChartDate, publishesPreviousRank: Bool, entries: [ChartEntry]
  ) {
    self.chart = chart
    self.chartDate = chartDate
    self.publishesPreviousRank = publishesPreviousRank
    // Compares the ranks in place: a `zip` of the entries would copy each one, twice.
    var inRankOrder = true
    for index in entries.indices.dropFirst() where entries[index - 1].rank > entries[index].rank {
      inRankOrder = false
      break
    }
    if inRankOrder {
      self.entries = entries
    } else {
      self.entries = entries.enumerated().sorted {
        ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset)
      }
      .map(\.element)
    }
  }
}
