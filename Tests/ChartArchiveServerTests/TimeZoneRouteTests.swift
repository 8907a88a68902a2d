import ChartImport
import ChartStorage
import Foundation
import Testing

@testable import ChartArchiveServer

/// A chart cut at 12:00 Korea time, asked by the command line and the service with the dates of
/// its days in Seoul.
struct TimeZoneRouteTests {
  /// An archive of the two Korea-time weeks imported with `--timezone Asia/Seoul`.
  static func koreaArchive() throws -> (folder: TemporaryFolder, path: String) {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    for (date, titles) in [
      ("2024-06-01", ["Supernova", "How Sweet"]), ("2024-06-08", ["How Sweet", "Supernova"]),
    ] {
      let entries = titles.enumerated().map {
        #"{"rank": \#($0 + 1), "title": "\#($1)", "artist": "X"}"#
      }
      _ = try folder.write(
        "app-weekly/\(date)T12-00.json",
        #"{"chart": "app-weekly", "entries": [\#(entries.joined(separator: ", "))]}"#)
    }
    let run = chartArchive([
      "import", folder.url.appendingPathComponent("app-weekly").path, "--db", path, "--timezone",
      "Asia/Seoul", "--quiet",
    ])
    #expect(run.status == 0)
    return (folder, path)
  }

  @Test func theChartsZoneIsListedAndADateIsItsDayThere() throws {
    let (folder, archive) = try Self.koreaArchive()
    _ = folder
    #expect(
      chartArchive(["charts", "--db", archive]).output
        == "CHART       FREQUENCY  TIME ZONE   SNAPSHOTS  FIRST                 LAST\n"
        + "app-weekly  weekly     Asia/Seoul          2  2024-06-01T03:00:00Z  2024-06-08T03:00:00Z\n"
    )
    let charts = try #require(
      try JSONSerialization.jsonObject(
        with: Data(chartArchive(["charts", "--db", archive, "--format", "json"]).output.utf8))
        as? [String: [[String: Any]]])
    #expect(charts["charts"]?.first?["time_zone"] as? String == "Asia/Seoul")
    let shown = chartArchive(["show", "app-weekly", "2024-06-08", "--db", archive])
    #expect(shown.status == 0)
    #expect(
      shown.output.hasPrefix(
        "app-weekly · 2024-06-08T03:00:00Z, 12:00 on 2024-06-08 in Asia/Seoul"
          + " (previous: 2024-06-01T03:00:00Z)\n")
    )
    let service = try Service(archive)
    let answer = service.get("/api/charts/app-weekly/2024-06-08")
    #expect(answer.status == 200)
    #expect(
      answer.text
        == chartArchive([
          "show", "app-weekly", "2024-06-08T03:00:00Z", "--db", archive, "--format", "json",
        ]).output)
    let page = service.get("/charts/app-weekly/2024-06-08")
    #expect(page.status == 200)
    #expect(service.get("/api/charts/app-weekly/2024-06-07").status == 404)
  }

  @Test func aSnapshotIsDeletedByItsDayInTheChartsZone() throws {
    let (folder, archive) = try Self.koreaArchive()
    _ = folder
    let delete = chartArchive(["snapshots", "delete", "app-weekly", "2024-06-01", "--db", archive])
    #expect(delete.status == 0, "\(delete.error)")
    let left = chartArchive(["show", "app-weekly", "--db", archive])
    #expect(
      left.output.hasPrefix(
        "app-weekly · 2024-06-08T03:00:00Z, 12:00 on 2024-06-08 in Asia/Seoul (first snapshot)\n"))
  }

  @Test func anImportUnderAnotherZoneIsRefusedAndStoresNothing() throws {
    let (folder, archive) = try Self.koreaArchive()
    let refused = chartArchive([
      "import", folder.url.appendingPathComponent("app-weekly").path, "--db", archive,
      "--timezone", "Asia/Tokyo",
    ])
    #expect(refused.status == 65)
    let first = folder.url.appendingPathComponent("app-weekly/2024-06-01T12-00.json").path
    #expect(
      refused.error
        == "\(first): chart 'app-weekly' is cut in Asia/Seoul, and this import gives the time zone"
        + " Asia/Tokyo (give --timezone Asia/Seoul, the chart's zone, or import into another chart"
        + " with --chart NAME)\n"
        + "Error: 1 of 2 files could not be imported; nothing was stored\n")
    #expect(
      chartArchive(["snapshots", "app-weekly", "--db", archive, "--format", "csv"]).output
        .split(whereSeparator: \.isNewline).map { $0.split(separator: ",")[1] } == [
          "chart_date", "2024-06-01T03:00:00Z", "2024-06-08T03:00:00Z",
        ])
  }
}
