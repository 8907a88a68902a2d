import Foundation
import Testing

/// One command of the README (a `$ chart-archive …` line in a code block) and the output printed
/// under it.
struct ReadmeExample: CustomStringConvertible {
  /// The line of the README the command is on, 1-based.
  var line: Int
  /// The command as written after `$ `.
  var command: String
  /// The lines printed under it, up to the next command or the end of the block.
  var output: [String]

  var description: String { "README.md:\(line): \(command)" }

  /// Whether the example needs the whole Hot 100 history (the audit's figures) rather than
  /// Sample-data.
  var needsHot100: Bool { command.hasPrefix("chart-archive audit") }

  /// Whether the example runs the sqlite3 shell (installed by `script/setup --test-tools`).
  var needsSQLiteShell: Bool { command.hasPrefix("sqlite3 ") }

  /// Whether the sqlite3 shell is installed here.
  static let sqliteShellIsInstalled = FileManager.default.isExecutableFile(
    atPath: "/usr/bin/sqlite3")

  /// Every example of the README, in order.
  static let all: [ReadmeExample] = {
    let text =
      (try? String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8))
      ?? ""
    var examples: [ReadmeExample] = []
    var inBlock = false
    // Whether the last example's command is in the block being read.
    var collecting = false
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if line.hasPrefix("```") {
        inBlock.toggle()
        collecting = false
      } else if inBlock, line.hasPrefix("$ ") {
        examples.append(
          ReadmeExample(line: index + 1, command: String(line.dropFirst(2)), output: []))
        collecting = true
      } else if collecting {
        examples[examples.count - 1].output.append(line)
      }
    }
    return examples
  }()

  /// The expected output without its trailing blank lines; a line `…` stands for lines left out.
  var expected: [String] {
    var lines = output
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// Whether `actual` is what the README shows: the same lines, where a first or last line `…`
  /// stands for any lines before or after them.
  func matches(_ actual: [String]) -> Bool {
    var expected = self.expected
    var actual = actual
    while actual.last?.isEmpty == true { actual.removeLast() }
    let openEnded = expected.last == "…"
    let openStart = expected.first == "…"
    if openEnded { expected.removeLast() }
    if openStart { expected.removeFirst() }
    switch (openStart, openEnded) {
    case (false, false): return actual == expected
    case (false, true): return Array(actual.prefix(expected.count)) == expected
    case (true, false): return Array(actual.suffix(expected.count)) == expected
    case (true, true):
      return actual.count >= expected.count
        && (0...(actual.count - expected.count)).contains {
          Array(actual[$0..<($0 + expected.count)]) == expected
        }
    }
  }
}

/// The README's examples, run in order as a new user would: from a folder holding a copy of
/// Sample-data, with the default archive in a fresh home folder, whose path the README writes
/// `/home/you`. Output and error are compared line by line with what the README shows.
@Suite(.serialized)
struct ReadmeExamplesTests {
  /// A folder with `Sample-data/`, the bad file the README imports, and a home folder.
  final class Playground {
    let folder: TemporaryFolder
    var home: String { folder.url.appendingPathComponent("home").path }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.copyItem(
        at: packageRoot.appendingPathComponent("Sample-data"),
        to: folder.url.appendingPathComponent("Sample-data"))
      try FileManager.default.createDirectory(
        atPath: home, withIntermediateDirectories: true)
      // The README's bad file: two entries at rank 1.
      try folder.write(
        "bad/2024-01-13.json",
        #"{"date": "2024-01-13", "data": [{"song": "A", "artist": "B", "this_week": 1}, "#
          + #"{"song": "C", "artist": "D", "this_week": 1}]}"#)
    }
  }

  /// Runs one README command line with `sh` in the playground, with `chart-archive` on the
  /// `PATH`; `echo $?` prints the status of the command before it.
  static func run(
    _ command: String, in playground: Playground, previousStatus: Int32,
    environment: [String: String] = [:]
  ) throws -> (lines: [String], status: Int32) {
    if command == "echo $?" { return (["\(previousStatus)"], previousStatus) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command + " 2>&1"]
    process.currentDirectoryURL = playground.folder.url
    var variables = [
      "PATH": toolURL.deletingLastPathComponent().path + ":/usr/bin:/bin",
      "HOME": playground.home,
    ]
    variables.merge(environment) { $1 }
    process.environment = variables
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
      .replacingOccurrences(of: "\r\n", with: "\n")
      .replacingOccurrences(of: playground.home, with: "/home/you")
    return (text.components(separatedBy: "\n"), process.terminationStatus)
  }

  @Test func theReadmeHasItsExamples() {
    let commands = ReadmeExample.all.map(\.command)
    #expect(commands.prefix(2) == ["chart-archive --version", "chart-archive import Sample-data"])
    #expect(commands.contains("chart-archive history \"night sky\""))
    #expect(ReadmeExample.all.allSatisfy { !$0.expected.isEmpty })
  }

  @Test func everyExampleOnSampleDataPrintsWhatTheReadmeShows() throws {
    let playground = try Playground()
    var status: Int32 = 0
    for example in ReadmeExample.all
    where !example.needsHot100
      && (!example.needsSQLiteShell || ReadmeExample.sqliteShellIsInstalled)
    {
      let (lines, code) = try Self.run(example.command, in: playground, previousStatus: status)
      status = code
      #expect(
        example.matches(lines),
        """
        \(example) printed:
        \(lines.joined(separator: "\n"))
        The README shows:
        \(example.expected.joined(separator: "\n"))
        """)
    }
  }

  @Test(.enabled(if: hot100IsPresent, "../shared/data/billboard-hot-100 is absent: skipped"))
  func everyAuditExampleOnTheHot100PrintsWhatTheReadmeShows() throws {
    _ = try Hot100Tests.firstImport.get()
    let playground = try Playground()
    for example in ReadmeExample.all where example.needsHot100 {
      let (lines, _) = try Self.run(
        example.command, in: playground, previousStatus: 0,
        environment: ["CHART_ARCHIVE_DB": Hot100Tests.archive])
      #expect(
        example.matches(lines),
        """
        \(example) printed:
        \(lines.joined(separator: "\n"))
        The README shows:
        \(example.expected.joined(separator: "\n"))
        """)
    }
  }
}
