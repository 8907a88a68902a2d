import Foundation
import Testing

/// The sample file of a source format, by name.
private func sample(_ name: String) -> String { "Tests/ChartFormatsTests/Samples/" + name }

/// Each source format's sample, imported from the command line into a new archive: every field it
/// stores comes back through `export` and `show --format json`, the movements it publishes are
/// checked against the derived ones, and importing it again finds nothing new.
struct SourceFormatsTests {
  /// A new archive with `paths` imported (successfully), and what the import printed.
  private func imported(_ paths: [String], options: [String] = []) throws -> (
    folder: TemporaryFolder, archive: String, run: Run
  ) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try chartArchive(["import"] + paths + options + ["--db", archive])
    #expect(run.status == 0)
    return (folder, archive, run)
  }

  /// Expects a second import of `paths` into `archive` to find nothing new.
  private func expectNothingNewOnReimport(
    _ paths: [String], options: [String] = [], into archive: String, snapshots: Int
  ) throws {
    let again = try chartArchive(["import"] + paths + options + ["--db", archive, "--quiet"])
    #expect(again.status == 0)
    #expect(
      again.output
        == (snapshots == 1
          ? "Nothing new: the snapshot was already"
          : "Nothing new: all \(snapshots) snapshots were already") + " in \(archive).\n")
  }

  /// The chart's snapshots exported as CSV, without the header, one string a row.
  private func exported(_ chart: String, from archive: String) throws -> [String] {
    let run = try chartArchive(["export", chart, "--format", "csv", "--db", archive])
    #expect(run.status == 0)
    return Array(run.output.components(separatedBy: "\r\n").dropFirst().dropLast())
  }

  /// One figure of each entry of `show CHART --format json`.
  private func shown(_ chart: String, _ key: String, in archive: String) throws -> [String] {
    let run = try chartArchive(["show", chart, "--format", "json", "--db", archive])
    let entries = try #require(try json(run.output)["entries"] as? [[String: Any]])
    return entries.map { entry in entry[key].map { "\($0)" } ?? "absent" }
  }

  @Test func spotifyChartsDownloadsImportExactly() throws {
    let paths = [
      sample("regional-global-weekly-2024-03-21.csv"), sample("regional-us-daily-2024-03-21.csv"),
    ]
    let (folder, archive, run) = try imported(paths)
    #expect(run.error == "")
    #expect(
      run.output.hasPrefix(
        "imported  regional-global-weekly 2024-03-21  5 entries  \(paths[0])\n"
          + "imported  regional-us-daily 2024-03-21  3 entries  \(paths[1])\n"))
    #expect(
      try exported("regional-global-weekly", from: archive) == [
        "regional-global-weekly,2024-03-21,1,2,1,6,Lanterns Over Lisbon,Mira Solen,,"
          + "spotify:track:0aQ2bPxVt3kL9mN1rS5uW7,61203455",
        "regional-global-weekly,2024-03-21,2,1,1,11,Gravity Well,\"KAIROS, Jun\",,"
          + "spotify:track:1bR3cQyWu4lM0nO2sT6vX8,58990127",
        "regional-global-weekly,2024-03-21,3,-,3,1,\"Slow Bloom, Fast Fade\",Ava Lindqvist,,"
          + "spotify:track:2cS4dRzXv5mN1oP3tU7wY9,40117002",
        "regional-global-weekly,2024-03-21,4,-,2,9,Echo Chamber,Parallel Lines,,"
          + "spotify:track:3dT5eSaYw6nO2pQ4uV8xZ0,38502219",
        "regional-global-weekly,2024-03-21,5,5,4,14,Paper Planes Again,The Quiet Hours,,"
          + "spotify:track:4eU6fTbZx7oP3qR5vW9yA1,37660318",
      ])
    #expect(
      try shown("regional-global-weekly", "movement", in: archive)
        == ["up", "down", "new", "re-entry", "unchanged"])
    #expect(
      try shown("regional-us-daily", "weeks_on_chart", in: archive) == ["74", "40", "1"])
    #expect(
      try chartArchive(["charts", "--db", archive]).output.components(separatedBy: "\n").dropFirst()
        .prefix(2) == [
          "regional-global-weekly  weekly             1  2024-03-21  2024-03-21",
          "regional-us-daily       daily              1  2024-03-21  2024-03-21",
        ])
    try expectNothingNewOnReimport(paths, into: archive, snapshots: 2)
    _ = folder
  }

  @Test func spotifyChartsSiteJSONImportsExactlyAndItsStatusesAreChecked() throws {
    let path = sample("spotify-charts-regional-gb-weekly.json")
    let (folder, archive, run) = try imported([path])
    // The sample's last entry says it moved up from 1 to 5.
    #expect(
      run.error
        == "warning: \(path): regional-gb-weekly 2024-03-21 rank 5 'Gravity Well': published"
        + " MOVED_UP, derived down 4\n"
        + "warning: 1 published trend disagrees with the derived movement\n")
    let image = "https://i.scdn.co/image/ab67616d00001e02"
    #expect(
      try exported("regional-gb-weekly", from: archive) == [
        "regional-gb-weekly,2024-03-21,1,3,1,8,Firstlight,Seo-yeon,\(image)f1a2b3c4d5e6f708192a3b4c,"
          + "spotify:track:6gW8hVdBz9qR5sT7xY1aC3,4518230,up: MOVED_UP",
        "regional-gb-weekly,2024-03-21,2,2,1,12,Neon Harbor (feat. Jun),\"Mira Solen, Jun\","
          + "\(image)a0b1c2d3e4f5061728394a5b,spotify:track:8iY0jXfDb1sT7uV9zA3cE5,4390117,unchanged: NO_CHANGE",
        "regional-gb-weekly,2024-03-21,3,-,3,1,밤하늘 (Night Sky),LUNAR,"
          + "\(image)b1c2d3e4f5a6071829304a5b,spotify:track:1lB3mAiGe4vW0xY2cD6fH8,3877402,debut: NEW_ENTRY",
        "regional-gb-weekly,2024-03-21,4,-,2,15,Café de Flore,Élodie Marchand,"
          + "\(image)c2d3e4f5a6b7081920314a5b,spotify:track:3nD5oCkIg6xY2zA4eF8hJ0,3501986,re-entry: RE_ENTRY",
        "regional-gb-weekly,2024-03-21,5,1,1,6,Gravity Well,KAIROS,"
          + "\(image)d3e4f5a6b7c8091a2b3c4d5e,spotify:track:1bR3cQyWu4lM0nO2sT6vX8,3412875,up: MOVED_UP",
      ])
    #expect(
      try shown("regional-gb-weekly", "movement", in: archive)
        == ["up", "unchanged", "new", "re-entry", "down"])
    try expectNothingNewOnReimport([path], into: archive, snapshots: 1)
    _ = folder
  }

  @Test func theUKChartImportsExactlyAndItsMarkersAreChecked() throws {
    let path = sample("uk-singles-chart-2024.csv")
    let (folder, archive, run) = try imported([path], options: ["--chart", "uk-singles"])
    #expect(run.error == "")
    #expect(
      try exported("uk-singles", from: archive) == [
        "uk-singles,2024-03-07,1,2,1,5,LANTERNS OVER LISBON,MIRA SOLEN,,,,",
        "uk-singles,2024-03-07,2,1,1,9,GRAVITY WELL,KAIROS FT JUN,,,,",
        "uk-singles,2024-03-07,3,-,3,1,\"SLOW BLOOM, FAST FADE\",AVA LINDQVIST,,,,debut: New",
        "uk-singles,2024-03-07,4,4,2,12,PAPER PLANES AGAIN,THE QUIET HOURS,,,,",
        "uk-singles,2024-03-14,1,2,1,10,GRAVITY WELL,KAIROS FT JUN,,,,",
        "uk-singles,2024-03-14,2,1,1,6,LANTERNS OVER LISBON,MIRA SOLEN,,,,",
        "uk-singles,2024-03-14,3,-,2,7,ECHO CHAMBER,PARALLEL LINES,,,,re-entry: RE",
        "uk-singles,2024-03-14,4,3,3,2,\"SLOW BLOOM, FAST FADE\",AVA LINDQVIST,,,,",
        "uk-singles,2024-03-14,5,-,5,1,SALT WATER,NADIA RAHIMI,,,,debut: New",
      ])
    #expect(
      try shown("uk-singles", "movement", in: archive)
        == ["up", "down", "re-entry", "down", "new"])
    try expectNothingNewOnReimport(
      [path], options: ["--chart", "uk-singles"], into: archive, snapshots: 2)
    _ = folder
  }

  @Test func aUKChartMarkerThatTheArchiveContradictsIsAWarning() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
      "uk.csv",
      """
      chart_date,chart_position,chart_artist,chart_title,chart_movement,chart_peak,chart_weeks
      7/3/2024,1,A,X,New,1,1
      14/3/2024,1,A,X,New,1,2
      14/3/2024,2,B,Y,RE,2,1

      """)
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try chartArchive(["import", path, "--chart", "uk", "--db", archive, "--quiet"])
    #expect(run.status == 0)
    // X was on the chart the week before: back, not new; Y never was, and its one week says so.
    #expect(
      run.error
        == "warning: \(path): uk 2024-03-14 rank 1 'X': published New, derived re-entry\n"
        + "warning: \(path): uk 2024-03-14 rank 2 'Y': published RE, derived new\n"
        + "warning: 2 published trends disagree with the derived movement\n")
  }

  @Test func aLastFMWeekImportsExactly() throws {
    let path = sample("lastfm-weekly-chart.json")
    let (folder, archive, run) = try imported([path], options: ["--chart", "lastfm-quiethours"])
    #expect(run.error == "")
    #expect(
      run.output.hasPrefix(
        "imported  lastfm-quiethours 2024-03-17T12:00:00Z  3 entries  \(path)\n"))
    let images = "https://lastfm.freetls.fastly.net/i/u/300x300/"
    let music = "https://www.last.fm/music/"
    #expect(
      try exported("lastfm-quiethours", from: archive) == [
        "lastfm-quiethours,2024-03-17T12:00:00Z,1,,,,Lanterns Over Lisbon,Mira Solen,"
          + "\(images)4a1b2c3d4e5f60718293a4b5c6d7e8f9.jpg,\(music)Mira+Solen/_/Lanterns+Over+Lisbon,23",
        "lastfm-quiethours,2024-03-17T12:00:00Z,2,,,,Café de Flore,Élodie Marchand,,"
          + "\(music)%C3%89lodie+Marchand/_/Caf%C3%A9+de+Flore,17",
        "lastfm-quiethours,2024-03-17T12:00:00Z,3,,,,Gravity Well,KAIROS feat. Jun,"
          + "\(images)5b2c3d4e5f60718293a4b5c6d7e8f9a0.jpg,\(music)KAIROS+feat.+Jun/_/Gravity+Well,9",
      ])
    #expect(try shown("lastfm-quiethours", "streams", in: archive) == ["23", "17", "9"])
    #expect(
      try chartArchive(["charts", "--db", archive]).output.components(separatedBy: "\n")[1]
        == "lastfm-quiethours  weekly             1  2024-03-17T12:00:00Z  2024-03-17T12:00:00Z")
    try expectNothingNewOnReimport(
      [path], options: ["--chart", "lastfm-quiethours"], into: archive, snapshots: 1)
    _ = folder
  }

  @Test func kworbDaysImportExactlyAndTheirMovementsAreCheckedFromTheSecond() throws {
    let first = sample("kworb-global-daily-2024-03-21.csv")
    let second = sample("kworb-global-daily-2024-03-22.html")
    let (folder, archive, run) = try imported(
      [first, second], options: ["--chart", "kworb-global-daily"])
    // kworb publishes no previous rank: on the chart's first day the archive cannot tell how an
    // entry moved, and nothing is checked; on the second, every P+ agrees.
    #expect(run.error == "")
    #expect(
      try exported("kworb-global-daily", from: archive) == [
        "kworb-global-daily,2024-03-21,1,,1,41,Lanterns Over Lisbon,Mira Solen,,,6203455,unchanged: =",
        "kworb-global-daily,2024-03-21,2,,1,75,Gravity Well (w/ Jun),KAIROS,,,5890127,up 3: +3",
        "kworb-global-daily,2024-03-21,3,,3,1,Slow Bloom - Acoustic,Ava Lindqvist,,,4011700,debut: NEW",
        "kworb-global-daily,2024-03-21,4,,2,98,Paper Planes Again,The Quiet Hours,,,3850221,down 2: -2",
        "kworb-global-daily,2024-03-21,5,,4,12,Echo Chamber,Parallel Lines,,,3766031,re-entry: RE",
        "kworb-global-daily,2024-03-21,6,,5,3,Salt Water,Nadia Rahimi,,,3502118,down 1: -1",
        "kworb-global-daily,2024-03-22,1,,1,76,Gravity Well (w/ Jun),KAIROS,,,5990127,up 1: +1",
        "kworb-global-daily,2024-03-22,2,,1,42,Lanterns Over Lisbon,Mira Solen,,,5903455,down 1: -1",
        "kworb-global-daily,2024-03-22,3,,3,2,Slow Bloom - Acoustic,Ava Lindqvist,,,4011700,unchanged: =",
        "kworb-global-daily,2024-03-22,4,,4,4,Salt Water,Nadia Rahimi,,,3902118,up 2: +2",
        "kworb-global-daily,2024-03-22,5,,4,13,Echo Chamber,Parallel Lines,,,3766031,unchanged: =",
        "kworb-global-daily,2024-03-22,6,,2,30,Run It Back,Tomo & The Tides,,,3100000,re-entry: RE",
      ])
    #expect(
      try shown("kworb-global-daily", "movement", in: archive)
        == ["up", "down", "unchanged", "up", "unchanged", "re-entry"])
    try expectNothingNewOnReimport(
      [first, second], options: ["--chart", "kworb-global-daily"], into: archive, snapshots: 2)
    // A third day whose P+ is off by a place.
    let third = try folder.write(
      "kworb-global-daily-2024-03-23.csv",
      """
      Pos,P+,Artist and Title,Days,Pk,(x?),Streams,Streams+,7Day,7Day+,Total
      1,=,KAIROS - Gravity Well (w/ Jun),77,1,(x32),"5,990,000",,,,
      2,+1,Tomo & The Tides - Run It Back,31,2,,"5,000,000",,,,

      """)
    let next = try chartArchive([
      "import", third, "--chart", "kworb-global-daily", "--db", archive, "--quiet",
    ])
    #expect(next.status == 0)
    // Run It Back climbed from 6 to 2: four places, not one.
    #expect(
      next.error
        == "warning: \(third): kworb-global-daily 2024-03-23 rank 2 'Run It Back': published +1,"
        + " derived up 4\n"
        + "warning: 1 published trend disagrees with the derived movement\n")
  }

  @Test func applesPagesImportedTogetherAreOneChart() throws {
    let pages = [
      sample("apple-music-most-played-2024-03-21-page-1.json"),
      sample("apple-music-most-played-2024-03-21-page-2.json"),
    ]
    let (folder, archive, run) = try imported(pages, options: ["--chart", "apple-music-us"])
    #expect(run.error == "")
    #expect(
      run.output.hasPrefix(
        "imported  apple-music-us 2024-03-21  25 entries  \(pages[0]), \(pages[1])\n"))
    let rows = try exported("apple-music-us", from: archive)
    let artwork = "https://is1-ssl.mzstatic.com/image/thumb/Music126/v4/"
    #expect(rows.count == 25)
    let album = "https://music.apple.com/us/album/"
    let expected: [String] = [
      "apple-music-us,2024-03-21,1,,,,Lanterns Over Lisbon,Mira Solen,\(artwork)00/00/00/cover1.jpg"
        + "/3000x3000bb.jpg,\(album)lanterns-over-lisbon/1600000000?i=1700000000,,QZXYZ2400001",
      "apple-music-us,2024-03-21,20,,,,Open Roads,Dario Mendes,\(artwork)85/f7/27/cover20.jpg"
        + "/3000x3000bb.jpg,\(album)open-roads/1600000019?i=1700150461,,QZXYZ2400020",
      "apple-music-us,2024-03-21,21,,,,Small Hours,Wren Adeyemi,\(artwork)8c/04/44/cover21.jpg"
        + "/3000x3000bb.jpg,\(album)small-hours/1600000020?i=1700158380,,QZXYZ2400021",
      "apple-music-us,2024-03-21,25,,,,Last Light,Nova Reyes,\(artwork)a8/38/b8/cover25.jpg"
        + "/3000x3000bb.jpg,\(album)last-light/1600000024?i=1700190056,,QZXYZ2400025",
    ]
    // Each song's ISRC in the export's `isrc` column.
    #expect([rows[0], rows[19], rows[20], rows[24]] == expected)
    #expect(
      try chartArchive(["snapshots", "apple-music-us", "--db", archive]).output
        == "CHART DATE  ENTRIES  SOURCE\n2024-03-21       25  \(pages[0])\n")
    try expectNothingNewOnReimport(
      pages, options: ["--chart", "apple-music-us"], into: archive, snapshots: 1)
    // The first page alone: the chart's first 20 entries, and a warning that it goes on.
    let alone = folder.url.appendingPathComponent("alone.sqlite").path
    let first = try chartArchive([
      "import", pages[0], "--chart", "apple-music-us", "--db", alone, "--quiet",
    ])
    #expect(first.status == 0)
    #expect(
      first.error
        == "warning: apple-music-us 2024-03-21: the chart goes on after entry 20, on a page not"
        + " among the files imported (offset 20, the next of \(pages[0])); its first 20 entries are"
        + " stored\n")
    // The second page alone cannot be placed without the first.
    let second = try chartArchive([
      "import", pages[1], "--chart", "apple-music-us", "--db", alone, "--quiet",
    ])
    #expect(second.status == 65)
    #expect(
      second.error
        == "\(pages[1]): entries 21 to 25 of chart 'apple-music-us' of 2024-03-21: its entries 1 to"
        + " 20 are on a page not among the files imported (import every page of a chart together)\n"
        + "Error: 1 of 1 file could not be imported; nothing was stored\n")
  }

  /// The runs of a song's entries, as `history --format json` gives them, for a query that finds
  /// one song.
  private func runs(of query: [String], in archive: String) throws -> [Int] {
    let run = try chartArchive(["history"] + query + ["--format", "json", "--db", archive])
    #expect(run.status == 0, "\(run.error)")
    let recordings = try #require(try json(run.output)["recordings"] as? [[String: Any]])
    let charts = try #require(recordings.first?["charts"] as? [[String: Any]])
    let entries = try #require(charts.first?["entries"] as? [[String: Any]])
    return entries.compactMap { $0["run"] as? Int }
  }

  /// The agreement of each figure of `audit CHART --format json`, as `figure compared agreeing`,
  /// and the disagreements per cause.
  private func audited(_ chart: String, in archive: String) throws -> (
    agreement: [String], causes: [String: Int]
  ) {
    let run = try chartArchive(["audit", chart, "--summary", "--format", "json", "--db", archive])
    #expect(run.status == 0)
    let audit = try json(run.output)
    let agreement = try #require(audit["agreement"] as? [[String: Any]]).map {
      "\($0["figure"] ?? "") \($0["compared"] ?? "") \($0["agreeing"] ?? "")"
    }
    var causes: [String: Int] = [:]
    for cause in try #require(audit["causes"] as? [[String: Any]]) {
      causes[cause["cause"] as? String ?? ""] = cause["disagreements"] as? Int
    }
    return (agreement, causes)
  }

  @Test func theHotStuffDatasetImportsWithItsRunNumbersAsASecondOracle() throws {
    // TidyTuesday's spelling for seven weeks, data.world's for the two after them.
    let paths = [sample("hot-stuff-billboard.csv"), sample("hot-stuff-data-world.csv")]
    let (folder, archive, run) = try imported(paths)
    #expect(run.error == "")
    #expect(
      run.output.hasSuffix(": 9 new snapshots, 0 replaced, 0 unchanged; 36 entries stored.\n"))
    let export = try chartArchive([
      "export", "hot-100", "2020-02-08", "2020-02-29", "--format", "csv", "--db", archive,
    ])
    #expect(
      export.output.components(separatedBy: "\r\n") == [
        "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,image_url,"
          + "song_url,streams,run",
        "hot-100,2020-02-08,1,1,1,6,Neon Harbor,The Lanterns,,,,1",
        "hot-100,2020-02-08,2,-,2,4,Slow Train,The Ardens,,,,3",
        "hot-100,2020-02-08,3,2,2,5,Hold On,Nadia Rahimi,,,,2",
        "hot-100,2020-02-08,4,3,2,6,Hold On,Mira Solen,,,,1",
        "hot-100,2020-02-29,1,2,1,9,Hold On,Mira Solen,,,,1",
        "hot-100,2020-02-29,2,1,1,7,Slow Train,The Ardens,,,,3",
        "hot-100,2020-02-29,3,4,3,2,Salt Water,Gravity Well,,,,1",
        "hot-100,2020-02-29,4,-,1,8,Neon Harbor,The Lanterns,,,,2", "",
      ])
    #expect(try shown("hot-100", "run", in: archive) == ["1", "3", "1", "2"])
    #expect(try shown("hot-100", "movement", in: archive) == ["up", "down", "up", "re-entry"])
    // Every run number agrees with the archive's: the song of three runs, and the title of two
    // songs, one staying on while the other re-enters (2020-02-01).
    let audit = try audited("hot-100", in: archive)
    #expect(
      audit.agreement == [
        "previous_rank 36 36", "peak_position 36 36", "weeks_on_chart 36 36", "run 36 36",
        "movement 0 0",
      ])
    #expect(audit.causes.values.allSatisfy { $0 == 0 })
    #expect(try runs(of: ["slow train"], in: archive) == [1, 1, 2, 3, 3, 3, 3])
    #expect(
      try runs(of: ["hold on", "--artist", "mira solen"], in: archive)
        == Array(repeating: 1, count: 9))
    #expect(try runs(of: ["hold on", "--artist", "nadia rahimi"], in: archive) == [1, 1, 1, 2, 2])
    let week = try chartArchive([
      "show", "hot-100", "2020-02-01", "--format", "csv", "--db", archive,
    ])
    #expect(week.output.contains(",2,re-entry,,2,4,,Hold On,Nadia Rahimi,,,published,2,false,"))
    #expect(week.output.contains(",3,down,2,2,5,,Hold On,Mira Solen,,,published,1,false,"))
    let history = try chartArchive(["history", "hold on", "--artist", "nadia", "--db", archive])
    #expect(
      history.output.contains(
        """
        CHART DATE  RANK  MOVE  LAST  PEAK  WKS  RUN
        2020-01-04     4  NEW            4    1    1
        2020-01-11     4  –        4     4    2    1
        2020-01-18     3  ▲1       4     3    3    1
        2020-02-01     2  RE             2    4    2
        2020-02-08     3  ▼1       2     2    5    2
        """))
    try expectNothingNewOnReimport(paths, into: archive, snapshots: 9)
    // The run numbers come back from an export, in JSON and in CSV.
    for format in ["json", "csv"] {
      let exported = try chartArchive(["export", "hot-100", "--format", format, "--db", archive])
      let file = try folder.write("hot-100.\(format)", exported.output)
      let (again, copy, _) = try imported([file], options: ["--frequency", "weekly"])
      #expect(
        try chartArchive(["export", "hot-100", "--format", format, "--db", copy]).output
          == exported.output)
      #expect(try audited("hot-100", in: copy).agreement[3] == "run 36 36")
      _ = again
    }
  }

  @Test func hotStuffWeeksWithoutTheFirstRunsAreASourceGapAndTheSourcesRunsAreGiven() throws {
    let (folder, archive, _) = try imported([sample("hot-stuff-data-world.csv")])
    defer { _ = folder }
    let audit = try audited("hot-100", in: archive)
    #expect(
      audit.agreement == [
        "previous_rank 8 5", "peak_position 8 7", "weeks_on_chart 8 2", "run 8 4", "movement 0 0",
      ])
    // Every disagreement (of the 14, the 4 of runs) is the weeks the archive lacks.
    #expect(audit.causes["source gap"] == 14)
    #expect(audit.causes.filter { $0.key != "source gap" }.values.allSatisfy { $0 == 0 })
    // Slow Train's third run and Neon Harbor's second: the source's numbers are given, the
    // archive's own beside them.
    #expect(try shown("hot-100", "run", in: archive) == ["1", "3", "1", "2"])
    #expect(try shown("hot-100", "archive_run", in: archive) == ["<null>", "1", "<null>", "1"])
    #expect(try shown("hot-100", "partial_run", in: archive) == ["1", "1", "0", "1"])
    let history = try chartArchive(["history", "slow train", "--db", archive])
    #expect(
      history.output.contains(
        """
        CHART DATE  RANK  MOVE  LAST  PEAK  WKS  RUN
        2020-02-22     1  –        1     1   6*   3*
        2020-02-29     2  ▼1       1     1   7*   3*

        Peak position:  1 (1 week at peak)
        Weeks on chart: 7*
        Runs:           3*
        Debut:          before 2020-02-22 (archived from 2020-02-22 at 1)
        """))
    // The same in JSON: the debut given is the archive's first entry, and said to be.
    let historyJSON = try json(
      try chartArchive(["history", "slow train", "--db", archive, "--format", "json"]).output)
    let recording = try #require((historyJSON["recordings"] as? [[String: Any]])?.first)
    let chart = try #require((recording["charts"] as? [[String: Any]])?.first)
    #expect(chart["debut_date"] as? String == "2020-02-22")
    #expect(chart["debut_before_archive"] as? Bool == true)
  }

  @Test func kaggleHot100ChartsImportExactly() throws {
    let path = sample("kaggle-hot-100-charts.csv")
    let (folder, archive, run) = try imported([path], options: ["--chart", "hot-100"])
    #expect(run.error == "")
    #expect(
      try exported("hot-100", from: archive) == [
        "hot-100,2021-03-06,1,1,1,4,Lanterns Over Lisbon,Mira Solen,,,",
        "hot-100,2021-03-06,2,3,2,3,Café de Flore,Élodie Marchand,,,",
        "hot-100,2021-03-06,3,4,3,3,Echo Chamber,\"Parallel Lines, Ava Lindqvist\",,,",
        "hot-100,2021-03-06,4,-,4,1,Firstlight,Seo-yeon,,,",
        "hot-100,2021-03-13,1,1,1,5,Lanterns Over Lisbon,Mira Solen,,,",
        "hot-100,2021-03-13,2,4,2,2,Firstlight,Seo-yeon,,,",
        "hot-100,2021-03-13,3,-,3,1,Gravity Well,KAIROS feat. Jun,,,",
        "hot-100,2021-03-13,4,2,2,4,Café de Flore,Élodie Marchand,,,",
        "hot-100,2021-03-20,1,2,1,3,Firstlight,Seo-yeon,,,",
        "hot-100,2021-03-20,2,1,1,6,Lanterns Over Lisbon,Mira Solen,,,",
        "hot-100,2021-03-20,3,-,3,4,Echo Chamber,\"Parallel Lines, Ava Lindqvist\",,,",
        "hot-100,2021-03-20,4,3,3,2,Gravity Well,KAIROS feat. Jun,,,",
      ])
    #expect(try shown("hot-100", "movement", in: archive) == ["up", "down", "re-entry", "down"])
    #expect(try shown("hot-100", "run", in: archive) == ["1", "1", "2", "1"])
    try expectNothingNewOnReimport(
      [path], options: ["--chart", "hot-100"], into: archive, snapshots: 3)
    _ = folder
  }
}
