public import Foundation

/// How a period chart scores a song's place on one snapshot of the span. A song's points are the
/// sum over the snapshots of the span it was on.
///
/// The formulas, with `rank` 1-based and `places` the number of entries of the snapshot (100 on
/// the Hot 100):
///
/// - `root`: 100 ÷ √rank (100 for number one, 50 for number 4, 10 for number 100). High places
///   weigh as charts weigh them: a week at number one is worth two at number 4 and ten at 100.
///   The default where a snapshot of the span lacks a streams figure.
/// - `linear`: places + 1 − rank (101 − rank on the Hot 100). Long runs low on the chart count
///   as much as number ones (the Hot 100's 1985 comes out with Take On Me on top).
/// - `billboard`: `linear`, and a bonus of `places` for the week's number one, the way Billboard
///   scored its year-end Top Pop Singles in the 1970s ("the number one disk each week was
///   assigned bonus points equal to the total number of positions on its respective charts",
///   Billboard, December 25, 1976).
/// - `streams`: the streams the source published for the entry; the default where every entry
///   of the span has them (the streaming services' charts), as a year-end chart of streams is
///   their sum.
///
/// On the Hot 100 from 1960 to 2024, Billboard's year (see ``PeriodSpan/year(_:frequency:)``)
/// ranked by `root` gives Billboard's published year-end number one in 44 of the 65 years,
/// `billboard` in 37 and `linear` in 21 (docs/rules.md, "Periods").
public enum PeriodScoring: String, CaseIterable, Hashable, Sendable {
  case root
  case linear
  case billboard
  case streams

  /// The points of one place: see the formulas above. `streams` counts 0 for an entry without
  /// a streams figure.
  ///
  /// - Parameters:
  ///   - rank: the entry's rank, 1-based.
  ///   - places: how many entries the snapshot holds.
  ///   - streams: the entry's streams, when published.
  public func points(rank: Int, places: Int, streams: Int?) -> Double {
    switch self {
    case .root: 100 / Double(rank).squareRoot()
    case .linear: Double(max(places + 1 - rank, 0))
    case .billboard: Double(max(places + 1 - rank, 0) + (rank == 1 ? places : 0))
    case .streams: Double(streams ?? 0)
    }
  }

  /// The scoring a chart's span takes when none is asked for: `streams` when every entry of the
  /// span has a streams figure, else `root`.
  ///
  /// - Parameter everyEntryHasStreams: whether each entry of the span has one (false for a span
  ///   without entries).
  public static func standard(everyEntryHasStreams: Bool) -> PeriodScoring {
    everyEntryHasStreams ? .streams : .root
  }
}

/// A span of chart dates, both ends included, whole days: a year by its chart's rule, or any
/// two dates.
public struct PeriodSpan: Hashable, Sendable {
  /// The first day (YYYY-MM-DD).
  public var from: ChartDate
  /// The last day (YYYY-MM-DD); a chart date with a time on this day is in the span.
  public var to: ChartDate
  /// The year this span is, by ``year(_:frequency:)``, or `nil` for a span of two dates.
  public var year: Int?

  /// A span of two days, the earlier first (they may be the same day).
  ///
  /// - Parameters:
  ///   - from: the first day; a time of day is ignored.
  ///   - to: the last day; a time of day is ignored.
  public init(from: ChartDate, to: ChartDate) {
    self.from = Self.day(from)
    self.to = Self.day(to)
    self.year = nil
  }

  /// A year of a chart.
  ///
  /// A weekly chart's year is Billboard's chart year: the charts dated from December 1 of the
  /// year before through November 30 (the Hot 100's year-end charts were tallied over such a
  /// year, give or take two weeks, from 1972 on: December 4, 1971 – November 18, 1972;
  /// November 20, 2021 – November 12, 2022). Every other chart's year is the calendar year.
  ///
  /// - Parameters:
  ///   - year: the year, such as 1985.
  ///   - frequency: how often the chart is published, when known.
  public static func year(_ year: Int, frequency: ChartFrequency?) -> PeriodSpan {
    let weekly = frequency == .weekly
    var span = PeriodSpan(
      from: Self.date(weekly ? year - 1 : year, weekly ? 12 : 1, 1),
      to: Self.date(year, weekly ? 11 : 12, weekly ? 30 : 31))
    span.year = year
    return span
  }

  /// The year whose span (``year(_:frequency:)``) holds a chart date: for a weekly chart, a
  /// December's charts belong to the next year.
  ///
  /// - Parameters:
  ///   - date: a chart date.
  ///   - frequency: how often the chart is published, when known.
  public static func year(holding date: ChartDate, frequency: ChartFrequency?) -> Int {
    let civil = ChartDate.civilDate(daysSince1970: Int(date.secondsSince1970 / 86_400))
    return frequency == .weekly && civil.month == 12 ? civil.year + 1 : civil.year
  }

  /// How many days the span holds, both ends counted.
  public var days: Int { Int((to.secondsSince1970 - from.secondsSince1970) / 86_400) + 1 }

  /// The span of the same length just before this one: the year before for a year, else the
  /// `days` days ending the day before `from`.
  ///
  /// - Parameter frequency: the chart's frequency, for the year before.
  public func previous(frequency: ChartFrequency?) -> PeriodSpan {
    if let year { return .year(year - 1, frequency: frequency) }
    let last = Int(from.secondsSince1970 / 86_400) - 1
    let first = last - days + 1
    return PeriodSpan(from: Self.date(daysSince1970: first), to: Self.date(daysSince1970: last))
  }

  /// The first second of `from`'s day and the last of `to`'s in a chart's time zone, in seconds
  /// since 1970-01-01T00:00:00Z: the chart dates of the span are those between them (an hourly
  /// chart's every hour of both days; a chart cut at 00:30 in Seoul, its snapshot of `from`, at
  /// 15:30 UTC the day before).
  ///
  /// - Parameter zone: the chart's time zone; UTC for a chart that has none.
  public func instants(in zone: TimeZone) -> ClosedRange<Int64> {
    let first = ChartDate.instants(ofDay: from, in: zone).lowerBound
    return first...(ChartDate.instants(ofDay: to, in: zone).upperBound - 1)
  }

  private static func day(_ date: ChartDate) -> ChartDate {
    date.hasTime ? Self.date(daysSince1970: Int(date.secondsSince1970 / 86_400)) : date
  }

  private static func date(daysSince1970 days: Int) -> ChartDate {
    let civil = ChartDate.civilDate(daysSince1970: days)
    return date(civil.year, civil.month, civil.day)
  }

  private static func date(_ year: Int, _ month: Int, _ day: Int) -> ChartDate {
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    let text = "\(year)-\(two(month))-\(two(day))"
    let days = ChartDate.daysSince1970(year: year, month: month, day: day)
    return ChartDate(trustedISO8601: text, secondsSince1970: Int64(days) * 86_400)
  }
}

/// One entry of a snapshot in a span, as a period chart reads it.
public struct PeriodPlacement: Hashable, Sendable {
  /// The snapshot's chart date in seconds since 1970: placements come in this order.
  public var chartTime: Int64
  /// How many entries the snapshot holds.
  public var places: Int
  /// The entry's rank, 1-based.
  public var rank: Int
  /// The entry's song.
  public var song: SongID
  /// The streams the source published for the entry, when it did.
  public var streams: Int?

  /// A placement.
  public init(chartTime: Int64, places: Int, rank: Int, song: SongID, streams: Int?) {
    self.chartTime = chartTime
    self.places = places
    self.rank = rank
    self.song = song
    self.streams = streams
  }
}

/// One song of a period chart.
public struct PeriodStanding: Hashable, Sendable {
  /// Its rank in the period, 1-based; songs equal in points, peak, periods at peak and periods
  /// share one.
  public var rank: Int
  /// The song.
  public var song: SongID
  /// Its points (see ``PeriodScoring``).
  public var points: Double
  /// Its best rank on the span's snapshots, 1-based.
  public var peak: Int
  /// How many of the span's snapshots had it at that peak.
  public var periodsAtPeak: Int
  /// How many of the span's snapshots it was on (weeks on a weekly chart, days on a daily one).
  public var periods: Int
  /// Its rank in the period before (``PeriodSpan/previous(frequency:)``), or `nil` when it was
  /// not on the chart then.
  public var previousRank: Int?
  /// How it moved since the period before: up, down, unchanged, or `debut` ("NEW") when it was
  /// not in that period.
  public var movement: Movement
}

/// The period chart rule: a chart of a span made from its snapshots.
public enum PeriodRanking {
  /// Ranks the songs of a span: by points (see ``PeriodScoring``), most first; ties broken by
  /// the peak in the span (best first), then the snapshots at that peak, then the snapshots in
  /// the span (most first). Songs equal in all four share a rank (the next rank skips, as
  /// charts print ties), listed by song ID. Points are compared to six decimal places, so that
  /// sums of the same places in another order are equal.
  ///
  /// - Parameters:
  ///   - placements: the span's entries, by chart date.
  ///   - previous: the entries of the period before, for each song's rank then and movement.
  ///   - scoring: how a place scores.
  /// - Returns: every song of the span, best first.
  public static func rank(
    _ placements: [PeriodPlacement], previous: [PeriodPlacement], scoring: PeriodScoring
  ) -> [PeriodStanding] {
    let before = tally(previous, scoring: scoring)
    let ranksBefore = Dictionary(uniqueKeysWithValues: before.map { ($0.song, $0.rank) })
    return tally(placements, scoring: scoring).map { standing in
      var standing = standing
      standing.previousRank = ranksBefore[standing.song]
      standing.movement = Movement(
        rank: standing.rank, previousRank: standing.previousRank, wasOnChartBefore: false)
      return standing
    }
  }

  /// The span's standings without the period before (every song `debut`).
  static func tally(_ placements: [PeriodPlacement], scoring: PeriodScoring) -> [PeriodStanding] {
    var bySong: [SongID: PeriodStanding] = [:]
    for placement in placements {
      let points = scoring.points(
        rank: placement.rank, places: placement.places, streams: placement.streams)
      if var standing = bySong[placement.song] {
        standing.points += points
        standing.periods += 1
        if placement.rank < standing.peak {
          (standing.peak, standing.periodsAtPeak) = (placement.rank, 1)
        } else if placement.rank == standing.peak {
          standing.periodsAtPeak += 1
        }
        bySong[placement.song] = standing
      } else {
        bySong[placement.song] = PeriodStanding(
          rank: 0, song: placement.song, points: points, peak: placement.rank, periodsAtPeak: 1,
          periods: 1, previousRank: nil, movement: .debut)
      }
    }
    var ordered = bySong.values.sorted { order($0) < order($1) }
    for index in ordered.indices {
      let tied = index > 0 && order(ordered[index - 1]).key == order(ordered[index]).key
      ordered[index].rank = tied ? ordered[index - 1].rank : index + 1
    }
    return ordered
  }

  /// The order of standings: the key the ties compare, then the song ID.
  private static func order(_ standing: PeriodStanding) -> SortKey {
    SortKey(
      key: [
        -Int64((standing.points * 1_000_000).rounded()), Int64(standing.peak),
        -Int64(standing.periodsAtPeak), -Int64(standing.periods),
      ], song: standing.song.rawValue)
  }

  private struct SortKey: Comparable {
    var key: [Int64]
    var song: Int64
    static func < (left: SortKey, right: SortKey) -> Bool {
      left.key != right.key ? left.key.lexicographicallyPrecedes(right.key) : left.song < right.song
    }
  }
}
