import Foundation
import Testing

@testable import ChartArchiveServer

/// A chart's Atom feed (`/charts/NAME.atom`): a feed reader is told of each new snapshot with its
/// number one, debuts and re-entries.
struct AtomFeedTests {
  @Test func aChartsFeedHasAnEntryPerSnapshotNewestFirst() throws {
    let (folder, path) = try TestArchive.shared.get()
    _ = folder
    let service = try Service(path)
    let reply = service.get("/charts/hot-100.atom")
    #expect(reply.status == 200)
    #expect(reply.header("Content-Type") == "application/atom+xml")
    let xml = reply.text
    #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="utf-8"?>"# + "\n"))
    let ids = xml.components(separatedBy: "\n").filter { $0.hasPrefix("<id>") }
    #expect(
      ids == [
        "<id>tag:chart-archive,2026:charts/hot-100</id>",
        "<id>tag:chart-archive,2026:charts/hot-100/2024-01-13</id>",
        "<id>tag:chart-archive,2026:charts/hot-100/2024-01-06</id>",
        "<id>tag:chart-archive,2026:charts/hot-100/2023-12-30</id>",
        "<id>tag:chart-archive,2026:charts/hot-100/2023-12-23</id>",
      ])
    let titles = xml.components(separatedBy: "\n").filter { $0.hasPrefix("<title>") }
    #expect(
      titles == [
        "<title>hot-100 · ChartArchive</title>",
        "<title>hot-100 2024-01-13: Lovin On Me by Jack Harlow at number one</title>",
        "<title>hot-100 2024-01-06: Rockin&#39; Around The Christmas Tree by Brenda Lee at number"
          + " one</title>",
        "<title>hot-100 2023-12-30: All I Want For Christmas Is You by Mariah Carey at number"
          + " one</title>",
        "<title>hot-100 2023-12-23: All I Want For Christmas Is You by Mariah Carey at number"
          + " one</title>",
      ])
    // The newest week's debuts and re-entries, as show marks them NEW and RE.
    let show = chartArchive(["show", "hot-100", "--db", path]).output
    let newCount = show.components(separatedBy: "\n").filter { $0.contains(" NEW ") }.count
    let reCount = show.components(separatedBy: "\n").filter { $0.contains(" RE ") }.count
    #expect(xml.contains("&lt;p&gt;Debuts (\(newCount)): "))
    #expect(xml.contains("&lt;p&gt;Re-entries (\(reCount)): "))
    #expect(newCount == 5)
    // The chart's pages name the feed for a reader to find.
    #expect(
      service.get("/charts/hot-100").text.contains(
        #"<link rel="alternate" type="application/atom+xml" title="hot-100 (Atom)" href="/charts/hot-100.atom">"#
      ))
    #expect(service.get("/charts/no-such-chart.atom").status == 404)
  }

  /// feedparser, a feed reader's library, reads the feed without a complaint, and a reader shows
  /// each snapshot's title and the page it links to.
  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(
        atPath: packageRoot.appendingPathComponent(".build/test-tools/bin/python").path),
      "feedparser is not installed (run script/setup --test-tools): skipped"))
  func feedparserReadsTheFeed() throws {
    let (folder, path) = try TestArchive.shared.get()
    let file = folder.url.appendingPathComponent("app-daily-\(UUID().uuidString).atom")
    try Data(try Service(path).get("/charts/app-daily.atom").body.bytes).write(to: file)
    let script = """
      import sys, feedparser
      d = feedparser.parse(open(sys.argv[1], 'rb').read(), response_headers={
          'content-location': 'http://127.0.0.1:8080/charts/app-daily.atom',
          'content-type': 'application/atom+xml'})
      print(d.bozo, d.version, d.feed.title, d.feed.link)
      for e in d.entries: print(e.id, '|', e.title, '|', e.link)
      """
    let process = Process()
    process.executableURL = packageRoot.appendingPathComponent(".build/test-tools/bin/python")
    process.arguments = ["-c", script, file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      text.components(separatedBy: "\n") == [
        "False atom10 app-daily · ChartArchive http://127.0.0.1:8080/charts/app-daily",
        "tag:chart-archive,2026:charts/app-daily/2024-05-05 | app-daily 2024-05-05: Café de Flore by"
          + " Élodie Marchand at number one | http://127.0.0.1:8080/charts/app-daily/2024-05-05",
        "tag:chart-archive,2026:charts/app-daily/2024-05-04 | app-daily 2024-05-04: Café de Flore by"
          + " Élodie Marchand at number one | http://127.0.0.1:8080/charts/app-daily/2024-05-04",
        "tag:chart-archive,2026:charts/app-daily/2024-05-03 | app-daily 2024-05-03: 밤하늘 (Night Sky)"
          + " by LUNAR at number one | http://127.0.0.1:8080/charts/app-daily/2024-05-03",
        "tag:chart-archive,2026:charts/app-daily/2024-05-02 | app-daily 2024-05-02: 밤하늘 (Night Sky)"
          + " by LUNAR at number one | http://127.0.0.1:8080/charts/app-daily/2024-05-02",
        "tag:chart-archive,2026:charts/app-daily/2024-05-01 | app-daily 2024-05-01: Neon Harbor by"
          + " Mira Solen at number one | http://127.0.0.1:8080/charts/app-daily/2024-05-01",
        "",
      ])
  }
}
