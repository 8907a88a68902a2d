import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// `POST /api/charts/NAME/snapshots`: a chart file imported as the chart's snapshots, behind the
/// server's token.
extension Router {
  /// Imports the request's body, a chart file, into the chart its path names, with the same
  /// checks as `import` (all or nothing): 201 with what was stored, 200 when nothing was new or a
  /// snapshot was replaced, 401 without the server's token.
  ///
  /// - Throws: ``ServerProblem`` for a parameter it does not take (400), a body it cannot read
  ///   (400, 413, 415); the problems of a refused file are answered (409, 422).
  func upload(_ request: RouteRequest) throws -> HTTPResponse {
    guard let uploads else {
      throw ServerProblem(405, "this server takes no uploads (start it with --token-file)")
    }
    guard isAuthorized(request.http) else {
      var response = problem(401, "uploads need the server's token: Authorization: Bearer TOKEN")
      response.headers.append(("WWW-Authenticate", "Bearer"))
      return response
    }
    let chart = try request.value(Parameters.uploadChart)
    var options = ImportOptions(chart: chart)
    // The address names the chart the file must be of: a file of another is refused (422).
    options.chartIsRequired = true
    options.listingSnapshots = true
    options.replacing = try request.value(Parameters.replace)
    options.chartDate = try request.value(Parameters.fileDate)
    options.format = try request.value(Parameters.fileFormat)
    options.frequency = try request.value(Parameters.frequency)
    let name = "\(chart)/upload" + (request.text(of: Parameters.fileDate).map { "-\($0)" } ?? "")
    let file = try uploadedFile(request.http)
    do {
      let report = try Importer.run(
        [.bytes(Data(file), name: name)], into: uploads, options: options)
      // The import copied itself into the archive file, as far as readers let it, so that a copy
      // of the file alone holds it; a failure leaves it in the write-ahead log, which the log
      // says in the command line's words.
      if let error = report.logNotCopied {
        log(
          "the upload into \(chart): "
            + ImportWords.logNotCopied(error, path: configuration.archivePath))
      }
      let outcome =
        report.imported > 0 ? "imported" : report.replaced > 0 ? "replaced" : "unchanged"
      metrics.recordUpload(outcome: outcome)
      let body = JSONValue.object([
        ("outcome", .string(outcome)),
        (
          "snapshots",
          .array(report.snapshots.map(ImportWords.json(of:)))
        ),
        ("decisions_kept", .int(report.decisionsKept)),
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

  /// Whether a request presents the server's token (`Authorization: Bearer TOKEN`), compared in
  /// constant time.
  func isAuthorized(_ request: HTTPRequest) -> Bool {
    guard let token = configuration.uploadToken, let given = request.headers["authorization"],
      given.hasPrefix("Bearer ")
    else { return false }
    return Self.constantTimeEqual(Array(given.dropFirst("Bearer ".count).utf8), Array(token.utf8))
  }

  /// The file a request's body holds: the body as sent, or gzipped (RFC 9110, section 8.4); any
  /// other coding is not read.
  ///
  /// - Throws: ``ServerProblem``: 400 for a body that is not valid gzip, 413 for one longer than
  ///   the server takes once decompressed, 415 for another coding.
  private func uploadedFile(_ request: HTTPRequest) throws(ServerProblem) -> [UInt8] {
    switch request.headers["content-encoding"]?.lowercased() {
    case nil, "identity": return request.body
    case "gzip", "x-gzip":
      do {
        return try Gzip.decompress(request.body, limit: configuration.maximumBodyBytes)
      } catch {
        switch error {
        case .tooLong:
          throw ServerProblem(
            413,
            "the file is longer than \(configuration.maximumBodyBytes) bytes once decompressed")
        case .invalid(let reason): throw ServerProblem(400, "the body is not valid gzip: \(reason)")
        }
      }
    case let other?:
      throw ServerProblem(
        415, "Content-Encoding '\(other)' is not read here; send the file as it is, or gzipped")
    }
  }

  /// The problems of a refused upload: 409 for a snapshot that conflicts with a stored one, 422
  /// for a file that is not a valid chart file or is of another chart than the address's, with
  /// every line the command line would print.
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
      case .otherChart(let named, let required):
        lines.append(
          "\(source.name): the file is of chart '\(named)', not of '\(required)', the chart it"
            + " was sent to")
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
}
