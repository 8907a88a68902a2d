/// One endpoint of the service, written once: its method and path pattern, the query parameters it
/// takes, what answers it, the media types and caching of its answers, and its words in the OpenAPI
/// document. Dispatch, `Allow`, `OPTIONS`, 405s, the document's paths and parameters and the tests'
/// list of endpoints are all read from the tables of routes (``Router/apiRoutes``,
/// ``Router/pageRoutes``).
///
/// ```swift
/// Route(
///   .get, ["api", "charts", .chart, "snapshots"], media: [.json, .csv], caching: .seconds(60),
///   document: RouteDocument(...)
/// ) { router, request in … }
/// ```
struct Route: Sendable {
  /// The method a route answers: a GET route answers HEAD too (RFC 9110, section 9.3.2).
  enum Method: String, Sendable {
    case get = "GET"
    case post = "POST"

    /// The methods the route takes, as `Allow` lists them.
    var allowed: [String] { self == .get ? ["GET", "HEAD"] : [rawValue] }
  }

  /// A media type a route answers in.
  enum MediaType: String, Sendable {
    case json = "application/json"
    case csv = "text/csv; charset=utf-8"
    case html = "text/html; charset=utf-8"
    case css = "text/css; charset=utf-8"
    case svg = "image/svg+xml"
    case atom = "application/atom+xml"
    /// Prometheus's text format (version 0.0.4).
    case prometheus = "text/plain; version=0.0.4; charset=utf-8"

    /// The name the OpenAPI document gives it: the type without its parameters (`text/csv`).
    var name: String { String(rawValue.prefix { $0 != ";" }) }
  }

  /// How long clients may keep a route's answers (`Cache-Control`); the server keeps the same
  /// ones until the archive changes, with their ETag and gzip form.
  enum Caching: Sendable, Equatable {
    /// Not kept: `Cache-Control: no-store`.
    case none
    /// Kept this many seconds.
    case seconds(Int)
    /// Kept `dated` seconds when the request names chart dates (which the handler decides: a
    /// dated snapshot does not change, the latest does), else `otherwise` seconds.
    case dated(Int, otherwise: Int)
  }

  /// A route to be removed or changed in meaning (docs/http-api.md, "Compatibility"): it keeps
  /// answering as before, a release at least, each answer saying it is deprecated
  /// (`Deprecation`, RFC 9745), from when it may answer no more (`Sunset`, RFC 8594) and which
  /// route answers instead (`Link` with `rel="successor-version"`, RFC 5829), and the OpenAPI
  /// document marks its operation `deprecated`.
  struct Deprecation: Sendable, Equatable {
    /// Since when it is deprecated, in seconds since 1970-01-01T00:00:00Z.
    var since: Int
    /// From when it may answer no more, in seconds since 1970; `nil` when not decided.
    var sunset: Int?
    /// The path of the route that answers instead (`/api/v2/feed/{category}`); `nil` for none.
    var successor: String?

    /// The headers each of the route's answers gets: `Deprecation: @SECONDS`, then `Sunset`
    /// (an HTTP date) and `Link` to the successor when known.
    var headers: [(String, String)] {
      var headers = [("Deprecation", "@\(since)")]
      if let sunset { headers.append(("Sunset", Worker.httpDate(sunset))) }
      if let successor { headers.append(("Link", "<\(successor)>; rel=\"successor-version\"")) }
      return headers
    }
  }

  /// What a route's handler is: the router (its archive, configuration and uploads) and the
  /// request with the route's parameters → the response. It throws ``ServerProblem``,
  /// `ArchiveError` or any other error, which the router answers as a problem document (under
  /// `/api/`) or an error page.
  typealias Handler = @Sendable (Router, RouteRequest) throws -> HTTPResponse

  /// The method.
  let method: Method
  /// The path: literal segments and typed parameters.
  let path: [PathSegment]
  /// The query parameters it takes, `format` last when it answers CSV too.
  let query: [RouteParameter]
  /// The media types of its answers (the first is the default).
  let media: [MediaType]
  /// How long its answers are kept.
  let caching: Caching
  /// Whether it is there only on a server with an upload token (`--token-file`).
  let needsUploads: Bool
  /// Its words in the OpenAPI document; `nil` for a page.
  let document: RouteDocument?
  /// Whether it is deprecated, and what answers instead; `nil` for a route that stays.
  let deprecation: Deprecation?
  /// What answers it.
  let handler: Handler

  /// A route. A route answering CSV as well as JSON takes ``Parameters/format`` too; a deprecated
  /// one (`deprecation`) answers with the headers that say so.
  init(
    _ method: Method, _ path: [PathSegment], query: [any DeclaredParameter] = [],
    media: [MediaType], caching: Caching, needsUploads: Bool = false,
    document: RouteDocument? = nil, deprecation: Deprecation? = nil,
    handler: @escaping Handler
  ) {
    self.method = method
    self.path = path
    self.query =
      query.map(\.declaration) + (media.contains(.csv) ? [Parameters.format.declaration] : [])
    self.media = media
    self.caching = caching
    self.needsUploads = needsUploads
    self.document = document
    self.deprecation = deprecation
    self.handler = handler
    pattern = Self.pattern(of: path)
  }

  /// The path as the OpenAPI document writes it: `/api/charts/{chart}/snapshots`. Made once,
  /// since the metrics name each answered request's route by it.
  let pattern: String

  /// The pattern of a path.
  static func pattern(of path: [PathSegment]) -> String {
    "/"
      + path.map { segment in
        switch segment {
        case .literal(let text): text
        case .parameter(let parameter): "{\(parameter.name)}"
        case .suffixed(let parameter, let suffix): "{\(parameter.name)}\(suffix)"
        }
      }.joined(separator: "/")
  }

  /// The parameters of its path, in order.
  var pathParameters: [RouteParameter] {
    path.compactMap { segment in
      switch segment {
      case .literal: nil
      case .parameter(let parameter), .suffixed(let parameter, _): parameter
      }
    }
  }

  /// Whether it is one of the API's (under `/api/`), which answers errors with problem documents,
  /// not a page.
  var isAPI: Bool { if case .literal("api") = path.first { true } else { false } }

  /// `GET /api/charts/{chart}/snapshots`: the route in the problems that name it.
  var name: String { method.rawValue + " " + pattern }
}
