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
      : NativeFormatWriter.csvHeader + NativeFormatWriter.csv(snapshot)
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
      NativeFormatWriter.csvHeader + NativeFormatWriter.csv(snapshot),
      NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: nil)
        + NativeFormatWriter.jsonClosing,
    ] {
      #expect(try ChartFileReader().decode(Data(text.utf8), path: "x").snapshots == [snapshot])
    }
  }
}
