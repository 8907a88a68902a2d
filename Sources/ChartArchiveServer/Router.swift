import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
public import ChartStorage
import Foundation

/// What `chart-archive serve` is told.
public struct ServerConfiguration: Sendable {
  /// The archive file.
  public var archivePath: String
  /// The address to listen on: loopback unless told otherwise.
  public var host = "127.0.0.1"
  /// The port; 0 for one the system chooses (printed when the server starts).
  public var port = 8080
  /// Worker threads, each with its own event loop: one per processor by default.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// The bearer token uploads must present; `nil` for a server with no write endpoint at all.
  public var uploadToken: String?
  /// The chart behind each feed category (`daily` → `app-daily`).
  public var feeds = ServerConfiguration.defaultFeeds
  /// The origin allowed to read the API from a web page (`Access-Control-Allow-Origin`), if any.
  public var corsOrigin: String?
  /// The largest request body accepted (an upload's file), in bytes.
  public var maximumBodyBytes = 32 * 1024 * 1024
  /// The largest request line and headers accepted, in bytes.
  public var maximumHeaderBytes = 16 * 1024
  /// How long a client may take to send a request, or keep a connection idle, in seconds.
  public var timeoutSeconds = 10
  /// How many connections each worker thread keeps open at most; at the limit it stops accepting
  /// until one closes.
  public var maximumConnectionsPerThread = 512

  /// The feeds a chart app asks for and the charts they come from, unless `--feed` says
  /// otherwise: `total` → `app-total`, `time` (hourly) → `app-hourly`, `daily` → `app-daily`,
  /// `weekly` → `app-weekly`, `monthly` → `app-monthly`.
  public static let defaultFeeds = [
    "total": "app-total", "time": "app-hourly", "daily": "app-daily", "weekly": "app-weekly",
    "monthly": "app-monthly",
  ]

  /// A configuration serving the archive at a path, with the defaults above.
  public init(archivePath: String) { self.archivePath = archivePath }
}

/// Answers the HTTP API's requests: routes them to the library's queries (one read transaction
/// each) and renders the answers with ChartPresentation's views, as the command line does. Shared
/// by every worker thread.
///
/// Responses that depend only on the archive (everything but uploads, errors and the health
/// check) are kept, with their ETag and gzip form, until the archive file or its write-ahead log
/// changes (an import by this server or by `chart-archive import`).
public final class Router: Sendable {
  let archive: Archive
  private let uploads: Archive?
  private let configuration: ServerConfiguration
  private let cache: ResponseCache

  /// A router for an archive.
  ///
  /// - Throws: ``ArchiveError`` when the archive cannot be opened (for writing too, when uploads
  ///   are allowed; it is then created when missing).
  public init(configuration: ServerConfiguration) throws(ArchiveError) {
    self.configuration = configuration
    uploads =
      configuration.uploadToken == nil
      ? nil
      : try Archive(
        path: configuration.archivePath, access: .create, upgrade: .decidingFigures)
    archive = try Archive(
      path: configuration.archivePath, access: .read, upgrade: .decidingFigures)
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
      response.headers.append(("ETag", Self.entityTag(of: response.body)))
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
        Self.entityTag(tag, matches: wanted)
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

  // MARK: - Uploads

  private func upload(to chart: String, request: HTTPRequest) -> HTTPResponse {
    guard let uploads, let token = configuration.uploadToken else {
      return problem(405, "this server takes no uploads (start it with --token-file)")
    }
    guard let given = request.headers["authorization"], given.hasPrefix("Bearer "),
      Self.constantTimeEqual(Array(given.dropFirst("Bearer ".count).utf8), Array(token.utf8))
    else {
      var response = problem(401, "uploads need the server's token: Authorization: Bearer TOKEN")
      response.headers.append(("WWW-Authenticate", "Bearer"))
      return response
    }
    var options = ImportOptions(chart: chart)
    options.listingSnapshots = true
    do {
      switch request.query["replace"] {
      case nil, "false": options.replacing = false
      case "true": options.replacing = true
      case let other?:
        throw ServerProblem(400, "replace must be true or false, found '\(other)'")
      }
      options.chartDate = try request.query["date"].map { text throws(ServerProblem) in
        guard let date = try? ChartDate(iso8601: text) else {
          throw ServerProblem(400, "date '\(text)' is not a chart date (YYYY-MM-DD)")
        }
        return date
      }
      if let text = request.query["format"] {
        guard let format = ChartFormat(rawValue: text) else {
          throw ServerProblem(400, "unknown format '\(text)'")
        }
        options.format = format
      }
      if let text = request.query["frequency"] {
        guard let frequency = ChartFrequency(rawValue: text) else {
          throw ServerProblem(400, "unknown frequency '\(text)'")
        }
        options.frequency = frequency
      }
    } catch let error as ServerProblem {
      return problem(error.status, error.detail)
    } catch {
      return problem(500, "\(error)")
    }
    let name = "\(chart)/upload" + (request.query["date"].map { "-\($0)" } ?? "")
    // The file as sent, or gzipped (RFC 9110, section 8.4): any other coding is not read.
    var file = request.body
    switch request.headers["content-encoding"]?.lowercased() {
    case nil, "identity": break
    case "gzip", "x-gzip":
      do {
        file = try Gzip.decompress(request.body, limit: configuration.maximumBodyBytes)
      } catch {
        switch error {
        case .tooLong:
          return problem(
            413,
            "the file is longer than \(configuration.maximumBodyBytes) bytes once decompressed")
        case .invalid(let reason): return problem(400, "the body is not valid gzip: \(reason)")
        }
      }
    case let other?:
      return problem(
        415, "Content-Encoding '\(other)' is not read here; send the file as it is, or gzipped")
    }
    do {
      let report = try Importer.run(
        [.bytes(Data(file), name: name)], into: uploads, options: options)
      let outcome =
        report.imported > 0 ? "imported" : report.replaced > 0 ? "replaced" : "unchanged"
      let body = JSONValue.object([
        ("outcome", .string(outcome)),
        (
          "snapshots",
          .array(
            report.snapshots.map {
              .object([
                ("chart", .string($0.chart)), ("chart_date", .string($0.chartDate.iso8601)),
                ("entries", .int($0.entryCount)), ("outcome", .string($0.outcome.rawValue)),
              ])
            })
        ),
        (
          "warnings",
          .array(
            ImportWords.warnings(of: report, sourceNames: [name], dateOption: "?date=").map(
              JSONValue.string))
        ),
      ])
      return HTTPResponse(
        status: report.imported > 0 ? 201 : 200, headers: [("Content-Type", "application/json")],
        body: Array((body.encoded() + "\n").utf8))
    } catch {
      switch error {
      case .refused(let refused, _): return problem(refusing: refused)
      case .archive(let error), .writeFailedWithUserObjects(let error, _):
        return problem(for: error)
      }
    }
  }

  /// The problems of a refused upload: 409 for a snapshot that conflicts with a stored one, 422
  /// for a file that is not a valid chart file, with every line the command line would print.
  private func problem(refusing refused: [RefusedSource]) -> HTTPResponse {
    var conflict = false
    var lines: [String] = []
    for source in refused {
      switch source.reason {
      case .invalid(let error):
        lines += Self.describe(error).split(separator: "\n").map(String.init)
      case .conflict(let error):
        if case .conflictingSnapshot = error { conflict = true }
        lines.append(
          error.description
            + (conflict ? " (add ?replace=true to replace it)" : ""))
      case .otherFormatInFolder(_, let format, _, _):
        lines.append("a \(format.rawValue) file of another format than the chart's")
      }
    }
    return problem(
      conflict ? 409 : 422, lines.first ?? "the file could not be imported",
      extra: [("problems", .array(lines.map(JSONValue.string)))])
  }

  /// A chart file's problems in the service's words: remedies as query parameters.
  static func describe(_ error: ChartFileError) -> String {
    error.description { remedy in
      switch remedy {
      case .nameTheChart: "upload it to /api/charts/NAME/snapshots"
      case .dateTheChart: "add ?date=YYYY-MM-DD"
      case .giveTimeZone: "the service takes no time zone: give dates with theirs"
      }
    }
  }

  /// Whether two byte strings are equal, in a time that depends on their lengths only.
  static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: left.count ^ right.count)
    for index in 0..<max(left.count, right.count) {
      let a = index < left.count ? left[index] : 0
      let b = index < right.count ? right[index] : 0
      difference |= a ^ b
    }
    return difference == 0
  }

  // MARK: - Problems

  /// An error as `application/problem+json` (RFC 9457): type, title, status and detail.
  func problem(_ status: Int, _ detail: String, extra: [(String, JSONValue)] = []) -> HTTPResponse {
    let body = JSONValue.object(
      [
        ("type", .string("about:blank")), ("title", .string(reasonPhrase(status))),
        ("status", .int(status)), ("detail", .string(detail)),
      ] + extra)
    return HTTPResponse(
      status: status, headers: [("Content-Type", "application/problem+json")],
      body: Array((body.encoded() + "\n").utf8))
  }

  /// An archive error in the command line's words, with its status.
  func problem(for error: ArchiveError) -> HTTPResponse {
    let status =
      switch error {
      case .noSuchChart, .noSuchSnapshot, .noEarlierSnapshot, .notEnoughSnapshots: 404
      case .conflictingSnapshot, .conflictingSnapshotsInOneImport, .frequencyConflict: 409
      case .invalidChartName, .sameSnapshot: 400
      case .database: error.isLocked ? 503 : 500
      case .notFound, .notAnArchive, .newerSchema, .upgradeNotWritable: 500
      }
    return problem(
      status, error.description + (ErrorHints.hint(for: error).map { " (\($0))" } ?? ""))
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

  /// A strong entity tag of a body: its 64-bit FNV-1a hash.
  static func entityTag(of body: ResponseBody) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body.storage.prefix(body.count) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return "\"" + String(hash, radix: 16) + "\""
  }

  /// Whether an `If-None-Match` header names an entity tag (RFC 9110, section 13.1.2: weak
  /// comparison, `*` matches any).
  static func entityTag(_ tag: String, matches header: String) -> Bool {
    header.split(separator: ",").contains { candidate in
      let trimmed = candidate.trimmingCharacters(in: .whitespaces)
      return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
    }
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

/// A request the service cannot answer, with its status and words.
struct ServerProblem: Error {
  var status: Int
  var detail: String

  init(_ status: Int, _ detail: String) {
    self.status = status
    self.detail = detail
  }
}
