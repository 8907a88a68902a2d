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
  static func damagedArchive(first: Bool) throws -> (
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
    try file.seek(toOffset: UInt64((page - 1) * 4096))
    try file.write(contentsOf: Data(bytes.map { ~$0 }))
    try file.close()
    return (folder, path, page)
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
  }
}
