import Foundation
import Testing

@testable import ChartArchiveServer

/// The chart app's feed: the five fields the app decodes never change, and the fields added after
/// them tell what `last` cannot.
struct FeedTests {
  /// The app's own model of a feed entry: exactly the five fields it has always decoded.
  private struct AppEntry: Decodable, Equatable {
    var title: String
    var artist: String
    var image: String
    var url: String
    var last: Int
  }

  /// Every feed decodes into the app's five-field entries as before, and its `movement` marks
  /// each entry as `show` does. `last` was 0 for a debut and a re-entry alike, so the app showed
  /// NEW where `show` says RE (Echo Chamber on app-daily, Kaleidoscope Heart on app-hourly).
  @Test(arguments: [
    ("total", "app-total"), ("time", "app-hourly"), ("daily", "app-daily"),
    ("weekly", "app-weekly"), ("monthly", "app-monthly"),
  ])
  func theAppDecodesTheFeedAndItsMovementsAreShows(category: String, chart: String) throws {
    let (folder, path) = try TestArchive.shared.get()
    _ = folder
    let service = try Service(path)
    let body = service.get("/api/feed/\(category)").body.bytes
    let entries = try JSONDecoder().decode([AppEntry].self, from: Data(body))
    let feed = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]])
    let show = try #require(
      try JSONSerialization.jsonObject(
        with: Data(chartArchive(["show", chart, "--format", "json", "--db", path]).output.utf8))
        as? [String: Any])
    let shown = try #require(show["entries"] as? [[String: Any]]).prefix(20)
    #expect(entries.count == shown.count)
    #expect(
      entries
        == shown.map {
          AppEntry(
            title: $0["title"] as! String, artist: $0["artist"] as! String,
            image: $0["image_url"] as? String ?? "", url: $0["song_url"] as? String ?? "",
            last: $0["previous_rank"] as? Int ?? 0)
        })
    #expect(feed.map { $0["movement"] as? String } == shown.map { $0["movement"] as? String })
    #expect(feed.map { $0["rank"] as? Int } == shown.map { $0["rank"] as? Int })
    #expect(feed.map { $0["peak_position"] as? Int } == shown.map { $0["peak_position"] as? Int })
    #expect(feed.map { $0["weeks_on_chart"] as? Int } == shown.map { $0["weeks_on_chart"] as? Int })
  }

  @Test func aReEntryIsToldFromADebut() throws {
    let (folder, path) = try TestArchive.shared.get()
    _ = folder
    let feed = try #require(
      try Service(path).get("/api/feed/daily").json() as? [[String: Any]])
    let echo = try #require(feed.first { $0["title"] as? String == "Echo Chamber" })
    #expect(echo["last"] as? Int == 0)
    #expect(echo["movement"] as? String == "re-entry")
    #expect(echo["weeks_on_chart"] as? Int == 2)
  }
}

/// `/api/feed/updated` and the feeds' ETags follow the archive's version: an app that polls never
/// misses a change, even two within one second.
struct FeedVersionTests {
  @Test func everyChangeMovesUpdatedAndEveryFeedsTagOn() throws {
    let (folder, archive) = try TestArchive.sample()
    let token = "s3cret-token-for-uploads"
    let service = try Service(archive) { $0.uploadToken = token }
    let updated = service.get("/api/feed/updated")
    let first = try #require(Int(updated.text.dropLast()))
    #expect(updated.header("X-Archive-Version") == "1")
    #expect(updated.header("ETag")?.hasPrefix(#""v1-"#) == true)
    let daily = service.get("/api/feed/daily")
    let dailyTag = try #require(daily.header("ETag"))
    #expect(dailyTag.hasPrefix(#""v1-"#))
    #expect(daily.header("X-Archive-Version") == "1")

    // A snapshot of another chart, then its correction, within a second or two.
    let bearer = ["Authorization": "Bearer " + token]
    let target = "/api/charts/app-weekly/snapshots?date=2024-05-12&format=app-feed"
    let upload = service.request(
      "POST", target, headers: bearer, body: Array(#"[{"title": "A", "artist": "B"}]"#.utf8))
    #expect(upload.status == 201, "\(upload.text)")
    let second = try #require(Int(service.get("/api/feed/updated").text.dropLast()))
    let replace = service.request(
      "POST", target + "&replace=true", headers: bearer,
      body: Array(#"[{"title": "C", "artist": "D"}]"#.utf8))
    #expect(replace.status == 200, "\(replace.text)")
    let third = service.get("/api/feed/updated")
    #expect(second > first)
    #expect(try #require(Int(third.text.dropLast())) > second)
    #expect(third.header("X-Archive-Version") == "3")
    // The daily feed's body is the same; its tag is not, and the old one is not matched.
    let again = service.get("/api/feed/daily", headers: ["If-None-Match": dailyTag])
    #expect(again.status == 200)
    #expect(again.body.bytes == daily.body.bytes)
    #expect(again.header("ETag")?.hasPrefix(#""v3-"#) == true)
    let tag = try #require(again.header("ETag"))
    #expect(service.get("/api/feed/daily", headers: ["If-None-Match": tag]).status == 304)
    // An upload that changes nothing leaves the version as it was.
    let same = service.request(
      "POST", target, headers: bearer, body: Array(#"[{"title": "C", "artist": "D"}]"#.utf8))
    #expect(same.status == 200)
    #expect(service.get("/api/feed/updated").header("X-Archive-Version") == "3")
    _ = folder
  }
}
