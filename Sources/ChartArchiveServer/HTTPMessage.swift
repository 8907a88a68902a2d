/// An HTTP request as the router sees it, taken from libevent's (or made by a test).
public struct HTTPRequest: Sendable {
  /// The method, upper case (`GET`, `HEAD`, `POST`, …).
  public var method: String
  /// The path, percent-encoded as it came (`/api/charts/hot%2D100/latest`), without the query.
  public var path: String
  /// The query's parameters, decoded; a name given twice keeps its first value.
  public var query: [String: String]
  /// The names the query gives more than once, in the order of their second appearance.
  public var repeatedParameters: [String] = []
  /// The names (as given) of the query's parameters whose name or value is not percent-encoded
  /// UTF-8 (a malformed escape such as `%zz`, or bytes such as `%ff` that are not UTF-8); their
  /// text is kept as given.
  public var malformedParameters: [String] = []
  /// The headers, by lower-case name; a name given twice keeps its values joined by `, `.
  public var headers: [String: String]
  /// The body (an upload's file), empty for most requests.
  public var body: [UInt8]
  /// The target as it came on the request line, for a request made from one: it names the
  /// request's answer in the response cache (``ResponseCache/Asked``).
  var target: String?

  /// A request.
  public init(
    method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// A request from a target as it comes on the request line (`/api/songs?q=night%20sky`), its
  /// query decoded (`+` is a space, as HTML forms send it). A target in absolute form
  /// (`http://example.com/api/songs?q=x`), which a server must accept (RFC 9112, section
  /// 3.2.2), is taken as its path and query (`/` when it has no path).
  public init(method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []) {
    let target = Self.originForm(of: target)
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var query: [String: String] = [:]
    var repeated: [String] = []
    var malformed: [String] = []
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let decodedName = percentDecoded(field[0], plusIsSpace: true)
        let decodedValue = field.count == 2 ? percentDecoded(field[1], plusIsSpace: true) : ""
        if decodedName == nil || decodedValue == nil { malformed.append(String(field[0])) }
        let name = decodedName ?? String(field[0])
        let value = decodedValue ?? String(field[1])
        if query[name] == nil {
          query[name] = value
        } else if !repeated.contains(name) {
          repeated.append(name)
        }
      }
    }
    self.init(
      method: method, path: String(parts[0]), query: query,
      headers: Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $0 + ", " + $1 },
      body: body)
    repeatedParameters = repeated
    malformedParameters = malformed
    self.target = target
  }

  /// A request target in origin form: an `http` or `https` URI's path and query, the scheme and
  /// authority left out (RFC 9112, section 3.2); any other target as it is.
  static func originForm(of target: String) -> String {
    guard let colon = target.utf8.firstIndex(of: UInt8(ascii: ":")),
      ["http", "https"].contains(target[..<colon].lowercased()),
      target[colon...].hasPrefix("://")
    else { return target }
    let authority = target[target.index(colon, offsetBy: 3)...]
    guard let end = authority.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
      return "/"
    }
    return target[end] == "/" ? String(target[end...]) : "/" + target[end...]
  }
}

/// A response: status, headers and body.
public struct HTTPResponse: Sendable {
  /// The status code (RFC 9110).
  public var status: Int
  /// The headers, in order.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: ResponseBody
  /// How long a client may keep the response, when it may be cached (`Cache-Control`), and
  /// whether the server keeps it too until the archive changes.
  public var caching: Caching
  /// The pattern of the route that answered (`/api/charts/{chart}/{date}`), which the metrics
  /// count it under; `nil` for a request no route answered.
  public var route: String?
  /// The headers as the lines they are sent as, made once for an answer sent many times (a kept
  /// one): then they must not change.
  var lines: HeaderLines?

  /// How a response may be kept.
  public enum Caching: Sendable, Equatable {
    /// Not kept (`Cache-Control: no-store`): errors, uploads, the health check.
    case none
    /// Kept by clients for this many seconds, and by the server until the archive changes; it has
    /// an `ETag` and answers `If-None-Match`.
    case seconds(Int)
  }

  /// A response with a body.
  public init(
    status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
    caching: Caching = .none
  ) {
    self.status = status
    self.headers = headers
    self.body = ResponseBody(body)
    self.caching = caching
  }

  /// The first value of a header, by name in any case.
  public func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }
}

/// A response's headers as the lines they are sent as, and its body's length as
/// `Content-Length` gives it, made once for an answer sent many times: libevent is handed them as
/// one header (see `chart_archive_add_header_lines`), the first header's name and the rest, rather
/// than each header copied and printed on its own.
final class HeaderLines: Sendable {
  /// The first header's name, a C string.
  let name: ContiguousArray<CChar>
  /// The first header's value, then CR LF and every other header's line, a C string.
  let value: ContiguousArray<CChar>
  /// The body's length, a C string.
  let contentLength: ContiguousArray<CChar>

  /// The lines of a response's headers, `Content-Type` first; `nil` when it has none, or a
  /// header libevent itself looks for in the headers it sends (`Connection`, `Content-Length`,
  /// `Date`, `Transfer-Encoding`, and `Content-Type` but as the first), or a name or value that
  /// libevent would refuse to send (a line break, a NUL): those are handed over one by one.
  init?(of response: HTTPResponse) {
    let typeFirst =
      response.headers.filter { $0.name == "Content-Type" }
      + response.headers.filter { $0.name != "Content-Type" }
    guard let first = typeFirst.first else { return nil }
    let watched: Set<String> = [
      "connection", "content-length", "content-type", "date", "keep-alive", "proxy-connection",
      "transfer-encoding",
    ]
    for (index, header) in typeFirst.enumerated() {
      let unsafe = (header.name + header.value).utf8.contains {
        $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\n") || $0 == 0
      }
      guard !unsafe, !header.name.isEmpty, index == 0 || !watched.contains(header.name.lowercased())
      else { return nil }
    }
    let rest = typeFirst.dropFirst().map { "\r\n\($0.name): \($0.value)" }.joined()
    name = ContiguousArray(first.name.utf8CString)
    value = ContiguousArray((first.value + rest).utf8CString)
    contentLength = ContiguousArray(String(response.body.count).utf8CString)
  }
}

/// A response body's bytes, shared (not copied) between the cache and the responses sent from it:
/// libevent sends them from where they are, holding the body until the socket has them.
public final class ResponseBody: @unchecked Sendable {
  /// The bytes, never changed once made (which is what makes sharing them safe).
  let storage: UnsafeMutableRawBufferPointer

  /// A body of these bytes.
  public init(_ bytes: [UInt8]) {
    storage = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
    storage.copyBytes(from: bytes)
    count = bytes.count
  }

  deinit { storage.deallocate() }

  /// How many bytes the body holds.
  public let count: Int

  /// The bytes, copied out (for tests and hashing).
  public var bytes: [UInt8] { Array(storage.prefix(count)) }
}

/// The reason phrase of a status code (RFC 9110, section 15).
func reasonPhrase(_ status: Int) -> String {
  switch status {
  case 200: "OK"
  case 201: "Created"
  case 204: "No Content"
  case 301: "Moved Permanently"
  case 303: "See Other"
  case 304: "Not Modified"
  case 400: "Bad Request"
  case 401: "Unauthorized"
  case 404: "Not Found"
  case 405: "Method Not Allowed"
  case 406: "Not Acceptable"
  case 409: "Conflict"
  case 413: "Content Too Large"
  case 415: "Unsupported Media Type"
  case 422: "Unprocessable Content"
  case 500: "Internal Server Error"
  case 503: "Service Unavailable"
  default: "Status \(status)"
  }
}

/// Text with its `%XX` escapes decoded as UTF-8 (and `+` as a space, for a query), or `nil` when
/// an escape is malformed or the bytes are not UTF-8.
func percentDecoded(_ text: Substring, plusIsSpace: Bool = false) -> String? {
  var bytes: [UInt8] = []
  bytes.reserveCapacity(text.utf8.count)
  var iterator = text.utf8.makeIterator()
  while let byte = iterator.next() {
    if byte == UInt8(ascii: "%") {
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    } else if plusIsSpace, byte == UInt8(ascii: "+") {
      bytes.append(UInt8(ascii: " "))
    } else {
      bytes.append(byte)
    }
  }
  return String(validating: bytes, as: UTF8.self)
}

private func hexValue(_ byte: UInt8) -> UInt8? {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
  case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
  case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
  default: nil
  }
}
