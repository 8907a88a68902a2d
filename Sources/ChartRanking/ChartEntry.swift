/// One line of a published chart: a song at a rank in one snapshot, with what the source said of it.
///
/// The published figures (`publishedPreviousRank`, `publishedPeakPosition`,
/// `publishedWeeksOnChart`, `publishedRun`) are kept exactly as the source gave them; what the
/// archive derives from its own snapshots lives in ``Placement`` and ``SongHistory``.
public struct ChartEntry: Hashable, Sendable {
  /// Position on the chart, 1-based (1 is the top).
  public var rank: Int
  /// The song's title as published in this snapshot.
  public var title: String
  /// The artist credit as published in this snapshot.
  public var artist: String
  /// The rank on the previous chart as the source published it, 1-based; `nil` when the source
  /// published none (see ``Snapshot/publishesPreviousRank`` for whether `nil` means "not on the
  /// previous chart" or "not published").
  public var publishedPreviousRank: Int?
  /// Best rank up to and including this snapshot, as the source published it; `nil` when not given.
  public var publishedPeakPosition: Int?
  /// Weeks (or periods) on the chart up to and including this snapshot, as the source published
  /// it; `nil` when not given.
  public var publishedWeeksOnChart: Int?
  /// URL of the cover image, as given in this snapshot.
  public var imageURL: String?
  /// URL of the song at the source, as given in this snapshot. When present it is the song's
  /// identity (see ``SongIdentity``).
  public var songURL: String?
  /// Plays in the chart's period, as the source counted them (streaming charts); `nil` when not
  /// given.
  public var streams: Int?
  /// The song's run on the chart the entry belongs to, as the source numbered it: 1 for its first
  /// time on the chart, 2 after its first re-entry, and so on (the "instance" of the Billboard
  /// "Hot Stuff" dataset); `nil` when not given.
  public var publishedRun: Int?

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - rank: 1-based position on the chart.
  ///   - title: the song's title.
  ///   - artist: the artist credit.
  ///   - publishedPreviousRank: the previous rank as published, 1-based, or `nil`.
  ///   - publishedPeakPosition: the peak position as published, 1-based, or `nil`.
  ///   - publishedWeeksOnChart: weeks on chart as published, or `nil`.
  ///   - imageURL: the cover image's URL, or `nil`.
  ///   - songURL: the song's URL at the source, or `nil`.
  ///   - streams: plays in the chart's period, or `nil`.
  ///   - publishedRun: the song's run as the source numbered it (1 for its first), or `nil`.
  public init(
    rank: Int, title: String, artist: String, publishedPreviousRank: Int? = nil,
    publishedPeakPosition: Int? = nil, publishedWeeksOnChart: Int? = nil, imageURL: String? = nil,
    songURL: String? = nil, streams: Int? = nil, publishedRun: Int? = nil
  ) {
    self.streams = streams
    self.publishedRun = publishedRun
    self.rank = rank
    self.title = title
    self.artist = artist
    self.publishedPreviousRank = publishedPreviousRank
    self.publishedPeakPosition = publishedPeakPosition
    self.publishedWeeksOnChart = publishedWeeksOnChart
    self.imageURL = imageURL
    self.songURL = songURL
  }

  /// Whether the source says the song was on the chart before this snapshot: its published weeks
  /// on chart are above 1 (the chart rule: weeks on chart count this week). A song the archive
  /// has not seen before that says so is a re-entry, not a debut, and linking looks for it under
  /// another credit.
  public var saysChartedBefore: Bool { (publishedWeeksOnChart ?? 0) > 1 }

  /// Whether the source published any of its figures for the entry: a previous rank, a peak
  /// position, weeks on chart or a run number.
  public var publishesAnyFigure: Bool {
    publishedPreviousRank != nil || publishedPeakPosition != nil || publishedWeeksOnChart != nil
      || publishedRun != nil
  }

  /// Whether the source says this is the song's first week on the chart (published weeks on chart
  /// 1): an entry with the identity of an earlier song is then a new recording (a reissue or a
  /// remake), not that song.
  public var saysFirstWeek: Bool { publishedWeeksOnChart == 1 }

  /// The identity that ties this entry to the same song in other snapshots.
  public var songIdentity: SongIdentity {
    SongIdentity(title: title, artist: artist, songURL: songURL)
  }
}

/// How often a chart is published, when known.
public enum ChartFrequency: String, CaseIterable, Hashable, Sendable {
  /// Published every hour (chart dates carry a time).
  case hourly
  /// Published every day.
  case daily
  /// Published every week (the Billboard Hot 100).
  case weekly
  /// Published every month.
  case monthly
  /// A running all-time chart (a chart app's "total" chart).
  case allTime = "all-time"

  /// Whether a chart date is one period after another, as the chart's dates follow each other: 7
  /// days for a weekly chart, 1 day for a daily one, 1 hour for an hourly one, the same day of the
  /// next month for a monthly one (the last day when the month is shorter); any for an all-time
  /// chart. A date off that rhythm is a chart missing between them, or one saved under the wrong
  /// date.
  ///
  /// - Parameters:
  ///   - previous: the chart's previous snapshot's date.
  ///   - next: the date after it.
  public func isOnRhythm(from previous: ChartDate, to next: ChartDate) -> Bool {
    let seconds = next.secondsSince1970 - previous.secondsSince1970
    switch self {
    case .hourly: return seconds == 3_600
    case .daily: return seconds == 86_400
    case .weekly: return seconds == 7 * 86_400
    case .allTime: return true
    case .monthly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      let month = from.month == 12 ? (from.year + 1, 1) : (from.year, from.month + 1)
      let lastDay = ChartDate.daysIn(month: month.1, year: month.0)
      return (to.year, to.month) == month
        && (to.day == from.day || from.day > lastDay && to.day == lastDay
          || from.day == ChartDate.daysIn(month: from.month, year: from.year) && to.day == lastDay)
    }
  }

  /// Whether `next` comes two periods or more after `previous`: a snapshot of the chart is
  /// missing between them (a weekly chart's dates 14 days apart, a daily chart's 2 days). A date
  /// less than two periods on (the Hot 100's 12 days when it moved from Mondays to Saturdays)
  /// is not; an all-time chart has no period.
  ///
  /// - Parameters:
  ///   - previous: the chart's previous snapshot's date.
  ///   - next: the date after it.
  public func skipsAPeriod(from previous: ChartDate, to next: ChartDate) -> Bool {
    let seconds = next.secondsSince1970 - previous.secondsSince1970
    switch self {
    case .hourly: return seconds >= 2 * 3_600
    case .daily: return seconds >= 2 * 86_400
    case .weekly: return seconds >= 14 * 86_400
    case .allTime: return false
    case .monthly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      return (to.year * 12 + to.month) - (from.year * 12 + from.month) >= 2
    }
  }

  /// Guesses the frequency from a chart's name: the last `-`, `_` or `/` separated word of
  /// `spotify-daily` or `app/total` names it (`total` and `all-time` mean ``allTime``).
  ///
  /// - Returns: the frequency, or `nil` when the name does not say.
  public static func guessed(fromChartName name: String) -> ChartFrequency? {
    let lastWord = name.lowercased().split(whereSeparator: { "-_/ ".contains($0) }).last
    switch lastWord {
    case "hourly": return .hourly
    case "daily": return .daily
    case "weekly": return .weekly
    case "monthly": return .monthly
    case "total", "alltime", "all-time": return .allTime
    default: return nil
    }
  }
}

/// One published chart at one chart date: its entries in rank order.
public struct Snapshot: Hashable, Sendable {
  /// Whether a text can name a chart: not empty nor blank, without control characters (a line
  /// break or tab would break every listing), at most 200 characters.
  public static func isValidChartName(_ name: String) -> Bool {
    !name.allSatisfy(\.isWhitespace) && name.unicodeScalars.count <= 200
      && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
  }

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
