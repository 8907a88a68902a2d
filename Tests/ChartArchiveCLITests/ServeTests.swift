import ChartStorage
import Foundation
import Synchronization
import Testing

/// `chart-archive serve`, asked over real connections where a socket is the point: the server's
/// own output and options, HEAD, the access log, timeouts, load, malformed requests, signals, a
/// port in use, and schemathesis. What the router answers is `ChartArchiveServerTests`'.
@Suite(.serialized)
struct ServeTests {
  /// What only the real server shows: the line `serve` prints, its options reaching the router
  /// (`--feed`, `--cors`, `--token-file`), HEAD and 304 without a body, 405 with `Allow`, and one
  /// access-log line per request (method, path, status, bytes, milliseconds). The answers
  /// themselves are the server tests', asked through the router.
  @Test func serveAnswersWithItsOptionsAndLogsEachRequest() throws {
    let (folder, archive) = try sampleArchive()
    let token = "s3cret-token-for-uploads"
    let server = try ServedArchive([
      "--db", archive, "--feed", "daily=hot-100", "--cors", "https://app.example",
      "--token-file", try tokenFile(in: folder, token + "\n"),
    ])
    #expect(
      server.banner == "Serving \(archive) at http://127.0.0.1:\(server.port)/ (Ctrl-C stops it)")
    let feed = try server.get("/api/feed/daily")
    #expect(feed.status == 200)
    #expect((try feed.json() as? [[String: Any]])?.first?["title"] as? String == "Lovin On Me")
    #expect(feed.header("access-control-allow-origin") == "https://app.example")

    let dated = try server.get("/api/charts/hot-100/2024-01-06")
    let tag = try #require(dated.header("etag"))
    let head = try server.request("HEAD", "/api/charts/hot-100/2024-01-06")
    #expect(head.status == 200)
    #expect(head.body.isEmpty)
    #expect(head.header("content-length") == String(dated.body.count))
    #expect(head.header("etag") == tag)
    let again = try server.get("/api/charts/hot-100/2024-01-06", headers: [("If-None-Match", tag)])
    #expect(again.status == 304)
    #expect(again.body.isEmpty)

    let upload = try server.request(
      "POST", "/api/charts/app-new/snapshots?date=2024-06-01&format=app-feed",
      headers: [("Authorization", "Bearer " + token)],
      body: Array(#"[{"title": "One", "artist": "A"}]"#.utf8))
    #expect(upload.status == 201, "\(upload.text)")
    let delete = try server.request("DELETE", "/api/charts")
    #expect(delete.status == 405)
    #expect(delete.header("allow") == "GET, HEAD")
    #expect(delete.header("content-type") == "application/problem+json")

    #expect(server.stop() == 0)
    let lines = server.log.split(separator: "\n")
    let first = try #require(lines.first)
    #expect(first.hasPrefix("GET /api/feed/daily 200 \(feed.body.count) "))
    #expect(first.hasSuffix("ms"))
    #expect(lines.contains { $0.hasPrefix("HEAD /api/charts/hot-100/2024-01-06 200 ") })
    #expect(lines.contains { $0.hasPrefix("GET /api/charts/hot-100/2024-01-06 304 0 ") })
    #expect(lines.contains { $0.hasPrefix("POST /api/charts/app-new/snapshots 201 ") })
    #expect(lines.contains { $0.hasPrefix("DELETE /api/charts 405 ") })
  }

  /// A load of requests from several clients while an import stores 40 snapshots: not one
  /// fails, and each sees whole snapshots only (the chart's latest has all its entries).
  @Test func aLoadDuringAnImportHasNoFailedRequest() throws {
    let (folder, archive) = try sampleArchive()
    for day in 1...40 {
      let entries = (1...200).map { rank in
        #"{"title": "Song \#(rank + day)", "artist": "Artist \#(rank + day)"}"#
      }
      let date = String(format: "2025-%02d-%02d", 1 + (day - 1) / 28, 1 + (day - 1) % 28)
      try folder.write("load-daily/\(date).json", "[" + entries.joined(separator: ",") + "]")
    }
    let server = try ServedArchive(["--db", archive, "--threads", "2"])
    let importer = try StartedProcess(tool: [
      "import", folder.url.appendingPathComponent("load-daily").path, "--db", archive, "--quiet",
    ])
    let failures = Mutex<[String]>([])
    let answered = Mutex(0)
    // The statuses the import's chart was answered with: 404 before its commit, 200 after.
    let seen = Mutex<Set<Int>>([])
    let targets = [
      "/api/feed/daily", "/api/charts/load-daily/latest", "/api/charts", "/api/health",
      "/api/charts/hot-100/latest?limit=20", "/api/songs?q=song+1",
    ]
    let deadline = Date().addingTimeInterval(4)
    let port = server.port
    DispatchQueue.concurrentPerform(iterations: 4) { client in
      var index = client
      while Date() < deadline {
        let target = targets[index % targets.count]
        index += 1
        do {
          let reply = try ServedArchive.request(port: port, "GET", target)
          if target.contains("load-daily") {
            // Before the import's commit the chart does not exist; after, every snapshot is whole.
            let entries = (try? reply.json() as? [String: Any])?["entries"] as? [Any]
            seen.withLock { _ = $0.insert(reply.status) }
            guard reply.status == 404 || (reply.status == 200 && entries?.count == 200) else {
              failures.withLock { $0.append("\(target): \(reply.status) \(entries?.count ?? -1)") }
              continue
            }
          } else if target.hasPrefix("/api/songs") {
            guard reply.status == 200 || reply.status == 404 else {
              failures.withLock { $0.append("\(target): \(reply.status)") }
              continue
            }
          } else if reply.status != 200 {
            failures.withLock { $0.append("\(target): \(reply.status)") }
            continue
          }
          answered.withLock { $0 += 1 }
        } catch {
          failures.withLock { $0.append("\(target): \(error)") }
        }
      }
    }
    let imported = importer.wait()
    #expect(imported.status == 0, "\(imported.error)")
    #expect(failures.withLock { $0 } == [])
    #expect(answered.withLock { $0 } > 100)
    #expect(seen.withLock { $0 } == [404, 200], "requests ran before and after the import")
    let latest = try #require(
      try server.get("/api/charts/load-daily/latest").json() as? [String: Any])
    #expect(latest["chart_date"] as? String == "2025-02-12")
    #expect(server.stop() == 0)
  }

  /// The service's limits: malformed requests get a 4xx or a closed connection, and the service
  /// goes on answering others.
  @Test func malformedRequestsAreRefusedAndTheServiceGoesOn() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive(["--db", archive, "--timeout", "1"])
    let attempts: [(String, [UInt8])] = [
      ("a request line that is not one", Array("HELLO\r\n\r\n".utf8)),
      ("an unknown version", Array("GET /api/charts HTTP/9.9\r\n\r\n".utf8)),
      ("a method that is no method", Array("G=T /api/charts HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
      (
        "headers past the limit",
        Array(
          ("GET /api/charts HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 40_000)
            + "\r\n\r\n").utf8)
      ),
      (
        "a body past the limit",
        Array(
          "POST /api/charts/x/snapshots HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n"
            .utf8)
      ),
      (
        "a body longer than its Content-Length",
        Array(
          "POST /api/charts HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nabcdef GARBAGE\r\n\r\n"
            .utf8)
      ),
      ("a bad header line", Array("GET /api/charts HTTP/1.1\r\nno colon here\r\n\r\n".utf8)),
      ("a NUL in the path", Array("GET /api/\0charts HTTP/1.1\r\nHost: x\r\n\r\n".utf8)),
    ]
    for (what, bytes) in attempts {
      let connection = try RawConnection(port: server.port)
      try? connection.send(bytes)
      let (closed, received) = connection.closedByServer()
      let statusLine = String(decoding: received.prefix(12), as: UTF8.self)
      let status = Int(statusLine.dropFirst(9).prefix(3)) ?? 0
      // Every answer to these is a 4xx (the over-long body's extra bytes are a second request,
      // answered 4xx too) or 501 for a method HTTP does not have (RFC 9110, section 9.1), or
      // the connection is closed without one.
      #expect(closed, "\(what): the connection stays open")
      #expect(
        received.isEmpty || (400..<500).contains(status) || status == 501, "\(what): \(statusLine)")
      #expect(try server.get("/api/health").status == 200, "after \(what)")
    }
    // A TRACE with a body (which libevent does not read) ends its connection after the 405:
    // the body was read as the next request, answered 400 (schemathesis found it).
    let trace = try RawConnection(port: server.port)
    try trace.send(
      Array(
        "TRACE /api/charts HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nPUT / X\r\n".utf8))
    let (traceClosed, traceReply) = trace.closedByServer()
    let traceText = String(decoding: traceReply, as: UTF8.self)
    #expect(traceClosed)
    #expect(traceText.hasPrefix("HTTP/1.1 405 "))
    #expect(!traceText.contains("400 Bad Request"))
    // A slow client (slowloris: a header a second) is cut off after the timeout.
    let slow = try RawConnection(port: server.port)
    try slow.send(Array("GET /api/charts HTTP/1.1\r\n".utf8))
    let start = Date()
    var cut = false
    for _ in 0..<8 {
      sleep(1)
      if (try? slow.send(Array("X-Slow: 1\r\n".utf8))) == nil {
        cut = true
        break
      }
    }
    if !cut { cut = slow.closedByServer().closed }
    #expect(cut)
    #expect(Date().timeIntervalSince(start) < 9)
    #expect(try server.get("/api/health").status == 200)
    #expect(server.stop() == 0)
    _ = folder
  }

  /// A port in use is a clear error; SIGINT ends the service with status 0.
  @Test func aPortInUseIsAClearErrorAndSIGINTEndsTheService() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive(["--db", archive])
    let second = try chartArchive(["serve", "--port", String(server.port), "--db", archive])
    #expect(second.status == 75)
    #expect(
      second.error == "Error: port \(server.port) on 127.0.0.1 is in use by another program\n")
    let missing = try chartArchive(["serve", "--port", "0", "--db", folder.path + "/none.sqlite"])
    #expect(missing.status != 0)
    #expect(missing.error.hasPrefix("Error: no archive at \(folder.path)/none.sqlite"))
    let badPort = try chartArchive(["serve", "--port", "70000", "--db", archive])
    #expect(badPort.status == 64)
    #expect(
      badPort.error.hasPrefix(
        "Error: --port expects a whole number from 0 to 65535, found '70000'\n"))
    // Not an address: a usage error, not one to try again (it exited 75).
    let badHost = try chartArchive(["serve", "--host", "999.1.1.1", "--port", "0", "--db", archive])
    #expect(badHost.status == 64)
    #expect(
      badHost.error.hasPrefix(
        "Error: '999.1.1.1' is not an address or a host name this machine knows\n"))
    #expect(server.stop(SIGINT) == 0)
  }
}

/// schemathesis (a test-only tool, installed by `script/setup --test-tools`) fuzzes the service
/// against its own OpenAPI document, uploads included: no 5xx, every answer as documented
/// (status, content type, schema), invalid requests refused, undeclared methods answered 405.
/// Bounded: 25 examples an operation, deterministic.
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(
      atPath: packageRoot.appendingPathComponent(".build/test-tools/bin/schemathesis").path),
    "schemathesis is not installed (run script/setup --test-tools): skipped"))
struct SchemathesisTests {
  @Test func theServiceAnswersAsItsOpenAPIDocumentSays() throws {
    let (folder, archive) = try sampleArchive()
    let token = "fuzzing-token-0123456789"
    let server = try ServedArchive([
      "--db", archive, "--token-file", try tokenFile(in: folder, token),
    ])
    let url = "http://127.0.0.1:\(server.port)"
    // positive_data_acceptance is left out: a schema cannot say which strings are real chart
    // dates or that a search needs q or artist, so it would call the 400s they get wrong.
    let run = try bash(
      """
      root="$PWD"
      # From the test's own folder: schemathesis keeps a cache (.schemathesis) where it runs.
      cd "\(folder.path)" && timeout 600 "$root/.build/test-tools/bin/schemathesis" \
        --config-file "$root/Tests/Schemathesis/schemathesis.toml" run "\(url)/api/openapi.json" \
        --url "\(url)" --max-examples 25 --generation-deterministic --request-timeout 30 \
        --checks all \
        --exclude-checks positive_data_acceptance -H "Authorization: Bearer \(token)" --no-color
      """)
    #expect(run.status == 0, "\(run.output.suffix(6_000))\(run.error)")
    #expect(server.stop() == 0)
    let log = server.log.split(separator: "\n")
    #expect(log.count > 300, "schemathesis made \(log.count) requests")
    #expect(!log.contains { $0.split(separator: " ").dropFirst(2).first?.hasPrefix("5") == true })
  }
}
