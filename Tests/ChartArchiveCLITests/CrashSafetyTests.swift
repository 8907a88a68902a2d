import ChartStorage
import Foundation
import Synchronization
import Testing

/// A deterministic chart series in ChartArchive's format: a file of 100 entries for each week
/// (counted from 1970-01-01) in `folder/name/`, songs drifting up and down from week to week.
private func writeSeries(
  to folder: TemporaryFolder, weeks: Range<Int>, name: String = "series", chart: String = "big"
) throws {
  var random = SeededRandom(seed: 42)
  for week in weeks {
    let day = Calendar(identifier: .gregorian).date(
      byAdding: .day, value: 7 * week, to: Date(timeIntervalSince1970: 0))!
    let date = ISO8601DateFormatter.string(
      from: day, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    let offset = random.next(below: 30)
    let entries = (1...100).map { rank in
      #"{"rank": \#(rank), "title": "Song \#((rank + offset + week) % 250)", "artist": "Artist \#((rank + offset) % 40)"}"#
    }
    try folder.write(
      "\(name)/\(date).json",
      #"{"chart": "\#(chart)", "chart_date": "\#(date)", "entries": [\#(entries.joined(separator: ", "))]}"#
    )
  }
}

/// The snapshot count and the entry counts of a chart's snapshots.
private func snapshotSizes(_ archive: String, chart: String = "big") throws -> [Int] {
  let run = try chartArchive(["snapshots", chart, "--db", archive, "--format", "csv"])
  #expect(run.status == 0, "\(run.error)")
  return run.output.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map {
    Int($0.components(separatedBy: ",")[2])!
  }
}

/// Every entry of chart `big` (its export as CSV), after `chart-archive check` passed on the
/// archive: SQLite's `PRAGMA integrity_check` and foreign keys, and the archive's own invariants.
private func checkedContent(of archive: String, _ round: String) throws -> String {
  let check = try chartArchive(["check", "--db", archive])
  #expect(check.status == 0, "\(round): \(check.output)\(check.error)")
  #expect(
    check.output.split(separator: "\n").contains {
      $0.hasPrefix("SQLite integrity ") && $0.hasSuffix(" ok")
    }, "\(round)")
  let export = try chartArchive(["export", "big", "--format", "csv", "--db", archive])
  #expect(export.status == 0, "\(round): \(export.error)")
  return export.output
}

/// Stops process `pid` (SIGSTOP) and waits until every thread of it has stopped, so that what it
/// holds can be looked at without it moving on.
private func stop(_ pid: Int32) {
  kill(pid, SIGSTOP)
  waitUntil("process \(pid) stopped") {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.allSatisfy { task in
      // "TID (NAME) STATE …": the state follows the last parenthesis.
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8))
      return stat.map { $0[$0.lastIndex(of: ")")!...].dropFirst(2).first == "T" } ?? true
    }
  }
}

/// Whether process `pid` is inside a write transaction on the archive at `path`: it holds SQLite's
/// write lock and not the checkpoint's (a checkpoint, which follows a commit, holds both).
private func isWriting(_ pid: Int32, _ archive: String) -> Bool {
  holdsLock(pid, onByte: 120, of: archive + "-shm") && !isCheckpointing(pid, archive)
}

/// Whether process `pid` copies the write-ahead log of the archive at `path` into its file (a
/// checkpoint, after a commit).
private func isCheckpointing(_ pid: Int32, _ archive: String) -> Bool {
  holdsLock(pid, onByte: 121, of: archive + "-shm")
}

/// A lock on an archive held by a thread of this process, as another import or a long query would
/// hold it, until released.
private final class ArchiveGate: Sendable {
  enum Kind {
    /// A write transaction: an import waits for it before its own begins.
    case write
    /// A read transaction begun before the import committed: the import's last step, copying its
    /// write-ahead log into the archive file (`wal_checkpoint(PASSIVE)`), copies no frame it needs.
    case read
  }

  private let releasing = DispatchSemaphore(value: 0)
  private let ended = DispatchSemaphore(value: 0)
  private let state = Mutex<(released: Bool, failure: String?)>((false, nil))

  init(on path: String, _ kind: Kind) throws {
    let held = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [self] in
      do {
        // Opened and closed on this thread, so that the archive is closed once the gate is.
        let archive = try Archive(path: path, access: kind == .write ? .write : .read)
        switch kind {
        case .write:
          try archive.write { _ in
            held.signal()
            releasing.wait()
          }
        case .read:
          try archive.read { reader in
            _ = try reader.charts()
            held.signal()
            releasing.wait()
          }
        }
      } catch {
        state.withLock { $0.failure = "\(error)" }
        held.signal()
      }
      ended.signal()
    }
    held.wait()
    if let failure = state.withLock({ $0.failure }) {
      release()
      throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: failure])
    }
  }

  /// Ends the transaction and closes the archive (once; later calls do nothing).
  func release() {
    let first = state.withLock { state in
      defer { state.released = true }
      return !state.released
    }
    guard first else { return }
    releasing.signal()
    ended.wait()
    if let failure = state.withLock({ $0.failure }) { Issue.record("gate: \(failure)") }
  }

  deinit { release() }
}

@Suite(.serialized)
struct CrashSafetyTests {
  /// When, in an import into an archive that exists, it is killed.
  enum Moment: CaseIterable {
    /// At a seeded delay after it started, while it waits for the write lock (held here): before
    /// its transaction.
    case waiting
    /// As soon as its write transaction has begun.
    case began
    /// At a seeded delay after its transaction began: while it stores, or after it committed when
    /// it stored everything sooner.
    case storing
    /// At a seeded delay after it committed: while it copies what a reader held here lets it copy
    /// of the log into the archive file (without waiting for that reader), or after it ended.
    case committed
    /// At a seeded delay after that reader let go: while the log is copied, or after.
    case copying
  }

  @Test func anImportIntoAnArchiveKilledAtAnyMomentLeavesItBeforeTheImportOrAfterIt() throws {
    let folder = try TemporaryFolder()
    try writeSeries(to: folder, weeks: 0..<10, name: "base")
    try writeSeries(to: folder, weeks: 10..<120)
    let series = folder.url.appendingPathComponent("series").path
    let base = folder.url.appendingPathComponent("base.sqlite").path
    #expect(try chartArchive(["import", folder.path + "/base", "--db", base]).status == 0)
    let complete = folder.url.appendingPathComponent("complete.sqlite").path
    try FileManager.default.copyItem(atPath: base, toPath: complete)
    #expect(try chartArchive(["import", series, "--db", complete, "--quiet"]).status == 0)
    let before = try checkedContent(of: base, "before")
    let after = try checkedContent(of: complete, "after")
    // A header, then 100 entries a week.
    #expect(before.components(separatedBy: "\r\n").count == 1 + 10 * 100 + 1)
    #expect(after.components(separatedBy: "\r\n").count == 1 + 120 * 100 + 1)

    var random = SeededRandom(seed: 7)
    var stoppedInTransaction = 0
    for round in 0..<15 {
      let moment = Moment.allCases[round % Moment.allCases.count]
      let name = "round \(round) (\(moment))"
      let archive = folder.url.appendingPathComponent("round-\(round).sqlite").path
      try FileManager.default.copyItem(atPath: base, toPath: archive)
      // Until this reader lets go, the import cannot end by itself before it commits: every kill
      // before the commit is certain.
      let reader = try ArchiveGate(on: archive, .read)
      let writer = moment == .waiting ? try ArchiveGate(on: archive, .write) : nil
      let importing = try StartedProcess(tool: ["import", series, "--db", archive, "--quiet"])
      let inTransaction = { isWriting(importing.pid, archive) }
      let committed = { isCheckpointing(importing.pid, archive) }
      var killedInTransaction = false
      switch moment {
      case .waiting:
        usleep(UInt32(random.next(below: 100_000)))
      case .began, .storing:
        waitUntil("\(name): the import's transaction began") {
          inTransaction() || committed() || !importing.isRunning
        }
        if moment == .storing { usleep(UInt32(random.next(below: 200_000))) }
        stop(importing.pid)
        if inTransaction() {
          stoppedInTransaction += 1
          killedInTransaction = moment == .began
        }
      case .committed, .copying:
        waitUntil("\(name): the import committed") { committed() || !importing.isRunning }
        if moment == .copying { reader.release() }
        usleep(UInt32(random.next(below: moment == .copying ? 5_000 : 20_000)))
      }
      importing.kill()
      // After its commit, the import ends by itself soon (its copy of the log does not wait).
      if moment != .copying && moment != .committed { #expect(importing.wasKilled, "\(name)") }
      writer?.release()
      reader.release()
      // The archive as it was before the import, or with all of it; never a part. Killed before its
      // transaction, or early in it, the import stored nothing; once it committed, everything.
      let content = try checkedContent(of: archive, name)
      switch moment {
      case .waiting,
        .began where killedInTransaction:
        #expect(content == before, "\(name)")
      case .committed, .copying: #expect(content == after, "\(name)")
      case .began, .storing: #expect(content == before || content == after, "\(name)")
      }
    }
    // Stopped as soon as its transaction began, or at a delay after, the import was inside it.
    #expect(stoppedInTransaction >= 3)
  }

  /// When a first import, into a new archive, is killed.
  enum FirstMoment: CaseIterable {
    /// At a seeded delay after it started, while it builds the archive beside its path or waits to
    /// publish it (a lock on the folder, held here, keeps it waiting).
    case building
    /// At a seeded delay after it began to wait to publish its archive, whole.
    case built
    /// At a seeded delay after its archive appeared at the path.
    case published
  }

  @Test func aFirstImportKilledAtAnyMomentLeavesNoArchiveOrAWholeOne() throws {
    let folder = try TemporaryFolder()
    try writeSeries(to: folder, weeks: 0..<120)
    let series = folder.url.appendingPathComponent("series").path
    let complete = folder.url.appendingPathComponent("complete.sqlite").path
    #expect(try chartArchive(["import", series, "--db", complete, "--quiet"]).status == 0)
    let whole = try checkedContent(of: complete, "complete")
    let new = folder.url.appendingPathComponent("new").path
    try FileManager.default.createDirectory(atPath: new, withIntermediateDirectories: false)
    let archive = new + "/a.sqlite"

    var random = SeededRandom(seed: 11)
    for round in 0..<6 {
      let moment = FirstMoment.allCases[round % FirstMoment.allCases.count]
      let name = "round \(round) (\(moment))"
      let folderLock = moment == .published ? nil : try FolderLock(new)
      let importing = try StartedProcess(tool: ["import", series, "--db", archive, "--quiet"])
      switch moment {
      case .building:
        usleep(UInt32(random.next(below: 500_000)))
      case .built:
        waitUntil("\(name): the import waits to publish") {
          waitsForLock(importing.pid, on: new) || !importing.isRunning
        }
        usleep(UInt32(random.next(below: 20_000)))
      case .published:
        waitUntil("\(name): the archive appeared") {
          FileManager.default.fileExists(atPath: archive) || !importing.isRunning
        }
        usleep(UInt32(random.next(below: 5_000)))
      }
      importing.kill()
      folderLock?.release()
      if moment == .published {
        #expect(try checkedContent(of: archive, name) == whole)
      } else {
        #expect(importing.wasKilled, "\(name)")
        #expect(!FileManager.default.fileExists(atPath: archive), "\(name)")
      }
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: archive + suffix)
      }
    }
    // A killed first import leaves its hidden build file; the next import deletes them.
    #expect(try chartArchive(["import", series, "--db", archive, "--quiet"]).status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: new).sorted() == ["a.sqlite"])
  }

  @Test func readersDuringAnImportSeeTheArchiveBeforeItOrAfterIt() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try writeSeries(to: folder, weeks: 0..<1, name: "first")
    #expect(try chartArchive(["import", folder.path + "/first", "--db", archive]).status == 0)
    try writeSeries(to: folder, weeks: 1..<120)
    let importing = try StartedProcess(tool: [
      "import", folder.url.appendingPathComponent("series").path, "--db", archive, "--quiet",
    ])
    let inTransaction = { isWriting(importing.pid, archive) }
    /// Reads with three commands, each of which must see one snapshot or all 120.
    func read(_ name: String) throws -> Int {
      let show = try chartArchive(["show", "big", "--db", archive, "--format", "csv"])
      #expect(show.status == 0, "\(show.error)")
      // A header, 100 entries and the empty string after the last line break.
      #expect(show.output.components(separatedBy: "\r\n").count == 102, "\(name)")
      let history = try chartArchive(["history", "Song 7", "--artist", "Artist", "--db", archive])
      #expect(history.status == 0 || history.status == 1, "\(history.error)")
      let sizes = try snapshotSizes(archive)
      #expect(sizes == [100] || sizes == Array(repeating: 100, count: 120), "\(name): \(sizes)")
      return sizes.count
    }
    // While the import is inside its transaction it is stopped, read, and let go on, again and
    // again: these reads overlap it for certain, and see the archive before it. Between them, and
    // once its transaction has ended, reads see it before or after.
    var random = SeededRandom(seed: 5)
    var readsDuring = 0
    var readsBeside = 0
    waitUntil("the import's transaction began") { inTransaction() || !importing.isRunning }
    while importing.isRunning {
      if inTransaction() {
        stop(importing.pid)
        if inTransaction() {
          #expect(try read("read \(readsDuring) while stopped") == 1)
          readsDuring += 1
        }
        kill(importing.pid, SIGCONT)
        usleep(UInt32(random.next(below: 50_000)))
      } else {
        _ = try read("read \(readsBeside) beside")
        readsBeside += 1
      }
    }
    #expect(importing.wait().status == 0)
    #expect(readsDuring >= 1)
    #expect(try read("read after") == 120)
  }
}
