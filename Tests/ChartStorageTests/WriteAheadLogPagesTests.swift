import Foundation
import Testing

@testable import ChartStorage

/// A file shorter than its header counts is cut short unless its write-ahead log holds the pages
/// past its end. After a checkpoint that failed half-way on a full disk, the file's header counted
/// pages only the log held, and the next import called the archive damaged and advised restoring
/// it from a backup.
struct WriteAheadLogPagesTests {
  /// A database of `pages` or more 4,096-byte pages, written in one transaction into its log and
  /// copied into the file by a checkpoint, the log kept (the connection stays open, and no writer
  /// starts it over); then the file and the log copied to `copy` and `copy-wal`, the file one page
  /// shorter. Returns the pages the file's header counts.
  private func fileCutShortWithItsLog(at copy: String, folder: URL) throws -> Int {
    let path = folder.appendingPathComponent("made.sqlite").path
    let database = try Database(path: path, mode: .create)
    try database.execute(
      "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
        + " CREATE TABLE t (x); BEGIN;"
        + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)"
        + " INSERT INTO t SELECT randomblob(100) FROM n; COMMIT;"
        + " PRAGMA wal_checkpoint(PASSIVE);")
    let pages =
      try database.row("PRAGMA page_count") { $0.int(at: 0) } ?? 0
    try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
    let whole = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(whole.count == pages * 4_096)
    try whole.prefix(whole.count - 4_096).write(to: URL(fileURLWithPath: copy))
    return pages
  }

  @Test func aFileWhoseMissingPagesAreInItsLogIsNotCutShort() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chart-archive-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("copy.sqlite").path
    let pages = try fileCutShortWithItsLog(at: copy, folder: folder)
    #expect(pages > 10)
    // Every page the one transaction wrote is in the log, the last one among them.
    let inLog = WriteAheadLogPages.committedPages(ofLogAt: copy + "-wal", pageSize: 4_096)
    #expect(inLog == Set(1...pages))
    #expect(PageHeaderScan.missingPage(inFileAt: copy) == nil)
    // A log of other pages' size, or none, holds none of them.
    #expect(WriteAheadLogPages.committedPages(ofLogAt: copy + "-wal", pageSize: 1_024) == [])
    let log = try Data(contentsOf: URL(fileURLWithPath: copy + "-wal"))
    try FileManager.default.removeItem(atPath: copy + "-wal")
    #expect(PageHeaderScan.missingPage(inFileAt: copy) == pages)
    // A byte changed in the first frame's page breaks the checksum of every frame from there:
    // the transaction's commit frame is not reached, and none of its pages counts.
    var garbled = log
    garbled[32 + 24 + 100] ^= 0xFF
    try garbled.write(to: URL(fileURLWithPath: copy + "-wal"))
    #expect(WriteAheadLogPages.committedPages(ofLogAt: copy + "-wal", pageSize: 4_096) == [])
    #expect(PageHeaderScan.missingPage(inFileAt: copy) == pages)
    // Nor does a log whose header was changed (its own checksum no longer holds).
    var salted = log
    salted[16] ^= 0xFF
    try salted.write(to: URL(fileURLWithPath: copy + "-wal"))
    #expect(WriteAheadLogPages.committedPages(ofLogAt: copy + "-wal", pageSize: 4_096) == [])
  }
}
