import Foundation
import Synchronization

/// What the service counts since it started, served by `GET /api/metrics` in Prometheus's text
/// format (version 0.0.4, <https://prometheus.io/docs/instrumenting/exposition_formats/>):
/// requests by method, route and status, their time to answer as a histogram, the bytes of the
/// bodies sent, the response cache's hits and misses, the uploads by outcome. Routes are named by
/// their pattern (`/api/charts/{chart}/{date}`), never by the path asked, so that the metrics
/// neither grow with what clients ask nor repeat it. Shared by every worker thread.
final class ServiceMetrics: Sendable {
  /// A request's labels.
  struct Labels: Hashable {
    var method: String
    /// The route's pattern; `none` for a request no route answered (404, 405, 400 before routing).
    var route: String
    var status: Int
  }

  private struct Counts {
    var requests: [Labels: Int] = [:]
    /// Counts per bucket of ``ServiceMetrics/bounds``, then one for longer answers.
    var buckets = [Int](repeating: 0, count: ServiceMetrics.bounds.count + 1)
    var seconds = 0.0
    var bytes = 0
    var cacheHits = 0
    var cacheMisses = 0
    /// The uploads that were written, by their answer's `outcome`.
    var uploads: [String: Int] = [:]
  }

  /// The histogram's upper bounds, in seconds.
  static let bounds: [Double] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
  ]

  private let counts = Mutex(Counts())

  /// Counts an answered request: its labels, its body's bytes and the seconds from its head read
  /// to its answer handed to the connection.
  func record(_ labels: Labels, bytes: Int, seconds: Double) {
    let bucket = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
    counts.withLock { counts in
      counts.requests[labels, default: 0] += 1
      counts.buckets[bucket] += 1
      counts.seconds += seconds
      counts.bytes += bytes
    }
  }

  /// Counts a look in the response cache for a cacheable route's answer.
  func recordCache(hit: Bool) {
    counts.withLock { counts in
      if hit { counts.cacheHits += 1 } else { counts.cacheMisses += 1 }
    }
  }

  /// Counts an upload that was written, by its answer's `outcome`: `imported`, `replaced` or
  /// `unchanged` (the status alone cannot tell a replacement, 200, from nothing new, 200 too).
  func recordUpload(outcome: String) {
    counts.withLock { $0.uploads[outcome, default: 0] += 1 }
  }

  /// The archive's figures the metrics give beside the counts.
  struct ArchiveFigures {
    /// The archive's version (see `ArchiveVersion`): one more with each committed change.
    var version: Int
    /// When it last changed, in seconds since 1970.
    var updated: Int
    /// The bytes of the archive file and its write-ahead log.
    var bytes: Int
  }

  /// The metrics as Prometheus's text format gives them, each family with its `HELP` and `TYPE`.
  func rendered(archive: ArchiveFigures, uploadRoute: String) -> String {
    let counts = counts.withLock { $0 }
    var text = ""
    func family(_ name: String, _ type: String, _ help: String) {
      text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
    family(
      "chart_archive_http_requests_total", "counter",
      "Requests answered, by method, route pattern and status.")
    let requests = counts.requests.sorted {
      ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
    }
    for (labels, count) in requests {
      text +=
        "chart_archive_http_requests_total{method=\"\(Self.escaped(labels.method))\","
        + "route=\"\(Self.escaped(labels.route))\",status=\"\(labels.status)\"} \(count)\n"
    }
    family(
      "chart_archive_http_request_duration_seconds", "histogram",
      "Seconds from a request's head read to its answer handed to the connection.")
    var cumulative = 0
    for (index, bound) in Self.bounds.enumerated() {
      cumulative += counts.buckets[index]
      text += "chart_archive_http_request_duration_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
    }
    let total = cumulative + counts.buckets[Self.bounds.count]
    text += "chart_archive_http_request_duration_seconds_bucket{le=\"+Inf\"} \(total)\n"
    text += "chart_archive_http_request_duration_seconds_sum \(counts.seconds)\n"
    text += "chart_archive_http_request_duration_seconds_count \(total)\n"
    family(
      "chart_archive_http_response_body_bytes_total", "counter",
      "Bytes of the response bodies sent (compressed where sent so).")
    text += "chart_archive_http_response_body_bytes_total \(counts.bytes)\n"
    family(
      "chart_archive_response_cache_hits_total", "counter",
      "Answers sent from the response cache, kept until the archive changes.")
    text += "chart_archive_response_cache_hits_total \(counts.cacheHits)\n"
    family(
      "chart_archive_response_cache_misses_total", "counter",
      "Cacheable requests answered from the archive.")
    text += "chart_archive_response_cache_misses_total \(counts.cacheMisses)\n"
    family(
      "chart_archive_uploads_total", "counter",
      "Uploads by outcome: imported, replaced or unchanged (as the upload's answer says),"
        + " refused (an error answer), busy (503).")
    var outcomes = ["busy": 0, "imported": 0, "refused": 0, "replaced": 0, "unchanged": 0]
    outcomes.merge(counts.uploads) { $0 + $1 }
    for (labels, count) in counts.requests
    where labels.route == uploadRoute && labels.method == "POST" && labels.status >= 400 {
      outcomes[labels.status == 503 ? "busy" : "refused", default: 0] += count
    }
    for (outcome, count) in outcomes.sorted(by: { $0.key < $1.key }) {
      text += "chart_archive_uploads_total{outcome=\"\(outcome)\"} \(count)\n"
    }
    family(
      "chart_archive_archive_version", "gauge",
      "The archive's version: one more with each committed import, upload or decision.")
    text += "chart_archive_archive_version \(archive.version)\n"
    family(
      "chart_archive_archive_updated_seconds", "gauge",
      "When the archive last changed, in seconds since 1970-01-01T00:00:00Z.")
    text += "chart_archive_archive_updated_seconds \(archive.updated)\n"
    family(
      "chart_archive_archive_size_bytes", "gauge",
      "Bytes of the archive file and its write-ahead log.")
    text += "chart_archive_archive_size_bytes \(archive.bytes)\n"
    return text
  }

  /// A label value as the text format writes it: backslash, quote and line feed escaped.
  static func escaped(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }
}
