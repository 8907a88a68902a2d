import Foundation
import Testing

/// `period` on Sample-data and on a made-up chart with streams: exact tables, the period before,
/// the units of a daily chart, an empty year and the usage errors.
struct PeriodCommandTests {
  /// An archive of Sample-data, for each test.
  let sample: (folder: TemporaryFolder, path: String)

  init() throws { sample = try sampleArchive() }

  private func period(_ arguments: [String]) throws -> Run {
    try chartArchive(["period"] + arguments + ["--db", sample.path])
  }

  /// Sample-data's four Hot 100 weeks (2023-12-23 to 2024-01-13) are all in Billboard's 2024
  /// (charts dated from 2023-12-01); 2023 holds none, so every song is new.
  @Test func aYearOfSampleDataRanksByRootPoints() throws {
    let run = try period(["hot-100", "--year", "2024", "--limit", "6", "--format", "csv"])
    #expect(run.status == 0)
    // All I Want For Christmas Is You: 1, 1, 2 → 100 + 100 + 70.7; Lovin On Me: 6, 6, 9, 1 →
    // 40.8 + 40.8 + 33.3 + 100.
    #expect(
      run.output.replacingOccurrences(of: "\r\n", with: "\n") == """
        chart,from,to,scoring,rank,movement,previous_rank,title,artist,points,peak,at_peak,periods
        hot-100,2023-12-01,2024-11-30,root,1,new,,All I Want For Christmas Is You,Mariah Carey,271,1,2,3
        hot-100,2023-12-01,2024-11-30,root,2,new,,Rockin' Around The Christmas Tree,Brenda Lee,241,1,1,3
        hot-100,2023-12-01,2024-11-30,root,3,new,,Lovin On Me,Jack Harlow,215,1,1,4
        hot-100,2023-12-01,2024-11-30,root,4,new,,Jingle Bell Rock,Bobby Helms,173,3,3,3
        hot-100,2023-12-01,2024-11-30,root,5,new,,Last Christmas,Wham!,150,4,3,3
        hot-100,2023-12-01,2024-11-30,root,6,new,,Cruel Summer,Taylor Swift,145,2,1,4

        """)
    let table = try period(["hot-100", "--year", "2024", "--limit", "1"])
    #expect(
      table.output == """
        hot-100 · 2024 (charts dated 2023-12-01 to 2024-11-30): 4 weeks, 154 songs, scored by root
        The archive's own ranking from the charts it holds, not a publisher's year-end chart.

        RANK  MOVE  PREV  TITLE                            ARTIST        POINTS  PEAK  AT PEAK  WKS
           1  NEW         All I Want For Christmas Is You  Mariah Carey     271     1        2    3

        """)
  }

  /// 2024-01-06 to 2024-01-13 is 8 days: the period before is 2023-12-29 to 2024-01-05, which
  /// holds the chart of 2023-12-30, whose ranks the songs moved from.
  @Test func aSpanOfTwoDatesMovesFromTheSameNumberOfDaysBefore() throws {
    let run = try period([
      "hot-100", "--from", "2024-01-06", "--to", "2024-01-13", "--limit", "6", "--format", "json",
    ])
    let document = try json(run.output)
    #expect(document["previous_from"] as? String == "2023-12-29")
    #expect(document["previous_to"] as? String == "2024-01-05")
    #expect(document["snapshots"] as? Int == 2)
    #expect(document["previous_snapshots"] as? Int == 1)
    #expect(document["year"] is NSNull)
    let entries = try #require(document["entries"] as? [[String: Any]])
    #expect(
      entries.map { "\($0["rank"]!) \($0["movement"]!) \($0["previous_rank"]!) \($0["title"]!)" }
        == [
          "1 up 6 Lovin On Me", "2 unchanged 2 Rockin' Around The Christmas Tree",
          "3 up 18 Cruel Summer", "4 up 19 Greedy", "5 down 1 All I Want For Christmas Is You",
          "6 up 21 Paint The Town Red",
        ])
    // Lovin On Me: 9, then 1 → 33.3 + 100. All I Want For Christmas Is You: 2, then off.
    #expect(entries.map { $0["points"] as? Int } == [133, 100, 94, 78, 71, 69])
    #expect(entries.map { $0["periods"] as? Int } == [2, 1, 2, 2, 1, 2])
  }

  /// A daily chart counts days, and its year is the calendar year.
  @Test func aDailyChartCountsDays() throws {
    let run = try period(["app-daily", "--year", "2024", "--limit", "2"])
    #expect(
      run.output == """
        app-daily · 2024 (charts dated 2024-01-01 to 2024-12-31): 5 days, 12 songs, scored by root
        The archive's own ranking from the charts it holds, not a publisher's year-end chart.

        RANK  MOVE  PREV  TITLE               ARTIST           POINTS  PEAK  AT PEAK  DAYS
           1  NEW         밤하늘 (Night Sky)  LUNAR               399     1        2     5
           2  NEW         Café de Flore       Élodie Marchand     386     1        2     5

        """)
  }

  @Test func aYearWithoutSnapshotsSaysSo() throws {
    let run = try period(["hot-100", "--year", "2023"])
    #expect(run.status == 0)
    #expect(
      run.output == """
        hot-100 · 2023 (charts dated 2022-12-01 to 2023-11-30): 0 weeks, 0 songs, scored by root
        The archive's own ranking from the charts it holds, not a publisher's year-end chart.

          (none)

        No snapshot of hot-100 is dated in this span.

        """)
  }

  /// Where every entry has streams, the summed streams rank the songs; root over the same two
  /// weeks ties the two songs that were each number one once and third once.
  @Test func streamsRankAChartThatPublishesThem() throws {
    let folder = try TemporaryFolder()
    let header =
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,weeks_on_chart,streams\n"
    _ = try folder.write(
      "regional-global-weekly-2024-03-14.csv",
      header + "1,spotify:track:0aQ2bPxVt3kL9mN1rS5uW7,Mira Solen,Lanterns,L,1,-1,1,500\n"
        + "2,spotify:track:1bR3cQyWu4lM0nO2sT6vX8,Kairos,Gravity,L,2,-1,1,400\n"
        + "3,spotify:track:2cS4dRzXv5mN1oP3tU7wY9,Lunar,Night Sky,L,3,-1,1,300\n")
    _ = try folder.write(
      "regional-global-weekly-2024-03-21.csv",
      header + "1,spotify:track:2cS4dRzXv5mN1oP3tU7wY9,Lunar,Night Sky,L,1,3,2,900\n"
        + "2,spotify:track:1bR3cQyWu4lM0nO2sT6vX8,Kairos,Gravity,L,2,2,2,350\n"
        + "3,spotify:track:0aQ2bPxVt3kL9mN1rS5uW7,Mira Solen,Lanterns,L,1,1,2,100\n")
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let imported = try chartArchive([
      "import", folder.url.path, "--chart", "global", "--db", archive, "--quiet",
    ])
    try #require(imported.status == 0, "\(imported.error)")
    let span = ["period", "global", "--from", "2024-03-14", "--to", "2024-03-21", "--db", archive]
    let streams = try chartArchive(span + ["--format", "csv"])
    #expect(
      streams.output.replacingOccurrences(of: "\r\n", with: "\n") == """
        chart,from,to,scoring,rank,movement,previous_rank,title,artist,points,peak,at_peak,periods
        global,2024-03-14,2024-03-21,streams,1,new,,Night Sky,Lunar,1200,1,1,2
        global,2024-03-14,2024-03-21,streams,2,new,,Gravity,Kairos,750,2,2,2
        global,2024-03-14,2024-03-21,streams,3,new,,Lanterns,Mira Solen,600,1,1,2

        """)
    let root = try chartArchive(span + ["--scoring", "root", "--format", "csv"])
    #expect(
      root.output.replacingOccurrences(of: "\r\n", with: "\n") == """
        chart,from,to,scoring,rank,movement,previous_rank,title,artist,points,peak,at_peak,periods
        global,2024-03-14,2024-03-21,root,1,new,,Lanterns,Mira Solen,158,1,1,2
        global,2024-03-14,2024-03-21,root,1,new,,Night Sky,Lunar,158,1,1,2
        global,2024-03-14,2024-03-21,root,3,new,,Gravity,Kairos,141,2,2,2

        """)
  }

  @Test func usageErrorsNameWhatIsWrong() throws {
    let cases: [([String], String)] = [
      (["hot-100"], "give --year YYYY, or --from DATE and --to DATE"),
      (["hot-100", "--year", "85"], "--year: '85' is not a year (YYYY)"),
      (["hot-100", "--year", "2024", "--from", "2024-01-01"], "give --year or --from and --to"),
      (
        ["hot-100", "--from", "2024-02-01", "--to", "2024-01-02"],
        "--from 2024-02-01 is after --to 2024-01-02: give the earlier date first"
      ),
      (
        ["hot-100", "--year", "2024", "--scoring", "best"],
        "unknown scoring 'best' (expected root, linear, billboard, streams)"
      ),
    ]
    for (arguments, message) in cases {
      let run = try period(arguments)
      #expect(run.status == 64, "\(arguments)")
      #expect(run.error.hasPrefix("Error: \(message)\n"), "\(arguments): \(run.error)")
    }
  }
}
