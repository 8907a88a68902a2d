import Foundation
import Testing

/// `chart-archive serve --port 0` on an archive, started for a test and stopped by it: the port
/// is read from the line it prints (`Serving PATH at http://127.0.0.1:PORT/ (Ctrl-C stops it)`).
final class PageServer {
  let process = Process()
  let port: Int

  init(archive: String) throws {
    process.executableURL = toolURL
    process.arguments =
      ["serve", "--host", "127.0.0.1", "--port", "0", "--threads", "2"]
      + ["--db", archive]
    process.currentDirectoryURL = packageRoot
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"]
    let output = Pipe()
    process.standardOutput = output
    // The access log: not read, so it must not fill a pipe.
    process.standardError = FileHandle.nullDevice
    try process.run()
    var printed = Data()
    while !printed.contains(UInt8(ascii: "\n")) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      printed += chunk
    }
    let line = String(decoding: printed, as: UTF8.self)
    guard
      let match = line.firstMatch(
        of: /^Serving .* at http:\/\/127\.0\.0\.1:(\d+)\/ \(Ctrl-C stops it\)\n/),
      let port = Int(match.1)
    else {
      process.terminate()
      throw CocoaError(
        .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "serve printed '\(line)'"])
    }
    self.port = port
  }

  /// The URL of a path on the server.
  func url(_ target: String) -> String { "http://127.0.0.1:\(port)\(target)" }

  /// Stops the server as Ctrl-C does (SIGINT) and returns its exit status.
  func stop() -> Int32 {
    if process.isRunning { kill(process.processIdentifier, SIGINT) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  /// A response as it came: status, headers (lower-case names) and body.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  /// Sends one HTTP/1.1 request on a new connection (`Connection: close`) and reads the whole
  /// response.
  func request(_ target: String, method: String = "GET", headers: [String: String] = [:]) throws
    -> Response
  {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    text += "\r\n"
    let bytes = Array(text.utf8)
    guard write(descriptor, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count <= 0 { break }
      received += buffer.prefix(count)
    }
    let separator = Array("\r\n\r\n".utf8)
    guard let end = received.firstRange(of: separator) else { throw POSIXError(.EBADMSG) }
    let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
      .components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ")[1]) ?? 0
    var fields: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      fields[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    return Response(
      status: status, headers: fields,
      body: String(decoding: received[end.upperBound...], as: UTF8.self))
  }
}

/// An archive of Sample-data and a made-up weekly chart with hostile titles
/// (`Tests/Fixtures/hostile`), for the page and picture tests: its name, titles and artists hold
/// markup, quotes, an ampersand and emoji, its URLs `javascript:` ones; three weeks of 20 entries
/// with every kind of movement (a climb, falls, no change, a debut, a drop-out and its re-entry).
/// The second week sees songs 1 and 0 swap, song 20 debut at 5 and song 19 drop out; the third
/// sees song 19 re-enter at 3 and song 18 drop out.
enum PageFixture {
  /// The made-up chart's name: markup, quotes and an ampersand.
  static let chart = #"hostile <b>"chart"</b> & co"#
  /// Its path segment, percent-encoded.
  static let chartSegment = "hostile%20%3Cb%3E%22chart%22%3C%2Fb%3E%20%26%20co"

  /// The archive, built once: Sample-data imported, then the made-up chart.
  static let archive: Result<String, any Error> = Result {
    let folder = try TemporaryFolder()
    keptFolder = folder
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    for source in ["Sample-data", "Tests/Fixtures/hostile"] {
      let run = try chartArchive([
        "import", packageRoot.appendingPathComponent(source).path, "--db", path, "--quiet",
      ])
      guard run.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: run.error])
      }
    }
    return path
  }

  /// The folder holding the archive, kept for the whole run.
  /// (Set once, by the initializer of ``archive``, which Swift runs once.)
  nonisolated(unsafe) private static var keptFolder: TemporaryFolder?

  /// The song ID `history` gives for a search, on this archive.
  static func songID(_ arguments: [String]) throws -> Int {
    let archive = try PageFixture.archive.get()
    let run = try chartArchive(["history"] + arguments + ["--format", "json", "--db", archive])
    let recordings = try #require(try json(run.output)["recordings"] as? [[String: Any]])
    return try #require(recordings.first?["song_id"] as? Int)
  }
}

/// What the browser check reads of a page's markup.
enum PageMarkup {
  /// The markers of the made-up chart's third week, by rank: song 0 climbs from 2, song 1 falls
  /// from 1, song 19 re-enters, song 3 stays at 4, song 2 falls from 3 to 5, and the songs below
  /// fall one place each (song 20 from 5, song 5 from 6, song 4 from 7, then 8 to 19).
  static let thirdWeekMarkers = ["▲1", "▼1", "RE", "–", "▼2"] + Array(repeating: "▼1", count: 15)

  /// The texts of every movement marker of a page, in order.
  static func markers(_ html: String) -> [String] {
    html.matches(of: /<span class="mv [a-z]+" role="img" aria-label="[^"]+">([^<]+)<\/span>/)
      .map { String($0.1) }
  }

  /// The entries of a page's first list of entries.
  static func entryCount(_ html: String) -> Int {
    guard let list = html.firstMatch(of: /<ol class="entries">\n((?:<li>.*<\/li>\n)*)<\/ol>/)
    else { return 0 }
    return list.1.split(separator: "\n").count
  }
}
