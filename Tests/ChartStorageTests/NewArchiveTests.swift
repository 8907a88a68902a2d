import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// The names in a folder, sorted.
private func names(in folder: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// The journal mode recorded in an SQLite file's header: 1 rollback, 2 write-ahead logging
/// (<https://www.sqlite.org/fileformat2.html#the_database_header>, bytes 18 and 19).
private func journalModeInHeader(_ path: String) throws -> [UInt8] {
  Array(try Data(contentsOf: URL(fileURLWithPath: path))[18..<20])
}

struct NewArchiveTests {
  @Test func appearsWholeAtItsPathWhenPublished() throws {
    let file = TemporaryArchive()
    let new = try NewArchive(at: file.path)
    let first = try snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])
    #expect(try new.archive.importing { try $0.store(first) } == .imported)
    #expect(new.archive.path == file.path)
    // Until published, the destination does not exist; the archive is in one hidden file.
    let building = try names(in: file.folder)
    #expect(building.count == 1)
    #expect(building.first?.hasPrefix(".chart-archive-build-\(getpid())-") == true)
    #expect(building.first?.count == ".chart-archive-build-\(getpid())-".count + 8)
    // A rollback journal, kept in memory: no journal file beside it.
    #expect(try journalModeInHeader(new.buildPath) == [1, 1])

    #expect(try new.publish())
    #expect(try names(in: file.folder) == ["archive.sqlite"])
    #expect(try journalModeInHeader(file.path) == [2, 2])
    let archive = try Archive(path: file.path, access: .read)
    let stored = try archive.snapshot(of: "c", at: nil)
    #expect(try archive.entries(of: stored.id).map(\.entry) == first.entries)
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func takesNoLogLeftBesideADeletedArchive() throws {
    let file = TemporaryArchive()
    // An archive whose last import is still in its write-ahead log: that log, left at the
    // destination, is what deleting an archive without its -wal (or killing a process that had
    // it open) leaves.
    let deleted = file.folder.appendingPathComponent("deleted.sqlite").path
    do {
      let archive = try Archive(path: deleted, access: .create)
      try archive.database.execute("PRAGMA wal_autocheckpoint = 0")
      try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "Stale", "X")])) }
      for suffix in ["-wal", "-shm"] {
        try FileManager.default.copyItem(atPath: deleted + suffix, toPath: file.path + suffix)
      }
    }
    let leftLog = try Data(contentsOf: URL(fileURLWithPath: file.path + "-wal"))
    let new = try NewArchive(at: file.path)
    try new.archive.importing { try $0.store(snapshot("2024-02-03", [(1, "New", "Y")])) }
    #expect(try new.publish())
    let archive = try Archive(path: file.path, access: .read)
    #expect(try archive.check().allSatisfy(\.passed))
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-02-03"])
    // The log is renamed aside whole, not deleted: it may hold the last imports of its archive.
    #expect(new.setAside.count == 1)
    let aside = try #require(new.setAside.first)
    #expect(aside.original == file.path + "-wal")
    let log = aside.renamed
    #expect(log.hasPrefix(file.path + "-wal.orphaned-"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == leftLog)
  }

  @Test func leavesTheLogOfAnArchiveThatAppearedWhileItWaitedForTheFolder() throws {
    let file = TemporaryArchive()
    let new = try NewArchive(at: file.path)
    try new.archive.importing { try $0.store(snapshot("2024-01-06", [(1, "Mine", "X")])) }
    // Another import holds the folder's lock while its archive appears at the destination, and
    // a connection keeps it open with its last import still in the log.
    let folderLock = open(file.folder.path, O_RDONLY | O_DIRECTORY)
    #expect(flock(folderLock, LOCK_EX) == 0)
    final class Publishing: @unchecked Sendable {
      let new: NewArchive
      var published: Result<Bool, ArchiveError>?
      let done = DispatchSemaphore(value: 0)
      init(_ new: NewArchive) { self.new = new }
    }
    let publishing = Publishing(new)
    Thread.detachNewThread {
      publishing.published = Result { () throws(ArchiveError) in try publishing.new.publish() }
      publishing.done.signal()
    }
    let other = try Archive(path: file.path, access: .create)
    try other.database.execute("PRAGMA wal_autocheckpoint = 0")
    try other.importing { try $0.store(snapshot("2024-01-13", [(1, "Theirs", "Y")])) }
    let waited = publishing.done.wait(timeout: .now() + 0.2) == .timedOut
    #expect(waited)
    close(folderLock)
    if waited { publishing.done.wait() }
    #expect(try publishing.published?.get() == false)
    #expect(FileManager.default.fileExists(atPath: file.path + "-wal"))
    #expect(try other.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-13"])
    let reader = try Archive(path: file.path, access: .read)
    #expect(try reader.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-13"])
  }

  @Test func neverOverwritesAnArchiveThatAppearedMeanwhile() throws {
    let file = TemporaryArchive()
    let new = try NewArchive(at: file.path)
    try new.archive.importing { try $0.store(snapshot("2024-01-06", [(1, "Mine", "X")])) }
    do {
      let other = try Archive(path: file.path, access: .create)
      try other.importing { try $0.store(snapshot("2024-01-13", [(1, "Theirs", "Y")])) }
    }
    #expect(try !new.publish())
    let left = try names(in: file.folder)
    #expect(left == ["archive.sqlite"])
    let archive = try Archive(path: file.path, access: .read)
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-13"])
  }

  @Test func leavesNothingWhenDroppedUnpublished() throws {
    let file = TemporaryArchive()
    let path = file.folder.appendingPathComponent("deeper/archive.sqlite").path
    do {
      let new = try NewArchive(at: path)
      try new.archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    }
    #expect(try names(in: file.folder.appendingPathComponent("deeper")) == [])
  }

  @Test func deletesTheBuildFilesOfProcessesThatAreGoneAndNothingElse() throws {
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    // A killed build: its file and journal, no process holding its lock; and a log left alone.
    let killed = [
      ".chart-archive-build-1-0000abcd", ".chart-archive-build-1-0000abcd-journal",
      ".chart-archive-build-2-deadbeef-wal",
    ]
    // Names that only look alike are someone else's.
    let others = [
      ".chart-archive-build-notes.txt", ".chart-archive-build-1-abc", "b.sqlite",
      ".chart-archive-build-x-0000abcd-wal",
    ]
    for name in killed + others {
      #expect(FileManager.default.createFile(atPath: file.folder.path + "/" + name, contents: nil))
    }
    let running = try NewArchive(at: file.path)
    let runningName = URL(fileURLWithPath: running.buildPath).lastPathComponent
    #expect(try names(in: file.folder) == (others + [runningName]).sorted())
    // A build still running keeps its file, whichever archive it is for.
    NewArchive.deleteAbandonedBuildFiles(
      besides: file.folder.appendingPathComponent("b.sqlite").path)
    #expect(try names(in: file.folder) == (others + [runningName]).sorted())
  }

  @Test func looksForBuildFilesInTheArchivesFolder() {
    #expect(NewArchive.folder(of: "/srv/charts/archive.sqlite") == "/srv/charts")
    #expect(NewArchive.folder(of: "charts/archive.sqlite") == "charts")
    #expect(NewArchive.folder(of: "archive.sqlite") == ".")
    #expect(NewArchive.folder(of: "/archive.sqlite") == "/")
    #expect(NewArchive.folder(of: "./archive.sqlite") == ".")
  }

  @Test func takesAnArchiveNameOfTheLongestLength() throws {
    let file = TemporaryArchive()
    let path = file.folder.appendingPathComponent(String(repeating: "n", count: 250)).path
    let new = try NewArchive(at: path)
    try new.archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    #expect(try new.publish())
    #expect(try names(in: file.folder) == [String(repeating: "n", count: 250)])
  }

  @Test func publishesAtThePathSQLiteWouldOpen() throws {
    let file = TemporaryArchive()
    let new = try NewArchive(at: file.folder.path + "/missing/../a.sqlite/")
    try new.archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    #expect(try new.publish())
    #expect(try names(in: file.folder) == ["a.sqlite"])
  }
}
