import Foundation
import Testing

/// The package's top-level folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The real Hot 100 history beside the repository, when it is there (CI has it; a fresh clone
/// does not, and the tests that need it are skipped, saying so).
let hot100Folder = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/data/billboard-hot-100").path
let hot100IsPresent = FileManager.default.fileExists(atPath: hot100Folder)

/// What one run of `chart-archive` printed and how it exited.
struct Run {
  var status: Int32
  var output: String
  var error: String
}

/// The built `chart-archive`, beside the test bundle.
let toolURL: URL = {
  let bundleFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent()
  return bundleFolder.appendingPathComponent("chart-archive")
}()

/// Runs `chart-archive` with arguments, in the package's folder, with a clean environment.
func chartArchive(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
  try runProcess(toolURL, arguments, environment: environment)
}

/// Runs a bash script in the package's folder, with `$TOOL` naming the built `chart-archive`: for
/// redirections, pipes and limits (`> /dev/full`, `| head -1`, `ulimit -f`).
func bash(_ script: String) throws -> Run {
  try runProcess(
    URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["TOOL": toolURL.path])
}

/// Runs a program in the package's folder with a clean environment (and `environment`), and
/// collects what it prints.
private func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String])
  throws -> Run
{
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = packageRoot
  var base = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"]
  base.merge(environment) { $1 }
  process.environment = base
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Read both pipes while the process runs, so that a large output cannot block it.
  nonisolated(unsafe) var errorData = Data()
  let reader = Thread { errorData = error.fileHandleForReading.readDataToEndOfFile() }
  reader.start()
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  while !reader.isFinished { usleep(1000) }
  return Run(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorData, as: UTF8.self))
}

/// A temporary folder, removed when the value is released.
final class TemporaryFolder {
  let url: URL
  var path: String { url.path }

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chart-archive-cli-\(UUID().uuidString)")
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

/// Parses JSON output.
func json(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
