import Foundation
import Synchronization
import Testing

@testable import ChartArchiveServer

/// The responses the router keeps until the archive changes (``ResponseCache``): bounded by all
/// that an entry holds, under the request normalised.
struct ResponseCacheTests {
  /// A unique 15 KB value of a declared parameter in every request: each answer was kept under
  /// its key, which the cache's bound did not count (5,000 such requests grew the service by
  /// 75 MB, never given back). Such a key is now too long to keep.
  @Test func aLongUniqueParameterValueIsNotKept() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let filler = String(repeating: "x", count: 15_000)
    let kept = service.router.cache.count
    for index in 0..<20 {
      let reply = service.get("/api/songs?q=\(index)\(filler)")
      #expect(reply.status == 200)
      #expect(reply.text == "{\n  \"matches\": []\n}\n")
    }
    #expect(service.router.cache.count == kept)
    // Short ones are kept, each once.
    for index in 0..<20 { _ = service.get("/api/songs?q=\(index)") }
    #expect(service.router.cache.count == kept + 20)
  }

  /// What an entry counts for: its key, its response's headers and body, the body's gzip form
  /// and the estimate of the rest.
  @Test func anEntryCountsAllItHolds() {
    let cache = ResponseCache(path: "/nonexistent/archive.sqlite", limitBytes: 10_000)
    let small = HTTPResponse(
      status: 200, headers: [("Content-Type", "application/json")],
      body: Array(repeating: 65, count: 100))
    cache.keep(small, for: "key")
    #expect(cache.bytes == 3 + 12 + 16 + 100 + ResponseCache.entryOverhead)
    // Kept again under the same key, it counts once.
    cache.keep(small, for: "key")
    #expect(cache.bytes == 3 + 12 + 16 + 100 + ResponseCache.entryOverhead)
    #expect(cache.count == 1)
    // A body worth compressing counts with its gzip form.
    let large = HTTPResponse(status: 200, body: Array(repeating: 66, count: 2_000))
    let gzipped = cache.keep(large, for: "large").gzipped?.count ?? 0
    #expect(gzipped > 0 && gzipped < 100)
    #expect(
      cache.bytes
        == 3 + 12 + 16 + 100 + 5 + 2_000 + gzipped + 2 * ResponseCache.entryOverhead)
  }

  /// An answer made after a lookup, while an import changed the archive and another request
  /// started the cache again, may have been read before the import: it is not kept for the new
  /// archive (it was, and was served until the next change).
  @Test func anAnswerMadeBeforeAChangeIsNotKeptAfterIt() throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("response-cache-\(getpid()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data([1]).write(to: URL(fileURLWithPath: path))
    let cache = ResponseCache(path: path)
    let (missed, before) = cache.lookUp("a")
    #expect(missed == nil)
    try Data([1, 2]).write(to: URL(fileURLWithPath: path))
    let (_, after) = cache.lookUp("b")
    #expect(after != before)
    cache.keep(HTTPResponse(status: 200, body: [65]), for: "a", seen: before)
    #expect(cache.lookUp("a").entry == nil)
    cache.keep(HTTPResponse(status: 200, body: [66]), for: "b", seen: after)
    #expect(cache.lookUp("b").entry?.response.body.bytes == [66])
  }

  /// SQLite writes a commit into the log before a reader sees it: a lookup in between finds the
  /// log changed while the answer is read from the archive before the commit. The version a read
  /// sees is part of the generation, so that such an answer, kept, is not found once the commit
  /// is visible (it was, until the next change).
  @Test func anAnswerIsFoundOnlyWhileTheVersionAReadSeesIsTheSame() {
    let version = Mutex(7)
    let cache = ResponseCache(path: "/nonexistent/archive.sqlite") {
      version.withLock { $0 }
    }
    let (missed, seen) = cache.lookUp("feed")
    #expect(missed == nil)
    cache.keep(HTTPResponse(status: 200, body: [65]), for: "feed", seen: seen)
    #expect(cache.lookUp("feed").entry?.response.body.bytes == [65])
    let asked = ResponseCache.Asked(method: "GET", target: "/api/feed/daily", accept: nil)
    cache.remember(asked, as: "feed")
    version.withLock { $0 = 8 }
    #expect(cache.entry(for: asked) == nil)
    #expect(cache.lookUp("feed").entry == nil)
  }

  /// Past the limit the cache starts again: what it holds never passes the limit, keys and
  /// headers counted.
  @Test func theCacheStaysWithinItsLimit() {
    let cache = ResponseCache(path: "/nonexistent/archive.sqlite", limitBytes: 64 * 1_024)
    let response = HTTPResponse(
      status: 200,
      headers: [("Content-Type", "application/json"), ("ETag", "\"0123456789abcdef\"")],
      body: Array(repeating: 67, count: 900))
    for index in 0..<200 {
      cache.keep(response, for: String(index) + String(repeating: "k", count: 1_500))
      #expect(cache.bytes <= 64 * 1_024)
    }
    #expect(cache.count > 0)
    // A key past the longest kept is not kept.
    let before = cache.count
    cache.keep(response, for: String(repeating: "k", count: ResponseCache.longestKey + 1))
    #expect(cache.count == before)
  }

  /// A response is kept once however its request is written: a path's escapes, the order of the
  /// parameters, one a page does not take.
  @Test func aResponseIsKeptOnceHoweverItsRequestIsWritten() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let kept = service.router.cache.count
    for target in [
      "/charts/hot-100/2024-01-06", "/charts/hot%2D100/2024-01-06",
      "/charts/hot-100/2024-01-06?utm_source=x",
    ] {
      #expect(service.get(target).status == 200)
    }
    #expect(service.router.cache.count == kept + 1)
    for target in ["/api/songs?q=lovin&chart=hot-100", "/api/songs?chart=hot-100&q=lovin"] {
      #expect(service.get(target).status == 200)
    }
    #expect(service.router.cache.count == kept + 2)
    // Another format is another answer.
    #expect(service.get("/api/songs?q=lovin&chart=hot-100&format=csv").status == 200)
    #expect(service.router.cache.count == kept + 3)
  }

  /// A GET answered once is found again as it came (method, target, `Accept`) without being
  /// routed: the very answer routing gives, plain or compressed as asked. Another spelling of it,
  /// another method or another `Accept` is not found until it was answered too.
  @Test func anAnswerIsFoundAgainByTheRequestAsItCame() throws {
    let service = try Service(try TestArchive.shared.get().path)
    let target = "/api/charts/hot-100/2024-01-06"
    let asked = ResponseCache.Asked(method: "GET", target: target, accept: nil)
    #expect(service.router.keptAnswer(to: asked, acceptEncoding: nil) == nil)
    let routed = service.get(target)
    let compressed = service.get(target, headers: ["Accept-Encoding": "gzip"])
    #expect(compressed.header("Content-Encoding") == "gzip")
    for (expected, encoding) in [(routed, nil), (compressed, "gzip, deflate")] {
      let kept = try #require(service.router.keptAnswer(to: asked, acceptEncoding: encoding))
      #expect(kept.status == 200)
      #expect(
        kept.headers.map { "\($0.name): \($0.value)" }
          == expected.headers.map { "\($0.name): \($0.value)" })
      #expect(kept.body.bytes == expected.body.bytes)
      #expect(kept.route == "/api/charts/{chart}/{date}")
    }
    let others = [
      ResponseCache.Asked(method: "GET", target: "/api/charts/hot%2D100/2024-01-06", accept: nil),
      ResponseCache.Asked(method: "HEAD", target: target, accept: nil),
      ResponseCache.Asked(method: "GET", target: target, accept: "text/csv"),
    ]
    let count = service.router.cache.count
    for other in others {
      #expect(service.router.keptAnswer(to: other, acceptEncoding: nil) == nil)
      _ = service.request(
        other.method, other.target, headers: other.accept.map { ["Accept": $0] } ?? [:])
      #expect(service.router.keptAnswer(to: other, acceptEncoding: nil)?.status == 200)
    }
    // The CSV form is another answer; the other two are the one kept.
    #expect(service.router.cache.count == count + 1)
    let csv = service.router.keptAnswer(to: others[2], acceptEncoding: nil)
    #expect(csv?.header("Content-Type") == "text/csv; charset=utf-8")
  }

  /// A kept answer's headers are handed to libevent as one block of lines, Content-Type first,
  /// with its body's length; a header libevent looks for itself, a line break or a NUL in a
  /// value, or no header at all, and they are handed over one by one.
  @Test func aKeptAnswersHeadersAreOneBlockOfLines() throws {
    func text(_ characters: ContiguousArray<CChar>) -> String {
      characters.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
    let response = HTTPResponse(
      status: 200,
      headers: [("ETag", "\"1\""), ("Content-Type", "application/json"), ("Vary", "Accept")],
      body: Array(repeating: 65, count: 12))
    let lines = try #require(HeaderLines(of: response))
    #expect(text(lines.name) == "Content-Type")
    #expect(text(lines.value) == "application/json\r\nETag: \"1\"\r\nVary: Accept")
    #expect(text(lines.contentLength) == "12")
    for apart in [("Connection", "close"), ("date", "x"), ("X-Note", "a\r\nSet-Cookie: b")] {
      var other = response
      other.headers.append(apart)
      #expect(HeaderLines(of: other) == nil, "\(apart)")
    }
    #expect(HeaderLines(of: HTTPResponse(status: 200)) == nil)
  }

  /// A request found by how it came is answered after the archive changed only when the lookup
  /// checks the archive: a worker checks it once a turn of its loop, and leaves it unchecked for
  /// the turn's other requests.
  @Test func aLookupThatDoesNotCheckTheArchiveKeepsWhatTheLastCheckFound() throws {
    let folder = try TemporaryFolder()
    let archive = try folder.write("archive.sqlite", "one")
    let cache = ResponseCache(path: archive)
    let asked = ResponseCache.Asked(method: "GET", target: "/a", accept: nil)
    #expect(cache.entry(for: asked) == nil)
    cache.keep(HTTPResponse(status: 200, body: [65]), for: "a")
    cache.remember(asked, as: "a")
    #expect(cache.entry(for: asked)?.response.body.bytes == [65])
    try folder.write("archive.sqlite", "two, longer")
    #expect(cache.entry(for: asked, checking: false)?.response.body.bytes == [65])
    #expect(cache.entry(for: asked) == nil)
    #expect(cache.entry(for: asked, checking: false) == nil)
    #expect(cache.count == 0)
  }
}
