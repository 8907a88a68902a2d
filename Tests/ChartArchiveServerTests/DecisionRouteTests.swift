import Foundation
import Testing

@testable import ChartArchiveServer

/// Corrections over HTTP: behind the upload token, the same library calls and words as
/// `chart-archive songs`, seen by the next read.
struct DecisionRouteTests {
  @Test func aSplitAndAMergeAreMadeAndUndoneBehindTheToken() throws {
    let (folder, archive) = try TestArchive.sample()
    _ = folder
    let token = "s3cret-token-for-uploads"
    let service = try Service(archive) { $0.uploadToken = token }
    let bearer = ["Authorization": "Bearer " + token]
    let split = "/api/songs/176/split?chart=app-daily&from=2024-05-05"
    #expect(service.request("POST", split).status == 401)
    let made = service.request("POST", split, headers: bearer)
    #expect(made.status == 200, "\(made.text)")
    let decisions = try #require(try made.json() as? [String: Any])["decisions"] as? [[String: Any]]
    #expect(decisions?.first?["number"] as? Int == 1)
    #expect(
      decisions?.first?["decision"] as? String
        == #"another song from 2024-05-05 on app-daily: "Echo Chamber" by Parallel Lines"#)
    // The next read sees it: the entry is a debut of another song.
    let snapshot = try #require(
      try service.get("/api/charts/app-daily/2024-05-05").json() as? [String: Any])
    let entries = try #require(snapshot["entries"] as? [[String: Any]])
    #expect(entries.last?["movement"] as? String == "new")
    // The other song's page says so.
    let page = service.get("/songs/183").text
    #expect(
      page.contains(
        "<h3>Decisions</h3>\n<ul class=\"plain\"><li>Split by hand: from 2024-05-05 &#39;Echo"
          + " Chamber&#39; by &#39;Parallel Lines&#39; (decision 1)</li></ul>"))
    let refused = service.request("POST", "/api/songs/1/merge?with=2", headers: bearer)
    #expect(refused.status == 409)
    #expect(
      try refused.problemDetail()
        == "the songs are both on hot-100 of 2023-12-23, at ranks 1 and 2: one song is never two"
        + " entries of one snapshot")
    #expect(service.request("POST", "/api/songs/176/merge?with=x", headers: bearer).status == 400)
    #expect(service.request("POST", "/api/decisions/7/undo", headers: bearer).status == 404)
    #expect(service.request("POST", "/api/decisions/1/undo", headers: bearer).status == 200)
    let listed = try #require(try service.get("/api/decisions").json() as? [String: Any])
    #expect((listed["decisions"] as? [Any])?.isEmpty == true)
    let again = try #require(
      try service.get("/api/charts/app-daily/2024-05-05").json() as? [String: Any])
    #expect((again["entries"] as? [[String: Any]])?.last?["movement"] as? String == "re-entry")
  }

  @Test func aServerWithoutATokenHasNoCorrections() throws {
    let service = try Service(try TestArchive.shared.get().path)
    #expect(service.request("POST", "/api/songs/176/merge?with=1").status == 404)
    #expect(service.get("/api/decisions").status == 200)
  }
}
