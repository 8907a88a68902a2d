import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// A chart cut at a local time (a chart app's weekly chart, every Saturday at 12:00 Korea time)
/// and billboard.py's year-end charts.
struct TimeZoneAndYearlyTests {
  /// The two weeks of the Korea-time chart, named by their local time.
  static let koreaWeeks: [(name: String, text: String)] = [
    (
      "app-weekly/2024-06-01T12-00.json",
      #"{"chart": "app-weekly", "entries": [{"rank": 1, "title": "Supernova", "artist": "aespa"},"#
        + #" {"rank": 2, "title": "How Sweet", "artist": "NewJeans"}]}"#
    ),
    (
      "app-weekly/2024-06-08T12-00.json",
      #"{"chart": "app-weekly", "entries": [{"rank": 1, "title": "How Sweet", "artist": "NewJeans"},"#
        + #" {"rank": 2, "title": "Supernova", "artist": "aespa"}]}"#
    ),
  ]

  static let seoul = ImportOptions(timeZone: TimeZone(identifier: "Asia/Seoul"))

  static func day(_ text: String) throws -> ChartDate { try ChartDate(iso8601: text) }

  /// The chart's zone as stored, and its snapshots' dates.
  static func stored(_ archive: Archive) throws -> (String?, [String]) {
    try archive.read { reader in
      (
        try reader.charts().first { $0.name == "app-weekly" }?.timeZone,
        try reader.snapshots(of: "app-weekly").map(\.chartDate.iso8601)
      )
    }
  }

  /// The conflict that refuses the Korea-time weeks imported with `options`, `nil` when they are
  /// imported or refused for another reason.
  static func conflict(importing options: ImportOptions, into archive: Archive) throws
    -> ArchiveError?
  {
    do {
      _ = try importFiles(koreaWeeks, into: archive, options: options)
    } catch ImportError.refused(let refused, _) {
      if case .conflict(let error) = refused.first?.reason { return error }
    }
    return nil
  }

  @Test func aDateNamesTheSnapshotOfThatDayInTheChartsZone() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    _ = try importFiles(Self.koreaWeeks, into: archive, options: Self.seoul)
    #expect(
      try Self.stored(archive)
        == ("Asia/Seoul", ["2024-06-01T03:00:00Z", "2024-06-08T03:00:00Z"]))
    let found = try archive.read {
      try $0.chartSnapshot(of: "app-weekly", at: .on(Self.day("2024-06-08")))
    }
    #expect(found.summary.chartDate.iso8601 == "2024-06-08T03:00:00Z")
    #expect(found.placements.map(\.weeksOnChart) == [2, 2])
    // The day before, in Seoul, has none: the nearest are given as before.
    #expect(
      throws: ArchiveError.noSuchSnapshot(
        chart: "app-weekly", chartDate: try Self.day("2024-06-07"),
        before: try Self.day("2024-06-01T03:00:00Z"), after: try Self.day("2024-06-08T03:00:00Z"))
    ) {
      try archive.read { try $0.snapshot(of: "app-weekly", at: .on(Self.day("2024-06-07"))) }
    }
  }

  @Test func aChartImportedWithoutAZoneRefusesOneAndKeepsItsSnapshots() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    _ = try importFiles(Self.koreaWeeks, into: archive)
    #expect(
      try Self.conflict(importing: Self.seoul, into: archive)
        == .timeZoneConflict(chart: "app-weekly", stored: nil, given: "Asia/Seoul"))
    #expect(try Self.stored(archive) == (nil, ["2024-06-01T12:00:00Z", "2024-06-08T12:00:00Z"]))
  }

  @Test func anotherZoneIsRefusedAndTheSameFileWithoutOneIsTheSameSnapshot() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    _ = try importFiles(Self.koreaWeeks, into: archive, options: Self.seoul)
    let tokyo = ImportOptions(timeZone: TimeZone(identifier: "Asia/Tokyo"))
    #expect(
      try Self.conflict(importing: tokyo, into: archive)
        == .timeZoneConflict(chart: "app-weekly", stored: "Asia/Seoul", given: "Asia/Tokyo"))
    // Without a zone, the names' local times are read in the chart's: the same two snapshots.
    let again = try importFiles(Self.koreaWeeks, into: archive)
    #expect(again.unchanged == 2)
    #expect(again.imported == 0)
    #expect(
      try Self.stored(archive)
        == ("Asia/Seoul", ["2024-06-01T03:00:00Z", "2024-06-08T03:00:00Z"]))
  }

  @Test func aDayWithSeveralSnapshotsListsThemInTheChartsZone() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let hour = #"{"chart": "app-hourly", "entries": [{"rank": 1, "title": "A", "artist": "B"}]}"#
    _ = try importFiles(
      [
        ("app-hourly/2024-06-08T00-00.json", hour), ("app-hourly/2024-06-08T23-00.json", hour),
        ("app-hourly/2024-06-09T00-00.json", hour),
      ], into: archive, options: Self.seoul)
    #expect(
      throws: ArchiveError.severalSnapshotsOnDay(
        chart: "app-hourly", day: try Self.day("2024-06-08"), timeZone: "Asia/Seoul",
        chartDates: [try Self.day("2024-06-07T15:00:00Z"), try Self.day("2024-06-08T14:00:00Z")])
    ) {
      try archive.read { try $0.snapshot(of: "app-hourly", at: .on(Self.day("2024-06-08"))) }
    }
    #expect(
      try archive.read {
        try $0.snapshot(of: "app-hourly", at: .on(Self.day("2024-06-09"))).chartDate.iso8601
      } == "2024-06-08T15:00:00Z")
  }

  /// billboard.py's year-end chart of `year`: `date` null, entries without figures.
  static func yearEnd(_ year: Int, _ titles: [String]) -> (name: String, text: String) {
    let entries = titles.enumerated().map { index, title in
      #"{"artist": "\#(title) Band", "image": null, "rank": \#(index + 1), "title": "\#(title)"}"#
    }
    return (
      "hot-100-songs-\(year).json",
      #"{"date": null, "entries": [\#(entries.joined(separator: ", "))], "#
        + #""name": "hot-100-songs", "title": "Billboard Year-End Hot 100 Songs", "#
        + #""year": "\#(year)", "_max_retries": 5, "_timeout": 25}"#
    )
  }

  @Test func yearEndChartsAreYearlyAndMoveAgainstLastYear() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let report = try importFiles(
      [Self.yearEnd(2022, ["A", "B", "C"]), Self.yearEnd(2023, ["B", "D", "A"])], into: archive)
    #expect(report.imported == 2)
    #expect(report.notes.isEmpty)
    let (chart, latest) = try archive.read { reader in
      (
        try reader.charts().first { $0.name == "hot-100-songs" },
        try reader.chartSnapshot(of: "hot-100-songs", at: .latest)
      )
    }
    #expect(chart?.frequency == .yearly)
    #expect(chart?.firstChartDate?.iso8601 == "2022-12-31")
    #expect(latest.summary.chartDate.iso8601 == "2023-12-31")
    #expect(latest.placements.map(\.previousRank) == [2, nil, 1])
    #expect(latest.placements.map(\.movement) == [.up(1), .debut, .down(2)])
    #expect(latest.placements.map(\.weeksOnChart) == [2, 1, 2])
  }

  /// A daily chart cut at 00:30 in Seoul: its snapshot of 2024-06-08 is at 15:30 UTC the day
  /// before, its 2024-06-09 one at 15:30 UTC on the 8th.
  static let seoulNights: [(name: String, text: String)] = [
    (
      "app-daily/2024-06-08T00-30.json",
      #"{"chart": "app-daily", "entries": [{"rank": 1, "title": "How Sweet", "artist": "NewJeans","#
        + #" "weeks_on_chart": 1}, {"rank": 2, "title": "Supernova", "artist": "aespa","#
        + #" "weeks_on_chart": 1}]}"#
    ),
    (
      "app-daily/2024-06-09T00-30.json",
      #"{"chart": "app-daily", "entries": [{"rank": 1, "title": "Supernova", "artist": "aespa","#
        + #" "weeks_on_chart": 2}, {"rank": 2, "title": "How Sweet", "artist": "NewJeans","#
        + #" "weeks_on_chart": 2}]}"#
    ),
  ]

  /// Records, by-artist leaderboards, periods and audits take a span's dates as the chart's days
  /// in its zone, as `show` does: `--from 2024-06-08 --to 2024-06-08` is the snapshot of June 8 in Seoul
  /// (at 15:30 UTC on the 7th), not the one cut at 15:30 UTC on the 8th (June 9 in Seoul).
  @Test func aSpanOfDatesIsTheChartsDaysInItsZone() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    _ = try importFiles(Self.seoulNights, into: archive, options: Self.seoul)
    let june8 = try Self.day("2024-06-08")
    let (stays, artists, period, audit) = try archive.read { reader in
      (
        try reader.leaderboard(
          .weeksAtNumberOne, of: "app-daily", span: RecordSpan(from: june8, to: june8)),
        try reader.artistLeaderboard(.numberOnes, chart: "app-daily", from: june8, to: june8),
        try reader.periodChart(of: "app-daily", span: PeriodSpan(from: june8, to: june8)),
        try reader.audit(of: "app-daily", from: june8, to: june8)
      )
    }
    #expect(
      stays.rows.map { row -> String in
        guard case .song(let song) = row.record.holder else { return "an artist" }
        return "\(song.title) \(row.record.figure) \(row.record.firstDate.iso8601)"
      } == ["How Sweet 1 2024-06-07T15:30:00Z"])
    #expect(artists.rows.map { "\($0.artist.name) \($0.figure)" } == ["NewJeans 1"])
    #expect(period.snapshotCount == 1)
    #expect(period.songs.map(\.title) == ["How Sweet", "Supernova"])
    // The two published weeks on chart of June 8's snapshot, both agreeing.
    #expect(
      audit.agreements.first { $0.figure == .weeksOnChart }
        == FigureAgreement(figure: .weeksOnChart, compared: 2, agreeing: 2))
  }

  /// `songs split --from DATE` of a zoned chart starts at that day in the chart's zone: the Seoul
  /// chart's June 9 snapshot (at 15:30 UTC on the 8th) goes to the new song, June 8's stays.
  @Test func aSplitStartsAtItsDayInTheChartsZone() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    _ = try importFiles(Self.seoulNights, into: archive, options: Self.seoul)
    func song(on day: String) throws -> SongID? {
      try archive.read { reader in
        try reader.chartSnapshot(of: "app-daily", at: .on(Self.day(day))).placements
          .first { $0.entry.title == "How Sweet" }?.song
      }
    }
    let before = try #require(try song(on: "2024-06-08"))
    let decision = try archive.correct(
      .split(before, chart: "app-daily", from: try Self.day("2024-06-09")))
    #expect(decision.songs.first?.map(\.chartDate.iso8601) == ["2024-06-08T15:30:00Z"])
    #expect(try song(on: "2024-06-08") == before)
    let after = try song(on: "2024-06-09")
    #expect(after != nil && after != before)
  }
}
