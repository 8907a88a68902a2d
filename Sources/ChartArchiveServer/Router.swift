import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
public import ChartStorage
import Foundation

/// Answers the HTTP API's requests: routes them to the library's queries (one read transaction
/// each) and renders the answers with ChartPresentation's views, as the command line does. Shared
/// by every worker thread.
///
/// Responses that depend only on the archive (everything but uploads, errors and the health
/// check) are kept, with their ETag and gzip form, until the archive file or its write-ahead log
/// changes (an import by this server or by `chart-archive import`).
public final class Router: Sendable {
  let archive: Archive
  let uploads: Archive?
  let configuration: ServerConfiguration
  private let cache: ResponseCache

  /// A router for an archive.
  ///
  /// - Throws: ``ArchiveError`` when the archive cannot be opened (for writing too, when uploads
  ///   are allowed; it is then created when missing).
  public init(configuration: ServerConfiguration) throws(ArchiveError) {
    self.configuration = configuration
    uploads =
      configuration.uploadToken == nil
      ? nil : try Archive(path: configuration.archivePath, access: .create)
    archive = try Archive(path: configuration.archivePath, access: .read)
    cache = ResponseCache(path: configuration.archivePath)
  }

  // MARK: - Answering

  /// The response to a request.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    // A parameter given twice is refused, as the command line refuses an option given twice:
    // which value was meant is not known (before the cache, whose key holds one value).
    if request.path.hasPrefix("/api/"), let name = request.repeatedParameters.first {
      return finish(
        problem(400, "the query gives '\(name)' more than once; give it once"), gzipped: nil,
        for: request)
    }
    let format = Self.format(of: request)
    let canCache = (request.method == "GET" || request.method == "HEAD") && format != nil
    let key = canCache ? Self.cacheKey(request, format: format ?? .json) : ""
    if canCache, let kept = cache.entry(for: key) {
      return finish(kept.response, gzipped: kept.gzipped, for: request)
    }
    var response = route(request, format: format)
    if canCache, case .seconds = response.caching, response.status == 200 {
      response.headers.append(("ETag", EntityTag.of(response.body)))
      let entry = cache.keep(response, for: key)
      return finish(response, gzipped: entry.gzipped, for: request)
    }
    return finish(response, gzipped: nil, for: request)
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
      } else if let compressed = gzipped, Self.acceptsGzip(request.headers["accept-encoding"]) {
        response.body = compressed
        response.headers.append(("Content-Encoding", "gzip"))
      }
    }
    if let origin = configuration.corsOrigin {
      response.headers.append(("Access-Control-Allow-Origin", origin))
    }
    return response
  }

  private func route(_ request: HTTPRequest, format: OutputFormat?) -> HTTPResponse {
    guard let segments = Self.segments(of: request.path) else {
      return problem(400, "the path is not valid percent-encoded UTF-8")
    }
    guard segments.first == "api" else { return page(request, segments: segments) }
    let path = Array(segments.dropFirst())
    if request.method == "OPTIONS" { return options(for: path) }
    let allowed = Self.allowedMethods(for: path, uploads: uploads != nil)
    guard !allowed.isEmpty else { return problem(404, "no such API endpoint: \(request.path)") }
    guard allowed.contains(request.method) else {
      var response = problem(
        405, "\(request.method) is not allowed here (allowed: \(allowed.joined(separator: ", ")))")
      response.headers.append(("Allow", allowed.joined(separator: ", ")))
      return response
    }
    guard let format else {
      return problem(400, "format must be json or csv, found '\(request.query["format"] ?? "")'")
    }
    do {
      switch path {
      case ["health"]: return try health()
      case ["openapi.json"]:
        return HTTPResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array(OpenAPIDocument.json.utf8), caching: .seconds(3_600))
      case ["charts"]:
        return try view(format, caching: .seconds(60)) { ChartsView(charts: try $0.charts()) }
      case ["feed", "updated"]:
        let time = try archive.read { try $0.lastImportTime() }
        return HTTPResponse(
          status: 200, headers: [("Content-Type", "application/json")],
          body: Array("\(time?.secondsSince1970 ?? 0)\n".utf8), caching: .seconds(10))
      case let path where path.count == 2 && path[0] == "feed":
        return try feed(path[1], request: request)
      case let path where path.count == 3 && path[0] == "charts" && path[2] == "snapshots":
        if request.method == "POST" { return upload(to: path[1], request: request) }
        return try view(format, caching: .seconds(60)) {
          SnapshotsView(chart: path[1], snapshots: try $0.snapshots(of: path[1]))
        }
      case let path where path.count == 3 && path[0] == "charts" && path[2] == "diff":
        let from = try snapshotDate(request.query["from"], name: "from")
        let to = try snapshotDate(request.query["to"], name: "to")
        return try view(format, caching: .seconds(from == nil || to == nil ? 60 : 86_400)) {
          reader in
          let (older, newer) = try reader.snapshotsToCompare(of: path[1], from, to)
          return DiffView(
            chart: path[1], older: older, newer: newer,
            diff: try reader.diff(from: older, to: newer))
        }
      case let path where path.count == 3 && path[0] == "charts" && path[2] == "report":
        let date = try snapshotDate(request.query["date"], name: "date")
        let limit = try number(request.query["limit"], name: "limit") ?? 10
        return try view(format, caching: .seconds(Self.seconds(for: date))) { reader in
          let snapshot = try reader.snapshot(of: path[1], at: date ?? .latest)
          let (report, previous) = try reader.report(on: snapshot, limit: limit)
          return ReportView(chart: path[1], snapshot: snapshot, previous: previous, report: report)
        }
      case let path where path.count == 3 && path[0] == "charts":
        let date = try snapshotDate(path[2], name: "date")
        let limit = try number(request.query["limit"], name: "limit") ?? .max
        return try view(format, caching: .seconds(Self.seconds(for: date))) {
          SnapshotView(try $0.chartSnapshot(of: path[1], at: date ?? .latest), limit: limit)
        }
      case ["songs"]:
        // Blanks and control characters are no words (a search for them found every song).
        func words(_ text: String?) -> String? {
          let trimmed = (text ?? "").trimmingCharacters(
            in: .whitespacesAndNewlines.union(.controlCharacters))
          return trimmed.isEmpty ? nil : text
        }
        let text = words(request.query["q"]) ?? ""
        let artist = words(request.query["artist"])
        let chart = request.query["chart"].flatMap { $0.isEmpty ? nil : $0 }
        guard !text.isEmpty || artist != nil else {
          throw ServerProblem(400, "give q (words of a title or credit) or artist")
        }
        return try view(format, caching: .seconds(60)) {
          SongMatchesView(try $0.songs(matching: text, artist: artist, chart: chart))
        }
      case let path where path.count == 2 && path[0] == "songs":
        guard let id = Int64(path[1]), id > 0 else {
          throw ServerProblem(404, "no song with ID \(path[1])")
        }
        return try view(format, caching: .seconds(60)) { reader in
          guard let song = try reader.song(SongID(id)) else {
            throw ServerProblem(404, "no song with ID \(id)")
          }
          return HistoryView(try reader.recordings(of: [song]))
        }
      default:
        return problem(404, "no such API endpoint: \(request.path)")
      }
    } catch let problem as ServerProblem {
      return self.problem(problem.status, problem.detail)
    } catch let error as ArchiveError {
      return self.problem(for: error)
    } catch {
      return problem(500, "\(error)")
    }
  }

  /// A view rendered in a format, from one read transaction.
  private func view(
    _ format: OutputFormat, caching: HTTPResponse.Caching,
    _ make: (ArchiveReader) throws -> some Presentation
  ) throws -> HTTPResponse {
    let view = try archive.read(make)
    let text = view.rendered(as: format, style: Style(colors: false))
    return HTTPResponse(
      status: 200, headers: [("Content-Type", Self.contentType(format))], body: Array(text.utf8),
      caching: caching)
  }

  private func health() throws -> HTTPResponse {
    let (charts, last) = try archive.read { (try $0.charts().count, try $0.lastImportTime()) }
    let body = JSONValue.object([
      ("status", .string("ok")), ("schema_version", .int(Archive.schemaVersion)),
      ("charts", .int(charts)), ("last_import", JSONValue(last?.iso8601)),
    ])
    return HTTPResponse(
      status: 200, headers: [("Content-Type", "application/json")],
      body: Array((body.encoded() + "\n").utf8))
  }

  private func feed(_ category: String, request: HTTPRequest) throws -> HTTPResponse {
    guard let chart = configuration.feeds[category] else {
      let known = configuration.feeds.keys.sorted().joined(separator: ", ")
      throw ServerProblem(
        404, "no feed '\(category)' (the feeds: \(known); and updated, the last import's time)")
    }
    let limit = try number(request.query["limit"], name: "limit") ?? 20
    return try view(.json, caching: .seconds(60)) {
      FeedView(try $0.chartSnapshot(of: chart, at: .latest).placements, limit: limit)
    }
  }

  private func options(for path: [String]) -> HTTPResponse {
    let allowed = Self.allowedMethods(for: path, uploads: uploads != nil)
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

  func snapshotDate(_ text: String?, name: String) throws -> SnapshotDate? {
    guard let text, !text.isEmpty else { return nil }
    if let keyword = SnapshotDate(keyword: text) { return keyword }
    guard let date = try? ChartDate(iso8601: text) else {
      throw ServerProblem(
        400, "\(name) '\(text)' is not a chart date (YYYY-MM-DD, latest or previous)")
    }
    return .on(date)
  }

  private func number(_ text: String?, name: String) throws -> Int? {
    guard let text else { return nil }
    guard let value = Int(text), value >= 0 else {
      throw ServerProblem(400, "\(name) must be a whole number of 0 or more, found '\(text)'")
    }
    return value
  }

  // MARK: - Helpers

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

  /// The methods an API path takes, as `Allow` lists them (`HEAD` with `GET`,
  /// <https://www.rfc-editor.org/rfc/rfc9110#section-9.3.2>): none for a path that is not one.
  static func allowedMethods(for path: [String], uploads: Bool) -> [String] {
    switch path {
    case ["health"], ["openapi.json"], ["charts"], ["songs"], ["feed", "updated"]:
      return ["GET", "HEAD"]
    case let path where path.count == 2 && (path[0] == "feed" || path[0] == "songs"):
      return ["GET", "HEAD"]
    case let path where path.count == 3 && path[0] == "charts" && path[2] == "snapshots":
      return uploads ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"]
    case let path where path.count == 3 && path[0] == "charts": return ["GET", "HEAD"]
    default: return []
    }
  }

  /// JSON unless CSV is asked for (`?format=csv`, or `Accept: text/csv`); `nil` for another
  /// `format` (an upload's `format` names its file's format instead).
  static func format(of request: HTTPRequest) -> OutputFormat? {
    if request.method != "POST", let format = request.query["format"] {
      switch format {
      case "json": return .json
      case "csv": return .csv
      default: return nil
      }
    }
    return request.headers["accept"]?.contains("text/csv") == true ? .csv : .json
  }

  static func contentType(_ format: OutputFormat) -> String {
    switch format {
    case .csv: "text/csv; charset=utf-8"
    case .json: "application/json"
    case .table: "text/plain; charset=utf-8"
    }
  }

  /// How long a snapshot's response may be kept: a day for a dated one, a minute for `latest`.
  static func seconds(for date: SnapshotDate?) -> Int {
    if case .on = date { return 86_400 }
    return 60
  }

  private static func cacheKey(_ request: HTTPRequest, format: OutputFormat) -> String {
    if request.query.isEmpty { return request.path + "?|" + format.rawValue }
    return request.path + "?"
      + request.query.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      .joined(separator: "&") + "|" + format.rawValue
  }

  /// Whether an `Accept-Encoding` header takes gzip (and does not refuse it with `q=0`).
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { item in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.first?.lowercased() == "gzip" else { return false }
      return !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
    }
  }
}
