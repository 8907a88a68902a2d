import ChartImport
import ChartRanking
public import ChartStorage

/// Answers the service's requests: finds each one's route in the route tables (the API's under
/// `/api/`, the pages' elsewhere), refuses what the route does not take (a method: 405 with
/// `Allow`; under `/api/`, a query parameter: 400), and hands the rest to the route's handler,
/// which reads the archive (one read transaction) and renders with ChartPresentation's views, as
/// the command line does. Shared by every worker thread.
///
/// Responses that depend only on the archive (everything but uploads, errors and the health
/// check) are kept, with their ETag and gzip form, until the archive file or its write-ahead log
/// changes (an import by this server or by `chart-archive import`).
public final class Router: Sendable {
  let archive: Archive
  /// The archive opened for writing, on a server that takes uploads.
  let uploads: Archive?
  let configuration: ServerConfiguration
  /// The responses kept until the archive changes.
  let cache: ResponseCache
  /// What `GET /api/metrics` gives: the requests answered, the cache's hits and misses.
  let metrics = ServiceMetrics()
  /// Receives what the log says beside each request's line: the cause of a 500 or 503 answer (the
  /// archive's path, SQLite's words), which the answer does not give.
  let log: @Sendable (String) -> Void

  /// The API's routes, as a trie.
  static let api = RouteTable(apiRoutes)
  /// The API's routes this router answers: ``api``, or a test's.
  let apiTable: RouteTable
  /// The pages' routes, as a trie.
  static let pages = RouteTable(pageRoutes)

  /// A router for an archive.
  ///
  /// - Parameters:
  ///   - configuration: the archive, the token, the feeds and the limits.
  ///   - log: receives the causes of 500 and 503 answers, one line each, from any thread.
  /// - Throws: ``ArchiveError`` when the archive cannot be opened (for writing too, when uploads
  ///   are allowed; it is then created when missing).
  public convenience init(
    configuration: ServerConfiguration, log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(ArchiveError) {
    try self.init(configuration: configuration, apiRoutes: Self.api, log: log)
  }

  /// A router for an archive answering a table of API routes of its own (a test's).
  ///
  /// - Throws: as ``init(configuration:log:)``.
  init(
    configuration: ServerConfiguration, apiRoutes: RouteTable,
    log: @escaping @Sendable (String) -> Void
  ) throws(ArchiveError) {
    apiTable = apiRoutes
    self.configuration = configuration
    self.log = log
    uploads =
      configuration.uploadToken == nil
      ? nil
      : try Archive(
        path: configuration.archivePath, access: .create, upgrade: .decidingFigures)
    let archive = try Archive(
      path: configuration.archivePath, access: .read, upgrade: .decidingFigures)
    self.archive = archive
    cache = ResponseCache(path: configuration.archivePath) {
      try? archive.read { reader in try reader.version().version }
    }
  }

  // MARK: - Answering

  /// The response to a request.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    let isAPI = request.path.hasPrefix("/api/")
    // A query that is not percent-encoded UTF-8 is refused, not searched for as it was sent.
    if let name = request.malformedParameters.first {
      let detail = "the query's parameter '\(name)' is not valid percent-encoded UTF-8"
      return finish(
        isAPI ? problem(400, detail) : errorPage(400, detail), gzipped: nil, for: request)
    }
    // A parameter given twice is refused, as the command line refuses an option given twice:
    // which value was meant is not known.
    if isAPI, let name = request.repeatedParameters.first {
      return finish(problem(400, Self.givenTwice(name)), gzipped: nil, for: request)
    }
    let routed: RouteRequest
    switch resolve(request) {
    case .success(let found): routed = found
    case .failure(let refusal): return finish(refusal.response, gzipped: nil, for: request)
    }
    let canCache = request.method == "GET" || request.method == "HEAD"
    let key = routed.cacheKey
    let countsHit = routed.route.caching != .none
    var seen: ResponseCache.Generation?
    if canCache {
      let (kept, generation) = cache.lookUp(key)
      seen = generation
      if countsHit { metrics.recordCache(hit: kept != nil) }
      if let kept {
        remember(request, as: key)
        return finish(kept.response, gzipped: kept.gzipped, for: request)
      }
    }
    var response = answer(routed)
    response.route = routed.route.pattern
    if canCache, case .seconds = response.caching, response.status == 200 {
      // A route may tie its tag to more than its body (a feed's to the archive's version).
      if response.header("ETag") == nil {
        response.headers.append(("ETag", EntityTag.of(response.body)))
      }
      let entry = cache.keep(response, for: key, seen: seen) { [self] entry in
        func lined(_ response: HTTPResponse) -> HTTPResponse {
          var response = response
          response.lines = HeaderLines(of: response)
          return response
        }
        return ResponseCache.Finished(
          plain: lined(finish(entry.response, gzipped: nil, for: Self.plainRequest)),
          compressed: entry.gzipped.map {
            lined(finish(entry.response, gzipped: $0, for: Self.compressedRequest))
          },
          countsHit: countsHit)
      }
      remember(request, as: key)
      return finish(response, gzipped: entry.gzipped, for: request)
    }
    return finish(response, gzipped: nil, for: request)
  }

  /// The answer kept for a GET or HEAD request as it came (its method, target and `Accept`),
  /// when the same request was answered from the response cache or kept there since the archive
  /// last changed: the response ``respond(to:)`` gives it, found without routing the request
  /// again. `nil` when there is none; a request with `If-None-Match` is not asked for here.
  /// `checkingArchive` false, the archive is not checked for a change first (see
  /// ``ResponseCache/entry(for:checking:)``).
  func keptAnswer(
    to asked: ResponseCache.Asked, acceptEncoding: String?, checkingArchive: Bool = true
  ) -> HTTPResponse? {
    keptAnswerAndEpoch(to: asked, acceptEncoding: acceptEncoding, checkingArchive: checkingArchive)?
      .response
  }

  /// The answer ``keptAnswer(to:acceptEncoding:checkingArchive:)`` gives, with the cache's epoch
  /// it was found at (see ``ResponseCache/epoch(checking:)``) and whether it counts as a cache
  /// hit in the metrics (it was counted).
  func keptAnswerAndEpoch(
    to asked: ResponseCache.Asked, acceptEncoding: String?, checkingArchive: Bool = true
  ) -> (response: HTTPResponse, epoch: Int, countsHit: Bool)? {
    let (entry, epoch) = cache.entryAndEpoch(for: asked, checking: checkingArchive)
    guard let finished = entry?.finished else { return nil }
    if finished.countsHit { metrics.recordCache(hit: true) }
    if let compressed = finished.compressed, Gzip.isAccepted(by: acceptEncoding) {
      return (compressed, epoch, finished.countsHit)
    }
    return (finished.plain, epoch, finished.countsHit)
  }

  /// Remembers which entry a GET or HEAD request as it came was answered from (see
  /// ``keptAnswer(to:acceptEncoding:)``).
  private func remember(_ request: HTTPRequest, as key: String) {
    guard let target = request.target else { return }
    let asked = ResponseCache.Asked(
      method: request.method, target: target, accept: request.headers["accept"])
    cache.remember(asked, as: key)
  }

  /// A request as ``finish(_:gzipped:for:)`` sees it for a kept entry's answers: without
  /// `If-None-Match`, taking gzip or not.
  private static let plainRequest = HTTPRequest(method: "GET", path: "/")
  private static let compressedRequest = HTTPRequest(
    method: "GET", path: "/", headers: ["accept-encoding": "gzip"])

  /// Copies what uploads committed in the archive's write-ahead log into the archive file, as far
  /// as readers let it (`Archive.checkpoint()`), when the server takes uploads: the service does
  /// it as it ends. A failure goes to the log: what was committed stays in the log, beside the
  /// archive.
  public func checkpoint() {
    guard let uploads else { return }
    do { try uploads.checkpoint() } catch {
      log("the write-ahead log could not be copied into the archive file: \(error)")
    }
  }

  /// Whether a request is an upload that presents the server's token: the server writes it on
  /// the uploads' thread (``UploadQueue``), and answers the rest on the worker's.
  func isAuthorizedUpload(_ request: HTTPRequest) -> Bool {
    guard request.method == "POST", uploads != nil, case .success(let routed) = resolve(request),
      routed.route.needsUploads
    else { return false }
    return isAuthorized(request)
  }

  /// A request that gets no route's answer: the response that refuses it.
  private struct Refusal: Error {
    var response: HTTPResponse
  }

  /// The request's route and parameters, or the response that refuses it: 400 for a path that is
  /// not percent-encoded UTF-8, 404 for a path no route has, 405 with `Allow` for a method its
  /// routes do not take (for every method but GET and HEAD outside `/api/`), the answer to
  /// `OPTIONS` under `/api/`, 400 for a query parameter an API route does not take or a `format`
  /// it does not answer in.
  private func resolve(_ request: HTTPRequest) -> Result<RouteRequest, Refusal> {
    guard let segments = Self.segments(of: request.path) else {
      return .failure(
        Refusal(response: problem(400, "the path is not valid percent-encoded UTF-8")))
    }
    let isAPI = segments.first == "api"
    let match = (isAPI ? apiTable : Self.pages).match(segments)
    let routes = match?.routes.filter { !$0.needsUploads || uploads != nil } ?? []
    // Every path outside `/api/` is a page, or the page that says there is none.
    let allowed = isAPI ? routes.flatMap { $0.method.allowed } : ["GET", "HEAD"]
    if isAPI {
      if request.method == "OPTIONS" { return .failure(Refusal(response: options(allowed))) }
      guard !allowed.isEmpty else {
        return .failure(Refusal(response: problem(404, "no such API endpoint: \(request.path)")))
      }
    }
    guard allowed.contains(request.method) else {
      let detail =
        "\(request.method) is not allowed here (allowed: \(allowed.joined(separator: ", ")))"
      var response = isAPI ? problem(405, detail) : errorPage(405, detail)
      response.headers.append(("Allow", allowed.joined(separator: ", ")))
      return .failure(Refusal(response: response))
    }
    guard let match, let route = routes.first(where: { $0.method.allowed.contains(request.method) })
    else {
      return .failure(Refusal(response: errorPage(404, "no such page: \(request.path)")))
    }
    if isAPI, let refusal = Self.unknownParameters(of: request, route: route) {
      return .failure(Refusal(response: problem(400, refusal)))
    }
    // A page ignores the parameters it does not take, given twice or not; one it takes is
    // refused given twice, as the API refuses it.
    if !isAPI,
      let name = request.repeatedParameters.first(where: { name in
        route.query.contains { $0.name == name }
      })
    {
      return .failure(Refusal(response: errorPage(400, Self.givenTwice(name))))
    }
    do throws(ServerProblem) {
      return .success(try RouteRequest(request, route: route, pathValues: match.values))
    } catch {
      return .failure(Refusal(response: problem(error.status, error.detail)))
    }
  }

  /// The words that refuse the query parameters a route does not take, naming them and those it
  /// takes; `nil` when it takes every one given.
  static func unknownParameters(of request: HTTPRequest, route: Route) -> String? {
    let taken = route.query.map(\.name)
    let unknown = request.query.keys.filter { !taken.contains($0) }.sorted()
    guard let first = unknown.first else { return nil }
    let closest =
      unknown.count == 1 ? Suggestions.closest(to: first, among: taken).first : nil
    return "unknown query parameter" + (unknown.count == 1 ? " " : "s ")
      + listed(unknown.map { "'\($0)'" }) + (closest.map { " (did you mean \($0)?)" } ?? "")
      + ": \(request.method) \(route.pattern) takes "
      + (taken.isEmpty ? "no query parameter" : listed(taken))
  }

  /// The words that refuse a query parameter given twice.
  private static func givenTwice(_ name: String) -> String {
    "the query gives '\(name)' more than once; give it once"
  }

  /// Names in a sentence: `a`, `a and b`, `a, b and c`.
  private static func listed(_ names: [String]) -> String {
    guard names.count > 1, let last = names.last else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + last
  }

  /// The route's handler's answer (see ``handlerAnswer(_:)``), with the headers of a deprecated
  /// route (``Route/Deprecation``), whatever its status.
  private func answer(_ request: RouteRequest) -> HTTPResponse {
    var response = handlerAnswer(request)
    if let deprecation = request.route.deprecation { response.headers += deprecation.headers }
    return response
  }

  /// The route's handler's answer; its errors as problem documents under `/api/`, as error pages
  /// elsewhere.
  private func handlerAnswer(_ request: RouteRequest) -> HTTPResponse {
    let isAPI = request.route.isAPI
    do {
      return try request.route.handler(self, request)
    } catch let problem as ServerProblem {
      return isAPI
        ? self.problem(problem.status, problem.detail) : errorPage(problem.status, problem.detail)
    } catch let error as ArchiveError {
      let status = Self.status(of: error)
      if status >= 500 { return failure(status, cause: error.description, of: request) }
      return isAPI
        ? problem(for: error)
        : errorPage(status, Self.words(for: error), links: Self.links(for: error))
    } catch {
      return failure(500, cause: "\(error)", of: request)
    }
  }

  /// The answer to a request refused before it is routed, its head malformed (see
  /// ``RequestHead``): a 400 problem document, with the headers every response gets.
  func refusal(_ detail: String) -> HTTPResponse {
    finish(problem(400, detail), gzipped: nil, for: HTTPRequest(method: "GET", path: "/"))
  }

  /// The answer to an upload that cannot be written promptly (the uploads before it, or another
  /// program's write, hold the archive): 503 with `Retry-After`.
  func uploadsBusy(_ request: HTTPRequest) -> HTTPResponse {
    var response = finish(
      failure(
        503,
        cause: nil,
        detail: "the archive could not be written within"
          + " \(configuration.uploadWaitMilliseconds) ms: other uploads or another program are writing"
          + " it; try again in \(configuration.retryAfterSeconds) s"),
      gzipped: nil, for: request)
    response.route = APIRoutes.upload.pattern
    return response
  }

  /// Headers every response gets, the conditional and compressed forms of cacheable ones.
  private func finish(
    _ response: HTTPResponse, gzipped: ResponseBody?, for request: HTTPRequest
  ) -> HTTPResponse {
    var response = response
    switch response.caching {
    case .none:
      response.headers.append(("Cache-Control", "no-store"))
    case .seconds(let seconds):
      response.headers.append(("Cache-Control", "public, max-age=\(seconds)"))
      response.headers.append(("Vary", "Accept, Accept-Encoding"))
      if let tag = response.header("ETag"), let wanted = request.headers["if-none-match"],
        EntityTag.matches(tag, header: wanted)
      {
        response.status = 304
        response.body = ResponseBody([])
        response.headers.removeAll { $0.name == "Content-Type" }
      } else if let compressed = gzipped, Gzip.isAccepted(by: request.headers["accept-encoding"]) {
        response.body = compressed
        response.headers.append(("Content-Encoding", "gzip"))
      }
    }
    if let origin = configuration.corsOrigin {
      response.headers.append(("Access-Control-Allow-Origin", origin))
    }
    // No answer is read as another type than it says (a JSON problem as HTML, a CSV as script).
    if response.header("X-Content-Type-Options") == nil {
      response.headers.append(("X-Content-Type-Options", "nosniff"))
    }
    return response
  }

  /// The answer to `OPTIONS` on an API path: the methods it takes, and what a page of the
  /// `--cors` origin may send.
  private func options(_ allowed: [String]) -> HTTPResponse {
    guard !allowed.isEmpty else { return problem(404, "no such API endpoint") }
    var headers = [("Allow", (allowed + ["OPTIONS"]).joined(separator: ", "))]
    if configuration.corsOrigin != nil {
      headers += [
        ("Access-Control-Allow-Methods", (allowed + ["OPTIONS"]).joined(separator: ", ")),
        ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match"),
      ]
    }
    return HTTPResponse(status: 204, headers: headers)
  }

  /// The decoded segments of a path (`/api/charts/hot-100` → `api`, `charts`, `hot-100`), or
  /// `nil` when an escape is malformed.
  static func segments(of path: String) -> [String]? {
    var segments: [String] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
      guard let decoded = percentDecoded(segment) else { return nil }
      segments.append(decoded)
    }
    return segments
  }
}
