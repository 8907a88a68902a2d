import Foundation
import Testing

/// `chart-archive serve` on 127.0.0.1 and a free port (`--port 0`), started by a test and stopped
/// by it (or when the value is released).
final class ServedArchive {
  let process = Process()
  let folder: TemporaryFolder
  /// The port the server printed.
  let port: UInt16
  /// The line the server printed first.
  let banner: String
  /// The line it printed next: how many connections it holds.
  let connectionsLine: String
  private let outputFile: URL
  private let errorFile: URL

  /// Starts the server with arguments after `serve --port 0`, and waits (at most 20 s) for the
  /// lines that give its URL and the connections it holds. `files` sets the file limit it starts
  /// with (soft and hard, or soft then hard), as `ulimit -n` would.
  init(_ arguments: [String], files: (soft: Int, hard: Int)? = nil) throws {
    folder = try TemporaryFolder()
    outputFile = folder.url.appendingPathComponent("stdout")
    errorFile = folder.url.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    if let files {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "ulimit -Sn \(files.soft) && ulimit -Hn \(files.hard) && exec \"$0\" \"$@\""]
        + [toolURL.path, "serve", "--port", "0"] + arguments
    } else {
      process.executableURL = toolURL
      process.arguments = ["serve", "--port", "0"] + arguments
    }
    process.currentDirectoryURL = packageRoot
    process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"]
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    var lines: [String] = []
    while Date() < deadline, process.isRunning {
      let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
      lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.count > 2 { break }
      usleep(20_000)
    }
    banner = lines.first ?? ""
    connectionsLine = lines.count > 2 ? lines[1] : ""
    let port = banner.split(separator: ":").last.flatMap { UInt16($0.prefix { $0.isNumber }) }
    guard let port else {
      process.terminate()
      process.waitUntilExit()
      throw ServerFailure(
        "the server did not start: \(banner) \((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")"
      )
    }
    self.port = port
  }

  /// What the server wrote on standard error so far (its access log).
  var log: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

  /// The server's connections on its port as `/proc/net/tcp` lists them (established, IPv4):
  /// those it accepted (they have a socket file), and those waiting in the kernel's queue to be
  /// accepted (inode 0).
  var connections: (accepted: Int, queued: Int) {
    let text = procText("/proc/net/tcp")
    let local = String(format: ":%04X", port)
    var counts = (accepted: 0, queued: 0)
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: " ")
      guard fields.count > 9, fields[1].hasSuffix(local), fields[3] == "01" else { continue }
      if fields[9] == "0" { counts.queued += 1 } else { counts.accepted += 1 }
    }
    return counts
  }

  /// Waits until the server's connections (``connections``) meet `condition`, looking every 10 ms
  /// (a read of `/proc/net/tcp` costs milliseconds on a busy machine); the bound, 30 s, only ends
  /// a wait a broken build would make endless (recording the failure).
  ///
  /// - Returns: whether `condition` held.
  @discardableResult
  func waitForConnections(
    _ what: String, _ condition: ((accepted: Int, queued: Int)) -> Bool
  ) -> Bool {
    for _ in 0..<3_000 {
      if condition(connections) { return true }
      usleep(10_000)
    }
    Issue.record("gave up waiting until \(what)")
    return false
  }

  /// The connections the server accepted, once the count is the same twice a tenth of a second
  /// apart (the closes of a turn of its loop done), or after 5 s.
  func settledAcceptedConnections() -> Int {
    var count = connections.accepted
    for _ in 0..<50 {
      usleep(100_000)
      let now = connections.accepted
      if now == count { break }
      count = now
    }
    return count
  }

  /// Sends a signal and waits for the server to end; returns its exit status.
  func stop(_ signal: Int32 = SIGTERM) -> Int32 {
    if process.isRunning { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// One request on a connection of its own.
  func request(
    _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []
  ) throws -> HTTPReply {
    try Self.request(port: port, method, target, headers: headers, body: body)
  }

  /// One request to the server on a port, on a connection of its own (from any thread).
  static func request(
    port: UInt16, _ method: String, _ target: String, headers: [(String, String)] = [],
    body: [UInt8] = []
  ) throws -> HTTPReply {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.count)\r\n" }
    let bytes = Array((text + "\r\n").utf8) + body
    let connection = try RawConnection(port: port)
    try connection.send(bytes)
    return try HTTPReply(parsing: connection.receiveAll(), method: method)
  }

  /// A GET's reply.
  func get(_ target: String, headers: [(String, String)] = []) throws -> HTTPReply {
    try request("GET", target, headers: headers)
  }

  deinit { _ = stop(SIGKILL) }
}

/// A token file for `serve --token-file` in a folder, readable and writable by its owner only
/// (serve refuses one others may read).
func tokenFile(in folder: TemporaryFolder, _ text: String, name: String = "token") throws -> String
{
  let path = try folder.write(name, text)
  chmod(path, 0o600)
  return path
}

struct ServerFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A TCP connection to 127.0.0.1, with a receive timeout of 15 s.
final class RawConnection {
  let socket: Int32

  /// A connection to a port; its receive buffer `receiveBuffer` bytes when given (set before it
  /// connects, so that the window the server sees is small).
  init(port: UInt16, receiveBuffer: Int32? = nil) throws {
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw ServerFailure("cannot connect to port \(port): \(String(cString: strerror(errno)))")
    }
    var timeout = timeval(tv_sec: 15, tv_usec: 0)
    setsockopt(
      socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  func send(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else {
        throw ServerFailure("send failed: \(String(cString: strerror(errno)))")
      }
      sent += count
    }
  }

  /// Everything the server sends until it closes the connection (or the timeout).
  func receiveAll() -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { break }
      received += buffer[0..<count]
    }
    return received
  }

  /// Whether the server has closed the connection, waiting at most `seconds` for it (what it
  /// sent before is read and dropped).
  func isClosed(waiting seconds: Double) -> Bool {
    var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(seconds * 1_000)) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes {
      recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
    }
    return count == 0 || (count < 0 && errno == ECONNRESET)
  }

  /// Whether the server closed the connection (a read gives end of file or a reset) within the
  /// receive timeout; what it sent before is returned too.
  func closedByServer() -> (closed: Bool, received: [UInt8]) {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += buffer[0..<count]
        continue
      }
      let error = errno
      return (count == 0 || error == ECONNRESET, received)
    }
  }

  deinit { close(socket) }
}

/// An HTTP/1.1 response as received (a chunked body, as a cache in front sends, put together).
struct HTTPReply {
  var status: Int
  /// Header names lowercased, in the order received.
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  var text: String { String(decoding: body, as: UTF8.self) }

  func header(_ name: String) -> String? {
    headers.first { $0.name == name.lowercased() }?.value
  }

  /// The body as JSON.
  func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body)) }

  init(parsing bytes: [UInt8], method: String) throws {
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
      throw ServerFailure("no complete response: \(String(decoding: bytes, as: UTF8.self))")
    }
    let head = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
    let statusParts = head[0].split(separator: " ")
    guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
      throw ServerFailure("not a status line: \(head[0])")
    }
    self.status = status
    headers = head.dropFirst().compactMap { line in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      return (
        line[..<colon].lowercased(),
        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      )
    }
    body = Array(bytes[(end + 4)...])
    if method == "HEAD" { return }
    if headers.contains(where: { $0.name == "transfer-encoding" && $0.value == "chunked" }) {
      body = try Self.dechunked(body)
    }
    if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) })
    {
      #expect(body.count == length, "Content-Length \(length), body \(body.count) bytes")
    }
  }

  /// A chunked body's data (RFC 9112, section 7.1): each chunk's size in hexadecimal on a line,
  /// its bytes, then a line break; a chunk of size 0 ends it.
  static func dechunked(_ bytes: [UInt8]) throws -> [UInt8] {
    var data: [UInt8] = []
    var index = 0
    while true {
      guard let lineEnd = bytes[index...].firstIndex(of: 0x0D) else {
        throw ServerFailure("a chunked body without its last chunk")
      }
      let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
      guard let size = Int(sizeText.prefix { $0 != ";" }, radix: 16) else {
        throw ServerFailure("not a chunk size: \(sizeText)")
      }
      if size == 0 { return data }
      let start = lineEnd + 2
      guard start + size <= bytes.count else { throw ServerFailure("a chunk cut short") }
      data += bytes[start..<(start + size)]
      index = start + size + 2
    }
  }
}
