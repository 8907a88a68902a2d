import ChartFormats
import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// `POST /api/charts/NAME/snapshots`: a chart file imported as the chart's snapshots, behind the
/// server's token.
extension Router {
  func upload(to chart: String, request: HTTPRequest) -> HTTPResponse {
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
}
