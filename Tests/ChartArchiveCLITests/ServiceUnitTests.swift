import Foundation
import Testing

@testable import ChartArchiveCLI

/// contrib/chart-archive.service, the systemd unit that runs `chart-archive serve`.
struct ServiceUnitTests {
  static let unit = packageRoot.appendingPathComponent("contrib/chart-archive.service")

  /// The unit's settings, `Key=value` lines outside comments, in order.
  static func settings() throws -> [(key: String, value: String)] {
    try String(contentsOf: unit, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
      return (String(line[..<equals]), String(line[line.index(after: equals)...]))
    }
  }

  static func value(_ key: String) throws -> [String] {
    try settings().filter { $0.key == key }.map(\.value)
  }

  @Test func runsServeOnTheStateDirectorysArchiveWithTheUsualHardening() throws {
    #expect(
      try Self.value("ExecStart") == [
        "/usr/bin/chart-archive serve --db /var/lib/chart-archive/archive.sqlite --host 127.0.0.1"
          + " --port 8080 $CHART_ARCHIVE_SERVE_OPTIONS"
      ])
    // The archive is in the one folder the service may write.
    #expect(try Self.value("StateDirectory") == ["chart-archive"])
    for (key, value) in [
      ("DynamicUser", "yes"), ("ProtectSystem", "strict"), ("NoNewPrivileges", "yes"),
      ("PrivateTmp", "yes"), ("ProtectHome", "yes"), ("WantedBy", "multi-user.target"),
      // Room for serve's 512 connections a thread, on many threads.
      ("LimitNOFILE", "65536"),
    ] {
      #expect(try Self.value(key) == [value], "\(key)")
    }
  }

  /// Once `serve` is a subcommand, every option the unit gives it (and every one its comments
  /// name) is one of serve's.
  @Test(
    .enabled(
      if: ChartArchiveTool.subcommands.contains { $0.name == "serve" },
      "this build has no serve subcommand: its options are not checked against the unit"))
  func givesServeOnlyItsOptions() throws {
    let serve = try #require(ChartArchiveTool.subcommands.first { $0.name == "serve" })
    let text = try String(contentsOf: Self.unit, encoding: .utf8)
    // The options of ExecStart, of the example of CHART_ARCHIVE_SERVE_OPTIONS and of the
    // comment lines that describe one (`# --threads N  …`); not systemctl's (`enable --now`).
    let lines = text.split(separator: "\n").filter { line in
      !line.hasPrefix("#") || line.dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("--")
        || line.contains("CHART_ARCHIVE_SERVE_OPTIONS=")
    }
    let named = lines.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "\"" }) }
      .filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
    #expect(!named.isEmpty)
    for option in Set(named) {
      #expect(serve.options.contains { $0.name == option }, "serve has no option \(option)")
    }
  }

  /// `systemd-analyze verify` on a copy of the unit whose ExecStart is the built tool (the
  /// installed path, /usr/bin/chart-archive, is not there before the package is installed), with
  /// the manual page its Documentation= names on MANPATH. It checks the unit's settings and that
  /// the program exists, not that the program takes serve's options.
  @Test(
    .enabled(
      if: isInstalled("/usr/bin/systemd-analyze"), "systemd-analyze is not installed: skipped"))
  func systemdVerifiesIt() throws {
    let folder = try TemporaryFolder()
    let text = try String(contentsOf: Self.unit, encoding: .utf8)
      .replacingOccurrences(
        of: "ExecStart=/usr/bin/chart-archive ", with: "ExecStart=\(toolURL.path) ")
    let copy = try folder.write("units/chart-archive.service", text)
    try folder.write("man/man1/chart-archive.1", try chartArchive(["manual"]).output)
    let run = try runProgram(
      "/usr/bin/systemd-analyze", ["verify", copy], environment: ["MANPATH": folder.path + "/man"])
    #expect(run.status == 0)
    #expect(run.error == "")
  }
}
