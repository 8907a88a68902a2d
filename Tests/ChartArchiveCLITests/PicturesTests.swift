import Foundation
import Testing

/// `history --format svg` and `report --format html`: the pages' pictures from the command line.
struct PicturesTests {
  /// librsvg's converter (Debian's librsvg2-bin, installed by `script/setup --test-tools`).
  static let rsvgConvert = "/usr/bin/rsvg-convert"
  static let rsvgIsInstalled = FileManager.default.isExecutableFile(atPath: rsvgConvert)

  /// Converts an SVG picture to PNG with rsvg-convert: its status and what it said.
  static func convert(_ svg: String) throws -> Run {
    let folder = try TemporaryFolder()
    let input = try folder.write("picture.svg", svg)
    return try StartedProcess(
      URL(fileURLWithPath: rsvgConvert), [input, "-o", folder.path + "/picture.png"],
      environment: [:]
    ).wait()
  }

  @Test func aSongsRunAsAPicture() throws {
    let archive = try PageFixture.archive.get()
    // One chart's run (the song is on each of the app's five charts).
    let run = try chartArchive([
      "history", "night sky", "--chart", "app-daily", "--format", "svg", "--db", archive,
    ])
    #expect(run.status == 0)
    #expect(run.error == "")
    let svg = run.output
    #expect(
      svg.hasPrefix(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\""
      ))
    #expect(svg.hasSuffix("</svg>\n"))
    #expect(svg.contains("<title>밤하늘 (Night Sky) — LUNAR</title>"))
    // The ranks of `history`, one point each, joined by one line (no re-entry).
    let table = try chartArchive([
      "history", "night sky", "--chart", "app-daily", "--format", "json", "--db", archive,
    ])
    let recordings = try #require(try json(table.output)["recordings"] as? [[String: Any]])
    let charts = try #require(recordings.first?["charts"] as? [[String: Any]])
    let entries = try #require(charts.first?["entries"] as? [[String: Any]])
    let expected = entries.map {
      "\($0["chart_date"] as? String ?? ""): rank \($0["rank"] as? Int ?? 0)"
    }
    let tooltips = svg.matches(of: /r="3"><title>([^<]+)<\/title>/).map { String($0.1) }
    #expect(tooltips == expected)
    #expect(tooltips.count == 5)
    let path = try #require(svg.firstMatch(of: /<path d="([^"]+)"/)?.1)
    #expect(path.filter { $0 == "M" || $0 == "L" } == "MLLLL")
    #expect(svg.contains("<title>peak 1 on 2024-05-02</title>"))
    // No legend for one line.
    #expect(!svg.contains("class=\"legend\""))
  }

  @Test func severalSongsOnOnePictureWithALegend() throws {
    let archive = try PageFixture.archive.get()
    let night = try PageFixture.songID(["night sky"])
    let cafe = try PageFixture.songID(["cafe de flore"])
    let run = try chartArchive(
      [
        "history", "--song", "\(night)", "--song", "\(cafe)", "--chart", "app-daily", "--format",
        "svg", "--db", archive,
      ])
    #expect(run.status == 0)
    let legend = run.output.matches(of: /<text class="lt" [^>]*>([^<]+)<\/text>/).map {
      String($0.1)
    }
    #expect(
      legend == ["밤하늘 (Night Sky) — LUNAR · peak 1", "Café de Flore — Élodie Marchand · peak 1"])
    #expect(run.output.contains("<title>2 songs</title>"))
    // A search that finds many draws the first 12, saying so.
    let christmas = try chartArchive(["history", "christmas", "--format", "svg", "--db", archive])
    #expect(christmas.status == 0)
    #expect(
      christmas.error
        == "16 songs match 'christmas'; the first 12 are drawn (narrow the search, or pick songs"
        + " with --song ID)\n")
    #expect(christmas.output.matches(of: #/<text class="lt" /#).count == 12)
    // Several --song are for pictures only.
    let table = try chartArchive(["history", "--song", "1", "--song", "2", "--db", archive])
    #expect(table.status == 64)
    #expect(
      table.error.hasPrefix(
        "Error: --song is given once, but for --format svg (several songs on a picture)\n"))
    let unknown = try chartArchive(["history", "x", "--format", "png", "--db", archive])
    #expect(
      unknown.error.hasPrefix("Error: unknown format 'png' (expected table, json, csv or svg)\n"))
  }

  @Test(
    .enabled(
      if: rsvgIsInstalled,
      "rsvg-convert is not installed (script/setup --test-tools installs librsvg2-bin): skipped"))
  func rsvgConvertDrawsThePicturesWithoutComplaint() throws {
    let archive = try PageFixture.archive.get()
    for arguments in [
      ["history", "night sky"], ["history", "Snooze"], ["history", "christmas"],
      ["history", "alert(1)"], ["history", "--chart", PageFixture.chart, "--artist", "artist"],
    ] {
      let svg = try chartArchive(arguments + ["--format", "svg", "--db", archive]).output
      let converted = try Self.convert(svg)
      #expect(converted.status == 0, "\(arguments)")
      #expect(converted.error == "", "\(arguments)")
      #expect(converted.output == "", "\(arguments)")
    }
  }

  @Test func theHostileTitlesAreTextInThePicture() throws {
    let archive = try PageFixture.archive.get()
    let run = try chartArchive(["history", "alert(1)", "--format", "svg", "--db", archive])
    #expect(run.status == 0)
    #expect(
      run.output.contains(
        "<title>&lt;script&gt;alert(1)&lt;/script&gt; — &lt;i&gt;Artist&lt;/i&gt; &amp; Co</title>")
    )
    #expect(!run.output.contains("<script"))
  }

  @Test func aReportAsOneSelfContainedPage() throws {
    let archive = try PageFixture.archive.get()
    let run = try chartArchive(["report", "hot-100", "--format", "html", "--db", archive])
    #expect(run.status == 0)
    let page = run.output
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    #expect(page.contains("<title>hot-100 · 2024-01-13: report · ChartArchive</title>"))
    // The style sheet is inside; nothing refers to the server.
    #expect(page.contains("<style>\n/* ChartArchive's pages"))
    #expect(!page.contains("href=\"/"))
    #expect(!page.contains("src=\"/"))
    #expect(!page.contains("<script"))
    #expect(
      page.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
          + " style-src 'unsafe-inline'; img-src https:; base-uri 'none'\">"))
    // The report's sections with the command line's numbers.
    let table = try chartArchive(["report", "hot-100", "--format", "json", "--db", archive])
    let report = try json(table.output)
    let debuts = try #require(report["debuts"] as? [[String: Any]])
    let dropOuts = try #require(report["drop_outs"] as? [[String: Any]])
    #expect(page.contains("<h2>Debuts (\(debuts.count))</h2>"))
    #expect(page.contains("<h2>Drop-outs (\(dropOuts.count))</h2>"))
    #expect(page.contains("<span><bdi>Lovin On Me</bdi></span>"))
  }
}
