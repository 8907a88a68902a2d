import Foundation
import Testing

struct ExportTests {
  @Test(arguments: ["json", "csv"])
  func anExportImportedIntoAnEmptyArchiveExportsTheSame(format: String) throws {
    let folder = try TemporaryFolder()
    let first = folder.url.appendingPathComponent("first.sqlite").path
    let second = folder.url.appendingPathComponent("second.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", first]).status == 0)
    for chart in ["hot-100", "app-daily"] {
      let exported = try chartArchive(["export", chart, "--format", format, "--db", first])
      #expect(exported.status == 0)
      let file = try folder.write("\(chart).\(format)", exported.output)
      #expect(try chartArchive(["import", file, "--db", second]).status == 0)
      let again = try chartArchive(["export", chart, "--format", format, "--db", second])
      #expect(again.output == exported.output)
      #expect(
        try chartArchive(["show", chart, "--format", "csv", "--db", second]).output
          == chartArchive(["show", chart, "--format", "csv", "--db", first]).output)
    }
  }

  /// The movements a source published (a charts CSV's `trend`) are exported and imported again
  /// with their words: the second archive exports the same and its audit finds the same
  /// disagreement (Starboy, 2 on both days, published as MOVE_UP). They were left out of exports.
  @Test(arguments: ["json", "csv"])
  func publishedTrendsSurviveAnExport(format: String) throws {
    let folder = try TemporaryFolder()
    let first = folder.url.appendingPathComponent("first.sqlite").path
    let second = folder.url.appendingPathComponent("second.sqlite").path
    let sample = "Tests/ChartFormatsTests/Samples/charts.csv"
    #expect(try chartArchive(["import", sample, "--db", first, "--quiet"]).status == 0)
    let exported = try chartArchive(["export", "top200-global", "--format", format, "--db", first])
    #expect(exported.status == 0)
    let lines = exported.output.components(separatedBy: format == "csv" ? "\r\n" : "\n")
    if format == "csv" {
      #expect(lines.first?.hasSuffix(",streams,trend") == true)
      #expect(
        lines.contains {
          $0.hasPrefix("top200-global,2017-01-07,2,") && $0.hasSuffix(",up: MOVE_UP")
        })
    } else {
      #expect(exported.output.contains(#""trend": "not on previous: NEW_ENTRY""#))
      #expect(exported.output.contains(#""trend": "up: MOVE_UP""#))
    }
    let file = try folder.write("top200-global.\(format)", exported.output)
    #expect(try chartArchive(["import", file, "--db", second, "--quiet"]).status == 0)
    let again = try chartArchive(["export", "top200-global", "--format", format, "--db", second])
    #expect(again.output == exported.output)
    let audit = ["audit", "top200-global", "--format", "csv"]
    let audited = try chartArchive(audit + ["--db", first]).output
    #expect(audited.contains("MOVE_UP"))
    #expect(try chartArchive(audit + ["--db", second]).output == audited)
  }

  @Test func datesGivenTwiceOrOutOfOrderExportEachSnapshotOnceOldestFirst() throws {
    // 2024-05-01 twice made a file that could not be imported again, and latest came before
    // previous though the help says oldest first.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data/app-daily", "--db", archive]).status == 0)
    let run = try chartArchive([
      "export", "app-daily", "latest", "2024-05-01", "previous", "2024-05-01", "--format", "csv",
      "--db", archive,
    ])
    #expect(run.status == 0)
    let dates = run.output.split(separator: "\r\n").dropFirst().map {
      String($0.split(separator: ",")[1])
    }
    #expect(
      dates == Array(repeating: "2024-05-01", count: 10) + Array(repeating: "2024-05-04", count: 10)
        + Array(repeating: "2024-05-05", count: 10))
  }

  @Test func titlesRoundTripExactlyAndAreFound() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    // NFD "Beyonce" + combining acute, NFC "Beyoncé", right-to-left, emoji, quotes, backslashes.
    let file = try folder.write(
      "odd.json",
      """
      {"chart": "odd", "chart_date": "2024-05-02", "entries": [
        {"rank": 1, "title": "Say \\"Hi\\" \\\\ again", "artist": "Beyonce\\u0301"},
        {"rank": 2, "title": "🎵 Fire 🔥", "artist": "Beyoncé"},
        {"rank": 3, "title": "אהבה حب", "artist": "Zoë"}
      ]}
      """)
    #expect(try chartArchive(["import", file, "--db", archive]).status == 0)
    let exported = try chartArchive(["export", "odd", "--db", archive]).output
    #expect(exported.contains(#""title": "Say \"Hi\" \\ again", "artist": "Beyonce\#u{301}""#))
    #expect(exported.contains(#""title": "🎵 Fire 🔥", "artist": "Beyoncé""#))
    #expect(exported.contains(#""title": "אהבה حب", "artist": "Zoë""#))
    for (query, title) in [
      ("say \"hi\"", "Say \"Hi\" \\ again"), ("🔥", "🎵 Fire 🔥"), ("حب", "אהבה حب"),
      ("ZOE\u{308}", "אהבה حب"),
    ] {
      let run = try chartArchive(["history", query, "--db", archive, "--format", "json"])
      #expect(run.status == 0, "\(query)")
      #expect(try json(run.output)["title"] as? String == title, "\(query)")
    }
    // NFC and NFD spellings of one artist are one artist to a search: both songs match.
    let both = try chartArchive(["history", "beyoncé", "--db", archive, "--format", "csv"])
    #expect(both.status == 1)
    #expect(both.output.components(separatedBy: "\r\n").count == 4)
  }
}
