import ChartImport
import ChartStorage
import Foundation
import Testing

@testable import ChartArchiveServer

/// Every list of the API pages with `limit`: from `offset` for lists that do not grow, after a
/// cursor for those imports grow. Each page gives the list's length in `X-Total-Count` and the
/// next page in `Link`, absent on the last; a page's body is the list's shape with its items.
struct PagingTests {
  /// The items of a JSON answer's list (`entries`, `snapshots`, `matches`), by a key of each.
  static func items(_ reply: HTTPResponse, _ list: String, _ key: String) throws -> [String] {
    let object = try #require(try reply.json() as? [String: Any])
    let items = try #require(object[list] as? [[String: Any]], "\(reply.text)")
    return items.map { "\($0[key] ?? "?")" }
  }

  /// The target of a `Link: <…>; rel="next"` header, `nil` when there is none.
  static func next(_ reply: HTTPResponse) throws -> String? {
    guard let link = reply.header("Link") else { return nil }
    let match = try #require(link.wholeMatch(of: /<([^>]+)>; rel="next"/), "\(link)")
    return String(match.1)
  }

  /// The pages of a walk from a target, following each `next` link: each page's items by key.
  static func walk(
    _ service: Service, from target: String, _ list: String, _ key: String
  ) throws -> [[String]] {
    var pages: [[String]] = []
    var target: String? = target
    while let current = target, pages.count < 50 {
      let reply = service.get(current)
      #expect(reply.status == 200, "\(current): \(reply.text)")
      pages.append(try items(reply, list, key))
      target = try next(reply)
    }
    return pages
  }

  @Test func aSnapshotsEntriesPageByOffset() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let page = service.get("/api/charts/hot-100/2024-01-13?limit=3&offset=3")
    #expect(page.status == 200)
    #expect(try Self.items(page, "entries", "rank") == ["4", "5", "6"])
    #expect(page.header("X-Total-Count") == "100")
    #expect(try Self.next(page) == "/api/charts/hot-100/2024-01-13?limit=3&offset=6")
    // The last page: what is left, and no link.
    let last = service.get("/api/charts/hot-100/2024-01-13?limit=3&offset=97")
    #expect(try Self.items(last, "entries", "rank") == ["98", "99", "100"])
    #expect(last.header("X-Total-Count") == "100")
    #expect(last.header("Link") == nil)
    let past = service.get("/api/charts/hot-100/2024-01-13?limit=3&offset=100")
    #expect(try Self.items(past, "entries", "rank") == [])
    #expect(past.header("Link") == nil)
    // Unpaged, every entry and no link, as before; the first page is what the command line
    // prints for the same question.
    let all = service.get("/api/charts/hot-100/2024-01-13")
    #expect(try Self.items(all, "entries", "rank").count == 100)
    #expect(all.header("X-Total-Count") == "100")
    #expect(all.header("Link") == nil)
    let first = service.get("/api/charts/hot-100/2024-01-13?limit=3")
    let printed = chartArchive([
      "show", "hot-100", "2024-01-13", "--limit", "3", "--format", "json", "--db",
      try TestArchive.shared.get().path,
    ])
    #expect(first.text == printed.output)
    #expect(try Self.next(first) == "/api/charts/hot-100/2024-01-13?limit=3&offset=3")
    // Walked, the pages are the snapshot's entries, each once.
    let pages = try Self.walk(
      service, from: "/api/charts/hot-100/latest?limit=30", "entries", "rank")
    #expect(pages.map(\.count) == [30, 30, 30, 10])
    #expect(pages.joined().map { Int($0) } == Array(1...100))
  }

  /// `?limit=3&offset=3` and `?page=2` gave the first page again; the feed stays the app's
  /// array.
  @Test func theFeedPagesByOffset() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let page = service.get("/api/feed/daily?limit=3&offset=3")
    let entries = try #require(try page.json() as? [[String: Any]])
    #expect(entries.map { $0["rank"] as? Int } == [4, 5, 6])
    #expect(page.header("X-Total-Count") == "10")
    #expect(try Self.next(page) == "/api/feed/daily?limit=3&offset=6")
    let whole = try #require(try service.get("/api/feed/daily").json() as? [[String: Any]])
    #expect(whole.count == 10)
    #expect(entries.map { $0["title"] as? String } == whole[3..<6].map { $0["title"] as? String })
    let last = service.get("/api/feed/daily?limit=3&offset=9")
    let lastEntries = try #require(try last.json() as? [[String: Any]])
    #expect(lastEntries.map { $0["rank"] as? Int } == [10])
    #expect(last.header("Link") == nil)
    // The default page (20) holds the whole of the chart's 10: no link.
    let unpaged = service.get("/api/feed/daily")
    #expect(unpaged.header("X-Total-Count") == "10")
    #expect(unpaged.header("Link") == nil)
    // A limit of 0 gives the count and no link to walk forever.
    let count = service.get("/api/feed/daily?limit=0")
    #expect(count.text == "[]\n")
    #expect(count.header("X-Total-Count") == "10")
    #expect(count.header("Link") == nil)
    #expect(
      try service.get("/api/feed/daily?page=2").problemDetail()
        == "unknown query parameter 'page': GET /api/feed/{category} takes limit and offset")
  }

  /// A client walking a chart's snapshots while an import lands gets each once: the next page
  /// is after the chart date of the last one it got, so a snapshot imported before it (a chart
  /// filled in) moves nothing; one imported after it is on a later page.
  @Test func walkingSnapshotsWhileAnImportLandsGetsEachOnce() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    let archive = try Archive(path: path, access: .create)
    let hot100 = packageRoot.appendingPathComponent("Sample-data/hot-100").path
    _ = try Importer.run(try ImportSource.files(in: [hot100]).map(ImportSource.file), into: archive)
    let service = try Service(path)

    let first = service.get("/api/charts/hot-100/snapshots?limit=2")
    #expect(try Self.items(first, "snapshots", "chart_date") == ["2023-12-23", "2023-12-30"])
    #expect(first.header("X-Total-Count") == "4")
    let next = try #require(try Self.next(first))
    #expect(next == "/api/charts/hot-100/snapshots?limit=2&after=2023-12-30")

    // Two weeks imported between the pages: one before the walk's place, one after the last.
    let week = try String(contentsOfFile: hot100 + "/2024-01-13.json", encoding: .utf8)
    for date in ["2023-12-16", "2024-01-20"] {
      let file = try folder.write(
        "hot-100/\(date).json", week.replacingOccurrences(of: "2024-01-13", with: date))
      _ = try Importer.run([.file(file)], into: archive)
    }

    let second = service.get(next)
    #expect(try Self.items(second, "snapshots", "chart_date") == ["2024-01-06", "2024-01-13"])
    #expect(second.header("X-Total-Count") == "6")
    let third = service.get(try #require(try Self.next(second)))
    #expect(try Self.items(third, "snapshots", "chart_date") == ["2024-01-20"])
    #expect(third.header("X-Total-Count") == "6")
    #expect(third.header("Link") == nil)
    // By offset, the same walk would have had 2023-12-30 twice.
    #expect(
      try Self.items(
        service.get("/api/charts/hot-100/snapshots?limit=2"), "snapshots", "chart_date")
        == ["2023-12-16", "2023-12-23"])
    // Unpaged, every snapshot, as before.
    let all = service.get("/api/charts/hot-100/snapshots")
    #expect(try Self.items(all, "snapshots", "chart_date").count == 6)
    #expect(all.header("Link") == nil)
  }

  /// An hourly chart's cursor is its chart date and time, as its snapshots give it.
  @Test func anHourlyChartsSnapshotsPageAfterTheirTime() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let first = service.get("/api/charts/app-hourly/snapshots?limit=1")
    #expect(
      try Self.next(first) == "/api/charts/app-hourly/snapshots?limit=1&after=2024-05-05T12:00:00Z")
    let pages = try Self.walk(
      service, from: "/api/charts/app-hourly/snapshots?limit=1", "snapshots", "chart_date")
    #expect(
      pages == [["2024-05-05T12:00:00Z"], ["2024-05-05T13:00:00Z"], ["2024-05-05T14:00:00Z"]])
  }

  /// A search pages after the song (or artist) of the last match: its ID is the cursor.
  @Test func aSearchPagesAfterTheLastMatch() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let first = service.get("/api/songs?q=love&limit=2")
    #expect(try Self.items(first, "matches", "song_id") == ["18", "61"])
    #expect(first.header("X-Total-Count") == "3")
    #expect(try Self.next(first) == "/api/songs?q=love&limit=2&after=61")
    let last = service.get("/api/songs?q=love&limit=2&after=61")
    #expect(try Self.items(last, "matches", "song_id") == ["75"])
    #expect(last.header("Link") == nil)
    // The query's values are percent-encoded in the link (`+` is a space in a query).
    let spaced = service.get("/api/songs?q=love+&limit=2")
    #expect(try Self.items(spaced, "matches", "song_id") == ["18", "61"])
    #expect(try Self.next(spaced) == "/api/songs?q=love%20&limit=2&after=61")
    let artists = service.get("/api/artists?q=a&limit=1")
    let walked = try Self.walk(service, from: "/api/artists?q=a&limit=1", "matches", "artist_id")
    let total = try #require(artists.header("X-Total-Count").flatMap { Int($0) })
    #expect(total > 1)
    #expect(walked.count == total)
    #expect(
      walked.joined().map { $0 }
        == (try Self.items(service.get("/api/artists?q=a"), "matches", "artist_id")))
    #expect(
      try service.get("/api/songs?q=love&after=2").problemDetail()
        == "after names no match of this search: give the ID of the last match of the page before"
    )
  }

  /// A song's history pages over its entries, every chart's figures the whole history's.
  @Test func aSongsHistoryPagesOverItsEntries() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let whole = try #require(try service.get("/api/songs/61").json() as? [String: Any])
    let page = service.get("/api/songs/61?limit=2&offset=1")
    #expect(page.header("X-Total-Count") == "4")
    #expect(try Self.next(page) == "/api/songs/61?limit=2&offset=3")
    let paged = try #require(try page.json() as? [String: Any])
    func charts(_ history: [String: Any]) throws -> [[String: Any]] {
      let recordings = try #require(history["recordings"] as? [[String: Any]])
      return try #require(recordings.first?["charts"] as? [[String: Any]])
    }
    let wholeChart = try #require(try charts(whole).first)
    let pagedChart = try #require(try charts(paged).first)
    func dates(_ chart: [String: Any]) -> [String] {
      (chart["entries"] as? [[String: Any]] ?? []).map { "\($0["chart_date"] ?? "?")" }
    }
    #expect(dates(wholeChart) == ["2023-12-23", "2023-12-30", "2024-01-06", "2024-01-13"])
    #expect(dates(pagedChart) == ["2023-12-30", "2024-01-06"])
    for figure in ["peak_position", "weeks_at_peak", "weeks_on_chart", "runs", "debut_date"] {
      #expect("\(pagedChart[figure] ?? "-")" == "\(wholeChart[figure] ?? "+")", "\(figure)")
    }
    let last = service.get("/api/songs/61?limit=2&offset=3")
    let lastHistory = try #require(try last.json() as? [String: Any])
    #expect(try charts(lastHistory).first.map(dates) == ["2024-01-13"])
    #expect(last.header("Link") == nil)
  }

  /// Records page each leaderboard's rows by offset, down to rank 100: the pages of a walk are
  /// the rows of `limit=100`, each once.
  @Test func recordsPageEachLeaderboardsRows() throws {
    let service = try Service(try TestArchive.shared.get().path)
    func rows(_ reply: HTTPResponse) throws -> [String: [String]] {
      let object = try #require(try reply.json() as? [String: Any])
      let boards = try #require(object["leaderboards"] as? [[String: Any]])
      var rows: [String: [String]] = [:]
      for board in boards {
        let kind = try #require(board["kind"] as? String)
        rows[kind] = (board["rows"] as? [[String: Any]] ?? []).map {
          "\($0["rank"] ?? "?") \(($0["holder"] as? [String: Any])?["id"] ?? "?")"
        }
      }
      return rows
    }
    let all = service.get("/api/charts/hot-100/records?limit=100")
    let everyRow = try rows(all)
    #expect(all.header("X-Total-Count") == "\(everyRow.values.reduce(0) { $0 + $1.count })")
    var walked: [String: [String]] = [:]
    var target: String? = "/api/charts/hot-100/records?limit=30"
    var pages = 0
    while let current = target {
      let reply = service.get(current)
      #expect(reply.status == 200, "\(current): \(reply.text)")
      #expect(reply.header("X-Total-Count") == all.header("X-Total-Count"))
      for (kind, list) in try rows(reply) { walked[kind, default: []] += list }
      target = try Self.next(reply)
      pages += 1
    }
    #expect(walked == everyRow)
    #expect(pages == 4)
    // The first page is the answer without offset; offset and limit past row 100 are refused.
    #expect(
      service.get("/api/charts/hot-100/records?limit=30&offset=0").text
        == service.get("/api/charts/hot-100/records?limit=30").text)
    #expect(
      try service.get("/api/charts/hot-100/records?limit=10&offset=95").problemDetail()
        == "offset 95 and limit 10 reach past row 100, the most a leaderboard lists: give"
        + " offset + limit of 100 or less")
  }

  /// Paging parameters that are not whole numbers, negative, or past a maximum are refused
  /// with a problem, as other parameters are.
  @Test func badPagingParametersAreRefused() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let refusals = [
      (
        "/api/charts/hot-100/latest?offset=-1",
        "offset must be a whole number of 0 or more, found '-1'"
      ),
      ("/api/feed/daily?offset=x", "offset must be a whole number of 0 or more, found 'x'"),
      (
        "/api/feed/daily?limit=1001",
        "limit must be a whole number of 0 or more and at most 1000, found '1001'"
      ),
      (
        "/api/charts/hot-100/snapshots?limit=2.5",
        "limit must be a whole number of 0 or more and at most 1000, found '2.5'"
      ),
      (
        "/api/charts/hot-100/snapshots?after=soon",
        "after 'soon' is not a chart date (YYYY-MM-DD)"
      ),
      ("/api/songs?q=love&after=0", "after must be a song ID, a whole number from 1, found '0'"),
      (
        "/api/artists?q=a&after=x", "after must be an artist ID, a whole number from 1, found 'x'"
      ),
      ("/api/songs/61?offset=-3", "offset must be a whole number of 0 or more, found '-3'"),
    ]
    for (target, detail) in refusals {
      let reply = service.get(target)
      #expect(reply.status == 400, "\(target)")
      #expect(reply.header("Cache-Control") == "no-store", "\(target)")
      #expect(try reply.problemDetail() == detail, "\(target)")
    }
  }

  /// Each page is kept under its own key, with its own ETag: the query is part of the key, and
  /// two writings of one query share it.
  @Test func eachPageIsKeptApart() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let one = service.get("/api/charts/hot-100/2024-01-06?limit=3&offset=3")
    let kept = service.router.cache.count
    let two = service.get("/api/charts/hot-100/2024-01-06?limit=3&offset=6")
    #expect(service.router.cache.count == kept + 1)
    let tagOne = try #require(one.header("ETag"))
    #expect(two.header("ETag") != tagOne)
    #expect(one.header("Cache-Control") == "public, max-age=86400")
    let reordered = service.get("/api/charts/hot-100/2024-01-06?offset=3&limit=3")
    #expect(reordered.header("ETag") == tagOne)
    #expect(reordered.header("Link") == one.header("Link"))
    #expect(service.router.cache.count == kept + 1)
    // Page 2 is not page 1 revalidated.
    let other = service.get(
      "/api/charts/hot-100/2024-01-06?limit=3&offset=6", headers: ["If-None-Match": tagOne])
    #expect(other.status == 200)
    let same = service.get(
      "/api/charts/hot-100/2024-01-06?limit=3&offset=3", headers: ["If-None-Match": tagOne])
    #expect(same.status == 304)
  }

  /// The next page's link is the path as it came (percent-encoded) and the query's parameters
  /// the route takes, the next page's in place.
  @Test func theLinkKeepsThePathAndQueryAsAsked() throws {
    let service = try Service(try TestArchive.withHostileChart.get().path)
    let segment = TestArchive.hostileSegment
    let reply = service.get("/api/charts/\(segment)/snapshots?limit=1&format=csv")
    #expect(reply.header("Content-Type") == "text/csv; charset=utf-8")
    #expect(reply.header("X-Total-Count") == "3")
    #expect(
      try Self.next(reply)
        == "/api/charts/\(segment)/snapshots?limit=1&after=2024-03-02&format=csv")
  }
}
