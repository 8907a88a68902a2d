import Testing

@testable import ChartArchiveServer

/// The server's own reading of a request head, line by line as it arrives (``RequestHead``):
/// where it ends, and the heads it refuses although libevent would take them.
struct RequestHeadTests {
  /// A head read from its lines (each without its line feed).
  private func head(_ lines: [String]) -> RequestHead {
    var head = RequestHead()
    for line in lines { Array(line.utf8).withUnsafeBytes { head.read(line: $0) } }
    return head
  }

  @Test func aHeadEndsAtItsBlankLine() {
    let partial = head(["GET /api/charts?limit=1 HTTP/1.1\r", "Host: x\r"])
    #expect(!partial.isComplete)
    #expect(partial.refusal == nil)
    let whole = head(["GET /api/charts?limit=1 HTTP/1.1\r", "Host: x\r", "\r"])
    #expect(whole.isComplete)
    #expect(whole.refusal == nil)
    #expect(whole.method == "GET")
    #expect(whole.target == "/api/charts?limit=1")
    // Blank lines before the request line are skipped (RFC 9112, section 2.2); bare line feeds
    // end lines too.
    #expect(!head(["", "\r", "GET / HTTP/1.1"]).isComplete)
    #expect(head(["GET / HTTP/1.1", "Host: x", ""]).isComplete)
  }

  @Test func twoDifferentContentLengthsAreRefused() {
    let refusal = "the request gives Content-Length more than once, with different values"
    #expect(
      head(["POST / HTTP/1.1", "Content-Length: 3", "content-length:40", ""]).refusal == refusal)
    // The same value twice is one length (RFC 9110, section 8.6).
    #expect(
      head(["POST / HTTP/1.1", "Content-Length: 3", "Content-Length:\t3 ", ""]).refusal == nil)
    // Known only once the head is whole.
    #expect(head(["POST / HTTP/1.1", "Content-Length: 3", "Content-Length: 4"]).refusal == nil)
  }

  @Test func aLengthWithATransferEncodingIsRefused() {
    #expect(
      head(["POST / HTTP/1.1", "Transfer-Encoding: chunked", "Content-Length: 3", ""]).refusal
        == "the request gives both Content-Length and Transfer-Encoding")
    #expect(head(["POST / HTTP/1.1", "Transfer-Encoding: chunked", ""]).refusal == nil)
  }

  @Test func aNULAnywhereInTheHeadIsRefused() {
    let refusal = "the request's head holds a NUL byte"
    #expect(head(["GET / HTTP/1.1", "X-Note: a\0b", ""]).refusal == refusal)
    #expect(head(["GET /\0 HTTP/1.1", ""]).refusal == refusal)
    #expect(head(["GET / HTTP/1.1", "X-\0: b", ""]).refusal == refusal)
  }

  /// What libevent takes from the start of the input moves the places read so far back.
  @Test func drainingMovesThePlacesRead() {
    var head = RequestHead()
    head.lineStart = 30
    head.searched = 45
    head.drained(40)
    #expect(head.lineStart == 0)
    #expect(head.searched == 5)
  }

  /// A plain GET (answered whole, without libevent, when its answer is kept): its target and
  /// its `Accept` and `Accept-Encoding` values as libevent gives them.
  @Test func aPlainGetGivesItsTargetAndTheValuesItsAnswerMayDependOn() {
    let plain = head([
      "GET /api/charts/hot-100/latest?limit=20 HTTP/1.1\r", "Host: x\r",
      "accept:  application/json \t\r", "Accept-Encoding: gzip, br\r", "User-Agent: app\r", "\r",
    ]).plainGet
    #expect(
      plain
        == RequestHead.PlainGet(
          target: Array("/api/charts/hot-100/latest?limit=20".utf8),
          accept: Array("application/json".utf8), acceptEncoding: Array("gzip, br".utf8)))
    #expect(
      head(["GET / HTTP/1.1", ""]).plainGet
        == RequestHead.PlainGet(target: [UInt8(ascii: "/")], accept: nil, acceptEncoding: nil))
    // Known once the head is whole.
    #expect(head(["GET / HTTP/1.1", "Host: x"]).plainGet == nil)
  }

  /// What libevent or the router would read otherwise than a plain GET's answer: another method
  /// or version, an odd first line, a header the answer is not made for, one of the two given
  /// twice, a folded line, a line without a colon, a blank line first, a refused head.
  @Test func otherHeadsAreNotPlainGets() {
    let notPlain: [[String]] = [
      ["HEAD / HTTP/1.1", ""], ["POST / HTTP/1.1", ""], ["get / HTTP/1.1", ""],
      ["GET / HTTP/1.0", ""], ["GET  / HTTP/1.1", ""], ["GET / x HTTP/1.1", ""],
      ["GET http://x/ HTTP/1.1", ""], ["GET / HTTP/1.1 ", ""], ["GET /", ""],
      ["GET / HTTP/1.1", "Connection: close", ""], ["GET / HTTP/1.1", "If-None-Match: \"a\"", ""],
      ["GET / HTTP/1.1", "Content-Length: 0", ""], ["GET / HTTP/1.1", "transfer-encoding: x", ""],
      ["GET / HTTP/1.1", "Expect: 100-continue", ""], ["GET / HTTP/1.1", "Upgrade: h2c", ""],
      ["GET / HTTP/1.1", "TE: trailers", ""], ["GET / HTTP/1.1", "Keep-Alive: 5", ""],
      ["GET / HTTP/1.1", "Proxy-Connection: close", ""],
      ["GET / HTTP/1.1", "Accept: a", "accept: b", ""],
      ["GET / HTTP/1.1", "Accept-Encoding: gzip", "Accept-Encoding: br", ""],
      ["GET / HTTP/1.1", "Accept: a", " b", ""], ["GET / HTTP/1.1", "Accept: a", "\tb", ""],
      ["GET / HTTP/1.1", "Host", ""], ["", "GET / HTTP/1.1", ""],
      ["GET / HTTP/1.1", "X-Note: a\0b", ""],
    ]
    for lines in notPlain {
      #expect(head(lines).isComplete)
      #expect(head(lines).plainGet == nil, "\(lines)")
    }
  }

  /// A head of which libevent took lines (before it was whole, or once it was) is no longer all
  /// in the input: it is not answered whole; what it asks stays known.
  @Test func aHeadLibeventBeganReadingIsNoLongerUntouched() {
    var begun = head(["GET / HTTP/1.1"])
    begun.searched = 15
    #expect(begun.isUntouched)
    begun.drained(15)
    Array("".utf8).withUnsafeBytes { begun.read(line: $0) }
    #expect(begun.isComplete)
    #expect(!begun.isUntouched)
    #expect(begun.plainGet?.target == [UInt8(ascii: "/")])
    var whole = head(["GET / HTTP/1.1", ""])
    whole.searched = 16
    whole.drained(16)
    #expect(!whole.isUntouched)
    // Bytes of the request before it, taken before this head began, do not touch it.
    var fresh = RequestHead()
    fresh.drained(40)
    #expect(fresh.isUntouched)
  }

  @Test func theDateHeaderIsInRFC9110sForm() {
    #expect(Worker.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
  }
}
