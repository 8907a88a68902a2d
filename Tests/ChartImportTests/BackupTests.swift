import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Synchronization
import Testing

/// `Archive.backup(to:)`: a whole copy of a live archive.
struct BackupTests {
  /// Weekly files of ten entries, `weeks` of them from 2020-01-04 on.
  static func weeks(_ count: Int, from start: Int = 0) -> [ImportSource] {
    (start..<start + count).map { week in
      let date = ChartDate(
        trustedISO8601: "", secondsSince1970: 1_578_096_000 + Int64(week) * 7 * 86_400)
      let day = String(
        ISO8601DateFormatter().string(
          from: Date(timeIntervalSince1970: Double(date.secondsSince1970))
        ).prefix(10))
      let entries =
        (0..<10).map { ("Song \(($0 + week) % 25)", "Artist", nil, nil, nil) }
        as [(String, String, Int?, Int?, Int?)]
      return .bytes(Data(billboardWeek(day, entries).utf8), name: "c/\(day).json")
    }
  }

  @Test func theCopyIsTheArchiveAndNothingIsWrittenOverAFile() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    _ = try Importer.run(Self.weeks(5), intoArchiveAt: path)
    let archive = try Archive(path: path, access: .read)
    let copy = folder.url.appendingPathComponent("backups/copy.sqlite").path
    #expect(try archive.backup(to: copy)?.map(\.snapshotCount) == [5])
    let copied = try Archive(path: copy, access: .read)
    #expect(
      try copied.read { try $0.snapshots(of: "c").map(\.chartDate.iso8601) } == [
        "2020-01-04", "2020-01-11", "2020-01-18", "2020-01-25", "2020-02-01",
      ])
    #expect(try copied.read { try $0.check() }.allSatisfy(\.passed))
    // A second backup to the same path leaves the first copy as it is.
    let before = try Data(contentsOf: URL(fileURLWithPath: copy))
    #expect(try archive.backup(to: copy) == nil)
    #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == before)
    // No copy in the making is left beside it (the reading archive's -wal and -shm may be).
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path + "/backups").filter {
        !$0.hasPrefix("copy.sqlite")
      } == [])
  }

  /// Backups taken while an import of 200 weeks commits are each the archive before the import
  /// or after it, never a part of it.
  @Test func aBackupDuringAnImportIsTheArchiveBeforeOrAfterIt() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    _ = try Importer.run(Self.weeks(3), intoArchiveAt: path)
    let writer = try Archive(path: path, access: .write)
    let sources = Self.weeks(200, from: 3)
    let done = Atomic(false)
    let importer = Thread {
      _ = try? Importer.run(sources, into: writer)
      done.store(true, ordering: .sequentiallyConsistent)
    }
    importer.start()
    let reader = try Archive(path: path, access: .read)
    var counts: Set<Int> = []
    var copies = 0
    repeat {
      let copy = folder.url.appendingPathComponent("copy-\(copies).sqlite").path
      let charts = try #require(try reader.backup(to: copy))
      let count = try Archive(path: copy, access: .read).read { try $0.snapshots(of: "c").count }
      // The charts the backup read are the copy's.
      #expect(charts.map(\.snapshotCount) == [count])
      counts.insert(count)
      copies += 1
    } while !done.load(ordering: .sequentiallyConsistent) && copies < 50
    while !done.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
    #expect(counts.isSubset(of: [3, 203]))
    #expect(try reader.read { try $0.snapshots(of: "c").count } == 203)
  }
}
