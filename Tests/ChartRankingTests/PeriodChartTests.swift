import Foundation
import Testing

@testable import ChartRanking

/// Placements of a made-up chart of `places` entries: each line a week (1, 2 …) with its songs
/// in rank order (song IDs); a rank repeated by listing `(song, rank)` pairs instead.
private func weeks(_ lines: [[(Int64, Int)]], places: Int = 10, firstWeek: Int64 = 0)
  -> [PeriodPlacement]
{
  lines.enumerated().flatMap { week, entries in
    entries.map { song, rank in
      PeriodPlacement(
        chartTime: (firstWeek + Int64(week)) * 7 * 86_400, places: places, rank: rank,
        song: SongID(song), streams: nil)
    }
  }
}

private func date(_ text: String) throws -> ChartDate { try ChartDate(iso8601: text) }

/// The period chart rule: points, the tie-breaks in order, the period before and the spans.
struct PeriodChartTests {
  @Test func scoringsGiveTheDocumentedPoints() {
    #expect(PeriodScoring.root.points(rank: 1, places: 100, streams: nil) == 100)
    #expect(PeriodScoring.root.points(rank: 4, places: 100, streams: nil) == 50)
    #expect(PeriodScoring.root.points(rank: 100, places: 100, streams: nil) == 10)
    #expect(PeriodScoring.linear.points(rank: 1, places: 100, streams: nil) == 100)
    #expect(PeriodScoring.linear.points(rank: 100, places: 100, streams: nil) == 1)
    #expect(PeriodScoring.linear.points(rank: 120, places: 100, streams: nil) == 0)
    #expect(PeriodScoring.billboard.points(rank: 1, places: 100, streams: nil) == 200)
    #expect(PeriodScoring.billboard.points(rank: 2, places: 100, streams: nil) == 99)
    #expect(PeriodScoring.streams.points(rank: 3, places: 200, streams: 1_234_567) == 1_234_567)
    #expect(PeriodScoring.streams.points(rank: 3, places: 200, streams: nil) == 0)
    #expect(PeriodScoring.standard(everyEntryHasStreams: true) == .streams)
    #expect(PeriodScoring.standard(everyEntryHasStreams: false) == .root)
  }

  /// Equal points, then the peak decides; equal peaks, the weeks at peak; then weeks in the span;
  /// songs equal in all four share a rank and the next rank skips.
  @Test func tiesAreBrokenByPeakThenWeeksAtPeakThenWeeks() {
    // linear on 10 places: 11 − rank points.
    let placements = weeks([
      [(1, 1), (2, 2), (3, 3), (4, 3), (5, 5), (6, 6)],
      [(3, 1), (4, 1), (5, 5), (6, 6), (2, 9), (1, 10)],
      [(7, 4), (8, 4)],
    ])
    let standings = PeriodRanking.rank(placements, previous: [], scoring: .linear)
    let table = standings.map {
      [Int($0.song.rawValue), $0.rank, Int($0.points), $0.peak, $0.periodsAtPeak, $0.periods]
    }
    #expect(
      table == [
        // Songs 3 and 4: 8 + 10 = 18 each, peak 1, one week there, two weeks: a shared rank.
        [3, 1, 18, 1, 1, 2], [4, 1, 18, 1, 1, 2],
        // Song 5: 6 + 6 = 12, peak 5 twice, two weeks; song 6: 5 + 5 = 10.
        [5, 3, 12, 5, 2, 2],
        // Songs 1 and 2: 11 each; song 1 peaked at 1, song 2 at 2.
        [1, 4, 11, 1, 1, 2], [2, 5, 11, 2, 1, 2],
        [6, 6, 10, 6, 2, 2],
        // Songs 7 and 8 tie at 4 in week 3 only: 7 points each, shared rank 7.
        [7, 7, 7, 4, 1, 1], [8, 7, 7, 4, 1, 1],
      ])
  }

  /// Three songs of 21 points, each with peak 1: two weeks at number one beat one; of the two
  /// with one, four weeks in the span beat three.
  @Test func weeksAtPeakThenWeeksInTheSpanBreakATieOfPointsAndPeak() {
    // linear on 10 places (11 − rank). Song 1: 1, 1, 10 → 10 + 10 + 1. Song 2: 5, 6, 1 →
    // 6 + 5 + 10. Song 3: 7, 7, 8, 1 → 4 + 4 + 3 + 10.
    let placements = weeks([
      [(1, 1), (2, 5), (3, 7)],
      [(1, 1), (2, 6), (3, 7)],
      [(2, 1), (3, 8), (1, 10)],
      [(3, 1)],
    ])
    let standings = PeriodRanking.rank(placements, previous: [], scoring: .linear)
    #expect(standings.map(\.song.rawValue) == [1, 3, 2])
    #expect(standings.map(\.rank) == [1, 2, 3])
    #expect(standings.map { Int($0.points) } == [21, 21, 21])
    #expect(standings.map(\.periodsAtPeak) == [2, 1, 1])
    #expect(standings.map(\.periods) == [3, 4, 3])
  }

  @Test func thePeriodBeforeGivesPreviousRanksAndMovements() {
    let before = weeks([[(1, 1), (2, 2), (3, 3), (9, 4)]])
    let now = weeks([[(2, 1), (1, 2), (3, 3), (4, 4)]], firstWeek: 1)
    let standings = PeriodRanking.rank(now, previous: before, scoring: .root)
    #expect(standings.map(\.song.rawValue) == [2, 1, 3, 4])
    #expect(standings.map(\.previousRank) == [2, 1, 3, nil])
    #expect(standings.map(\.movement) == [.up(1), .down(1), .unchanged, .debut])
    #expect(standings.map(\.movement.marker) == ["▲1", "▼1", "–", "NEW"])
  }

  @Test func rootPointsOfTheSamePlacesInAnotherOrderAreEqual() {
    // 100/√1 + 100/√2 + 100/√3 is 228.44570503761733 in this order and 228.4457050376173 in the
    // order 1, 3, 2: the points compare equal all the same, and with the same peak, weeks at
    // peak and weeks the two songs share rank 1.
    let placements = weeks([[(1, 1), (2, 1)], [(1, 2), (2, 3)], [(1, 3), (2, 2)]])
    let standings = PeriodRanking.rank(placements, previous: [], scoring: .root)
    #expect(standings[0].points != standings[1].points)
    #expect(standings.map(\.rank) == [1, 1])
    #expect(standings.map(\.song.rawValue) == [1, 2])
  }

  @Test func aWeeklyChartsYearIsDecemberToNovemberOthersACalendarYear() throws {
    let weekly = PeriodSpan.year(1985, frequency: .weekly)
    #expect(weekly.from == (try date("1984-12-01")))
    #expect(weekly.to == (try date("1985-11-30")))
    #expect(weekly.year == 1985)
    #expect(weekly.days == 365)
    #expect(weekly.previous(frequency: .weekly) == .year(1984, frequency: .weekly))
    #expect(weekly.previous(frequency: .weekly).from == (try date("1983-12-01")))
    let daily = PeriodSpan.year(2024, frequency: .daily)
    #expect(daily.from == (try date("2024-01-01")))
    #expect(daily.to == (try date("2024-12-31")))
    #expect(daily.days == 366)
    #expect(PeriodSpan.year(2024, frequency: nil).from == (try date("2024-01-01")))
    #expect(PeriodSpan.year(holding: try date("1984-12-01"), frequency: .weekly) == 1985)
    #expect(PeriodSpan.year(holding: try date("1985-11-30"), frequency: .weekly) == 1985)
    #expect(PeriodSpan.year(holding: try date("1984-12-01"), frequency: .daily) == 1984)
    #expect(PeriodSpan.year(holding: try date("2024-12-31T23:00:00Z"), frequency: .hourly) == 2024)
    // The last second of the last day is in the span: an hourly chart's 23:00 is.
    let utc = try #require(TimeZone(identifier: "UTC"))
    #expect(daily.instants(in: utc).upperBound == (try date("2025-01-01")).secondsSince1970 - 1)
  }

  /// A span's days are the chart's days in its zone: Seoul's 2024-06-08 runs from 15:00 UTC the
  /// day before to 14:59:59 UTC.
  @Test func aSpansDaysAreTheChartsDaysInItsZone() throws {
    let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
    let span = PeriodSpan(from: try date("2024-06-08"), to: try date("2024-06-08"))
    let first = try date("2024-06-07T15:00:00Z").secondsSince1970
    let last = try date("2024-06-08T14:59:59Z").secondsSince1970
    #expect(span.instants(in: seoul) == first...last)
  }

  @Test func aSpanOfTwoDatesComparesWithTheSameNumberOfDaysBefore() throws {
    let span = PeriodSpan(from: try date("2024-03-01"), to: try date("2024-03-31"))
    #expect(span.days == 31)
    #expect(span.year == nil)
    let previous = span.previous(frequency: .weekly)
    #expect(previous.from == (try date("2024-01-30")))
    #expect(previous.to == (try date("2024-02-29")))
    #expect(previous.days == 31)
    // A time of day is dropped: the span is whole days.
    let timed = PeriodSpan(
      from: try date("2024-03-01T13:00:00Z"), to: try date("2024-03-01T15:00:00Z"))
    #expect(timed.from == (try date("2024-03-01")))
    #expect(timed.days == 1)
  }
}
