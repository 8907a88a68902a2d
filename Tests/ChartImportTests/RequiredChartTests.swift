import ChartFormats
import ChartRanking
import ChartStorage
import Foundation
import Testing

@testable import ChartImport

/// A chart required rather than given as an override (an upload to a chart's address): a file
/// whose content names another chart is refused, naming both; names taken from a file's or a
/// folder's name never count. A native file naming `hot-100`, uploaded to `app-weekly`, was
/// stored in app-weekly.
struct RequiredChartTests {
  static let required = ImportOptions(chart: "app-weekly", chartIsRequired: true)

  /// The import of one file as an upload into `app-weekly`: the charts stored, or why it was
  /// refused.
  static func upload(_ text: String, name: String, options: ImportOptions = required) throws
    -> Result<[String], RefusedSource>
  {
    let archive = try Archive(path: ":memory:", access: .create)
    do {
      _ = try Importer.run([.bytes(Data(text.utf8), name: name)], into: archive, options: options)
    } catch {
      guard case .refused(let refused, _) = error, let first = refused.first else { throw error }
      #expect(try archive.read { try $0.charts() }.isEmpty)
      return .failure(first)
    }
    return .success(try archive.read { try $0.charts().map(\.name) })
  }

  /// The chart a refusal names, and the one required, or `nil` when it is not such a refusal.
  static func otherChart(_ result: Result<[String], RefusedSource>) -> [String]? {
    guard case .failure(let refused) = result,
      case .otherChart(let named, let required) =
        refused.reason
    else { return nil }
    return [named, required]
  }

  static let native =
    #"{"chart": "hot-100", "chart_date": "2024-01-20", "entries": [{"rank": 1, "title": "A", "artist": "B"}]}"#

  @Test func aNativeFileNamingAnotherChartIsRefused() throws {
    let result = try Self.upload(Self.native, name: "app-weekly/upload")
    #expect(Self.otherChart(result) == ["hot-100", "app-weekly"])
    // The same file naming the chart it is sent to is stored.
    let same = Self.native.replacingOccurrences(of: "hot-100", with: "app-weekly")
    #expect(try Self.upload(same, name: "app-weekly/upload").get() == ["app-weekly"])
    // `--chart` stays an override.
    var override = Self.required
    override.chartIsRequired = false
    #expect(
      try Self.upload(Self.native, name: "app-weekly/upload", options: override).get()
        == ["app-weekly"])
  }

  @Test func billboardPysNameCounts() throws {
    let file =
      #"{"name": "hot-100", "date": "2024-01-20", "entries": [{"rank": 1, "title": "A", "artist": "B", "lastPos": 0}]}"#
    #expect(
      Self.otherChart(try Self.upload(file, name: "app-weekly/upload")) == [
        "hot-100", "app-weekly",
      ])
  }

  @Test func aChartsCSVWhoseRowsNameOtherChartsIsRefused() throws {
    let header = "title,rank,date,artist,url,region,chart,trend,streams\n"
    let one = "A,1,2017-01-06,B,https://t.example/a,Global,top200,NEW_ENTRY,10\n"
    let two = "C,2,2017-01-06,D,https://t.example/c,Global,viral50,NEW_ENTRY,5\n"
    var options = Self.required
    options.chart = "top200-global"
    #expect(
      try Self.upload(header + one, name: "top200-global/upload", options: options).get()
        == ["top200-global"])
    // A second row of another chart, in the same snapshot as the chart given would store it.
    #expect(
      Self.otherChart(try Self.upload(header + one + two, name: "x/upload", options: options))
        == ["viral50-global", "top200-global"])
    // Each chart's rank 1: the charts are told, not a rank given twice (as the sample charts
    // CSV uploaded to another chart's address was).
    let viral = "C,1,2017-01-06,D,https://t.example/c,Global,viral50,NEW_ENTRY,5\n"
    #expect(
      Self.otherChart(try Self.upload(header + one + viral, name: "x/upload", options: options))
        == ["viral50-global", "top200-global"])
    // The region makes another chart of the one given.
    #expect(
      Self.otherChart(
        try Self.upload(
          header + one, name: "x/upload",
          options: .init(
            chart: "top200", chartIsRequired: true))) == ["top200-global", "top200"])
  }

  @Test func aRegionWithoutAChartGoesToAnotherChart() throws {
    let file =
      "track_position,track_name,artist_name,stream_count,track_url,region_name,date\n"
      + "1,A,B,10,https://t.example/a,Global,2017-01-01\n"
    #expect(
      Self.otherChart(try Self.upload(file, name: "app-weekly/upload"))
        == ["app-weekly-global", "app-weekly"])
  }

  @Test func namesOfFilesAndFoldersNeverCount() throws {
    let weekly =
      #"{"date": "2024-01-20", "data": [{"song": "A", "artist": "B", "this_week": 1, "last_week": null, "peak_position": null, "weeks_on_chart": null}]}"#
    #expect(try Self.upload(weekly, name: "hot-100/2024-01-20.json").get() == ["app-weekly"])
    let spotify =
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,weeks_on_chart,streams\n"
      + "1,spotify:track:a,B,A,L,1,-1,1,10\n"
    #expect(
      try Self.upload(spotify, name: "regional-global-weekly-2024-03-21.csv").get()
        == ["app-weekly"])
  }

  @Test func anExportWithASnapshotOfAnotherChartIsRefused() throws {
    let same = Self.native.replacingOccurrences(of: "hot-100", with: "app-weekly")
    let other = Self.native.replacingOccurrences(of: "2024-01-20", with: "2024-01-27")
    #expect(
      Self.otherChart(try Self.upload(#"{"snapshots": [\#(same), \#(other)]}"#, name: "e.json"))
        == ["hot-100", "app-weekly"])
  }

  /// A dataset read in parts: its 10th week names another chart, after the first part was
  /// stored; none of it is kept.
  @Test func aLaterPartOfAnotherChartUndoesTheDataset() throws {
    var text =
      "url,week_id,week_position,song,performer,song_id,instance,previous_week_position,"
      + "peak_position,weeks_on_chart\n"
    let start = try ChartDate(iso8601: "2020-01-04")
    for week in 0..<10 {
      let date = ChartDate(secondsSince1970: start.secondsSince1970 + Int64(week) * 7 * 86_400)!
      let chart = week == 9 ? "billboard-200" : "hot-100"
      text +=
        "http://www.billboard.com/charts/\(chart)/\(date.iso8601),\(date.iso8601),1,A,B,AB,1,,1,"
        + "\(week + 1)\n"
    }
    var options = Self.required
    options.chart = "hot-100"
    #expect(
      Self.otherChart(try Self.upload(text, name: "billboard.csv", options: options))
        == ["billboard-200", "hot-100"])
    options.chartIsRequired = false
    #expect(try Self.upload(text, name: "billboard.csv", options: options).get() == ["hot-100"])
  }
}
