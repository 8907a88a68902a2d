import Foundation
import Synchronization
import Testing

/// The package's top-level folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The real Hot 100 history beside the repository, when it is there (CI has it; a fresh clone
/// does not, and the tests that need it are skipped, saying so).
let hot100Folder = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/data/billboard-hot-100").path
let hot100IsPresent = FileManager.default.fileExists(atPath: hot100Folder)
/// Why a test that needs the real Hot 100 was skipped, as the test run prints it.
let hot100Absent: Comment =
  "the real Hot 100 is absent (shared/data/billboard-hot-100 beside the repository's folder)"

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
  try StartedProcess(executable, arguments, environment: environment).wait()
}

/// A program started in the package's folder with a clean environment, not waited for: what it
/// prints is collected as it runs (on threads of their own, so that a large output cannot block
/// it). A process still running when the value is released is killed.
final class StartedProcess {
  let process: Process
  private let collected = DispatchGroup()
  private let output = Collected()
  private let error = Collected()

  /// What one of the process's pipes gave.
  private final class Collected: Sendable {
    let data = Mutex(Data())
  }

  /// Starts `chart-archive` with arguments.
  convenience init(tool arguments: [String]) throws {
    try self.init(toolURL, arguments, environment: [:])
  }

  init(_ executable: URL, _ arguments: [String], environment: [String: String]) throws {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = packageRoot
    var base = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home"]
    base.merge(environment) { $1 }
    process.environment = base
    let pipes = (output: Pipe(), error: Pipe())
    process.standardOutput = pipes.output
    process.standardError = pipes.error
    try process.run()
    for (pipe, sink) in [(pipes.output, output), (pipes.error, error)] {
      collected.enter()
      Thread.detachNewThread { [collected] in
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        sink.data.withLock { $0 = data }
        collected.leave()
      }
    }
  }

  /// The process's ID.
  var pid: Int32 { process.processIdentifier }

  /// Whether the process has not ended yet.
  var isRunning: Bool { process.isRunning }

  /// Kills the process (SIGKILL) when it is running, and waits for it.
  func kill() {
    if process.isRunning { Glibc.kill(pid, SIGKILL) }
    process.waitUntilExit()
  }

  /// Whether the process ended killed by a signal.
  var wasKilled: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

  /// Waits for the process to end, then returns what it printed and its status.
  func wait() -> Run {
    process.waitUntilExit()
    collected.wait()
    return Run(
      status: process.terminationStatus,
      output: String(decoding: output.data.withLock { $0 }, as: UTF8.self),
      error: String(decoding: error.data.withLock { $0 }, as: UTF8.self))
  }

  deinit { kill() }
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

/// A repeatable sequence of numbers (a 64-bit linear congruential generator): a test that picks
/// moments or data "at random" picks the same ones in every run.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// The next number from 0 up to `bound` (excluded).
  mutating func next(below bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
}

/// Waits until `condition` holds, looking every millisecond. The bound, a minute, only ends a wait
/// that a broken build would make endless (recording the failure); nothing is measured with it.
///
/// - Returns: whether `condition` held.
@discardableResult
func waitUntil(_ what: String, _ condition: () -> Bool) -> Bool {
  for _ in 0..<60_000 {
    if condition() { return true }
    usleep(1000)
  }
  Issue.record("gave up waiting until \(what)")
  return false
}

// MARK: - Locks of other processes

/// The whole text of a file of `/proc`, read to its end: `String(contentsOfFile:)` gives its
/// first page only (4 KB), as such a file's size is 0.
func procText(_ path: String) -> String {
  guard let file = FileHandle(forReadingAtPath: path) else { return "" }
  defer { try? file.close() }
  return String(decoding: (try? file.readToEnd()) ?? Data(), as: UTF8.self)
}

/// A lock on a file as Linux lists it in `/proc/locks`: held, or waited for (`->`).
struct FileLock: Equatable {
  /// `POSIX` (fcntl(2), as SQLite locks an archive) or `FLOCK` (flock(2)).
  var kind: String
  var pid: Int32
  var isWaiting: Bool
  var inode: UInt64
  /// The bytes locked; the kernel merges the adjacent ones a process locks alike.
  var bytes: ClosedRange<Int>

  /// Every lock of the system now.
  static func all() -> [FileLock] {
    let text = procText("/proc/locks")
    // "1: POSIX  ADVISORY  WRITE 4242 fe:00:5365904 120 121",
    // "2: -> FLOCK  ADVISORY  WRITE 4243 fe:00:16222692 0 EOF"
    return text.split(separator: "\n").compactMap { line in
      var fields = line.split(separator: " ").dropFirst()
      let isWaiting = fields.first == "->"
      if isWaiting { fields = fields.dropFirst() }
      let values = Array(fields)
      guard values.count >= 7, let pid = Int32(values[3]),
        let inode = values[4].split(separator: ":").last.flatMap({ UInt64($0) }),
        let start = Int(values[5])
      else { return nil }
      return FileLock(
        kind: String(values[0]), pid: pid, isWaiting: isWaiting, inode: inode,
        bytes: start...(Int(values[6]) ?? Int.max))
    }
  }
}

/// The inode of the file or folder at `path`, if there is one.
func inode(of path: String) -> UInt64? {
  var status = stat()
  return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
}

/// Whether process `pid` holds SQLite's lock on byte `byte` of the file at `path`: in an archive's
/// `-shm` file, byte 120 is the write lock (an open write transaction, or a checkpoint) and 121
/// the checkpoint's (<https://www.sqlite.org/walformat.html>, "WAL-Index Locks").
func holdsLock(_ pid: Int32, onByte byte: Int, of path: String) -> Bool {
  guard let inode = inode(of: path) else { return false }
  return FileLock.all().contains {
    $0.kind == "POSIX" && $0.pid == pid && !$0.isWaiting && $0.inode == inode
      && $0.bytes.contains(byte)
  }
}

/// Whether process `pid` waits for a flock(2) on the file or folder at `path`.
func waitsForLock(_ pid: Int32, on path: String) -> Bool {
  guard let inode = inode(of: path) else { return false }
  return FileLock.all().contains {
    $0.kind == "FLOCK" && $0.pid == pid && $0.isWaiting && $0.inode == inode
  }
}

/// An exclusive flock(2) on a folder, held until released: an import publishing a new archive in
/// that folder waits for it (see `NewArchive.publish()`), its archive built.
final class FolderLock {
  private var descriptor: Int32

  init(_ path: String) throws {
    descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0, flock(descriptor, LOCK_EX) == 0 else {
      throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
    }
  }

  func release() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
  }

  deinit { release() }
}

// MARK: - Other programs

/// Runs a program, by its path, in the package's folder with a clean environment (and
/// `environment`).
func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:])
  throws -> Run
{
  try StartedProcess(URL(fileURLWithPath: path), arguments, environment: environment).wait()
}

/// Runs a shell command that starts or stops a daemon (varnishd, nginx) and waits for the shell
/// alone: posix_spawn(3) and waitpid(2) on its process ID, not Foundation's `Process`, whose wait
/// for one child was seen to miss its end while a daemon it had started ran on. The command's
/// output goes to `log`. Returns the shell's exit status.
func runDaemonCommand(_ command: String, log: String) -> Int32 {
  var pid: pid_t = 0
  let arguments = ["/bin/sh", "-c", command + " > '\(log)' 2>&1"]
  var pointers = arguments.map { strdup($0) } + [nil]
  defer { for pointer in pointers { free(pointer) } }
  guard posix_spawn(&pid, "/bin/sh", nil, nil, &pointers, environ) == 0 else { return -1 }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0, errno == EINTR {}
  return (status >> 8) & 0xFF
}

/// Whether a program is installed at `path`: tests that need one it lacks are skipped, saying so.
func isInstalled(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

/// A temporary folder holding an archive of Sample-data, named `archive.sqlite` as the Datasette
/// metadata expects.
func sampleArchive() throws -> (folder: TemporaryFolder, path: String) {
  let folder = try TemporaryFolder()
  let path = folder.url.appendingPathComponent("archive.sqlite").path
  let run = try chartArchive(["import", "Sample-data", "--db", path, "--quiet"])
  try #require(run.status == 0, "importing Sample-data: \(run.error)")
  return (folder, path)
}
