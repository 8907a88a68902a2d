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

  /// An archive error in the command line's words, with its status.
  func problem(for error: ArchiveError) -> HTTPResponse {
    problem(Self.status(of: error), Self.words(for: error))
  }

  /// The status that answers an archive error: 404 for a chart or snapshot that is not there, 409
  /// for a conflict, 400 for a question that cannot be asked, 503 while the archive is locked, 500
  /// for the rest.
  static func status(of error: ArchiveError) -> Int {
    switch error {
    case .noSuchChart, .noSuchSnapshot, .noEarlierSnapshot, .notEnoughSnapshots: 404
    case .conflictingSnapshot, .conflictingSnapshotsInOneImport, .frequencyConflict: 409
    case .invalidChartName, .sameSnapshot: 400
    case .database: error.isLocked ? 503 : 500
    case .notFound, .notAnArchive, .newerSchema, .upgradeNotWritable, .damaged: 500
    }
  }

  /// An archive error in the command line's words, its hint after them.
  static func words(for error: ArchiveError) -> String {
    error.description + (ArchiveErrorWords.hint(for: error).map { " (\($0))" } ?? "")
  }
}
