import CSQLite
import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// An archive file renamed over or deleted by another program while a write is under way. The
/// write used to commit into the file no name reached any more and report success: the import was
/// lost, and its write-ahead log, left beside the path, was read into the file renamed there,
/// which it damaged.
struct MovedArchiveTests {
  /// Writes a chart into the archive at `path` while `meanwhile` runs inside the write.
  private func writeChart(
    _ name: String, into archive: Archive, meanwhile: () throws -> Void
  ) throws {
    try archive.write { writer in
      let chart = try writer.insertChart(named: name, frequency: .weekly)
      _ = try writer.insertSnapshot(
        ofChart: chart, chartDate: try ChartDate(iso8601: "2024-01-13"),
        publishesPreviousRank: false, source: name)
      try meanwhile()
    }
  }

  @Test func aWriteIntoAnArchiveRenamedOverIsUndoneAndTheFileThereIsUntouched() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    // Another archive, made and closed (as another program would), to be renamed over the first.
    let other = TemporaryArchive()
    try Archive(path: other.path, access: .create).importing {
      try $0.store(snapshot("2024-01-06", [(1, "C", "Z")], chart: "other"))
    }
    let archive = try Archive(path: file.path, access: .write)
    #expect(throws: ArchiveError.movedWhileWritten(path: file.path)) {
      try writeChart("new", into: archive) {
        #expect(rename(other.path, file.path) == 0)
      }
    }
    // The file now at the path is the other archive, as it was: nothing of the write, and its
    // pages whole, while the writer's connection is still open and after it is closed.
    for _ in 0..<2 {
      let there = try Archive(path: file.path, access: .read)
      #expect(try there.read { try $0.charts().map(\.name) } == ["other"])
      #expect(try there.check().allSatisfy(\.passed))
    }
    // The next write into the file at the path, by a new connection, stores as usual.
    let reopened = try Archive(path: file.path, access: .write)
    try writeChart("new", into: reopened) {}
    #expect(try reopened.read { try $0.charts().map(\.name) } == ["new", "other"])
  }

  /// Renames a file over another once, when SQLite calls it back as a transaction commits.
  final class RenameOnCommit {
    let from: String
    let to: String
    var done = false

    init(from: String, to: String) {
      self.from = from
      self.to = to
    }
  }

  /// A rename that lands as the write commits, after the look before the commit: the write is
  /// in the file no name reaches, the command says so, and its log is emptied, not left beside
  /// the path to be played into the file now there. Such a rename used to be answered as stored,
  /// and the file renamed in read as damaged.
  @Test func aRenameAsTheWriteCommitsIsToldAndLeavesTheFileThereAsItWas() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    let other = TemporaryArchive()
    try Archive(path: other.path, access: .create).importing {
      try $0.store(snapshot("2024-01-06", [(1, "C", "Z")], chart: "other"))
    }
    let otherBytes = try Data(contentsOf: URL(fileURLWithPath: other.path))
    let archive = try Archive(path: file.path, access: .write)
    let rename = RenameOnCommit(from: other.path, to: file.path)
    let context = Unmanaged.passUnretained(rename).toOpaque()
    archive.withWritingDatabase { database in
      _ = sqlite3_commit_hook(
        database.handle,
        { context in
          let rename = Unmanaged<RenameOnCommit>.fromOpaque(context!).takeUnretainedValue()
          if !rename.done { rename.done = Glibc.rename(rename.from, rename.to) == 0 }
          return 0
        }, context)
    }
    #expect(throws: ArchiveError.movedWhileWritten(path: file.path)) {
      try writeChart("new", into: archive) {}
    }
    #expect(rename.done)
    archive.withWritingDatabase { _ = sqlite3_commit_hook($0.handle, nil, nil) }
    // The log beside the path holds nothing: the file there reads as it was, whole.
    let log = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int
    #expect(log == 0)
    let there = try Archive(path: file.path, access: .read)
    #expect(try there.read { try $0.charts().map(\.name) } == ["other"])
    #expect(try there.check().allSatisfy(\.passed))
    #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)) == otherBytes)
    // Still open: the log was emptied by the write, not by the connection's closing.
    _ = archive
  }

  /// A file renamed over the archive between writes, while it is open (a server that takes
  /// uploads): closed, the archive empties its log into its own file, which SQLite skips for a
  /// moved file, so that the file now at the path does not read the log of another.
  @Test func anArchiveClosedAfterARenameOverItLeavesNoLogBesideThePath() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    let other = TemporaryArchive()
    try Archive(path: other.path, access: .create).importing {
      try $0.store(snapshot("2024-01-06", [(1, "C", "Z")], chart: "other"))
    }
    do {
      let archive = try Archive(path: file.path, access: .write)
      try writeChart("new", into: archive) {}
      #expect(rename(other.path, file.path) == 0)
    }
    let log = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int
    #expect(log == 0)
    let there = try Archive(path: file.path, access: .read)
    #expect(try there.read { try $0.charts().map(\.name) } == ["other"])
    #expect(try there.check().allSatisfy(\.passed))
  }

  @Test func aWriteIntoAnArchiveDeletedIsUndoneAndSaysSo() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    let archive = try Archive(path: file.path, access: .write)
    #expect(throws: ArchiveError.movedWhileWritten(path: file.path)) {
      try writeChart("new", into: archive) { #expect(unlink(file.path) == 0) }
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(
      ArchiveError.movedWhileWritten(path: file.path).description
        == "the archive \(file.path) was moved, replaced or deleted while it was written")
  }
}
