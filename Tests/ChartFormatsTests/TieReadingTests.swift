import ChartRanking
import Foundation
import Testing

@testable import ChartFormats

/// Two entries at one rank: read where the file marks the tie or the reader allows ties, refused
/// otherwise.
struct TieReadingTests {
  private func ranks(_ text: String, path: String = "c/2024-01-06.csv", allowingTies: Bool = false)
    throws -> [Int]
  {
    let file = try ChartFileReader(chart: "c", allowsTies: allowingTies).decode(
      Data(text.utf8), path: path)
    return file.snapshots.flatMap { $0.entries.map(\.rank) }
  }

  private func problems(_ text: String, path: String = "c/2024-01-06.csv") -> [String] {
    do {
      _ = try ChartFileReader(chart: "c").decode(Data(text.utf8), path: path)
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  @Test func theUKChartMarksATieWithAnEqualsSign() throws {
    let csv = """
      chart_date,chart_position,chart_artist,chart_title,chart_movement,chart_peak,chart_weeks
      14/11/1952,7,A,X,New,7,1
      14/11/1952,8=,B,Y,New,8,1
      14/11/1952,=8,C,Z,New,8,1
      14/11/1952,10,D,W,New,10,1
      """
    #expect(try ranks(csv) == [7, 8, 8, 10])
  }

  @Test func oneMarkedEntryOfATieIsEnough() throws {
    let csv = """
      chart_date,chart_position,chart_artist,chart_title,chart_movement,chart_peak,chart_weeks
      14/11/1952,8,B,Y,New,8,1
      14/11/1952,8=,C,Z,New,8,1
      """
    #expect(try ranks(csv) == [8, 8])
  }

  @Test func anUnmarkedTieIsRefusedUnlessTiesAreAllowed() throws {
    let csv = """
      chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart
      1960-03-07,100,A,X,-,100,1
      1960-03-07,100,B,Y,-,100,1
      """
    #expect(
      problems(csv) == [
        "row 3 (rank 100), field 'current_week': rank 100 is also the rank of row 2"
      ])
    #expect(try ranks(csv, allowingTies: true) == [100, 100])
  }

  @Test(arguments: ["==8", "8==", "=8=", "=", "=x"])
  func anEqualsSignOnlyMarksARank(rank: String) {
    let csv =
      "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,"
      + "image_url,song_url,streams\nc,2024-01-06,\(rank),,,,T,A,,,\n"
    #expect(problems(csv).count == 1)
  }

  @Test func theNativeFormatsMarkATieAndTheirExportWritesIt() throws {
    let json = """
      {"chart": "c", "chart_date": "2024-01-06", "entries": [
        {"rank": 1, "title": "A", "artist": "X"},
        {"rank": 2, "tie": true, "title": "B", "artist": "Y"},
        {"rank": 2, "tie": true, "title": "C", "artist": "Z"}]}
      """
    let file = try ChartFileReader().decode(Data(json.utf8), path: "c.json")
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 2])
    #expect(
      NativeFormatWriter.json(snapshot, frequency: nil)
        == #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "A", "#
        + #""artist": "X"}, {"rank": 2, "tie": true, "title": "B", "artist": "Y"}, {"rank": 2, "#
        + #""tie": true, "title": "C", "artist": "Z"}]}"#)
    let csv = NativeFormatWriter.csvHeader() + NativeFormatWriter.csv(snapshot)
    #expect(
      csv.components(separatedBy: "\r\n")[2...3] == [
        "c,2024-01-06,=2,,,,B,Y,,,", "c,2024-01-06,=2,,,,C,Z,,,",
      ])
    #expect(try ranks(csv, path: "c.csv") == [1, 2, 2])
  }

  @Test func aTieMustBeTrueOrFalse() {
    let json = """
      {"chart": "c", "chart_date": "2024-01-06", "entries": [
        {"rank": 1, "title": "A", "artist": "X"}, {"rank": 1, "tie": "yes", "title": "B",
        "artist": "Y"}]}
      """
    #expect(
      problems(json, path: "c.json") == [
        "entry 2 (rank 1), field 'tie': expected true, false or null",
        "entry 2 (rank 1), field 'rank': rank 1 is also the rank of entry 1",
      ])
  }

  /// A snapshot's entries are in rank order whatever the file's order, those at one rank in the
  /// file's order; a file in rank order is kept as it is.
  @Test func entriesComeInRankOrderAndATieInTheFilesOrder() throws {
    let csv = """
      chart_date,chart_position,chart_artist,chart_title,chart_movement,chart_peak,chart_weeks
      14/11/1952,=8,C,Z,New,8,1
      14/11/1952,10,D,W,New,10,1
      14/11/1952,7,A,X,New,7,1
      14/11/1952,8=,B,Y,New,8,1
      """
    let file = try ChartFileReader(chart: "c").decode(Data(csv.utf8), path: "c/2024-01-06.csv")
    #expect(
      file.snapshots[0].entries.map { "\($0.rank) \($0.title)" } == ["7 X", "8 Z", "8 Y", "10 W"])
    let inOrder = file.snapshots[0].entries
    #expect(ChartFileReader.inRankOrder(inOrder) == inOrder)
    #expect(ChartFileReader.inRankOrder(inOrder.reversed()).map(\.title) == ["X", "Y", "Z", "W"])
  }
}
