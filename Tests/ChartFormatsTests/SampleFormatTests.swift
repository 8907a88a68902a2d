import ChartRanking
import Foundation
import Testing

@testable import ChartFormats

/// The real-shaped sample files beside this test.
private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Samples")

private func read(_ name: String, reader: ChartFileReader = ChartFileReader()) throws
  -> DecodedChartFile
{
  try reader.read(contentsOf: samples.appendingPathComponent(name).path)
}

struct SampleFormatTests {
  @Test func billboardPyChartData() throws {
    let file = try read("billboard-py-hot-100.json")
    #expect(file.format == .billboardPy)
    #expect(file.frequency == .weekly)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "hot-100")
    #expect(snapshot.chartDate.iso8601 == "2024-01-13")
    #expect(snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 59])
    // lastPos 0 is "not on last week's chart".
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [9, 19, 24, nil])
    #expect(snapshot.entries.map(\.publishedPeakPosition) == [1, 1, 3, 59])
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [8, 36, 17, 1])
    #expect(
      snapshot.entries[0].imageURL
        == "https://charts-static.billboard.com/img/2023/11/jack-harlow-u2t-lovinonme-m6l-180x180.jpg"
    )
  }

  @Test func streamingTop200AsDownloaded() throws {
    let file = try read("regional-global-daily-2017-01-01.csv")
    #expect(file.format == .streamingCSV)
    let snapshot = try #require(file.snapshots.first)
    // Chart from the folder, date from the file name.
    #expect(snapshot.chart == "Samples")
    #expect(snapshot.chartDate.iso8601 == "2017-01-01")
    #expect(!snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 4, 5])
    #expect(snapshot.entries[3].title == "Rockabye (feat. Sean Paul & Anne-Marie)")
    #expect(snapshot.entries[4].title == "One Dance, Again")
    #expect(
      snapshot.entries.map(\.streams) == [3_135_625, 3_015_525, 2_545_384, 2_356_604, 2_259_887])
    #expect(snapshot.entries[0].songURL == "https://open.spotify.com/track/5aAx2yezTd8zXrkmtKl66Z")
  }

  @Test func streamingTop200Cleaned() throws {
    let file = try read("streaming-cleaned.csv", reader: ChartFileReader(chart: "spotify"))
    #expect(file.format == .streamingCSV)
    #expect(
      file.snapshots.map { "\($0.chart) \($0.chartDate) \($0.entries.count)" } == [
        "spotify-global 2017-01-01 2", "spotify-global 2017-01-02 2",
        "spotify-united-states 2017-01-01 1",
      ])
    #expect(file.snapshots[1].entries.map(\.title) == ["Closer", "Starboy"])
  }

  @Test func weeklyChartCSVWithManyWeeks() throws {
    let file = try read("hot-100-weeks.csv", reader: ChartFileReader(chart: "hot-100"))
    #expect(file.format == .weeklyCSV)
    #expect(file.frequency == .weekly)
    #expect(file.snapshots.map(\.chartDate.iso8601) == ["2024-01-06", "2024-01-13"])
    #expect(file.snapshots.allSatisfy { $0.publishesPreviousRank })
    // "-" is no previous week.
    #expect(file.snapshots[0].entries.map(\.publishedPreviousRank) == [2, 1, 3, nil])
    #expect(file.snapshots[1].entries.map(\.publishedPeakPosition) == [1, 1])
    #expect(file.snapshots[1].entries.map(\.publishedWeeksOnChart) == [8, 36])
  }

  @Test func chartsCSVWithTrends() throws {
    let file = try read("charts.csv")
    #expect(file.format == .chartsCSV)
    #expect(
      file.snapshots.map { "\($0.chart) \($0.chartDate) \($0.entries.count)" } == [
        "top200-global 2017-01-06 2", "top200-global 2017-01-07 2",
        "top200-argentina 2017-01-06 1", "viral50-global 2017-01-06 1",
      ])
    #expect(file.snapshots[0].entries[1].artist == "The Weeknd, Daft Punk")
    #expect(file.snapshots[3].entries[0].streams == nil)
    #expect(
      file.publishedTrends[1] == [
        PublishedTrend(.unchanged, text: "SAME_POSITION"),
        PublishedTrend(.up(places: nil), text: "MOVE_UP"),
      ])
  }

  @Test(arguments: [
    (PublishedTrend.Kind.up(places: nil), Movement.up(3), true),
    (.up(places: 3), .up(3), true),
    (.up(places: 2), .up(3), false),
    (.down(places: 2), .down(2), true),
    (.notOnPrevious, .reentry, true),
    (.notOnPrevious, .debut, true),
    (.debut, .reentry, false),
    (.reentry, .reentry, true),
    (.up(places: nil), .unchanged, false),
    (.unchanged, .unchanged, true),
  ])
  func aPublishedTrendAgreesWithTheMovementItSays(
    kind: PublishedTrend.Kind, movement: Movement, agrees: Bool
  ) {
    #expect(PublishedTrend(kind, text: "").agrees(with: movement) == agrees)
  }

  @Test func spotifyChartsWeeklyDownload() throws {
    let file = try read("regional-global-weekly-2024-03-21.csv")
    #expect(file.format == .spotifyChartsCSV)
    #expect(file.frequency == .weekly)
    let snapshot = try #require(file.snapshots.first)
    // Chart and date from the file's name; the byte order mark is no part of the header.
    #expect(snapshot.chart == "regional-global-weekly")
    #expect(snapshot.chartDate.iso8601 == "2024-03-21")
    #expect(snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 4, 5])
    // -1 is "not on the previous chart".
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [2, 1, nil, nil, 5])
    #expect(snapshot.entries.map(\.publishedPeakPosition) == [1, 1, 3, 2, 4])
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [6, 11, 1, 9, 14])
    #expect(
      snapshot.entries.map(\.streams) == [
        61_203_455, 58_990_127, 40_117_002, 38_502_219, 37_660_318,
      ])
    // Several artists are one credit; the track URI is the song's identity.
    #expect(snapshot.entries[1].artist == "KAIROS, Jun")
    #expect(snapshot.entries[2].title == "Slow Bloom, Fast Fade")
    #expect(snapshot.entries[0].songURL == "spotify:track:0aQ2bPxVt3kL9mN1rS5uW7")
    #expect(snapshot.entries.allSatisfy { $0.imageURL == nil })
  }

  @Test func spotifyChartsDailyDownloadCountsDays() throws {
    let file = try read("regional-us-daily-2024-03-21.csv")
    #expect(file.format == .spotifyChartsCSV)
    #expect(file.frequency == .daily)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "regional-us-daily")
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [74, 40, 1])
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [1, 3, nil])
  }

  @Test func ukChartCollectorsCSV() throws {
    let file = try read("uk-singles-chart-2024.csv", reader: ChartFileReader(chart: "uk-singles"))
    #expect(file.format == .ukChartCSV)
    #expect(file.frequency == .weekly)
    // Day first: 7/3/2024 is the 7th of March.
    #expect(file.snapshots.map(\.chartDate.iso8601) == ["2024-03-07", "2024-03-14"])
    #expect(file.snapshots.allSatisfy { $0.publishesPreviousRank })
    // New and RE are no previous rank, and say how the entry moved.
    #expect(file.snapshots[1].entries.map(\.publishedPreviousRank) == [2, 1, nil, 3, nil])
    #expect(file.snapshots[1].entries.map(\.publishedPeakPosition) == [1, 1, 2, 3, 5])
    #expect(file.snapshots[1].entries.map(\.publishedWeeksOnChart) == [10, 6, 7, 2, 1])
    #expect(file.snapshots[0].entries[2].title == "SLOW BLOOM, FAST FADE")
    #expect(file.snapshots[0].entries[1].artist == "KAIROS FT JUN")
    #expect(
      file.publishedTrends == [
        [nil, nil, PublishedTrend(.debut, text: "New"), nil],
        [nil, nil, PublishedTrend(.reentry, text: "RE"), nil, PublishedTrend(.debut, text: "New")],
      ])
  }

  @Test(arguments: [
    ("7/3/2024", "2024-03-07"), ("07/03/2024", "2024-03-07"), ("29/2/2024", "2024-02-29"),
    ("19521114", "1952-11-14"), ("1952-11-14", "1952-11-14"), ("29/2/2023", nil),
    ("3/14/2024", nil), ("2024/03/07", nil), ("7/3/24", nil), ("7-3-2024", nil),
    ("１/3/2024", nil), ("1952111", nil), ("2024-03-07T00:00", nil),
  ])
  func ukChartDatesAreDayFirst(text: String, iso: String?) {
    #expect(CSVLayout.isoDate(writtenInUKChart: text) == iso)
  }

  @Test func aWeeklyChartCSVSaysNewAndREAsTheUKChartDoes() throws {
    let csv = """
      chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart
      2024-01-13,1,A,X,New,1,1
      2024-01-13,2,B,Y,RE,2,5
      2024-01-13,3,C,Z,-,3,1
      2024-01-13,4,D,W,NEW,4,1
      """
    let file = try ChartFileReader(chart: "weekly").decode(Data(csv.utf8), path: "w.csv")
    #expect(file.snapshots[0].entries.map(\.publishedPreviousRank) == [nil, nil, nil, nil])
    #expect(
      file.publishedTrends == [
        [
          PublishedTrend(.debut, text: "New"), PublishedTrend(.reentry, text: "RE"), nil,
          PublishedTrend(.debut, text: "NEW"),
        ]
      ])
  }

  @Test func hotStuffAsTidyTuesdayWritesIt() throws {
    let file = try read("hot-stuff-billboard.csv")
    #expect(file.format == .hotStuffCSV)
    #expect(file.frequency == .weekly)
    // Rows in no order: the weeks oldest first, the chart named by the rows' addresses.
    #expect(
      file.snapshots.map(\.chartDate.iso8601) == [
        "2020-01-04", "2020-01-11", "2020-01-18", "2020-01-25", "2020-02-01", "2020-02-08",
        "2020-02-15",
      ])
    #expect(Set(file.snapshots.map(\.chart)) == ["hot-100"])
    #expect(!file.chartNamedAfterFolder)
    #expect(file.snapshots.allSatisfy { $0.publishesPreviousRank && $0.entries.count == 4 })
    let week = file.snapshots[5]
    #expect(week.entries.map(\.title) == ["Neon Harbor", "Slow Train", "Hold On", "Hold On"])
    #expect(
      week.entries.map(\.artist) == ["The Lanterns", "The Ardens", "Nadia Rahimi", "Mira Solen"])
    #expect(week.entries.map(\.publishedPreviousRank) == [1, nil, 2, 3])
    #expect(week.entries.map(\.publishedPeakPosition) == [1, 2, 2, 2])
    #expect(week.entries.map(\.publishedWeeksOnChart) == [6, 4, 5, 6])
    #expect(week.entries.map(\.publishedRun) == [1, 3, 2, 1])
    // The song's three runs, week by week (0: not on the chart).
    #expect(
      file.snapshots.map { $0.entries.first { $0.title == "Slow Train" }?.publishedRun ?? 0 }
        == [1, 1, 0, 2, 0, 3, 3])
    // `url` and `song_id` are not kept.
    #expect(week.entries.allSatisfy { $0.songURL == nil && $0.imageURL == nil })
  }

  @Test func hotStuffAsDataWorldWritesIt() throws {
    let file = try read("hot-stuff-data-world.csv", reader: ChartFileReader(chart: "hs"))
    #expect(file.format == .hotStuffCSV)
    #expect(file.snapshots.map(\.chartDate.iso8601) == ["2020-02-22", "2020-02-29"])
    #expect(file.snapshots.map(\.chart) == ["hs", "hs"])
    let week = file.snapshots[1]
    #expect(week.entries.map(\.title) == ["Hold On", "Slow Train", "Salt Water", "Neon Harbor"])
    #expect(week.entries.map(\.publishedPreviousRank) == [2, 1, 4, nil])
    #expect(week.entries.map(\.publishedPeakPosition) == [1, 1, 3, 1])
    #expect(week.entries.map(\.publishedWeeksOnChart) == [9, 7, 2, 8])
    #expect(week.entries.map(\.publishedRun) == [1, 3, 1, 2])
  }

  @Test func hotStuffWritesAnEmptyPreviousPositionOrNA() throws {
    let csv = """
      url,week_id,week_position,song,performer,song_id,instance,previous_week_position,\
      peak_position,weeks_on_chart
      http://www.billboard.com/charts/hot-100/2020-01-11,1/11/2020,1,A,X,AX,1,2,1,13
      http://www.billboard.com/charts/hot-100/2020-01-11,1/11/2020,2,B,Y,BY,2,NA,2,3
      http://www.billboard.com/charts/hot-100/2020-01-11,1/11/2020,3,C,Z,CZ,1,,3,1
      """
    let file = try ChartFileReader().decode(Data(csv.utf8), path: "billboard.csv")
    #expect(file.snapshots.map(\.chart) == ["hot-100"])
    #expect(file.snapshots[0].entries.map(\.publishedPreviousRank) == [2, nil, nil])
    #expect(file.snapshots[0].entries.map(\.publishedRun) == [1, 2, 1])
  }

  @Test func kaggleHot100Charts() throws {
    let file = try read("kaggle-hot-100-charts.csv", reader: ChartFileReader(chart: "hot-100"))
    #expect(file.format == .kaggleHot100CSV)
    #expect(file.frequency == .weekly)
    // Newest first in the file, stored oldest first.
    #expect(
      file.snapshots.map(\.chartDate.iso8601) == ["2021-03-06", "2021-03-13", "2021-03-20"])
    let week = file.snapshots[2]
    #expect(
      week.entries.map(\.title) == [
        "Firstlight", "Lanterns Over Lisbon", "Echo Chamber", "Gravity Well",
      ])
    #expect(week.entries[2].artist == "Parallel Lines, Ava Lindqvist")
    // pandas' floats: 2.0 is 2; an empty cell, not on last week's chart.
    #expect(week.entries.map(\.publishedPreviousRank) == [2, 1, nil, 3])
    #expect(week.entries.map(\.publishedPeakPosition) == [1, 1, 3, 3])
    #expect(week.entries.map(\.publishedWeeksOnChart) == [3, 6, 4, 2])
    #expect(week.entries.allSatisfy { $0.publishedRun == nil })
    #expect(
      try read("kaggle-hot-100-charts.csv").snapshots.map(\.chart) == [
        "Samples", "Samples", "Samples",
      ])
  }

  @Test(arguments: [
    ("1/4/2020", "2020-01-04"), ("01/04/2020", "2020-01-04"), ("2/29/2020", "2020-02-29"),
    ("12/31/1999", "1999-12-31"), ("2020-01-04", "2020-01-04"), ("13/4/2020", nil),
    ("2/30/2020", nil), ("2/29/2019", nil), ("20200104", nil), ("1/4/20", nil), ("1-4-2020", nil),
  ])
  func hotStuffDatesAreMonthFirst(text: String, iso: String?) {
    #expect(CSVLayout.isoDate(writtenInUSChart: text) == iso)
  }

  @Test(arguments: [
    ("1.0", 1), ("12.00", 12), ("100.0", 100), ("1.5", nil), (".0", nil), ("1.", nil),
    ("-1.0", nil), ("1e2", nil), ("1.0.0", nil), ("١.0", nil),
  ])
  func wholeNumbersWrittenAsDecimals(text: String, number: Int?) {
    #expect(CSVLayout.wholeNumber(writtenAsDecimal: text) == number)
  }

  @Test(arguments: [
    ("http://www.billboard.com/charts/hot-100/2020-01-11", "hot-100"),
    ("https://www.billboard.com/charts/billboard-200/2020-01-11/", "billboard-200"),
    ("http://www.billboard.com/charts/", nil), ("hot-100", nil), ("", nil),
  ])
  func hotStuffAddressesNameTheChart(address: String, chart: String?) {
    #expect(chartName(inChartURL: address) == chart)
  }

  @Test func lastFMWeeklyTrackChart() throws {
    let file = try read("lastfm-weekly-chart.json", reader: ChartFileReader(chart: "lastfm"))
    #expect(file.format == .lastFMWeeklyTrackChart)
    // From 2024-03-10T12:00:00Z to 2024-03-17T12:00:00Z: a week, ending at noon.
    #expect(file.frequency == .weekly)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chartDate.iso8601 == "2024-03-17T12:00:00Z")
    #expect(!snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3])
    #expect(
      snapshot.entries.map(\.title) == ["Lanterns Over Lisbon", "Café de Flore", "Gravity Well"])
    #expect(
      snapshot.entries.map(\.artist) == ["Mira Solen", "Élodie Marchand", "KAIROS feat. Jun"])
    #expect(snapshot.entries.map(\.streams) == [23, 17, 9])
    #expect(
      snapshot.entries[0].songURL == "https://www.last.fm/music/Mira+Solen/_/Lanterns+Over+Lisbon")
    // The largest image; none where every size is empty.
    #expect(
      snapshot.entries.map(\.imageURL) == [
        "https://lastfm.freetls.fastly.net/i/u/300x300/4a1b2c3d4e5f60718293a4b5c6d7e8f9.jpg", nil,
        "https://lastfm.freetls.fastly.net/i/u/300x300/5b2c3d4e5f60718293a4b5c6d7e8f9a0.jpg",
      ])
    #expect(snapshot.entries.allSatisfy { $0.publishedPeakPosition == nil })
  }

  @Test func aLastFMDayOfOneTrackEndingAtMidnight() throws {
    // 2024-03-16T00:00:00Z to 2024-03-17T00:00:00Z; the one track given alone, numbers as numbers.
    let json = """
      {"weeklytrackchart": {"track": {"artist": {"#text": "A"}, "@attr": {"rank": 1},
        "name": "T", "playcount": 4}, "@attr": {"from": 1710547200, "to": "1710633600"}}}
      """
    let file = try ChartFileReader().decode(Data(json.utf8), path: "me/chart.json")
    #expect(file.frequency == .daily)
    #expect(file.snapshots.map(\.chartDate.iso8601) == ["2024-03-17"])
    #expect(file.snapshots.first?.entries.map(\.streams) == [4])
  }

  @Test func kworbTableAsCSV() throws {
    let file = try read("kworb-global-daily-2024-03-21.csv", reader: ChartFileReader(chart: "k"))
    #expect(file.format == .kworbCSV)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chartDate.iso8601 == "2024-03-21")
    #expect(!snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 4, 5, 6])
    // Split at the first " - ": a title with " - " in it stays whole.
    #expect(
      snapshot.entries.map(\.artist) == [
        "Mira Solen", "KAIROS", "Ava Lindqvist", "The Quiet Hours", "Parallel Lines",
        "Nadia Rahimi",
      ])
    #expect(snapshot.entries[2].title == "Slow Bloom - Acoustic")
    #expect(snapshot.entries[1].title == "Gravity Well (w/ Jun)")
    // Thousands separators.
    #expect(
      snapshot.entries.map(\.streams) == [
        6_203_455, 5_890_127, 4_011_700, 3_850_221, 3_766_031, 3_502_118,
      ])
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [41, 75, 1, 98, 12, 3])
    #expect(snapshot.entries.map(\.publishedPeakPosition) == [1, 1, 3, 2, 4, 5])
    #expect(
      file.publishedTrends == [
        [
          PublishedTrend(.unchanged, text: "="), PublishedTrend(.up(places: 3), text: "+3"),
          PublishedTrend(.debut, text: "NEW"), PublishedTrend(.down(places: 2), text: "-2"),
          PublishedTrend(.reentry, text: "RE"), PublishedTrend(.down(places: 1), text: "-1"),
        ]
      ])
  }

  @Test func kworbPageAsHTML() throws {
    let file = try read("kworb-global-daily-2024-03-22.html", reader: ChartFileReader(chart: "k"))
    #expect(file.format == .kworbHTML)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chartDate.iso8601 == "2024-03-22")
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 4, 5, 6])
    // The page's first table is its menu; the chart is the one with kworb's header.
    #expect(
      snapshot.entries.map(\.artist) == [
        "KAIROS", "Mira Solen", "Ava Lindqvist", "Nadia Rahimi", "Parallel Lines",
        "Tomo & The Tides",
      ])
    // A line break in a cell is a space, as a browser shows it.
    #expect(snapshot.entries[2].title == "Slow Bloom - Acoustic")
    #expect(
      snapshot.entries.map(\.streams) == [
        5_990_127, 5_903_455, 4_011_700, 3_902_118, 3_766_031, 3_100_000,
      ])
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [76, 42, 2, 4, 13, 30])
    #expect(snapshot.entries.map(\.publishedPeakPosition) == [1, 1, 3, 4, 4, 2])
    #expect(
      file.publishedTrends[0].map { $0?.text } == ["+1", "-1", "=", "+2", "=", "RE"])
  }

  @Test func aWebPageWithoutAKworbTableIsMarkupEvenWhenKworbIsForced() {
    #expect(
      throws: ChartFileError(
        path: "p.html",
        "no table of kworb's (Pos, P+, Artist and Title, Days or Wks, Pk, Streams) in the HTML"
          + " document")
    ) {
      try ChartFileReader(format: .kworbHTML).decode(
        Data("<table><tr><th>Pos</th></tr></table>".utf8), path: "p.html")
    }
  }

  @Test(arguments: [
    ("1,466,839", 1_466_839), ("12,000", 12_000), ("999", nil), ("1,46", nil), (",123", nil),
    ("1,2345", nil), ("1,,234", nil), ("-1,234", nil), ("1,234,", nil), ("１,234", nil),
  ])
  func kworbNumbersHaveThousandsSeparators(text: String, number: Int?) {
    #expect(CSVLayout.numberWithThousandsSeparators(text) == number)
  }

  @Test func aKworbWeeklyTableCountsWeeks() throws {
    let csv = """
      Pos,P+,Artist and Title,Wks,Pk,(x?),Streams,Streams+,Total
      1,=,A - T,10,1,(x3),"15,000,000","+1,000","150,000,000"
      """
    let file = try ChartFileReader(chart: "kworb-weekly").decode(
      Data(csv.utf8), path: "k/2024-03-21.csv")
    #expect(file.format == .kworbCSV)
    #expect(file.frequency == .weekly)
    #expect(file.snapshots.first?.entries.first?.publishedWeeksOnChart == 10)
  }

  @Test func appleMusicChartPages() throws {
    let first = try read("apple-music-most-played-2024-03-21-page-1.json")
    #expect(first.format == .appleMusicCharts)
    // The first page's address has no offset; its next page starts at 20.
    #expect(first.pages == [ChartPage(offset: 0, nextOffset: 20)])
    let snapshot = try #require(first.snapshots.first)
    #expect(snapshot.chart == "Samples")
    #expect(snapshot.chartDate.iso8601 == "2024-03-21")
    #expect(!snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == Array(1...20))
    #expect(snapshot.entries[0].title == "Lanterns Over Lisbon")
    #expect(snapshot.entries[1].artist == "KAIROS & Jun")
    #expect(
      snapshot.entries[0].songURL
        == "https://music.apple.com/us/album/lanterns-over-lisbon/1600000000?i=1700000000")
    // The artwork's template filled with its own size.
    #expect(
      snapshot.entries[0].imageURL
        == "https://is1-ssl.mzstatic.com/image/thumb/Music126/v4/00/00/00/cover1.jpg/3000x3000bb.jpg"
    )
    let second = try read("apple-music-most-played-2024-03-21-page-2.json")
    // The last page: its address gives its offset, and it names no next page.
    #expect(second.pages == [ChartPage(offset: 20, nextOffset: nil)])
    #expect(second.snapshots.first?.entries.map(\.rank) == Array(21...25))
    #expect(second.snapshots.first?.entries.map(\.title).last == "Last Light")
    // Each song's ISRC (`attributes.isrc`).
    #expect(snapshot.entries.prefix(2).map(\.isrc?.code) == ["QZXYZ2400001", "QZXYZ2400002"])
    #expect(snapshot.entries.allSatisfy { $0.isrc != nil })
  }

  @Test(arguments: [
    ("/v1/catalog/us/charts?chart=most-played&offset=20&types=songs", Int??.some(20)),
    ("/v1/catalog/us/charts?offset=0", .some(0)), ("/v1/catalog/us/charts?chart=most-played", nil),
    ("/v1/catalog/us/charts", nil), ("/v1/catalog/us/charts?offset=x", .some(nil)),
    ("/v1/catalog/us/charts?offset=", .some(nil)),
    ("/v1/catalog/us/charts?offset=1234567890", .some(nil)),
    ("/v1/catalog/us/charts?preoffset=3", nil),
  ])
  func anAppleMusicAddressGivesItsOffset(address: String, offset: Int??) {
    #expect(ServiceFile.offset(in: address) == offset)
  }

  @Test func spotifyChartsSiteJSON() throws {
    let file = try read("spotify-charts-regional-gb-weekly.json")
    #expect(file.format == .spotifyChartsJSON)
    // The chart, its date and its frequency are the file's.
    #expect(file.frequency == .weekly)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "regional-gb-weekly")
    #expect(snapshot.chartDate.iso8601 == "2024-03-21")
    #expect(snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3, 4, 5])
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [3, 2, nil, nil, 1])
    #expect(snapshot.entries.map(\.publishedPeakPosition) == [1, 1, 3, 2, 1])
    #expect(snapshot.entries.map(\.publishedWeeksOnChart) == [8, 12, 1, 15, 6])
    #expect(
      snapshot.entries.map(\.streams) == [4_518_230, 4_390_117, 3_877_402, 3_501_986, 3_412_875])
    #expect(snapshot.entries[1].title == "Neon Harbor (feat. Jun)")
    #expect(snapshot.entries[1].artist == "Mira Solen, Jun")
    #expect(snapshot.entries[2].title == "밤하늘 (Night Sky)")
    #expect(snapshot.entries[0].songURL == "spotify:track:6gW8hVdBz9qR5sT7xY1aC3")
    #expect(
      snapshot.entries[0].imageURL
        == "https://i.scdn.co/image/ab67616d00001e02f1a2b3c4d5e6f708192a3b4c")
    #expect(
      file.publishedTrends == [
        [
          PublishedTrend(.up(places: nil), text: "MOVED_UP"),
          PublishedTrend(.unchanged, text: "NO_CHANGE"), PublishedTrend(.debut, text: "NEW_ENTRY"),
          PublishedTrend(.reentry, text: "RE_ENTRY"),
          PublishedTrend(.up(places: nil), text: "MOVED_UP"),
        ]
      ])
  }

  @Test func spotifyChartsSiteStreamsOfAnotherMetricAreNotKept() throws {
    let json = """
      {"entries": [{"chartEntryData": {"currentRank": 1, "rankingMetric": {"value": "80",
        "type": "VIRALITY"}}, "trackMetadata": {"trackName": "T", "artists": [{"name": "A"}]}}]}
      """
    let file = try ChartFileReader().decode(Data(json.utf8), path: "viral/2024-03-21.json")
    #expect(file.format == .spotifyChartsJSON)
    #expect(file.snapshots.first?.entries.first?.streams == nil)
    #expect(file.snapshots.first?.chart == "viral")
    // Without the previousRank field, previous ranks are not published.
    #expect(file.snapshots.first?.publishesPreviousRank == false)
  }

  @Test(arguments: [
    ("regional-global-weekly-2024-03-21.csv", "regional-global-weekly"),
    ("regional-global-weekly-2019-12-27--2020-01-03.csv", "regional-global-weekly"),
    ("viral_gb_daily_2024-03-21.csv", "viral_gb_daily"),
    ("2024-03-21.csv", nil),
    ("regional-global-weekly.csv", nil),
    ("top-2024-02-30-2024-03-01.csv", "top-2024-02-30"),
  ])
  func theChartsNameIsWhatComesBeforeTheDateInTheFilesName(name: String, chart: String?) {
    #expect(chartName(inFileName: name) == chart)
  }

  @Test func aSpotifyChartsFileWithoutADateInItsNameIsNamedAfterItsFolder() throws {
    let csv =
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,weeks_on_chart,streams\n"
      + "1,spotify:track:a,A,T,L,1,-1,1,10\n"
    let file = try ChartFileReader(chartDate: try ChartDate(iso8601: "2024-03-21")).decode(
      Data(csv.utf8), path: "charts/spotify/latest.csv")
    #expect(file.snapshots.map(\.chart) == ["spotify"])
    #expect(file.chartNamedAfterFolder)
  }

  @Test(arguments: [
    (
      "Position,Track Name,Artist,Streams,URL\n1,A,X,12,u\n2,B,Y,x,u\n",
      ["row 3 (rank 2), field 'streams': expected a whole number, found 'x'"]
    ),
    (
      "Position,Track Name,Artist,Streams,URL\n1,A,X,12,u\n1,B,Y,10,u\n",
      ["row 3 (rank 1), field 'position': rank 1 is also the rank of row 2"]
    ),
    (
      "Position,Track Name,Artist,Streams,URL\n1,\"A,X,12,u\n",
      ["row 2 (line 2): not valid CSV: field 2 opens a quote that is never closed"]
    ),
    (
      "Position,Track Name,Artist,Streams,URL\n",
      ["the file has a header but no rows"]
    ),
    // A problem names the field as the file's header does.
    (
      "track_position,track_name,artist_name,stream_count,track_url,region_name,date\n"
        + "1,A,X,5,u,Global,2017-01-01\n1,B,Y,4,v,Global,2017-01-01\n",
      ["row 3 (rank 1), field 'track_position': rank 1 is also the rank of row 2"]
    ),
    (
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,days_on_chart,streams\n"
        + "1,spotify:track:a,A,T,L,1,0,0,10\n",
      [
        "row 2 (rank 1), field 'previous_rank': must be 1 or more (or -1), found 0",
        "row 2 (rank 1), field 'days_on_chart': must be 1 or more, found 0",
      ]
    ),
    (
      "title,rank,date,artist,url,region,chart,trend,streams\nA,1,2017-02-30,X,u,Global,top,NEW_ENTRY,5\n",
      [
        "row 2, field 'date': '2017-02-30' is not a valid ISO 8601 date (YYYY-MM-DD) or date and"
          + " time (YYYY-MM-DDTHH:MM:SSZ)"
      ]
    ),
    (
      "title,rank,date,artist,url,region,chart,trend,streams\nA,1,2017-02-03,X,u,Global,top,UP,5\n",
      [
        "row 2 (rank 1), field 'trend': expected one of MOVE_UP, MOVE_DOWN, SAME_POSITION,"
          + " NEW_ENTRY, found 'UP'"
      ]
    ),
  ])
  func csvProblemsNameTheRowAndField(csv: String, expected: [String]) {
    do {
      _ = try ChartFileReader().decode(Data(csv.utf8), path: "c/2017-01-01.csv")
      Issue.record("expected an error")
    } catch {
      #expect(error.problems.map(\.description) == expected)
    }
  }

  @Test func aUTF8ByteOrderMarkAndCRLFAreRead() throws {
    let csv = "\u{FEFF}Position,Track Name,Artist,Streams,URL\r\n1,\"Say \"\"Hi\"\"\",X,5,u\r\n"
    let file = try ChartFileReader().decode(Data(csv.utf8), path: "c/2017-01-01.csv")
    #expect(file.snapshots.first?.entries.first?.title == "Say \"Hi\"")
  }
}

extension DecodedChartFile {
  /// The movement each entry's source published, per snapshot, in the snapshots' entry order.
  fileprivate var publishedTrends: [[PublishedTrend?]] {
    snapshots.map { $0.entries.map(\.publishedTrend) }
  }
}
