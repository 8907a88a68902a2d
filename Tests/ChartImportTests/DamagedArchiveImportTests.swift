import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// An import does not write into an archive with damaged pages.
struct DamagedArchiveImportTests {
  /// The sample Hot 100's first three weeks imported, then one page of `entries` turned to
  /// garbage (each byte inverted), as a disk or another program damages a file: its first leaf
  /// (`first`, the oldest week's entries, which importing a later week does not read) or the
  /// last (the latest week's, which it does).
  static func damagedArchive(first: Bool, damage: Damage = .inverted) throws -> (
    folder: TemporaryFolder, path: String, page: Int
  ) {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    let files = try ImportSource.files(in: [sampleData + "/hot-100"]).map(ImportSource.file)
    _ = try Importer.run(Array(files.prefix(3)), intoArchiveAt: path)
    let database = try Database(path: path, mode: .readOnly)
    let pages = try database.rows(
      "SELECT pageno FROM dbstat WHERE name = 'entries' AND pagetype = 'leaf' ORDER BY pageno"
    ) { $0.int(at: 0) }
    try database.close()
    let page = pages[pages.count / 2]
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try file.seek(toOffset: UInt64((page - 1) * 4096))
    let bytes = try #require(try file.read(upToCount: 4096))
    switch damage {
    case .inverted:
      try file.seek(toOffset: UInt64((page - 1) * 4096))
      try file.write(contentsOf: Data(bytes.map { ~$0 }))
    case .zeros:
      try file.seek(toOffset: UInt64((page - 1) * 4096))
      try file.write(contentsOf: Data(count: 4096))
    case .cutShort:
      try file.truncate(atOffset: try file.seekToEnd() - 1_000)
    }
    try file.close()
    return (folder, path, page)
  }

  /// How a page is damaged: each byte inverted, every byte zero (a block the disk lost), or the
  /// file's last 1,000 bytes cut off.
  enum Damage: CaseIterable { case inverted, zeros, cutShort }

  /// A page of zeros and a file cut short are damage an import does not write into, as the
  /// garbled page above: both let a week be imported before (exit 0), and `check` then failed.
  @Test(arguments: [Damage.zeros, .cutShort])
  func aWeekIsNotImportedIntoAnArchiveWithAZeroPageOrCutShort(damage: Damage) throws {
    let (folder, path, page) = try Self.damagedArchive(first: true, damage: damage)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let pages = before.count / 4096
    // Cut short, a page that points past the end is a suspect too.
    let suspects = try #require(PageHeaderScan.suspectPages(inFileAt: path))
    #expect(damage == .zeros ? suspects == [page] : suspects.last == pages + 1)
    #expect(PageHeaderScan.missingPage(inFileAt: path) == (damage == .zeros ? nil : pages + 1))
    let week = ImportSource.bytes(
      Data(billboardWeek("2024-01-06", [("Quiet Song", "Nobody", nil, nil, nil)]).utf8),
      name: "other/2024-01-06.json")
    var failure: ArchiveError?
    do {
      _ = try Importer.run([week], intoArchiveAt: path)
    } catch .archive(let error) {
      failure = error
    } catch {
      Issue.record("another error: \(error)")
    }
    guard case .damaged(path, let damaged) = failure else {
      Issue.record("not refused as damaged: \(String(describing: failure))")
      return
    }
    #expect(damaged.map(\.page) == (damage == .zeros ? [page] : [pages + 1]))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    _ = folder
  }

  /// After a checkpoint that failed half-way (a full disk), the file's header counts pages that
  /// only the `-wal` log holds: the archive is sound, SQLite reads those pages from the log, and
  /// a week is imported into it. The import used to call it damaged (a file cut short) and advise
  /// restoring it from a backup.
  @Test func aWeekIsImportedIntoAnArchiveWhosePagesPastTheFileAreInItsLog() throws {
    let folder = try TemporaryFolder()
    let made = folder.url.appendingPathComponent("made.sqlite").path
    let path = folder.url.appendingPathComponent("a.sqlite").path
    let files = try ImportSource.files(in: [sampleData + "/hot-100"]).map(ImportSource.file)
    _ = try Importer.run(Array(files.prefix(3)), intoArchiveAt: made)
    // A table of the user's own grows the file by pages written to the log and copied into the
    // file by a checkpoint; the connection stays open, so the log stays as it is.
    let database = try Database(path: made, mode: .readWrite)
    try database.execute(
      "PRAGMA wal_autocheckpoint = 0; CREATE TABLE my_notes (x); INSERT INTO my_notes"
        + " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)"
        + " SELECT randomblob(1000) FROM n; PRAGMA wal_checkpoint(PASSIVE);")
    try FileManager.default.copyItem(atPath: made + "-wal", toPath: path + "-wal")
    let whole = try Data(contentsOf: URL(fileURLWithPath: made))
    try whole.prefix(whole.count - 4096).write(to: URL(fileURLWithPath: path))
    try database.close()
    #expect(PageHeaderScan.missingPage(inFileAt: path) == nil)
    let week = ImportSource.bytes(
      Data(billboardWeek("2024-01-06", [("Quiet Song", "Nobody", nil, nil, nil)]).utf8),
      name: "other/2024-01-06.json")
    let report = try Importer.run([week], intoArchiveAt: path)
    #expect(report.imported == 1)
    let checks = try Archive(path: path, access: .read).check()
    #expect(checks.filter { !$0.passed }.isEmpty)
  }

  @Test(arguments: [true, false])
  func aWeekIsNotImportedIntoAnArchiveWithADamagedPageAndNothingIsWritten(first: Bool) throws {
    let (folder, path, page) = try Self.damagedArchive(first: first)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    // The first leaf holds the oldest week's entries, which a chart of its own never reads; the
    // last, the latest week's, which the Hot 100's next week reads.
    let week =
      first
      ? ImportSource.bytes(
        Data(billboardWeek("2024-01-06", [("Quiet Song", "Nobody", nil, nil, nil)]).utf8),
        name: "other/2024-01-06.json")
      : try ImportSource.files(in: [sampleData + "/hot-100"]).map(ImportSource.file)[3]
    var failure: ArchiveError?
    do {
      _ = try Importer.run([week], intoArchiveAt: path)
    } catch .archive(let error) {
      failure = error
    } catch {
      Issue.record("another error: \(error)")
    }
    #expect(failure == .damaged(path: path, pages: [DamagedPage(table: "entries", page: page)]))
    // The file is as it was, and its log holds no committed frame: opened again, it still has
    // three snapshots.
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let archive = try Archive(path: path, access: .read)
    #expect(try archive.read { try $0.snapshots(of: "hot-100").count } == 3)
    _ = folder
  }

  @Test func aSoundArchiveHasNoDamagedPages() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    _ = try Importer.run(
      try ImportSource.files(in: [sampleData]).map(ImportSource.file), intoArchiveAt: path)
    #expect(try Archive(path: path, access: .read).read { try $0.damagedPages() } == [])
    #expect(PageHeaderScan.suspectPages(inFileAt: path) == [])
  }

  /// The quick look at the pages' headers finds the page garbled, the first leaf and the last.
  @Test(arguments: [true, false])
  func theQuickLookFindsTheGarbledPage(first: Bool) throws {
    let (folder, path, page) = try Self.damagedArchive(first: first)
    #expect(PageHeaderScan.suspectPages(inFileAt: path) == [page])
    _ = folder
  }

  /// Pages no B-tree holds are not suspects: overflow pages (a title longer than a page) and the
  /// free list's pages, whose bytes are whatever was there (here garbage written over them, as
  /// any program may), and neither `dbstat` nor the quick look finds damage.
  @Test func overflowAndFreePagesAreNotSuspects() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    let database = try Database(path: path, mode: .create)
    try database.execute("PRAGMA journal_mode = DELETE")
    try database.execute("CREATE TABLE kept (t TEXT); CREATE TABLE gone (t TEXT)")
    try database.execute("INSERT INTO kept VALUES (printf('%.*c', 20000, 'x'))")
    try database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)"
        + " INSERT INTO gone SELECT printf('%.*c', 1000, 'y') FROM n")
    try database.execute("DROP TABLE gone")
    let free = try database.rows("PRAGMA freelist_count") { $0.int(at: 0) }.first ?? 0
    try database.close()
    #expect(free > 40)
    // Garbage over every free page but the list's first trunk (the header names it).
    let header = try #require(FileHandle(forReadingAtPath: path)?.readData(ofLength: 100))
    let trunk = header[32...35].reduce(0) { $0 << 8 | Int($1) }
    let file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    let pages = Int(try file.seekToEnd()) / 4096
    let inUse = try Database(path: path, mode: .readOnly).rows("SELECT pageno FROM dbstat") {
      $0.int(at: 0)
    }
    for page in 2...pages where page != trunk && !inUse.contains(page) {
      try file.seek(toOffset: UInt64((page - 1) * 4096))
      try file.write(contentsOf: Data(repeating: 0xA7, count: 4096))
    }
    try file.close()
    #expect(PageHeaderScan.suspectPages(inFileAt: path) == [])
    let corrupted = try Database(path: path, mode: .readOnly).rows(
      "SELECT count(*) FROM dbstat WHERE pagetype = 'corrupted'"
    ) { $0.int(at: 0) }
    #expect(corrupted == [0])
    #expect(PageHeaderScan.suspectPages(inFileAt: folder.path + "/none.sqlite") == nil)
    _ = folder
  }
}
