import Foundation
import Testing

@testable import ChartImport

/// The file operations of a spool: what it takes, and moves that never write over a file.
struct SpoolFolderTests {
  /// Writes a file and returns its path.
  @discardableResult
  private func write(_ path: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func takesChartFilesInStoringOrderAndLeavesTemporaryNames() throws {
    let folder = try TemporaryFolder()
    let spool = folder.path
    for name in [
      "b-2024-01-13.json", "a-2024-01-20.CSV", "2024-01-06.html", "undated.htm", "notes.txt",
      ".2024-01-27.json", "2024-02-03.json.part", "2024-02-10.part",
    ] {
      try write(spool + "/" + name, "x")
    }
    try FileManager.default.createDirectory(
      atPath: spool + "/2024-02-17.json", withIntermediateDirectories: true)
    #expect(
      try Spool.list(spool)
        == Spool.Listing(
          files: [
            spool + "/2024-01-06.html", spool + "/b-2024-01-13.json",
            spool + "/a-2024-01-20.CSV", spool + "/undated.htm",
          ],
          others: [spool + "/notes.txt"]))
  }

  @Test func aNumberGoesBeforeTheExtension() {
    #expect(Spool.numbered("2024-01-06.json", 1) == "2024-01-06.json")
    #expect(Spool.numbered("2024-01-06.json", 2) == "2024-01-06.2.json")
    #expect(Spool.numbered("chart", 3) == "chart.3")
    #expect(Spool.numbered(".hidden", 2) == ".hidden.2")
  }

  /// A name taken, or a name whose report is taken, is passed over; the file there is kept.
  @Test func aMoveNeverWritesOverAFile() throws {
    let folder = try TemporaryFolder()
    let done = folder.path + "/done"
    try Spool.makeFolders(in: done)
    let rejected = Spool.folder(.rejected, in: done)
    try write(rejected + "/2024-01-06.json", "earlier")
    try write(rejected + "/2024-01-06.2.json.report.txt", "an earlier report")
    let file = try write(folder.path + "/2024-01-06.json", "new")
    let target = try Spool.move(file, into: rejected, besides: [Spool.reportSuffix])
    #expect(target == rejected + "/2024-01-06.3.json")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
    #expect(try String(contentsOfFile: rejected + "/2024-01-06.json", encoding: .utf8) == "earlier")
    #expect(!FileManager.default.fileExists(atPath: file))
    try Spool.writeNewFile("why", at: target + Spool.reportSuffix)
    #expect(throws: SpoolError(path: target + Spool.reportSuffix, operation: .write, code: EEXIST))
    {
      try Spool.writeNewFile("again", at: target + Spool.reportSuffix)
    }
  }

  /// A file moved to another file system (as a service's spool and its state folder are, each a
  /// mount of its own): copied, whole under its name, and removed from the spool; the hidden copy
  /// is gone.
  @Test(.enabled(if: onTwoFileSystems(NSTemporaryDirectory(), "/dev/shm")))
  func aMoveToAnotherFileSystemCopies() throws {
    let folder = try TemporaryFolder()
    let other = "/dev/shm/chart-spool-tests-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: other) }
    try Spool.makeFolders(in: other)
    let imported = Spool.folder(.imported, in: other)
    try write(imported + "/2024-01-06.json", "earlier")
    let text = String(repeating: "a chart file's bytes ", count: 10_000)
    let file = try write(folder.path + "/2024-01-06.json", text)
    let target = try Spool.move(file, into: imported)
    #expect(target == imported + "/2024-01-06.2.json")
    #expect(try String(contentsOfFile: target, encoding: .utf8) == text)
    #expect(!FileManager.default.fileExists(atPath: file))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: imported).sorted() == [
        "2024-01-06.2.json", "2024-01-06.json",
      ])
  }
}

/// Whether two folders are on different file systems (devices).
private func onTwoFileSystems(_ first: String, _ second: String) -> Bool {
  var (one, two) = (stat(), stat())
  return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev != two.st_dev
}
