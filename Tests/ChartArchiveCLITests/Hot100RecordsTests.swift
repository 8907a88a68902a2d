import Foundation
import Testing

/// `records` on the real Hot 100: what a fan knows of it, and the same answers from the SQL views
/// of migration 13.
extension Hot100Tests {
  /// A leaderboard's rows from `records --format csv`: `rank title figure first last`, with
  /// `from→to` for a move.
  static func records(_ extra: [String] = [], kind: String) throws -> [String] {
    let run = try chartArchive(["records", "hot-100", "--db", archive, "--format", "csv"] + extra)
    #expect(run.status == 0)
    return run.output.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    .filter { $0[1] == kind }
    .map { row in
      var text = "\(row[3]) \(row[7]) \(row[4]) \(row[9])"
      if row[10] != row[9] { text += " \(row[10])" }
      if !row[11].isEmpty { text += " \(row[11])→\(row[12])" }
      return text
    }
  }

  /// Old Town Road's 19 weeks in a row at number one, then One Sweet Day's and Despacito's 16.
  @Test func oldTownRoadStayed19WeeksAtNumberOneThenOneSweetDayAndDespacito16() throws {
    _ = try Self.firstImport.get()
    #expect(
      try Self.records(["--limit", "3"], kind: "longest-stay-at-number-one") == [
        "1 Old Town Road 19 2019-04-13 2019-08-17", "2 One Sweet Day 16 1995-12-02 1996-03-16",
        "2 Despacito 16 2017-05-27 2017-09-09",
      ])
    // In all, over separate stays: A Bar Song (Tipsy) and Mariah Carey's Christmas song.
    #expect(
      try Self.records(["--limit", "3"], kind: "weeks-at-number-one") == [
        "1 All I Want For Christmas Is You 22 2019-12-21 2026-01-03",
        "2 Old Town Road 19 2019-04-13 2019-08-17", "2 A Bar Song (Tipsy) 19 2024-07-13 2024-11-30",
      ])
    // From June 2019, Old Town Road's stay counts its weeks from then only.
    #expect(
      try Self.records(
        ["--from", "2019-06-01", "--to", "2019-12-31", "--limit", "1"],
        kind: "longest-stay-at-number-one") == ["1 Old Town Road 12 2019-06-01 2019-08-17"])
    // The 1990s alone.
    #expect(
      try Self.records(
        ["--from", "1990-01-01", "--to", "1999-12-31", "--limit", "2"],
        kind: "longest-stay-at-number-one") == [
          "1 One Sweet Day 16 1995-12-02 1996-03-16",
          "2 I Will Always Love You 14 1992-11-28 1993-02-27",
        ])
  }

  @Test func theBiggestClimbIsME100To2AndTheFirstDebutAtNumberOneYouAreNotAlone() throws {
    _ = try Self.firstImport.get()
    #expect(
      try Self.records(["--limit", "3"], kind: "biggest-climb") == [
        "1 ME! 98 2019-05-11 100→2", "2 My Life Would Suck Without You 96 2009-02-07 97→1",
        "3 Womanizer 95 2008-10-25 96→1",
      ])
    #expect(
      try Self.records(["--limit", "2"], kind: "highest-debut") == [
        "1 You Are Not Alone 1 1995-09-02", "1 Fantasy 1 1995-09-30",
      ])
    #expect(
      try Self.records(["--limit", "3"], kind: "longest-road-to-number-one") == [
        "1 Heat Waves 59 2021-01-16 2022-03-12",
        "2 Rockin' Around The Christmas Tree 54 1960-12-12 2023-12-09",
        "3 All I Want For Christmas Is You 35 2000-01-08 2019-12-21",
      ])
    #expect(
      try Self.records(["--limit", "3"], kind: "weeks-on-chart") == [
        "1 Lose Control 112 2023-08-26 2025-10-18", "2 Heat Waves 91 2021-01-16 2022-10-22",
        "3 Blinding Lights 90 2019-12-14 2021-09-04",
      ])
  }

  /// The by-artist leaderboards follow the songs': The Beatles' 20 number ones, Mariah Carey's
  /// 101 weeks at number one, Drake's 402 songs on the chart and 42 of them on one chart.
  @Test func theArtistLeaderboardsFollowTheSongs() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive(
      ["records", "hot-100", "--db", Self.archive, "--format", "csv", "--limit", "2"])
    let rows = run.output.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    .filter { $0[5] == "artist" }
    .map { "\($0[1]) \($0[2]) \($0[3]) \($0[8]) \($0[4]) \($0[9]) \($0[10])" }
    #expect(
      rows == [
        "artist-number-ones songs 1 The Beatles 20 1964-02-01 1970-06-20",
        "artist-number-ones songs 2 Mariah Carey 19 1990-08-04 2026-01-03",
        "artist-top-10s songs 1 Drake 90 2009-07-04 2026-07-18",
        "artist-top-10s songs 2 Taylor Swift 70 2008-08-30 2026-08-08",
        "artist-entries songs 1 Drake 402 2009-05-23 2026-08-08",
        "artist-entries songs 2 Taylor Swift 277 2006-09-23 2026-08-08",
        "artist-weeks-at-number-one weeks 1 Mariah Carey 101 1990-08-04 2026-01-03",
        "artist-weeks-at-number-one weeks 2 Rihanna 60 2006-05-13 2016-04-30",
        "artist-entries-at-once songs 1 Drake 42 2026-05-30 2026-05-30",
        "artist-entries-at-once songs 2 Morgan Wallen 37 2025-05-31 2025-05-31",
      ])
  }

  /// The by-artist leaderboards of the whole chart, which the import kept (`artist_totals`), are
  /// what adding up every entry gives (a span from 1958 on is added up from the entries): each
  /// one's top 100, with their dates.
  @Test func theArtistTotalsKeptAtImportAreWhatTheEntriesAddUpTo() throws {
    _ = try Self.firstImport.get()
    func artistRows(_ extra: [String]) throws -> [String] {
      let run = try chartArchive(
        ["records", "hot-100", "--db", Self.archive, "--format", "csv", "--limit", "100"] + extra)
      #expect(run.status == 0)
      return run.output.split(separator: "\r\n").filter { $0.contains(",artist,") }.map(String.init)
    }
    let kept = try artistRows([])
    #expect(kept.count >= 500)
    #expect(try artistRows(["--from", "1958-01-01"]) == kept)
    #expect(
      try rows(Self.archive, "SELECT count(*), sum(total) FROM artist_totals") == ["21738|62979"])
    // Every one of those rows, with its first and last snapshot.
    let check = try chartArchive(["check", "--db", Self.archive, "--format", "csv"])
    #expect(check.status == 0)
    #expect(check.output.contains("artist totals agree with the entries,ok,"))
  }

  /// Each leaderboard's top 10 from the library (`records`) is the top 10 the SQL views give,
  /// ordered as the library orders ties (by date, then song ID).
  @Test func theViewsGiveTheLeaderboardsTheLibraryGives() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive(["records", "hot-100", "--db", Self.archive, "--format", "csv"])
    let fields = run.output.split(separator: "\r\n").dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    for (kind, query) in Self.viewQueries {
      let library = fields.filter { $0[1] == kind }.map { "\($0[6])|\($0[4])" }
      #expect(library.count == 10, "\(kind)")
      #expect(try rows(Self.archive, query) == library, "\(kind)")
    }
  }

  /// Each leaderboard's top 10 from the views, as `song_id|figure`: what docs/schema.md shows.
  static let viewQueries: [(String, String)] = [
    (
      "weeks-at-number-one",
      "SELECT song_id, sum(weeks) AS total FROM number_one_stays WHERE chart = 'hot-100'"
        + " GROUP BY song_id ORDER BY total DESC, min(first_chart_date), song_id LIMIT 10"
    ),
    (
      "longest-stay-at-number-one",
      "SELECT song_id, weeks FROM number_one_stays WHERE chart = 'hot-100'"
        + " ORDER BY weeks DESC, first_chart_date, song_id LIMIT 10"
    ),
    (
      "weeks-on-chart",
      "SELECT song_id, weeks_on_chart FROM song_runs WHERE chart = 'hot-100'"
        + " ORDER BY weeks_on_chart DESC, first_chart_date, song_id LIMIT 10"
    ),
    (
      "longest-run",
      "SELECT song_id, weeks FROM chart_runs WHERE chart = 'hot-100'"
        + " ORDER BY weeks DESC, first_chart_date, song_id LIMIT 10"
    ),
    (
      "highest-debut",
      "SELECT song_id, rank FROM chart_debuts WHERE chart = 'hot-100'"
        + " ORDER BY rank, chart_date, song_id LIMIT 10"
    ),
    (
      "biggest-climb",
      "SELECT song_id, places_moved FROM chart_entries WHERE chart = 'hot-100'"
        + " AND places_moved > 0 ORDER BY places_moved DESC, chart_date, song_id LIMIT 10"
    ),
    (
      "biggest-fall",
      "SELECT song_id, -places_moved FROM chart_entries WHERE chart = 'hot-100'"
        + " AND places_moved < 0 ORDER BY places_moved, chart_date, song_id LIMIT 10"
    ),
    (
      "fastest-rise-to-number-one",
      "SELECT song_id, charts FROM rises_to_number_one WHERE chart = 'hot-100'"
        + " ORDER BY charts, number_one_chart_date, song_id LIMIT 10"
    ),
    (
      "longest-road-to-number-one",
      "SELECT song_id, charts FROM rises_to_number_one WHERE chart = 'hot-100'"
        + " ORDER BY charts DESC, number_one_chart_date, song_id LIMIT 10"
    ),
  ]
}
