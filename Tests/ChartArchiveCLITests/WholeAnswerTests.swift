import Foundation
import Testing

/// Answers kept whole: a plain GET that the server answered from its response cache is answered
/// again, on a kept-alive connection, from the bytes libevent sent, without libevent's HTTP layer.
/// What a client sees must not change: the same bytes but `Date`, the access log's line and the
/// metrics, requests sent together answered in order, a socket that does not take an answer at
/// once, and an import seen by the next request.
@Suite(.serialized)
struct WholeAnswerTests {
  /// A kept-alive connection to the server, read response by response.
  private final class KeptAlive {
    let connection: RawConnection
    private var received: [UInt8] = []

    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
      connection = try RawConnection(port: port, receiveBuffer: receiveBuffer)
    }

    func send(_ text: String) throws { try connection.send(Array(text.utf8)) }

    /// The next response as it came: its head (status line and headers, `Date`'s value left
    /// out) and its body, read by its `Content-Length`.
    func response() throws -> (head: String, body: [UInt8]) {
      let separator = Array("\r\n\r\n".utf8)
      var end: Int?
      while true {
        end = received.indices.first { received[$0...].starts(with: separator) }
        if end != nil { break }
        try receive()
      }
      let head = String(decoding: received[..<end!], as: UTF8.self)
      let length =
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
      let start = end! + 4
      while received.count < start + length { try receive() }
      let body = Array(received[start..<(start + length)])
      received.removeFirst(start + length)
      let dateless = head.split(separator: "\r\n").map {
        $0.hasPrefix("Date: ") ? "Date: -" : String($0)
      }
      return (dateless.joined(separator: "\r\n"), body)
    }

    private func receive() throws {
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = buffer.withUnsafeMutableBytes {
        recv(connection.socket, $0.baseAddress, $0.count, 0)
      }
      guard count > 0 else { throw ServerFailure("the connection ended: \(received.count) bytes") }
      received += buffer[0..<count]
    }
  }

  private static func get(_ target: String, _ headers: String = "") -> String {
    "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n"
  }

  /// The second answer of the same request is the first's bytes (but `Date`), plain and
  /// gzipped; the log has a line for each and the metrics count each; a head that came in two
  /// pieces (libevent began reading it) is answered too.
  @Test func theSameRequestAgainGetsTheSameBytes() throws {
    let (folder, archive) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let server = try ServedArchive(["--db", archive, "--threads", "1"])
    let connection = try KeptAlive(port: server.port)
    for headers in ["", "Accept-Encoding: gzip\r\n"] {
      try connection.send(Self.get("/api/feed/daily", headers))
      let first = try connection.response()
      try connection.send(Self.get("/api/feed/daily", headers))
      let again = try connection.response()
      #expect(first.head.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"))
      #expect(first.head.contains("\r\nDate: -\r\nContent-Length: \(first.body.count)"))
      #expect(again.head == first.head)
      #expect(again.body == first.body)
      #expect(first.head.contains("Content-Encoding: gzip") == !headers.isEmpty)
    }
    try connection.send("GET /api/feed/daily HTTP/1.1\r\n")
    usleep(100_000)
    try connection.send("Host: 127.0.0.1\r\n\r\n")
    let split = try connection.response()
    try connection.send(Self.get("/api/feed/daily"))
    #expect(try connection.response().body == split.body)
    let metrics = try server.get("/api/metrics")
    #expect(
      MetricsTests.samples(metrics.text)[
        #"chart_archive_http_requests_total{method="GET",route="/api/feed/{category}",status="200"}"#
      ] == "6")
    #expect(server.stop() == 0)
    let lines = server.log.split(separator: "\n").filter { $0.hasPrefix("GET /api/feed/daily ") }
    #expect(lines.count == 6)
    #expect(lines.allSatisfy { $0.hasPrefix("GET /api/feed/daily 200 ") && $0.hasSuffix("ms") })
  }

  /// Requests sent together are answered in order, and answers a client does not read at once
  /// (more than any socket holds: the server's loop writes the rest) arrive whole; the connection
  /// then goes on.
  @Test func answersSentTogetherArriveWholeAndInOrder() throws {
    let (folder, archive) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let server = try ServedArchive(["--db", archive, "--threads", "1"])
    let connection = try KeptAlive(port: server.port, receiveBuffer: 4_096)
    let snapshot = "/api/charts/hot-100/2024-01-06"
    try connection.send(Self.get(snapshot))
    let first = try connection.response()
    #expect(first.body.count > 10_000)
    try connection.send(Self.get("/api/charts/hot-100/snapshots"))
    let snapshots = try connection.response()
    // More than the 4 MiB Linux lets a socket's send buffer grow to.
    let count = 8 * 1_024 * 1_024 / first.body.count + 1
    let together = (0..<count).map { _ in Self.get(snapshot) }.joined()
    try connection.send(together + Self.get("/api/charts/hot-100/snapshots"))
    usleep(300_000)
    for index in 0..<count {
      let answer = try connection.response()
      #expect(answer.head == first.head)
      // Compared apart: a failure would print every byte of both.
      let same = answer.body == first.body
      #expect(same, "answer \(index + 1) of \(count) differs")
    }
    #expect(try connection.response().body == snapshots.body)
    try connection.send(Self.get("/api/health"))
    #expect(try connection.response().head.hasPrefix("HTTP/1.1 200 OK"))
    #expect(server.stop() == 0)
    #expect(
      server.log.split(separator: "\n").count { $0.hasPrefix("GET \(snapshot) 200 ") } == count + 1)
  }

  /// An import is seen by the next request on a connection whose answer was kept whole.
  @Test func anImportIsSeenByTheNextRequest() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive(["--db", archive, "--threads", "1"])
    let connection = try KeptAlive(port: server.port)
    for _ in 0..<2 {
      try connection.send(Self.get("/api/charts"))
      #expect(
        !String(decoding: try connection.response().body, as: UTF8.self).contains("whole-new"))
    }
    try folder.write("whole-new/2024-06-01.json", #"[{"title": "One", "artist": "A"}]"#)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("whole-new").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    try connection.send(Self.get("/api/charts"))
    #expect(String(decoding: try connection.response().body, as: UTF8.self).contains("whole-new"))
    #expect(server.stop() == 0)
  }
}
