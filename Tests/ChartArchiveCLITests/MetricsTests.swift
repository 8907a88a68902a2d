import Foundation
import Testing

/// `GET /api/metrics`: what the service counted, in Prometheus's text format, readable without the
/// upload token and naming routes by their pattern, never the paths asked.
struct MetricsTests {
  /// The lines of the metrics that are samples (not `#` comments), by name and labels.
  static func samples(_ text: String) -> [String: String] {
    var samples: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      guard let space = line.lastIndex(of: " ") else { continue }
      samples[String(line[..<space])] = String(line[line.index(after: space)...])
    }
    return samples
  }

  @Test func theServiceCountsItsRequestsCacheUploadsAndArchive() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive([
      "--db", archive, "--token-file", try tokenFile(in: folder, ServeUploadTests.token),
    ])
    for _ in 0..<3 { #expect(try server.get("/api/feed/daily").status == 200) }
    #expect(try server.get("/api/charts/app-daily/2024-05-02").status == 200)
    #expect(try server.get("/api/charts/secret-chart/2024-05-02").status == 404)
    #expect(try server.get("/no/such/page/secret-path").status == 404)
    #expect(try ServeUploadTests.upload(port: server.port, date: "2024-06-01").status == 201)
    #expect(try ServeUploadTests.upload(port: server.port, date: "2024-06-01").status == 200)
    // A replacement is answered 200 as nothing new is: the metrics count it as replaced.
    let replacement = try ServedArchive.request(
      port: server.port, "POST",
      "/api/charts/app-new/snapshots?date=2024-06-01&format=app-feed&replace=true",
      headers: [("Authorization", "Bearer " + ServeUploadTests.token)],
      body: Array(#"[{"title": "Another song", "artist": "B"}]"#.utf8))
    #expect(replacement.status == 200)
    #expect(try replacement.json() as? [String: Any] != nil)
    let refused = try ServedArchive.request(
      port: server.port, "POST", "/api/charts/app-new/snapshots?date=2024-06-02",
      headers: [("Authorization", "Bearer wrong")], body: Array("[]".utf8))
    #expect(refused.status == 401)

    let reply = try server.get("/api/metrics")
    #expect(reply.status == 200)
    #expect(reply.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
    #expect(reply.header("cache-control") == "no-store")
    let text = reply.text
    let samples = Self.samples(text)
    func requests(_ method: String, _ route: String, _ status: Int) -> String? {
      samples[
        "chart_archive_http_requests_total{method=\"\(method)\",route=\"\(route)\",status=\"\(status)\"}"
      ]
    }
    #expect(requests("GET", "/api/feed/{category}", 200) == "3")
    #expect(requests("GET", "/api/charts/{chart}/{date}", 200) == "1")
    #expect(requests("GET", "/api/charts/{chart}/{date}", 404) == "1")
    #expect(requests("GET", "none", 404) == "1")
    #expect(requests("POST", "/api/charts/{chart}/snapshots", 201) == "1")
    #expect(requests("POST", "/api/charts/{chart}/snapshots", 200) == "2")
    #expect(requests("POST", "/api/charts/{chart}/snapshots", 401) == "1")
    #expect(samples["chart_archive_uploads_total{outcome=\"imported\"}"] == "1")
    #expect(samples["chart_archive_uploads_total{outcome=\"replaced\"}"] == "1")
    #expect(samples["chart_archive_uploads_total{outcome=\"unchanged\"}"] == "1")
    #expect(samples["chart_archive_uploads_total{outcome=\"refused\"}"] == "1")
    #expect(samples["chart_archive_uploads_total{outcome=\"busy\"}"] == "0")
    // The feed: one miss, then two hits; the dated snapshot and the 404 for the unknown chart
    // are misses (an error is not kept). The upload emptied the cache, which nothing asked since.
    #expect(samples["chart_archive_response_cache_hits_total"] == "2")
    #expect(samples["chart_archive_response_cache_misses_total"] == "3")
    // Ten requests before this one, each in the histogram once.
    #expect(samples["chart_archive_http_request_duration_seconds_count"] == "10")
    #expect(samples["chart_archive_http_request_duration_seconds_bucket{le=\"+Inf\"}"] == "10")
    // Sample-data's import is version 1, the stored upload version 2, its replacement 3.
    #expect(samples["chart_archive_archive_version"] == "3")
    let size = try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int ?? 0
    let log =
      (try? FileManager.default.attributesOfItem(atPath: archive + "-wal")[.size] as? Int) ?? 0
    #expect(samples["chart_archive_archive_size_bytes"] == "\(size + log)")
    // Paths asked and the archive's path are not repeated.
    #expect(!text.contains("secret"))
    #expect(!text.contains(folder.url.path))
    #expect(text.contains("# TYPE chart_archive_http_request_duration_seconds histogram\n"))
  }
}
