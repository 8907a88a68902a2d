import ChartFormats
import ChartImport
import ChartPresentation
import ChartStorage

/// A request the service cannot answer, with its status and words.
struct ServerProblem: Error {
  var status: Int
  var detail: String

  init(_ status: Int, _ detail: String) {
    self.status = status
    self.detail = detail
  }
}

/// Errors as problem documents.
extension Router {
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

  /// An archive error as a problem: in the command line's words, with its status; a 500 or 503
  /// in the service's words, its cause in the log (see ``failure(_:cause:detail:of:)``).
  func problem(for error: ArchiveError) -> HTTPResponse {
    let status = Self.status(of: error)
    guard status < 500 else {
      // The error's own words say how long the command line waits, not this upload.
      let cause =
        error.isLocked
        ? "another program held the write lock of \(configuration.archivePath)" : error.description
      return failure(status, cause: cause)
    }
    return problem(status, Self.words(for: error))
  }

  /// A 500 or 503 answer: what failed in the user's terms, never the archive's path or SQLite's
  /// words, which go to the log with the request (a 503 says when to try again, `Retry-After`);
  /// a problem document under `/api/`, an error page elsewhere.
  ///
  /// - Parameters:
  ///   - status: 500 or 503.
  ///   - cause: what the log says, when anything.
  ///   - detail: the words of the answer; by default the archive being written by another program
  ///     (503) or not readable (500).
  ///   - request: the request answered, for the log and the form of the answer.
  func failure(
    _ status: Int, cause: String?, detail: String? = nil, of request: RouteRequest? = nil
  ) -> HTTPResponse {
    if let cause {
      log(
        "\(status) for " + (request.map { "\($0.http.method) \($0.http.path)" } ?? "an upload")
          + ": \(cause)")
    }
    let words =
      detail
      ?? (status == 503
        ? "the archive is being written by another program; try again in"
          + " \(configuration.retryAfterSeconds) s"
        : "the archive could not be read or written; the server's log says why")
    var response =
      request?.route.isAPI == false ? errorPage(status, words) : problem(status, words)
    if status == 503 {
      response.headers.append(("Retry-After", String(configuration.retryAfterSeconds)))
    }
    return response
  }

  /// The status that answers an archive error: 404 for a chart or snapshot that is not there, 409
  /// for a conflict, 400 for a question that cannot be asked, 503 while the archive is locked, 500
  /// for the rest.
  static func status(of error: ArchiveError) -> Int {
    switch error {
    case .noSuchChart, .noSuchSnapshot, .severalSnapshotsOnDay, .noEarlierSnapshot,
      .notEnoughSnapshots:
      404
    case .conflictingSnapshot, .conflictingSnapshotsInOneImport, .frequencyConflict,
      .timeZoneConflict:
      409
    case .invalidChartName, .sameSnapshot: 400
    case .database: error.isLocked ? 503 : 500
    case .notFound, .notAnArchive, .newerSchema, .upgradeNotWritable, .damaged, .movedWhileWritten:
      500
    }
  }

  /// An archive error in the command line's words, its hint after them.
  static func words(for error: ArchiveError) -> String {
    error.description + (ArchiveErrorWords.hint(for: error).map { " (\($0))" } ?? "")
  }
}
