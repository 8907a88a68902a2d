/// A request head as the server reads it line by line as its bytes arrive, before libevent
/// parses them: where it ends (its blank line), and what in it the server refuses although
/// libevent would take it (RFC 9112, sections 2.2 and 6.3):
///
/// - a NUL byte anywhere in the head (libevent reads each line as a C string, so that a value
///   `a\0b` was taken as `a`);
/// - `Content-Length` given twice with different values (libevent reads the body by the first,
///   and the rest of the body would be read as the next request: a request smuggled past a proxy
///   that took the other);
/// - `Content-Length` together with `Transfer-Encoding` (the same, between a proxy that reads one
///   and a server that reads the other).
///
/// Lines end with a line feed, a carriage return before it dropped, as libevent reads them.
struct RequestHead {
  /// How many bytes of the connection's input, from its start, were read as whole lines.
  var lineStart = 0
  /// How many bytes of the connection's input, from its start, were searched for a line feed.
  var searched = 0
  /// Whether the head's blank line was read: the head is whole.
  private(set) var isComplete = false
  /// The request's method and target as its first line gives them, for the access log (at most
  /// 1,000 bytes of the target).
  var method: String { word(0) }
  var target: String { word(1) }
  /// The first line's first 1,024 bytes, kept as they came: the words are made only for the
  /// log of a refused head.
  private var firstLine: [UInt8] = []
  private var lines = 0
  private var contentLengths: Set<String> = []
  private var hasTransferEncoding = false
  private var hasNUL = false
  /// What a plain GET gives so far, `nil` once the head is found not to be one.
  private var plain: PlainGet? = PlainGet()

  /// What a plain GET's head gives that its answer may depend on, as libevent reads them: its
  /// target and its `Accept` and `Accept-Encoding` values (leading spaces and trailing spaces and
  /// tabs left out). A plain GET's first line is `GET`, one space, a target that begins with `/`
  /// and has no space, one space and `HTTP/1.1`, with no blank line before it; it gives no
  /// header that a kept answer is not made for (`Connection`, `Content-Length`, `Expect`,
  /// `If-None-Match`, `Keep-Alive`, `Proxy-Connection`, `TE`, `Transfer-Encoding`, `Upgrade`)
  /// and neither of its two headers twice, and has no line folded onto the one before it. Such a
  /// request is answered the same for the same three values while the archive does not change.
  struct PlainGet: Hashable {
    var target: [UInt8] = []
    var accept: [UInt8]?
    var acceptEncoding: [UInt8]?
  }

  /// The head's plain GET (see ``PlainGet``), once the head is whole; `nil` for any other head.
  var plainGet: PlainGet? { isComplete && refusal == nil ? plain : nil }

  /// Whether nothing was taken from the connection's input since the head began: all of it is
  /// there still, from the input's start, and libevent has not begun reading it.
  private(set) var isUntouched = true

  /// A head not begun.
  init() {}

  /// Reads one line of the head, without its line feed.
  mutating func read(line: UnsafeRawBufferPointer) {
    guard !isComplete else { return }
    var bytes = line[...]
    if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
    if bytes.contains(0) { hasNUL = true }
    // Blank lines before the request line are skipped, as libevent skips them.
    if bytes.isEmpty {
      if lines > 0 { isComplete = true } else { plain = nil }
      return
    }
    lines += 1
    if lines == 1 {
      firstLine = Array(bytes.prefix(1_024))
      plain = plain == nil ? nil : Self.plainTarget(bytes).map { PlainGet(target: $0) }
      return
    }
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
      bytes.first != UInt8(ascii: " "), bytes.first != UInt8(ascii: "\t")
    else {
      plain = nil
      return
    }
    let name = bytes[..<colon]
    if plain != nil { readPlain(name: name, value: bytes[(colon + 1)...]) }
    if Self.isNamed(name, "content-length") {
      let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
      let value = bytes[(colon + 1)...].drop(while: blank).reversed().drop(while: blank)
      contentLengths.insert(String(decoding: value.reversed(), as: UTF8.self))
    } else if Self.isNamed(name, "transfer-encoding") {
      hasTransferEncoding = true
    }
  }

  /// The target of a plain GET's first line (see ``PlainGet``), `nil` for another line.
  private static func plainTarget(_ line: Slice<UnsafeRawBufferPointer>) -> [UInt8]? {
    let prefix = "GET /".utf8
    let suffix = " HTTP/1.1".utf8
    guard line.count >= prefix.count + suffix.count, line.starts(with: prefix),
      line.reversed().starts(with: suffix.reversed())
    else { return nil }
    let target = line.dropFirst(prefix.count - 1).dropLast(suffix.count)
    guard !target.contains(UInt8(ascii: " ")) else { return nil }
    return Array(target)
  }

  /// Reads a header of a plain GET: its `Accept` and `Accept-Encoding` values kept, or the head
  /// found not plain.
  private mutating func readPlain(
    name: Slice<UnsafeRawBufferPointer>, value: Slice<UnsafeRawBufferPointer>
  ) {
    // As libevent gives a value: leading spaces and trailing spaces and tabs left out.
    let trimmed = value.drop { $0 == UInt8(ascii: " ") }.reversed().drop {
      $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")
    }
    if Self.isNamed(name, "accept") {
      plain = plain?.accept == nil ? plain : nil
      plain?.accept = Array(trimmed.reversed())
    } else if Self.isNamed(name, "accept-encoding") {
      plain = plain?.acceptEncoding == nil ? plain : nil
      plain?.acceptEncoding = Array(trimmed.reversed())
    } else if Self.unplainHeaders.contains(where: { Self.isNamed(name, $0) }) {
      plain = nil
    }
  }

  /// The headers that make a GET not plain (see ``PlainGet``).
  private static let unplainHeaders: [StaticString] = [
    "connection", "content-length", "expect", "if-none-match", "keep-alive", "proxy-connection",
    "te", "transfer-encoding", "upgrade",
  ]

  /// Whether a header's name is a lower-case ASCII name, in any case (without making a string
  /// of it, for every line of every head).
  private static func isNamed(_ name: Slice<UnsafeRawBufferPointer>, _ lowercase: StaticString)
    -> Bool
  {
    guard name.count == lowercase.utf8CodeUnitCount else { return false }
    let wanted = UnsafeBufferPointer(start: lowercase.utf8Start, count: name.count)
    return zip(name, wanted).allSatisfy { byte, letter in
      let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
      return lower == letter
    }
  }

  /// A word of the first line, `-` when it has none.
  private func word(_ index: Int) -> String {
    let words = firstLine.split(separator: UInt8(ascii: " "), maxSplits: 2)
    return words.dropFirst(index).first.map { String(decoding: $0, as: UTF8.self) } ?? "-"
  }

  /// Bytes were taken from the start of the connection's input (libevent parsed them, or moved a
  /// body out).
  mutating func drained(_ count: Int) {
    if count > 0, searched > 0 || lines > 0 { isUntouched = false }
    lineStart = max(0, lineStart - count)
    searched = max(0, searched - count)
  }

  /// Why the server refuses the head (the detail of its 400), or `nil` when it does not; known
  /// once the head is whole.
  var refusal: String? {
    guard isComplete else { return nil }
    if hasNUL { return "the request's head holds a NUL byte" }
    if contentLengths.count > 1 {
      return "the request gives Content-Length more than once, with different values"
    }
    if hasTransferEncoding, !contentLengths.isEmpty {
      return "the request gives both Content-Length and Transfer-Encoding"
    }
    return nil
  }
}
