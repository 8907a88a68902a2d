import ChartFormats
import ChartRanking
import Foundation
import Testing

struct NativeFormatWriterTests {
  /// Titles and artists that break naive writers: quotes, backslashes, commas, line breaks, emoji,
  /// right-to-left text, combining marks, and the NFC and NFD forms of one name.
  static let awkward = try! Snapshot(
    chart: "odd \"chart\"", chartDate: ChartDate(iso8601: "2024-05-02T13:00:00Z"),
    publishesPreviousRank: true,
    entries: [
      ChartEntry(
        rank: 1, title: "Say \"Hi\", \\ again", artist: "Beyonce\u{301}",
        publishedPreviousRank: nil,
        publishedPeakPosition: 1, publishedWeeksOnChart: 1, imageURL: "https://i/1.jpg",
        songURL: "https://s/1", streams: 123_456),
      ChartEntry(
        rank: 2, title: "line one\nline two\r\n🎵🔥", artist: "Beyoncé", publishedPreviousRank: 1),
      ChartEntry(rank: 3, title: "אהבה ,حب", artist: "e\u{301}\u{302} x", publishedPreviousRank: 7),
    ])

  @Test(arguments: [ChartFormat.native, .nativeCSV])
  func whatIsWrittenReadsBackTheSame(format: ChartFormat) throws {
    let snapshot = Self.awkward
    let text =
      format == .native
      ? NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: .hourly)
        + NativeFormatWriter.jsonClosing
      : NativeFormatWriter.csvHeader() + NativeFormatWriter.csv(snapshot)
    let file = try ChartFileReader().decode(Data(text.utf8), path: "export")
    #expect(file.format == format)
    #expect(file.snapshots == [snapshot])
    if format == .native { #expect(file.frequency == .hourly) }
  }

  @Test func snapshotsWithoutPublishedPreviousRanksStaySo() throws {
    let snapshot = Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: [ChartEntry(rank: 1, title: "A", artist: "X")])
    #expect(NativeFormatWriter.csv(snapshot) == "c,2024-01-06,1,,,,A,X,,,\r\n")
    #expect(
      NativeFormatWriter.json(snapshot, frequency: nil)
        == #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    for text in [
      NativeFormatWriter.csvHeader() + NativeFormatWriter.csv(snapshot),
      NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: nil)
        + NativeFormatWriter.jsonClosing,
    ] {
      #expect(try ChartFileReader().decode(Data(text.utf8), path: "x").snapshots == [snapshot])
    }
  }

  @Test func runNumbersAreWrittenAndReadBack() throws {
    let snapshot = Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: true,
      entries: [
        ChartEntry(rank: 1, title: "A", artist: "X", publishedRun: 3),
        ChartEntry(rank: 2, title: "B", artist: "Y", publishedPreviousRank: 1),
      ])
    #expect(
      NativeFormatWriter.csvHeader(runs: true)
        == "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,"
        + "image_url,song_url,streams,run\r\n")
    #expect(
      NativeFormatWriter.csv(snapshot, runs: true)
        == "c,2024-01-06,1,-,,,A,X,,,,3\r\nc,2024-01-06,2,1,,,B,Y,,,,\r\n")
    #expect(
      NativeFormatWriter.json(snapshot, frequency: nil)
        == #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "previous_rank": "#
        + #"null, "title": "A", "artist": "X", "run": 3}, {"rank": 2, "previous_rank": 1, "title": "#
        + #""B", "artist": "Y"}]}"#)
    for text in [
      NativeFormatWriter.csvHeader(runs: true) + NativeFormatWriter.csv(snapshot, runs: true),
      NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: nil)
        + NativeFormatWriter.jsonClosing,
    ] {
      #expect(try ChartFileReader().decode(Data(text.utf8), path: "x").snapshots == [snapshot])
    }
    // A run of 0 is no run number.
    let zero =
      "chart,chart_date,rank,title,artist,previous_rank,peak_position,weeks_on_chart,"
      + "image_url,song_url,streams,run\nc,2024-01-06,1,A,X,,,,,,,0\n"
    #expect(throws: ChartFileError.self) {
      try ChartFileReader().decode(Data(zero.utf8), path: "x.csv")
    }
    do {
      _ = try ChartFileReader().decode(Data(zero.utf8), path: "x.csv")
    } catch {
      #expect(error.description == "x.csv: row 2 (rank 1), field 'run': must be 1 or more, found 0")
    }
  }

  /// An ISRC is written as its 12 characters and read back; written with hyphens or in lowercase
  /// it is read as the same code, and its column is only in a CSV that asks for it.
  @Test func isrcsAreWrittenAndReadBack() throws {
    let snapshot = Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: [
        ChartEntry(rank: 1, title: "A", artist: "X", isrc: ISRC("USRC17607839")),
        ChartEntry(rank: 2, title: "B", artist: "Y"),
      ])
    #expect(
      NativeFormatWriter.csvHeader(isrcs: true, runs: true)
        == "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,"
        + "image_url,song_url,streams,isrc,run\r\n")
    #expect(
      NativeFormatWriter.csv(snapshot, isrcs: true)
        == "c,2024-01-06,1,,,,A,X,,,,USRC17607839\r\nc,2024-01-06,2,,,,B,Y,,,,\r\n")
    #expect(
      NativeFormatWriter.csv(snapshot) == "c,2024-01-06,1,,,,A,X,,,\r\nc,2024-01-06,2,,,,B,Y,,,\r\n"
    )
    #expect(
      NativeFormatWriter.json(snapshot, frequency: nil)
        == #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "A", "#
        + #""artist": "X", "isrc": "USRC17607839"}, {"rank": 2, "title": "B", "artist": "Y"}]}"#)
    for text in [
      NativeFormatWriter.csvHeader(isrcs: true) + NativeFormatWriter.csv(snapshot, isrcs: true),
      NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: nil)
        + NativeFormatWriter.jsonClosing,
      #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "A", "#
        + #""artist": "X", "isrc": "us-rc1-76-07839"}, {"rank": 2, "title": "B", "artist": "Y", "#
        + #""isrc": ""}]}"#,
    ] {
      #expect(try ChartFileReader().decode(Data(text.utf8), path: "x").snapshots == [snapshot])
    }
  }

  /// A published trend is written as what it says and the source's marker, and read back so; a
  /// trend not of that form is refused with the form expected.
  @Test func publishedTrendsAreWrittenAndReadBack() throws {
    let snapshot = Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: true,
      entries: [
        ChartEntry(
          rank: 1, title: "A", artist: "X", publishedPreviousRank: 4,
          publishedTrend: PublishedTrend(.up(places: 3), text: "+3")),
        ChartEntry(
          rank: 2, title: "B", artist: "Y",
          publishedTrend: PublishedTrend(.notOnPrevious, text: "NEW_ENTRY")),
        ChartEntry(rank: 3, title: "C", artist: "Z", publishedPreviousRank: 3),
      ])
    #expect(
      NativeFormatWriter.csvHeader(trends: true)
        == "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,"
        + "image_url,song_url,streams,trend\r\n")
    #expect(
      NativeFormatWriter.csv(snapshot, trends: true)
        == "c,2024-01-06,1,4,,,A,X,,,,up 3: +3\r\nc,2024-01-06,2,-,,,B,Y,,,,not on previous: "
        + "NEW_ENTRY\r\nc,2024-01-06,3,3,,,C,Z,,,,\r\n")
    #expect(
      NativeFormatWriter.json(snapshot, frequency: nil)
        == #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "previous_rank": "#
        + #"4, "title": "A", "artist": "X", "trend": "up 3: +3"}, {"rank": 2, "previous_rank": "#
        + #"null, "title": "B", "artist": "Y", "trend": "not on previous: NEW_ENTRY"}, {"rank": 3, "#
        + #""previous_rank": 3, "title": "C", "artist": "Z"}]}"#)
    for text in [
      NativeFormatWriter.csvHeader(runs: true, trends: true)
        + NativeFormatWriter.csv(snapshot, runs: true, trends: true),
      NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: nil)
        + NativeFormatWriter.jsonClosing,
    ] {
      #expect(try ChartFileReader().decode(Data(text.utf8), path: "x").snapshots == [snapshot])
    }
    let wrong =
      #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "#
      + #""title": "A", "artist": "X", "trend": "MOVE_UP"}]}"#
    do {
      _ = try ChartFileReader().decode(Data(wrong.utf8), path: "x.json")
      Issue.record("read")
    } catch {
      #expect(
        error.description
          == "x.json: entry 1 (rank 1), field 'trend': expected what the source's marker says, "
          + "': ' and the marker (up 3: +3, down: MOVE_DOWN, unchanged: =, debut: NEW, re-entry: "
          + "RE, not on previous: NEW_ENTRY), found 'MOVE_UP'")
    }
  }
}
