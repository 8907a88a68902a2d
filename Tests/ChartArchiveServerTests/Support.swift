import ChartArchiveCLI
import ChartImport
import ChartStorage
import Foundation
import Testing

@testable import ChartArchiveServer

/// The package's top-level folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// A temporary folder, removed when the value is released.
final class TemporaryFolder: Sendable {
  let url: URL
  var path: String { url.path }

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chart-archive-server-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Writes a file (creating its folder) and returns its path.
  @discardableResult
  func write(_ relativePath: String, _ text: String) throws -> String {
    let file = url.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: file)
    return file.path
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// Archives for the tests, made with the importer in a temporary folder.
enum TestArchive {
  /// A new archive of Sample-data's six charts (a test that writes takes one of its own).
  static func sample() throws -> (folder: TemporaryFolder, path: String) {
    try make(["Sample-data"])
  }

  /// Sample-data, shared by the tests that only read it.
  static let shared = Result { try sample() }

  /// Sample-data and the made-up weekly chart with hostile titles (`Tests/Fixtures/hostile`):
  /// its name, titles and artists hold markup, quotes, an ampersand and emoji, its URLs
  /// `javascript:` ones; three weeks of 20 entries with every kind of movement. The second week
  /// sees songs 1 and 0 swap, song 20 debut at 5 and song 19 drop out; the third sees song 19
  /// re-enter at 3 and song 18 drop out. Shared by the tests that only read it.
  static let withHostileChart = Result { try make(["Sample-data", "Tests/Fixtures/hostile"]) }

  /// The made-up chart's name: markup, quotes and an ampersand.
  static let hostileChart = #"hostile <b>"chart"</b> & co"#
  /// Its path segment, percent-encoded.
  static let hostileSegment = "hostile%20%3Cb%3E%22chart%22%3C%2Fb%3E%20%26%20co"

  /// An archive of the files in folders of the package, imported one folder after the other.
  private static func make(_ folders: [String]) throws -> (folder: TemporaryFolder, path: String) {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    let archive = try Archive(path: path, access: .create)
    for source in folders {
      let files = try ImportSource.files(in: [packageRoot.appendingPathComponent(source).path])
      _ = try Importer.run(files.map(ImportSource.file), into: archive)
    }
    return (folder, path)
  }
}

/// A router on an archive, asked as the HTTP server asks it.
struct Service {
  let router: Router

  /// A router serving an archive, its configuration changed by `configure`, its log lines
  /// handed to `log`.
  init(
    _ archive: String, configure: (inout ServerConfiguration) -> Void = { _ in },
    log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws {
    var configuration = ServerConfiguration(archivePath: archive)
    configure(&configuration)
    router = try Router(configuration: configuration, log: log)
  }

  /// A service of a router made by the test.
  init(router: Router) { self.router = router }

  /// The response to a request with a target as on a request line (`/api/songs?q=night+sky`).
  func request(
    _ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []
  ) -> HTTPResponse {
    router.respond(to: HTTPRequest(method: method, target: target, headers: headers, body: body))
  }

  /// The response to a GET.
  func get(_ target: String, headers: [String: String] = [:]) -> HTTPResponse {
    request("GET", target, headers: headers)
  }
}

extension HTTPResponse {
  /// The body as text.
  var text: String { String(decoding: body.bytes, as: UTF8.self) }

  /// The body as JSON.
  func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body.bytes)) }

  /// The `detail` of a problem document.
  func problemDetail() throws -> String {
    #expect(header("Content-Type") == "application/problem+json")
    let problem = try #require(try json() as? [String: Any])
    return try #require(problem["detail"] as? String)
  }
}

/// What one run of the command line printed and how it exited.
struct Run {
  var status: Int32
  var output: String
  var error: String
}

/// Runs the command line in this process, as `chart-archive ARGUMENTS` with a clean environment:
/// what the service answers is compared with what it prints.
func chartArchive(_ arguments: [String]) -> Run {
  var output = ""
  var error = ""
  let console = Console(
    environment: ["HOME": "/nonexistent-home"], outputIsTerminal: false, errorIsTerminal: false,
    output: { output += $0 }, error: { error += $0 })
  let status = ChartArchiveTool.run(arguments, console: console)
  return Run(status: status.rawValue, output: output, error: error)
}

/// The song ID `chart-archive history WORDS… --format json` gives on an archive.
func songID(_ arguments: [String], in archive: String) throws -> Int {
  let run = chartArchive(["history"] + arguments + ["--format", "json", "--db", archive])
  let history = try #require(
    try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
  let recordings = try #require(history["recordings"] as? [[String: Any]])
  return try #require(recordings.first?["song_id"] as? Int)
}

/// `bytes` through `/bin/gzip`: compressed, or decompressed.
func gzipTool(_ bytes: [UInt8], decompressing: Bool) throws -> [UInt8] {
  let folder = try TemporaryFolder()
  let file = folder.url.appendingPathComponent("body.gz")
  try Data(bytes).write(to: file)
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/gzip")
  process.arguments = [decompressing ? "-dc" : "-c", file.path]
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  #expect(process.terminationStatus == 0)
  return Array(data)
}
