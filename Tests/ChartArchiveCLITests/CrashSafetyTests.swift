import Foundation
import Testing

/// A deterministic chart series in ChartArchive's format: `weeks` files of 100 entries, songs
/// drifting up and down from week to week (a linear congruential generator, fixed seed).
private func writeSeries(to folder: TemporaryFolder, weeks: Range<Int>, chart: String = "big")
  throws
{
  var state: UInt64 = 42
  func next(_ bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
  for week in weeks {
    let day = Calendar(identifier: .gregorian).date(
      byAdding: .day, value: 7 * week, to: Date(timeIntervalSince1970: 0))!
    let date = ISO8601DateFormatter.string(
      from: day, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    let offset = next(30)
    let entries = (1...100).map { rank in
      #"{"rank": \#(rank), "title": "Song \#((rank + offset + week) % 250)", "artist": "Artist \#((rank + offset) % 40)"}"#
    }
    try folder.write(
      "series/\(date).json",
      #"{"chart": "\#(chart)", "chart_date": "\#(date)", "entries": [\#(entries.joined(separator: ", "))]}"#
    )
  }
}

/// Starts `chart-archive` without waiting for it.
private func start(_ arguments: [String]) throws -> Process {
  let process = Process()
  process.executableURL = toolURL
  process.arguments = arguments
  process.standardOutput = FileHandle.nullDevice
  process.standardError = FileHandle.nullDevice
  try process.run()
  return process
}

/// The snapshot count and the entry counts of a chart's snapshots.
private func snapshotSizes(_ archive: String, chart: String = "big") throws -> [Int] {
  let run = try chartArchive(["snapshots", chart, "--db", archive, "--format", "csv"])
  // An import killed before it committed leaves the schema and no chart.
  if run.status == 1, run.error == "Error: no chart named '\(chart)' in the archive\n" { return [] }
  #expect(run.status == 0, "\(run.error)")
  return run.output.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map {
    Int($0.components(separatedBy: ",")[2])!
  }
}

@Suite(.serialized)
struct CrashSafetyTests {
  @Test func anImportKilledAtRandomMomentsLeavesWholeSnapshotsOnly() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try writeSeries(to: folder, weeks: 0..<300)
    let series = folder.url.appendingPathComponent("series").path
    // How long a whole import takes here, to kill the others inside that time.
    let startTime = Date()
    let full = folder.url.appendingPathComponent("timing.sqlite").path
    #expect(try chartArchive(["import", series, "--db", full, "--quiet"]).status == 0)
    let duration = Date().timeIntervalSince(startTime)

    var state: UInt64 = 7
    var killed = 0
    for round in 0..<20 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let delay = duration * Double(state >> 11) / Double(1 << 53)
      let process = try start(["import", series, "--db", archive, "--quiet"])
      Thread.sleep(forTimeInterval: delay)
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
      if process.terminationReason == .uncaughtSignal { killed += 1 }
      // The archive opens, passes its checks, and holds every snapshot or none, each whole.
      if FileManager.default.fileExists(atPath: archive) {
        let check = try chartArchive(["check", "--db", archive])
        #expect(
          check.status == 0 || check.error.contains("is empty"), "round \(round): \(check.output)")
        if check.status == 0 {
          let sizes = try snapshotSizes(archive)
          #expect(sizes.count == 0 || sizes.count == 300, "round \(round)")
          #expect(sizes.allSatisfy { $0 == 100 }, "round \(round)")
        }
      }
      if process.terminationReason == .exit { try? FileManager.default.removeItem(atPath: archive) }
    }
    #expect(killed >= 10, "only \(killed) of 20 imports were killed before they finished")
    // A killed import into a new archive leaves its hidden build file; the next one deletes them.
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: archive + suffix)
    }
    #expect(try chartArchive(["import", series, "--db", archive, "--quiet"]).status == 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(left == ["a.sqlite", "series", "timing.sqlite"])
  }

  @Test func readersDuringAnImportSeeWholeImportsOnly() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try writeSeries(to: folder, weeks: 0..<1)
    #expect(
      try chartArchive([
        "import", folder.url.appendingPathComponent("series").path, "--db", archive,
      ])
      .status == 0)
    let more = try TemporaryFolder()
    try writeSeries(to: more, weeks: 1..<300)
    let importing = try start([
      "import", more.url.appendingPathComponent("series").path, "--db", archive, "--quiet",
    ])
    var reads = 0
    while importing.isRunning || reads < 3 {
      let show = try chartArchive(["show", "big", "--db", archive, "--format", "csv"])
      #expect(show.status == 0, "\(show.error)")
      #expect(show.output.components(separatedBy: "\r\n").count == 102)  // header, 100, ""
      let sizes = try snapshotSizes(archive)
      #expect(sizes.count == 1 || sizes.count == 300)
      let history = try chartArchive(["history", "Song 7", "--artist", "Artist", "--db", archive])
      #expect(history.status == 0 || history.status == 1, "\(history.error)")
      reads += 1
    }
    importing.waitUntilExit()
    #expect(importing.terminationStatus == 0)
    #expect(try snapshotSizes(archive).count == 300)
  }
}
