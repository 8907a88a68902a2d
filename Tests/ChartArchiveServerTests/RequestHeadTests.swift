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

  @Test func theDateHeaderIsInRFC9110sForm() {
    #expect(Worker.httpDate(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
  }
}
