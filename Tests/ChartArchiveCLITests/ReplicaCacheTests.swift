import Foundation
import Testing

/// Varnish in front of two `serve` replicas, each reading its own copy of an archive written
/// elsewhere, as docs/operations.md sets it up: contrib/varnish/chart-archive.vcl with the
/// replicas' ports, the test's own `varnishd` on 127.0.0.1 (never the system's daemon). Skipped,
/// saying so, where Varnish or wrk is not installed (`script/setup --test-tools` installs both).
@Suite(.serialized)
struct ReplicaCacheTests {
  static let varnishd = "/usr/sbin/varnishd"
  static let wrk = "/usr/bin/wrk"

  /// The writer's archive and a replica's copy of it, made by `backup` and renamed into place as
  /// an operator's shipping would.
  struct Writer {
    let folder: TemporaryFolder
    let path: String

    /// Copies the archive into `replica`'s place: a backup in a hidden file of the replica's
    /// folder, then renamed over the replica (rename(2) replaces it at once).
    func ship(to replica: String) throws {
      let hidden = URL(fileURLWithPath: replica).deletingLastPathComponent()
        .appendingPathComponent(".incoming.sqlite").path
      try? FileManager.default.removeItem(atPath: hidden)
      let backup = try chartArchive(["backup", "--db", path, hidden])
      try #require(backup.status == 0, "backup: \(backup.error)")
      try #require(rename(hidden, replica) == 0)
    }
  }

  /// A port nothing listens on now: bound to port 0 and closed.
  static func freePort() throws -> UInt16 {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
      }
    }
    try #require(bound)
    return UInt16(bigEndian: address.sin_port)
  }

  /// A `varnishd` of the test's own, stopped when released.
  final class Varnish {
    let port: UInt16
    /// The manager's process ID, from the file varnishd writes.
    private(set) var pid: Int32 = 0
    /// The folder of its VCL, work files and log, kept as long as it runs.
    let folder: TemporaryFolder

    /// Starts `varnishd` with the project's VCL, its two backends on `ports`, and waits (at most
    /// 20 s) until it answers the health check through a replica. It runs as a daemon of its own,
    /// its output in a file.
    init(backends ports: [UInt16], in folder: TemporaryFolder) throws {
      var vcl = try String(
        contentsOf: packageRoot.appendingPathComponent("contrib/varnish/chart-archive.vcl"),
        encoding: .utf8)
      vcl = vcl.replacingOccurrences(of: "\"8081\"", with: "\"\(ports[0])\"")
        .replacingOccurrences(of: "\"8082\"", with: "\"\(ports[1])\"")
      let vclPath = try folder.write("chart-archive.vcl", vcl)
      port = try freePort()
      self.folder = folder
      let pidFile = folder.url.appendingPathComponent("varnishd.pid").path
      let work = folder.url.appendingPathComponent("varnish").path
      let started = runDaemonCommand(
        "\(ReplicaCacheTests.varnishd) -j none -n '\(work)' -a 127.0.0.1:\(port) -f '\(vclPath)'"
          + " -s malloc,32m -T none -P '\(pidFile)'", log: work + ".log")
      try #require(
        started == 0,
        "varnishd: \((try? String(contentsOfFile: work + ".log", encoding: .utf8)) ?? "")")
      pid =
        Int32(
          try String(contentsOfFile: pidFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if (try? ServedArchive.request(port: port, "GET", "/api/health"))?.status == 200 { return }
        usleep(100_000)
      }
      throw ServerFailure("varnishd did not answer within 20 s")
    }

    deinit {
      guard pid > 0 else { return }
      // SIGKILL: varnishd inherits the test process's blocked signals (SIGTERM among them).
      // Its worker ends on its own once the manager is gone.
      kill(pid, SIGKILL)
      for _ in 0..<50 where kill(pid, 0) == 0 { usleep(100_000) }
    }
  }

  /// A day of app-daily after Sample-data's last (2024-05-05), its first two songs swapped: the
  /// feed's number one becomes Firstlight.
  static func nextDay(in folder: TemporaryFolder) throws -> String {
    let last = try Data(
      contentsOf: packageRoot.appendingPathComponent("Sample-data/app-daily/2024-05-05.json"))
    var entries = try #require(try JSONSerialization.jsonObject(with: last) as? [Any])
    entries.swapAt(0, 1)
    let path = folder.url.appendingPathComponent("2024-05-06.json").path
    try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The title at the top of the daily feed, through `port`.
  static func feedTop(port: UInt16) throws -> String? {
    let reply = try ServedArchive.request(port: port, "GET", "/api/feed/daily")
    let feed = try reply.json() as? [[String: Any]]
    return feed?.first?["title"] as? String
  }

  /// A replica's archive replaced by rename while `serve` runs: the next request reads the new
  /// file, though the server's connections had the old one open.
  @Test func serveReadsTheFileRenamedIntoPlace() throws {
    let (writerFolder, writerPath) = try sampleArchive()
    let writer = Writer(folder: writerFolder, path: writerPath)
    let replicaFolder = try TemporaryFolder()
    let replica = replicaFolder.url.appendingPathComponent("archive.sqlite").path
    try writer.ship(to: replica)
    let server = try ServedArchive(["--db", replica])
    #expect(try Self.feedTop(port: server.port) == "Café de Flore")
    #expect(try server.get("/api/charts/app-daily/2024-05-06").status == 404)
    let imported = try chartArchive(
      ["import", try Self.nextDay(in: writerFolder), "--chart", "app-daily", "--db", writerPath])
    try #require(imported.status == 0, "\(imported.error)")
    try writer.ship(to: replica)
    #expect(try Self.feedTop(port: server.port) == "Firstlight")
    let day = try server.get("/api/charts/app-daily/2024-05-06")
    #expect(day.status == 200)
    #expect(try server.get("/api/feed/daily").header("x-archive-version") == "2")
  }

  @Test(
    .enabled(
      if: isInstalled(varnishd) && isInstalled(wrk),
      "varnishd or wrk is not installed (script/setup --test-tools installs them): the replicas behind Varnish are not checked"
    ))
  func replicasBehindVarnish() throws {
    let (writerFolder, writerPath) = try sampleArchive()
    let writer = Writer(folder: writerFolder, path: writerPath)
    let folders = try (0..<2).map { _ in try TemporaryFolder() }
    let replicas = folders.map { $0.url.appendingPathComponent("archive.sqlite").path }
    for replica in replicas { try writer.ship(to: replica) }
    let servers = try replicas.map { try ServedArchive(["--db", $0]) }
    let varnishFolder = try TemporaryFolder()
    let varnish = try Varnish(backends: servers.map(\.port), in: varnishFolder)
    let port = varnish.port

    #expect(try Self.feedTop(port: port) == "Café de Flore")
    let hot100Snapshots = try ServedArchive.request(
      port: port, "GET", "/api/charts/hot-100/snapshots")
    let cachedAt = Date()
    // A dated snapshot is answered from the cache: Varnish's Age grows.
    let first = try ServedArchive.request(port: port, "GET", "/api/charts/app-daily/2024-05-02")
    #expect(first.status == 200)
    #expect(first.header("cache-control") == "public, max-age=86400")
    usleep(1_100_000)
    let second = try ServedArchive.request(port: port, "GET", "/api/charts/app-daily/2024-05-02")
    #expect(second.header("x-cache") == "HIT")
    #expect((Int(second.header("age") ?? "") ?? 0) >= 1)
    #expect(second.body == first.body)
    // Writes, and requests with credentials, pass through to a replica, which has no token.
    let upload = try ServedArchive.request(
      port: port, "POST", "/api/charts/app-daily/snapshots",
      headers: [("Authorization", "Bearer x")], body: Array("[]".utf8))
    #expect(upload.status == 405)
    #expect(upload.header("x-cache") == "MISS")

    // A new day is imported on the writer and shipped to both replicas.
    let day = try Self.nextDay(in: writerFolder)
    let imported = try chartArchive(
      ["import", day, "--chart", "app-daily", "--db", writerPath, "--quiet"])
    try #require(imported.status == 0, "\(imported.error)")
    let shipped = Date()
    for replica in replicas { try writer.ship(to: replica) }
    var top = try Self.feedTop(port: port)
    while top != "Firstlight", Date().timeIntervalSince(shipped) < 20 {
      usleep(250_000)
      top = try Self.feedTop(port: port)
    }
    #expect(top == "Firstlight")
    // Within the time Varnish keeps an answer about the latest state (5 s) and its grace (5 s),
    // well within the feed's max-age of 60 s.
    #expect(Date().timeIntervalSince(shipped) < 11)
    // The Hot 100's snapshots, unchanged by the import, are revalidated with their ETag once
    // they expire in Varnish (5 s): a replica answers 304, and the client gets the whole answer.
    let expiry = 6 - Date().timeIntervalSince(cachedAt)
    if expiry > 0 { usleep(UInt32(expiry * 1_000_000)) }
    let snapshots = try ServedArchive.request(
      port: port, "GET", "/api/charts/hot-100/snapshots")
    #expect(snapshots.status == 200)
    #expect(snapshots.body == hot100Snapshots.body)
    usleep(300_000)
    #expect(
      servers.contains { $0.log.contains("GET /api/charts/hot-100/snapshots 304") },
      "\(servers.map(\.log))")

    try loadWhileShipping(writer: writer, replicas: replicas, port: port)
    #expect(servers.contains { $0.log.contains("GET /api/charts/app-daily/2024-05-02 200") })

    // One replica stopped: the other answers everything, the first request too.
    _ = servers[0].stop()
    for _ in 0..<6 {
      #expect(try Self.feedTop(port: port) == "Firstlight")
      #expect(
        try ServedArchive.request(port: port, "GET", "/api/charts/app-daily/2024-05-03").status
          == 200)
    }
    withExtendedLifetime((varnish, servers)) {}
  }

  /// wrk through Varnish for 10 s on the feed and a dated snapshot while the writer's archive is
  /// shipped to both replicas every 2 s: no failed request, no error status.
  func loadWhileShipping(writer: Writer, replicas: [String], port: UInt16) throws {
    let folder = try TemporaryFolder()
    let script = try folder.write(
      "paths.lua",
      """
      local paths = {"/api/feed/daily", "/api/charts/app-daily/2024-05-04", "/api/charts",
        "/api/charts/app-daily/snapshots"}
      local n = 0
      request = function()
        n = n + 1
        return wrk.format("GET", paths[n % #paths + 1])
      end
      """)
    let load = try StartedProcess(
      URL(fileURLWithPath: Self.wrk),
      ["-t2", "-c16", "-d10s", "-s", script, "http://127.0.0.1:\(port)/"], environment: [:])
    for _ in 0..<4 {
      usleep(2_000_000)
      for replica in replicas { try writer.ship(to: replica) }
    }
    let run = load.wait()
    try #require(run.status == 0, "\(run.error)")
    let requests = run.output.split(separator: "\n").first { $0.contains("requests in") }
    let count = requests.flatMap { Int($0.split(separator: " ").first ?? "") } ?? 0
    #expect(count > 1_000, "\(run.output)")
    #expect(!run.output.contains("Non-2xx"), "\(run.output)")
    #expect(!run.output.contains("Socket errors"), "\(run.output)")
  }
}
