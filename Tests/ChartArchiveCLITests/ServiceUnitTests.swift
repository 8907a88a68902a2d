import Foundation
import Testing

@testable import ChartArchiveCLI

/// contrib/chart-archive.service, the systemd unit that runs `chart-archive serve`, and the units
/// that empty the spool into its archive: contrib/chart-archive-import.path and
/// contrib/chart-archive-import.service.
struct ServiceUnitTests {
  static let unit = packageRoot.appendingPathComponent("contrib/chart-archive.service")

  /// The settings of a file of contrib/ (the serve unit's by default), `Key=value` lines outside
  /// comments, in order.
  static func settings(_ name: String = "chart-archive.service") throws -> [(
    key: String, value: String
  )] {
    try String(contentsOf: packageRoot.appendingPathComponent("contrib/" + name), encoding: .utf8)
      .split(separator: "\n").compactMap { line in
        guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
        return (String(line[..<equals]), String(line[line.index(after: equals)...]))
      }
  }

  static func value(_ key: String, of name: String = "chart-archive.service") throws -> [String] {
    try settings(name).filter { $0.key == key }.map(\.value)
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

  /// The spool's units: the path unit starts the import service when a chart file is in the spool
  /// (not for a temporary name), and the service runs as serve's user, in the same state folder.
  @Test func theSpoolsUnitsImportIntoTheServedArchiveAsItsUser() throws {
    let service = "chart-archive-import.service"
    #expect(
      try Self.value("ExecStart", of: service) == [
        "/usr/bin/chart-archive import /var/spool/chart-archive --move-to"
          + " /var/lib/chart-archive/spool-done --db /var/lib/chart-archive/archive.sqlite"
          + " $CHART_ARCHIVE_IMPORT_OPTIONS"
      ])
    for key in ["DynamicUser", "User", "StateDirectory", "StateDirectoryMode", "UMask"] {
      #expect(try Self.value(key, of: service) == Self.value(key), "\(key)")
    }
    #expect(try Self.value("User") == ["chart-archive"])
    for (key, value) in [
      ("Type", "oneshot"), ("ReadWritePaths", "/var/spool/chart-archive"),
      ("SupplementaryGroups", "chart-archive-spool"), ("ProtectSystem", "strict"),
      ("NoNewPrivileges", "yes"), ("PrivateNetwork", "yes"),
    ] {
      #expect(try Self.value(key, of: service) == [value], "\(key)")
    }
    #expect(
      try Self.value("PathExistsGlob", of: "chart-archive-import.path") == [
        "/var/spool/chart-archive/*.[jJ][sS][oO][nN]", "/var/spool/chart-archive/*.[cC][sS][vV]",
        "/var/spool/chart-archive/*.[hH][tT][mM]", "/var/spool/chart-archive/*.[hH][tT][mM][lL]",
      ])
    #expect(try Self.value("Unit", of: "chart-archive-import.path") == [service])
    #expect(try Self.value("WantedBy", of: "chart-archive-import.path") == ["paths.target"])
    // The spool and its group, as the package makes them.
    let tmpfiles = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/chart-archive.tmpfiles"),
      encoding: .utf8)
    #expect(tmpfiles.hasSuffix("\nd /var/spool/chart-archive 2770 root chart-archive-spool -\n"))
    let sysusers = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/chart-archive.sysusers"),
      encoding: .utf8)
    #expect(sysusers.hasSuffix("\ng chart-archive-spool -\n"))
  }

  /// Every option the import unit names (its comments' too) is one of import's.
  @Test func givesImportOnlyItsOptions() throws {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/chart-archive-import.service"),
      encoding: .utf8)
    let lines = text.split(separator: "\n").filter { line in
      !line.hasPrefix("#") || line.dropFirst().trimmingCharacters(in: .whitespaces).hasPrefix("--")
        || line.contains("CHART_ARCHIVE_IMPORT_OPTIONS=")
    }
    let named = lines.flatMap { $0.split(whereSeparator: { " \"()".contains($0) }) }
      .filter { $0.hasPrefix("--") }.map { String($0.prefix { $0 != "=" }) }
    #expect(
      Set(named)
        == [
          "--move-to", "--db", "--chart", "--frequency", "--timezone", "--replace", "--allow-ties",
        ])
    for option in Set(named) {
      #expect(
        ImportCommand.options.contains { $0.name == option }, "import has no option \(option)")
    }
  }

  /// The service's command line, its folders moved into a temporary one and the chart given as
  /// /etc/default/chart-archive would: a file of the spool is stored and moved into imported/, a
  /// temporary one left.
  @Test func theServicesCommandEmptiesTheSpool() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write(
      "spool/2024-01-06.json",
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1}]}"#)
    try folder.write("spool/2024-01-13.json.part", "{")
    let command = try #require(
      try Self.value("ExecStart", of: "chart-archive-import.service").first
    )
    .replacingOccurrences(of: "/var/spool/chart-archive", with: folder.path + "/spool")
    .replacingOccurrences(of: "/var/lib/chart-archive", with: folder.path + "/state")
    .replacingOccurrences(of: "$CHART_ARCHIVE_IMPORT_OPTIONS", with: "--chart hot-100")
    .split(separator: " ").map(String.init)
    #expect(command.first == "/usr/bin/chart-archive")
    let run = try chartArchive(Array(command.dropFirst()))
    #expect(run.status == 0)
    #expect(
      run.output.hasPrefix(
        "imported  \(file)  moved to \(folder.path)/state/spool-done/imported/2024-01-06.json\n"))
    let snapshots = try chartArchive(
      ["snapshots", "hot-100", "--db", folder.path + "/state/archive.sqlite", "--format", "csv"])
    #expect(
      snapshots.output == "chart,chart_date,entries,source\r\nhot-100,2024-01-06,1,\(file)\r\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path + "/spool") == [
        "2024-01-13.json.part"
      ])
  }

  /// `systemd-analyze verify` on the spool's two units, as the serve unit is verified.
  @Test(
    .enabled(
      if: isInstalled("/usr/bin/systemd-analyze"), "systemd-analyze is not installed: skipped"))
  func systemdVerifiesTheSpoolsUnits() throws {
    let folder = try TemporaryFolder()
    let service = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/chart-archive-import.service"),
      encoding: .utf8
    )
    .replacingOccurrences(
      of: "ExecStart=/usr/bin/chart-archive ", with: "ExecStart=\(toolURL.path) ")
    let path = try String(
      contentsOf: packageRoot.appendingPathComponent("contrib/chart-archive-import.path"),
      encoding: .utf8)
    let units = [
      try folder.write("units/chart-archive-import.service", service),
      try folder.write("units/chart-archive-import.path", path),
    ]
    try folder.write("man/man1/chart-archive.1", try chartArchive(["manual"]).output)
    let run = try runProgram(
      "/usr/bin/systemd-analyze", ["verify"] + units,
      environment: ["MANPATH": folder.path + "/man"])
    #expect(run.status == 0)
    #expect(run.error == "")
  }
}
