import Foundation
import Testing

@testable import ChartArchiveServer

/// The web pages `serve` answers, asked through the router (the browser check, on the real
/// server, is the command line tests' `BrowserCheckTests`), on Sample-data and the made-up chart
/// with hostile titles.
struct PagesTests {
  /// The markers of the made-up chart's third week, by rank: song 0 climbs from 2, song 1 falls
  /// from 1, song 19 re-enters, song 3 stays at 4, song 2 falls from 3 to 5, and the songs below
  /// fall one place each (song 20 from 5, song 5 from 6, song 4 from 7, then 8 to 19).
  static let thirdWeekMarkers = ["▲1", "▼1", "RE", "–", "▼2"] + Array(repeating: "▼1", count: 15)

  /// The texts of every movement marker of a page, in order.
  static func markers(_ html: String) -> [String] {
    html.matches(of: /<span class="mv [a-z]+" role="img" aria-label="[^"]+">([^<]+)<\/span>/)
      .map { String($0.1) }
  }

  /// The entries of a page's first list of entries.
  static func entryCount(_ html: String) -> Int {
    guard let list = html.firstMatch(of: /<ol class="entries">\n((?:<li>.*<\/li>\n)*)<\/ol>/)
    else { return 0 }
    return list.1.split(separator: "\n").count
  }

  /// A router on the archive with the hostile chart, and the archive's path.
  static func service() throws -> (Service, String) {
    let archive = try TestArchive.withHostileChart.get().path
    return (try Service(archive), archive)
  }

  @Test func everyPageKindAnswersHTMLWithAPolicyAllowingNoScript() throws {
    let (service, archive) = try Self.service()
    let night = try songID(["night sky"], in: archive)
    let pages = [
      "/", "/charts/hot-100", "/charts/app-daily/2024-05-03", "/songs/\(night)",
      "/charts/hot-100/diff?from=2023-12-23&to=2024-01-13",
      "/charts/hot-100/report?date=2024-01-13", "/charts/hot-100/records",
      "/charts/\(TestArchive.hostileSegment)/records?from=2024-03-09", "/charts/hot-100/years/2024",
      "/search?q=christmas", "/charts/\(TestArchive.hostileSegment)/2024-03-16",
      "/charts/\(TestArchive.hostileSegment)/report?date=latest",
      "/charts/\(TestArchive.hostileSegment)/diff?from=2024-03-02&to=2024-03-16",
    ]
    for page in pages {
      let response = service.get(page)
      #expect(response.status == 200, "\(page)")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8", "\(page)")
      #expect(
        response.header("Content-Security-Policy")
          == "default-src 'none'; style-src 'self'; img-src 'self' https:; form-action 'self';"
          + " base-uri 'none'; frame-ancestors 'none'", "\(page)")
      #expect(response.header("X-Content-Type-Options") == "nosniff")
      #expect(!response.text.contains("<script"), "\(page)")
      #expect(!response.text.contains("javascript:alert(4)"), "\(page)")
      #expect(!response.text.contains("href=\"javascript:"), "\(page)")
      #expect(response.text.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"), "\(page)")
      #expect(response.text.contains("<form class=\"search\" role=\"search\" action=\"/search\""))
    }
  }

  @Test func titlesAreTextOnTheHostileChartsPage() throws {
    let (service, _) = try Self.service()
    let page = service.get("/charts/\(TestArchive.hostileSegment)/2024-03-16").text
    #expect(Self.entryCount(page) == 20)
    #expect(Array(Self.markers(page).prefix(20)) == Self.thirdWeekMarkers)
    #expect(
      page.contains(
        "<title>hostile &lt;b&gt;&quot;chart&quot;&lt;/b&gt; &amp; co · 2024-03-16 · ChartArchive"
          + "</title>"))
    #expect(page.contains(">&lt;script&gt;alert(1)&lt;/script&gt;</bdi></a>"))
    #expect(
      page.contains(">&quot;Quoted&quot; &amp; &#39;single&#39; &lt;b&gt;bold&lt;/b&gt;</bdi></a>"))
    #expect(page.contains(">&lt;/title&gt;&lt;img src=x onerror=alert(2)&gt;</bdi></a>"))
    #expect(page.contains("<span><bdi>👩‍🎤 Star</bdi></span>"))
    // The song URL with quotes is an attribute value still; javascript: URLs are no link at all.
    #expect(page.contains("<a href=\"https://music.example.com/t/0?a=1&amp;b=&quot;2&quot;\""))
    #expect(!page.contains("alert(5)"))
    #expect(page.contains("<img src=\"https://images.example.com/c0.jpg\" alt=\"\""))
    // Song 18 dropped out from 20; the biggest climber is song 0.
    #expect(page.contains("<h2 id=\"drop-outs\">Drop-outs (1)</h2>"))
    #expect(page.contains("<td class=\"n\">20</td><td class=\"s\"><a href=\"/songs/"))
    #expect(page.contains("><bdi>Song 19</bdi></a></td><td class=\"s\"><bdi>Artist 19</bdi></td>"))
    let second = service.get("/charts/\(TestArchive.hostileSegment)/2024-03-09").text
    #expect(
      Array(Self.markers(second).prefix(20))
        == ["▲1", "▼1", "–", "–", "NEW", "–", "▼2"] + Array(repeating: "▼1", count: 13))
  }

  @Test func aSnapshotPageLinksTheChartDatesAroundIt() throws {
    let (service, archive) = try Self.service()
    let page = service.get("/charts/hot-100/2023-12-30").text
    #expect(Self.entryCount(page) == 100)
    #expect(page.contains("<a rel=\"prev\" href=\"/charts/hot-100/2023-12-23\">← 2023-12-23</a>"))
    #expect(page.contains("<a rel=\"next\" href=\"/charts/hot-100/2024-01-06\">2024-01-06 →</a>"))
    #expect(
      page.contains(
        "<input id=\"d\" type=\"date\" name=\"date\" value=\"2023-12-30\" required"
          + " max=\"2024-01-13\">"))
    // The markers are the command line's.
    let shown = chartArchive(["show", "hot-100", "2023-12-30", "--db", archive]).output.split(
      separator: "\n", omittingEmptySubsequences: false)[3..<103]
      .map { String($0.split(separator: " ")[1]) }
    #expect(Array(Self.markers(page).prefix(100)) == shown)
    // The date picker's date: that date's snapshot, else the one before it.
    let picked = service.get("/charts/hot-100?date=2024-01-01")
    #expect(picked.status == 303)
    #expect(picked.header("Location") == "/charts/hot-100/2023-12-30")
    let early = service.get("/charts/hot-100?date=2020-01-01")
    #expect(early.header("Location") == "/charts/hot-100/2023-12-23")
    // A chart page weighs under 50 KB without its images.
    #expect(page.utf8.count < 50 * 1024)
  }

  /// The records page lists each leaderboard as `records` does, links each song and date, and is
  /// linked from the chart's page and each song's.
  @Test func theRecordsPageListsEveryLeaderboardAndIsLinked() throws {
    let (service, archive) = try Self.service()
    let page = service.get("/charts/hot-100/records?from=2023-12-30").text
    #expect(page.contains("<h1>hot-100: records</h1>"))
    #expect(page.contains("Leaderboards of from 2023-12-30, read from the figures"))
    #expect(
      page.contains(
        "<input id=\"rf\" type=\"date\" name=\"from\" value=\"2023-12-30\"><label for=\"rt\">"))
    let headings = page.matches(of: /<h2 id="([a-z0-9-]+)">([^<]+)<\/h2>/).map {
      "\($0.1): \($0.2)"
    }
    #expect(
      headings == [
        "weeks-at-number-one: Most weeks at number one",
        "longest-stay-at-number-one: Longest stay at number one (weeks in a row)",
        "weeks-on-chart: Most weeks on the chart",
        "longest-run: Longest single run (weeks in a row on the chart)",
        "highest-debut: Highest debuts (rank)",
        "biggest-climb: Biggest climbs (places up from one chart to the next)",
        "biggest-fall: Biggest falls (places down from one chart to the next)",
        "fastest-rise-to-number-one: Fastest rise to number one (weeks on the chart from debut"
          + " to number one, both counted)",
        "longest-road-to-number-one: Longest road to number one (weeks on the chart from debut"
          + " to number one, both counted)",
        "artist-number-ones: Artists with the most number ones (songs at number one)",
        "artist-top-10s: Artists with the most top-10 songs (songs in the top 10)",
        "artist-entries: Artists with the most entries (songs on the chart)",
        "artist-weeks-at-number-one: Artists with the most weeks at number one (weeks with a song"
          + " at number one)",
        "artist-entries-at-once: Artists with the most entries at once (songs on one chart)",
      ])
    // Each artist of the by-artist leaderboards links to their page.
    #expect(
      page.contains(
        /<td class="s"><a href="\/artists\/[0-9]+"><bdi>Jack Harlow<\/bdi><\/a><\/td>/))
    let lovin = try songID(["lovin on me"], in: archive)
    // Lovin On Me reached number one on 2024-01-13, in its eighth week (the source's count).
    #expect(
      page.contains(
        "<tr><td class=\"n\">1</td><td class=\"n\">8</td><td class=\"s\"><a href=\"/songs/\(lovin)\">"
          + "<bdi>Lovin On Me</bdi></a><br><small class=\"sub\"><bdi>Jack Harlow</bdi></small></td>"
          + "<td class=\"n\"><time datetime=\"2023-12-23\"><a href=\"/charts/hot-100/2023-12-23\">"
          + "2023-12-23</a></time><br><time datetime=\"2024-01-13\"><a"
          + " href=\"/charts/hot-100/2024-01-13\">2024-01-13</a></time></td></tr>"))
    #expect(
      service.get("/charts/hot-100").text.contains(
        "<a href=\"/charts/hot-100/records\">Records</a>"))
    #expect(
      service.get("/songs/\(lovin)").text.contains(
        "<p class=\"sub\"><a href=\"/charts/hot-100/records\">Records of hot-100</a></p>"))
    #expect(service.get("/charts/hot-100/records?from=2024-01-13&to=2024-01-06").status == 400)
    #expect(service.get("/charts/nothing/records").status == 404)
  }

  @Test func aSongPageDrawsOnePointPerChartDateWithAGapOffTheChart() throws {
    let (service, archive) = try Self.service()
    // Snooze: 2023-12-23 at 16, 2023-12-30 at 20, off the chart on 2024-01-06, back at 6.
    let snooze = try songID(["Snooze"], in: archive)
    let page = service.get("/songs/\(snooze)").text
    let path = try #require(page.firstMatch(of: /<path d="([^"]+)"/)?.1)
    #expect(path.filter { $0 == "M" || $0 == "L" } == "MLM")
    let tooltips = page.matches(
      of: /<circle cx="[0-9.]+" cy="[0-9.]+" r="3"><title>([^<]+)<\/title>/
    )
    .map { String($0.1) }
    #expect(tooltips == ["2023-12-23: rank 16", "2023-12-30: rank 20", "2024-01-13: rank 6"])
    #expect(page.contains("peak position 2*"))
    // Its peak and debut are the source's, from before the archive's first entry of it.
    #expect(page.contains("<dd>2* (reached before the archive's entries)</dd>"))
    #expect(page.contains("<dt>Debut</dt><dd>before 2023-12-23 (archived from <a "))
    // A song of the hostile chart: its title escaped in the picture too.
    let hostile = service.get("/songs/\(try songID(["alert(1)"], in: archive))").text
    #expect(hostile.contains("<title id=\"rc-t\">&lt;script&gt;alert(1)&lt;/script&gt; — "))
  }

  @Test func searchRedirectsToTheOneSongItFindsOrListsThem() throws {
    let (service, archive) = try Self.service()
    let one = service.get("/search?q=night+sky")
    #expect(one.status == 303)
    #expect(one.header("Location") == "/songs/\(try songID(["night sky"], in: archive))")
    let several = service.get("/search?q=christmas")
    #expect(several.status == 200)
    #expect(several.text.contains("<p class=\"sub\">16 songs match &#39;christmas&#39;.</p>"))
    #expect(several.text.contains("value=\"christmas\""))
    let misspelt = service.get("/search?q=chistmas").text
    #expect(misspelt.contains("Did you mean <a href=\"/search?q=christmas\">christmas</a>?"))
  }

  @Test func assetsComeFromTheBinaryAndNothingElseIsServed() throws {
    let (service, _) = try Self.service()
    let style = service.get("/assets/style.css")
    #expect(style.status == 200)
    #expect(style.header("Content-Type") == "text/css; charset=utf-8")
    let source = try String(
      contentsOf: packageRoot.appendingPathComponent("Sources/ChartPresentation/Assets/style.css"),
      encoding: .utf8)
    #expect(style.text == source)
    #expect(service.get("/assets/icon.svg").header("Content-Type") == "image/svg+xml")
    for path in [
      "/assets/..%2F..%2FPackage.swift", "/assets/%2e%2e/README.md", "/Package.swift",
      "/assets/style.css/x",
    ] {
      let response = service.get(path)
      #expect(response.status == 404, "\(path)")
      #expect(response.header("Content-Type") == "text/html; charset=utf-8")
      #expect(response.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
    }
    let missing = service.get("/charts/hot-100/2024-01-01")
    #expect(missing.status == 404)
    #expect(
      missing.text.contains(
        "<p class=\"sub\">chart &#39;hot-100&#39; has no snapshot dated 2024-01-01 (the nearest are 2023-12-30 and"
          + " 2024-01-06)</p>"))
    // Pages take GET and HEAD only, on every path outside /api/: a page or the page that says
    // there is none.
    for (method, path) in [
      ("POST", "/charts/hot-100"), ("OPTIONS", "/"), ("DELETE", "/nothing"), ("PUT", "/assets/x"),
    ] {
      let refused = service.request(method, path)
      #expect(refused.status == 405, "\(method) \(path)")
      #expect(refused.header("Allow") == "GET, HEAD")
      #expect(refused.header("Content-Type") == "text/html; charset=utf-8")
      #expect(refused.text.contains("\(method) is not allowed here (allowed: GET, HEAD)"))
    }
    #expect(service.get("/nothing").text.contains("no such page: /nothing"))
    let charts = service.get("/charts")
    #expect(charts.status == 301)
    #expect(charts.header("Location") == "/")
    #expect(charts.header("Cache-Control") == "no-store")
    let badDate = service.get("/charts/hot-100?date=tomorrow")
    #expect(badDate.status == 400)
    #expect(badDate.text.contains("date &#39;tomorrow&#39; is not a chart date (YYYY-MM-DD)"))
    // An empty date is the date picker's nothing: the latest snapshot.
    #expect(service.get("/charts/hot-100?date=").status == 200)
    // A malformed escape is refused before any page is looked for.
    #expect(service.get("/charts/%ZZ").status == 400)
  }

  @Test func theNotFoundPageOfADateLinksTheNearestChartDates() throws {
    let (service, _) = try Self.service()
    // The page named the nearest dates, as text only.
    let between = service.get("/charts/hot-100/2024-01-01")
    #expect(between.status == 404)
    #expect(
      between.text.contains(
        "<nav class=\"bar\" aria-label=\"Nearest pages\"><a href=\"/charts/hot-100/2023-12-30\">"
          + "← 2023-12-30</a><a href=\"/charts/hot-100/2024-01-06\">2024-01-06 →</a></nav>\n"
          + "<p><a href=\"/\">All charts</a></p>"))
    let before = service.get("/charts/hot-100/2020-01-01").text
    #expect(
      before.contains(
        "<nav class=\"bar\" aria-label=\"Nearest pages\"><a href=\"/charts/hot-100/2023-12-23\">"
          + "2023-12-23 →</a></nav>"))
    let hourly = service.get("/charts/app-hourly/2024-05-05T12:30:00Z").text
    #expect(
      hourly.contains(
        "<a href=\"/charts/app-hourly/2024-05-05T12:00:00Z\">← 2024-05-05T12:00:00Z</a>"
          + "<a href=\"/charts/app-hourly/2024-05-05T13:00:00Z\">2024-05-05T13:00:00Z →</a>"))
    // Other pages that are not found link nothing but the charts.
    #expect(!service.get("/charts/nothing").text.contains("<nav class=\"bar\""))
  }

  @Test func tablesKeepTheirColumnsThatMatterOnAPhone() throws {
    let (service, archive) = try Self.service()
    // The diff's debuts and re-entries have no previous rank: no empty "Was" column.
    let diff = service.get("/charts/hot-100/diff?from=2023-12-23&to=2024-01-13").text
    let heads = diff.matches(of: /<thead><tr>(.*?)<\/tr><\/thead>/).map { String($0.1) }
    #expect(
      heads == [
        "<th class=\"n\" scope=\"col\">Rank</th><th scope=\"col\">Move</th>"
          + "<th scope=\"col\">Title</th><th scope=\"col\">Artist</th>",
        "<th class=\"n\" scope=\"col\">Was</th><th scope=\"col\">Title</th>"
          + "<th scope=\"col\">Artist</th>",
        "<th class=\"n\" scope=\"col\">Rank</th><th scope=\"col\">Move</th>"
          + "<th class=\"n\" scope=\"col\">Was</th><th scope=\"col\">Title</th>"
          + "<th scope=\"col\">Artist</th>",
      ])
    #expect(
      diff.contains(
        "<tr><td class=\"n\">15</td><td class=\"s\"><span class=\"mv re\" role=\"img\""
          + " aria-label=\"re-entry\">RE</span></td><td class=\"s\"><a href=\"/songs/"))
    // A song's table: last week's rank gives way on a phone (class m).
    let snooze = try songID(["Snooze"], in: archive)
    let song = service.get("/songs/\(snooze)").text
    #expect(
      song.contains(
        "<thead><tr><th scope=\"col\">Chart date</th><th class=\"n\" scope=\"col\">Rank</th>"
          + "<th scope=\"col\">Move</th><th class=\"n m\" scope=\"col\">Last</th>"
          + "<th class=\"n\" scope=\"col\">Peak</th><th class=\"n\" scope=\"col\">Weeks</th>"
          + "</tr></thead>"))
    #expect(
      song.matches(of: /<td class="n m">(\d*)<\/td>/).map { String($0.1) } == ["9", "16", ""])
    // The search's first chart date and entries give way.
    let search = service.get("/search?q=christmas").text
    #expect(
      search.contains(
        "<th scope=\"col\">Title</th><th scope=\"col\">Artist</th>"
          + "<th class=\"m\" scope=\"col\">First charted</th>"
          + "<th class=\"n\" scope=\"col\">Best rank</th>"
          + "<th class=\"n m\" scope=\"col\">Entries</th>"))
  }

  @Test func aDatedPageIsKeptAndRevalidated() throws {
    let (service, _) = try Self.service()
    let first = service.get("/charts/hot-100/2024-01-06")
    #expect(first.header("Cache-Control") == "public, max-age=3600")
    let tag = try #require(first.header("ETag"))
    let again = service.get("/charts/hot-100/2024-01-06", headers: ["If-None-Match": tag])
    #expect(again.status == 304)
    let zipped = service.get(
      "/charts/hot-100/2024-01-06", headers: ["Accept-Encoding": "gzip"])
    #expect(zipped.header("Content-Encoding") == "gzip")
    #expect(service.get("/charts/hot-100").header("Cache-Control") == "public, max-age=60")
    // A dated report or diff is kept a day, the latest a minute; the assets a day.
    for (target, seconds) in [
      ("/charts/hot-100/report?date=2024-01-06", 86_400), ("/charts/hot-100/report", 60),
      ("/charts/hot-100/diff?from=2023-12-30&to=2024-01-06", 86_400),
      ("/charts/hot-100/diff?from=2023-12-30", 60),
      // Keywords name snapshots that change with the next import.
      ("/charts/hot-100/diff?from=previous&to=latest", 60),
      ("/api/charts/hot-100/diff?from=previous&to=latest", 60),
      ("/api/charts/hot-100/diff?from=2023-12-30&to=2024-01-06", 86_400),
      ("/assets/style.css", 86_400),
      ("/songs/1", 60), ("/", 60), ("/search?q=christmas", 60),
    ] {
      #expect(
        service.get(target).header("Cache-Control") == "public, max-age=\(seconds)", "\(target)")
    }
  }

  /// The year page lists the year chart `period --year` gives (its top 100), says it is the
  /// archive's ranking, links the years around it; the snapshot page links its year, and a song's
  /// page the years it charted in; a year that is not one is no page.
  @Test func theYearPageListsTheYearChartAndIsLinked() throws {
    let (service, archive) = try Self.service()
    let page = service.get("/charts/hot-100/years/2024")
    #expect(page.status == 200)
    #expect(page.text.contains("<title>hot-100 · 2024 · ChartArchive</title>"))
    #expect(
      page.text.contains(
        "Year chart of 2024 (charts dated 2023-12-01 to 2024-11-30): 4 weeks, 154 songs, scored by"
          + " root."))
    #expect(
      page.text.contains(
        "<p class=\"notes\">The archive&#39;s own ranking from the charts it holds, not a"
          + " publisher&#39;s year-end chart.</p>"))
    #expect(page.text.contains("<a rel=\"prev\" href=\"/charts/hot-100/years/2023\">← 2023</a>"))
    #expect(page.text.contains("<a rel=\"next\" href=\"/charts/hot-100/years/2025\">2025 →</a>"))
    #expect(Self.entryCount(page.text) == 100)
    #expect(Self.markers(page.text).allSatisfy { $0 == "NEW" })
    let mariah = try songID(["all i want for christmas"], in: archive)
    #expect(
      page.text.contains(
        "<li><i></i><b>1</b><span class=\"mv new\" role=\"img\" aria-label=\"new\">NEW</span><p>"
          + "<a href=\"/songs/\(mariah)\"><bdi>All I Want For Christmas Is You</bdi></a><span>"
          + "<bdi>Mariah Carey</bdi></span></p><small>Last\u{A0}<b>–</b> Peak\u{A0}<b>1</b> At\u{A0}peak\u{A0}<b>2</b>"
          + " Weeks\u{A0}<b>3</b> Points\u{A0}<b>271</b></small></li>"))
    let snapshot = service.get("/charts/hot-100/2023-12-23")
    #expect(snapshot.text.contains("<a href=\"/charts/hot-100/years/2024\">Year 2024</a>"))
    let song = service.get("/songs/\(mariah)")
    #expect(
      song.text.contains(
        "<dt>Year charts</dt><dd><a href=\"/charts/hot-100/years/2024\">2024</a></dd>"))
    #expect(service.get("/charts/hot-100/years/85").status == 404)
    #expect(service.get("/charts/nope/years/2024").status == 404)
    let empty = service.get("/charts/hot-100/years/2023")
    #expect(empty.status == 200)
    #expect(empty.text.contains("No snapshot of the chart is dated in this year."))
  }
}
