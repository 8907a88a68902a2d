import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// The damage check's scan starts before the archive is opened (``DamageCheck/init(scanning:)``)
/// and asks SQLite about suspect pages once the archive is handed over: whichever comes first,
/// the scan's end or the hand-over, a damaged page is told by its table.
struct DamageCheckTests {
  /// The damaged archive of ``DamagedArchiveImportTests``: a garbled leaf of `entries`.
  static func damaged() throws -> (folder: TemporaryFolder, path: String, page: Int) {
    try DamagedArchiveImportTests.damagedArchive(first: true)
  }

  /// What the check tells of the garbled leaf.
  static func garbled(_ path: String, _ page: Int) -> ArchiveError {
    .damaged(path: path, pages: [DamagedPage(table: "entries", page: page)])
  }

  /// What the check's wait threw, if anything.
  static func failure(of check: DamageCheck) -> ArchiveError? {
    do {
      try check.wait()
      return nil
    } catch {
      return error
    }
  }

  @Test func anArchiveHandedOverAfterTheScanEndedIsAskedAboutItsSuspects() throws {
    let (folder, path, page) = try Self.damaged()
    let check = DamageCheck(scanning: path)
    usleep(100_000)  // the scan of a few pages is long over
    let archive = try Archive(path: path, access: .write)
    check.attach(archive)
    #expect(Self.failure(of: check) == Self.garbled(path, page))
    _ = folder
  }

  @Test func anArchiveHandedOverAtOnceIsAskedAboutItsSuspects() throws {
    let (folder, path, page) = try Self.damaged()
    let archive = try Archive(path: path, access: .write)
    for _ in 0..<20 {
      let check = DamageCheck(scanning: path)
      check.attach(archive)
      #expect(Self.failure(of: check) == Self.garbled(path, page))
    }
    _ = folder
  }

  /// An archive that failed to open is never handed over: the check ends without asking, and a
  /// sound file has nothing to ask about.
  @Test func aCheckWithoutAnArchiveEnds() throws {
    let (folder, path, _) = try Self.damaged()
    let check = DamageCheck(scanning: path)
    check.finish()
    #expect(Self.failure(of: check) == nil)
    let sound = try TemporaryFolder()
    let soundPath = sound.url.appendingPathComponent("a.sqlite").path
    _ = try Importer.run(
      [try ImportSource.files(in: [sampleData + "/hot-100"]).map(ImportSource.file)[0]],
      intoArchiveAt: soundPath)
    let soundCheck = DamageCheck(scanning: soundPath)
    #expect(Self.failure(of: soundCheck) == nil)
    _ = folder
  }

  /// A file cut short after the scan read it, while the import stored (by another program), lacks
  /// a page when the import is about to commit: the check's answer says so. The scan alone let
  /// such an import commit, and `check` then failed.
  @Test func aFileCutShortAfterTheScanIsDamagedWhenTheImportWaits() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    _ = try Importer.run(
      [try ImportSource.files(in: [sampleData + "/hot-100"]).map(ImportSource.file)[0]],
      intoArchiveAt: path)
    let pages = Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as! UInt64) / 4096
    let check = DamageCheck(scanning: path)
    check.finish()
    #expect(truncate(path, off_t((pages - 1) * 4096)) == 0)
    #expect(
      Self.failure(of: check) == .damaged(path: path, pages: [DamagedPage(table: "", page: pages)]))
  }
}
