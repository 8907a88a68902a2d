import Foundation
import Testing

/// The pages whose examples and links are checked: the README, then the reference pages of
/// `docs/` by name, each as its path from the package's folder.
let documentationPages: [String] = {
  let docs = packageRoot.appendingPathComponent("docs")
  let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
  return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
}()

/// The text of a page of `documentationPages`, or "" when it cannot be read.
func documentationText(_ page: String) -> String {
  (try? String(contentsOf: packageRoot.appendingPathComponent(page), encoding: .utf8)) ?? ""
}

/// One command of the documentation (a `$ chart-archive …` line in a code block) and the output
/// printed under it.
struct ReadmeExample: CustomStringConvertible {
  /// The page the example is on, from the package's folder (`README.md`, `docs/commands.md`).
  var page: String
  /// The line of the page the command is on, 1-based.
  var line: Int
  /// The command as written after `$ `.
  var command: String
  /// The lines printed under it, up to the next command or the end of the block.
  var output: [String]

  var description: String { "\(page):\(line): \(command)" }

  /// Whether the example needs the whole Hot 100 history (the audit's figures) rather than
  /// Sample-data.
  var needsHot100: Bool { command.hasPrefix("chart-archive audit") }

  /// Whether the example runs the sqlite3 shell (installed by `script/setup --test-tools`).
  var needsSQLiteShell: Bool { command.hasPrefix("sqlite3 ") }

  /// Whether the example asks `chart-archive serve` with curl, at `localhost:8080`.
  var needsServer: Bool { command.contains("curl ") }

  /// Whether the sqlite3 shell is installed here.
  static let sqliteShellIsInstalled = FileManager.default.isExecutableFile(
    atPath: "/usr/bin/sqlite3")

  /// Whether curl is installed here.
  static let curlIsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

  /// Whether the example can run on this machine with Sample-data.
  var runsOnSampleData: Bool {
    !needsHot100 && (!needsSQLiteShell || Self.sqliteShellIsInstalled)
      && (!needsServer || Self.curlIsInstalled)
  }

  /// Every example of the documentation, page by page, in order.
  static let all: [ReadmeExample] = documentationPages.flatMap {
    examples(in: documentationText($0), page: $0)
  }

  /// The examples of one page's text.
  static func examples(in text: String, page: String) -> [ReadmeExample] {
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
          ReadmeExample(
            page: page, line: index + 1, command: String(line.dropFirst(2)), output: []))
        collecting = true
      } else if collecting {
        examples[examples.count - 1].output.append(line)
      }
    }
    return examples
  }

  /// The expected output without its trailing blank lines; a line `…` stands for lines left out.
  var expected: [String] {
    var lines = output
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// Whether `actual` is what the page shows: the same lines, where a first or last line `…`
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

/// The examples of the README and of `docs/*.md`, run in order as a new user would: from a folder
/// holding a copy of Sample-data, with the default archive in a fresh home folder (whose path the
/// pages write `/home/you`) holding Sample-data, as `script/demo` leaves it. Output and error are
/// compared line by line with what the page shows.
@Suite(.serialized)
struct ReadmeExamplesTests {
  /// A folder with `Sample-data/`, the bad file the command reference imports, and a home folder
  /// whose default archive holds Sample-data.
  final class Playground {
    let folder: TemporaryFolder
    var home: String { folder.url.appendingPathComponent("home").path }
    var archive: String { home + "/.local/share/chart-archive/archive.sqlite" }
    /// `chart-archive serve` of the default archive, once an example asks it.
    private var server: ServedArchive?

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.copyItem(
        at: packageRoot.appendingPathComponent("Sample-data"),
        to: folder.url.appendingPathComponent("Sample-data"))
      try FileManager.default.createDirectory(
        atPath: home, withIntermediateDirectories: true)
      // The command reference's bad file: two entries at rank 1.
      try folder.write(
        "bad/2024-01-13.json",
        #"{"date": "2024-01-13", "data": [{"song": "A", "artist": "B", "this_week": 1}, "#
          + #"{"song": "C", "artist": "D", "this_week": 1}]}"#)
      // What script/demo leaves: Sample-data in the default archive.
      let demo = try ReadmeExamplesTests.run(
        "chart-archive import Sample-data --quiet", in: self, previousStatus: 0)
      try #require(demo.status == 0, "\(demo.lines.joined(separator: "\n"))")
    }

    /// The address `localhost:8080` stands for: a server of the default archive, started the
    /// first time.
    func serverAddress() throws -> String {
      if server == nil { server = try ServedArchive(["--db", archive]) }
      return "127.0.0.1:\(server!.port)"
    }

    deinit { _ = server?.stop() }
  }

  /// Runs one documented command line with `sh` in the playground, with `chart-archive` on the
  /// `PATH`; `echo $?` prints the status of the command before it, and `localhost:8080` is the
  /// playground's server.
  static func run(
    _ command: String, in playground: Playground, previousStatus: Int32,
    environment: [String: String] = [:]
  ) throws -> (lines: [String], status: Int32) {
    if command == "echo $?" { return (["\(previousStatus)"], previousStatus) }
    var command = command
    if command.contains("localhost:8080") {
      command = command.replacingOccurrences(
        of: "localhost:8080", with: try playground.serverAddress())
    }
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

  /// The number of examples the pages held when they were last counted: one removed lowers it
  /// on purpose, never by accident.
  static let examplesAtLeast = 47

  @Test func thePagesHaveTheirExamples() {
    let readme = ReadmeExample.all.filter { $0.page == "README.md" }.map(\.command)
    #expect(readme.contains("curl -s 'localhost:8080/api/feed/daily?limit=2'"))
    #expect(readme.contains("chart-archive --version"))
    #expect(readme.contains("chart-archive import Sample-data"))
    #expect(readme.contains("chart-archive history \"night sky\""))
    #expect(ReadmeExample.all.count >= Self.examplesAtLeast, "\(ReadmeExample.all.count) examples")
    #expect(ReadmeExample.all.allSatisfy { !$0.expected.isEmpty })
  }

  @Test func everyExampleOnSampleDataPrintsWhatThePageShows() throws {
    let playground = try Playground()
    var status: Int32 = 0
    for example in ReadmeExample.all where example.runsOnSampleData {
      let (lines, code) = try Self.run(example.command, in: playground, previousStatus: status)
      status = code
      #expect(
        example.matches(lines),
        """
        \(example) printed:
        \(lines.joined(separator: "\n"))
        The page shows:
        \(example.expected.joined(separator: "\n"))
        """)
    }
  }

  @Test(.enabled(if: hot100IsPresent, hot100Absent))
  func everyAuditExampleOnTheHot100PrintsWhatThePageShows() throws {
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
        The page shows:
        \(example.expected.joined(separator: "\n"))
        """)
    }
  }
}

/// The links of the README and of `docs/*.md`: every relative link leads to a file or folder of
/// the repository, and every `#anchor` to a heading of the page it names.
struct DocumentationLinkTests {
  /// A Markdown link's target as written, with the page and line it is on.
  struct Link: CustomStringConvertible {
    var page: String
    var line: Int
    var target: String
    var description: String { "\(page):\(line): (\(target))" }
  }

  /// The links of a page: `[text](target)` and `![alt](target)` outside code blocks and code
  /// spans, without a scheme (`https:`, `mailto:`).
  static func links(in text: String, page: String) -> [Link] {
    var links: [Link] = []
    var inBlock = false
    for (index, line) in text.components(separatedBy: "\n").enumerated() {
      if line.hasPrefix("```") { inBlock.toggle() }
      if inBlock || line.hasPrefix("```") { continue }
      // Code spans hold no links: drop them (every other span of backquotes).
      let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
        .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
      for match in prose.matches(of: /\]\(([^)\s]+)\)/) {
        let target = String(match.output.1)
        if target.contains(":") { continue }
        links.append(Link(page: page, line: index + 1, target: target))
      }
    }
    return links
  }

  /// The anchors of a page's headings as GitHub makes them: the heading's text in lower case,
  /// with letters, digits, `_`, `-` and spaces kept, spaces made `-`, and `-1`, `-2`, … after a
  /// repeated one.
  static func anchors(in text: String) -> Set<String> {
    var anchors: Set<String> = []
    var inBlock = false
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("```") { inBlock.toggle() }
      guard !inBlock, let heading = line.firstMatch(of: /^#{1,6} (.+)$/) else { continue }
      let kept = heading.output.1.lowercased().unicodeScalars.filter {
        $0 == "-" || $0 == " " || $0 == "_" || $0.properties.isAlphabetic
          || $0.properties.numericType != nil || $0.properties.generalCategory == .nonspacingMark
      }
      let anchor = String(kept).replacingOccurrences(of: " ", with: "-")
      var unique = anchor
      var count = 0
      while anchors.contains(unique) {
        count += 1
        unique = "\(anchor)-\(count)"
      }
      anchors.insert(unique)
    }
    return anchors
  }

  /// Whether a link's target leads somewhere: its file exists (relative to its page's folder, or
  /// the page itself for `#anchor` alone), and its anchor is a heading of that file; `anchors`
  /// keeps each file's anchors once read, by path.
  static func resolves(_ link: Link, anchors: inout [String: Set<String>]) -> Bool {
    let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let pageFolder = packageRoot.appendingPathComponent(link.page).deletingLastPathComponent()
    let file =
      parts[0].isEmpty
      ? packageRoot.appendingPathComponent(link.page)
      : pageFolder.appendingPathComponent(String(parts[0])).standardizedFileURL
    guard FileManager.default.fileExists(atPath: file.path) else { return false }
    guard parts.count == 2 else { return true }
    if anchors[file.path] == nil {
      anchors[file.path] = Self.anchors(
        in: (try? String(contentsOf: file, encoding: .utf8)) ?? "")
    }
    return anchors[file.path]?.contains(String(parts[1])) == true
  }

  @Test func everyRelativeLinkLeadsToAFileAndHeading() {
    let links = documentationPages.flatMap { Self.links(in: documentationText($0), page: $0) }
    #expect(links.count > 50, "\(links.count) links")
    var anchors: [String: Set<String>] = [:]
    for link in links {
      #expect(Self.resolves(link, anchors: &anchors), "\(link) leads nowhere")
    }
  }

  @Test func anchorsAreMadeAsGitHubMakesThem() {
    let text = """
      # ChartArchive
      ## `hot-stuff-csv`: the "Hot Stuff" dataset
      ## Serve it: the feed and the pages
      ## --version
      ## Options
      ## Options
      ```
      # not a heading
      ```
      """
    #expect(
      Self.anchors(in: text) == [
        "chartarchive", "hot-stuff-csv-the-hot-stuff-dataset", "serve-it-the-feed-and-the-pages",
        "--version", "options", "options-1",
      ])
  }

  @Test func linksInCodeAreNoLinks() {
    let text = """
      See [the rules](docs/rules.md#ties) and `[x](nowhere)`, and <https://example.org>.
      ```
      [y](nowhere)
      ```
      ![A picture](docs/screenshots/chart-page.png) [site](https://www.swift.org/install/)
      """
    #expect(
      Self.links(in: text, page: "README.md").map(\.description) == [
        "README.md:1: (docs/rules.md#ties)", "README.md:5: (docs/screenshots/chart-page.png)",
      ])
  }
}
