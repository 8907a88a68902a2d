import Foundation
import Testing

/// `chart-archive backup DEST`: a whole, checked copy of the archive; its exit statuses.
struct BackupCommandTests {
  /// A folder with Sample-data imported into `a.sqlite`.
  private func sampleArchive() throws -> (folder: TemporaryFolder, archive: String) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    return (folder, archive)
  }

  @Test func theCopyIsTheArchiveCheckedAndNothingElseIsLeftBesideIt() throws {
    let (folder, archive) = try sampleArchive()
    let copy = folder.url.appendingPathComponent("backups/2024-05-06.sqlite").path
    let run = try chartArchive(["backup", copy, "--db", archive])
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(
      run.output
        == "Backed up \(archive) into \(copy): 18 snapshots of 6 charts, checked by SQLite's"
        + " quick_check.\n")
    // The folder it made holds the copy alone: no build file, no log.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path + "/backups") == [
        "2024-05-06.sqlite"
      ])
    let check = try chartArchive(["check", "--db", copy])
    #expect(check.status == 0)
    #expect(!check.output.contains("failed"))
    for command in [["charts"], ["export", "hot-100"], ["show", "app-daily", "--format", "csv"]] {
      #expect(
        try chartArchive(command + ["--db", copy]).output
          == chartArchive(command + ["--db", archive]).output)
    }
  }

  @Test func jsonAndCSVGiveTheCopysFields() throws {
    let (folder, archive) = try sampleArchive()
    let copy = folder.url.appendingPathComponent("copy.sqlite").path
    let run = try chartArchive(["backup", "--format", "json", copy, "--db", archive])
    #expect(run.status == 0)
    #expect(
      run.output == """
        {
          "archive": "\(archive)",
          "backup": "\(copy)",
          "charts": 6,
          "snapshots": 18,
          "quick_check": "ok"
        }

        """)
    let csv = try chartArchive(["backup", "--format", "csv", copy + "2", "--db", archive])
    #expect(
      csv.output
        == "archive,backup,charts,snapshots,quick_check\r\n\(archive),\(copy)2,6,18,ok\r\n")
  }

  /// A file with data or a folder at the destination: 73, and the file is as it was. An empty
  /// file holds nothing and is replaced (as an import's new archive replaces one).
  @Test func somethingAtTheDestinationIsRefusedWith73AndLeftAsItIs() throws {
    let (folder, archive) = try sampleArchive()
    let kept = try folder.write("kept.sqlite", "not to be lost")
    let run = try chartArchive(["backup", kept, "--db", archive])
    #expect(run.status == 73)
    #expect(run.output == "")
    #expect(
      run.error
        == "Error: \(kept) exists already, and a backup writes over nothing: give another path,"
        + " or move that file away first\n")
    #expect(try String(contentsOfFile: kept, encoding: .utf8) == "not to be lost")
    // The archive itself.
    #expect(try chartArchive(["backup", archive, "--db", archive]).status == 73)
    let intoFolder = try chartArchive(["backup", folder.path, "--db", archive])
    #expect(intoFolder.status == 73)
    #expect(
      intoFolder.error
        == "Error: \(folder.path) is a folder: give the copy's file name in it"
        + " (\(folder.path)/archive.sqlite)\n")
    let empty = try folder.write("empty.sqlite", "")
    #expect(try chartArchive(["backup", empty, "--db", archive]).status == 0)
    #expect(try chartArchive(["charts", "--db", empty]).status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter {
        !$0.hasPrefix("a.sqlite")
      } == ["empty.sqlite", "empty.sqlite-shm", "empty.sqlite-wal", "kept.sqlite"])
  }

  /// A copy that cannot be written, or that fails its check: 74, and nothing at the destination.
  @Test func aCopyThatCannotBeWrittenOrFailsItsCheckIs74() throws {
    let (folder, archive) = try sampleArchive()
    // A destination whose folder is a file.
    let underAFile = archive + "/copy.sqlite"
    let run = try chartArchive(["backup", underAFile, "--db", archive])
    #expect(run.status == 74)
    #expect(
      run.error
        == "Error: cannot write the backup \(underAFile): SQLite error 14: cannot create a file in"
        + " \(archive): Not a directory\n")
    // A disk that fills while the pages are copied (the copy may not pass 200 KiB; the archive
    // is 248 KiB): the copy's failure, not the archive's, as it was told.
    let small = folder.url.appendingPathComponent("small.sqlite").path
    let full = try bash(
      "trap '' XFSZ; ulimit -f 200; \"$TOOL\" backup '\(small)' --db '\(archive)'")
    #expect(full.status == 74)
    #expect(
      full.error == "Error: cannot write the backup \(small): SQLite error 10: disk I/O error\n")
    // The songs table's root page (page 6 of a new archive) damaged.
    let handle = try #require(FileHandle(forUpdatingAtPath: archive))
    try handle.seek(toOffset: 5 * 4096)
    try handle.write(contentsOf: Data([0x0D] + Array(repeating: 0xFF, count: 7)))
    try handle.close()
    let copy = folder.url.appendingPathComponent("copy.sqlite").path
    let damaged = try chartArchive(["backup", copy, "--db", archive])
    #expect(damaged.status == 74)
    #expect(
      damaged.error
        == "Error: the archive \(archive) is damaged: its copy fails SQLite's check (SQLite error"
        + " 11: database disk image is malformed - while executing `PRAGMA quick_check`), and"
        + " nothing was left at \(copy) (chart-archive check tells what is wrong)\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        !$0.hasPrefix("a.sqlite")
      } == [])
  }

  @Test func noArchiveIs66AndNoDestinationIsAUsageError() throws {
    let folder = try TemporaryFolder()
    let missing = folder.url.appendingPathComponent("none.sqlite").path
    let copy = folder.url.appendingPathComponent("copy.sqlite").path
    let run = try chartArchive(["backup", copy, "--db", missing])
    #expect(run.status == 66)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
    #expect(try chartArchive(["backup", "--db", missing]).status == 64)
  }

  /// Backups taken by the command while another process imports 400 weeks are each the archive
  /// before the import or after it.
  @Test func backupsDuringAnImportAreTheArchiveBeforeOrAfterIt() throws {
    let (folder, archive) = try sampleArchive()
    for week in 0..<400 {
      let day = ISO8601DateFormatter().string(
        from: Date(timeIntervalSince1970: 1_578_096_000 + Double(week) * 7 * 86_400)
      ).prefix(10)
      let entries = (1...10).map {
        #"{"song": "Song \#(($0 + week) % 25)", "artist": "Artist", "this_week": \#($0)}"#
      }
      try folder.write(
        "weeks/\(day).json",
        #"{"date": "\#(day)", "data": ["# + entries.joined(separator: ", ") + "]}")
    }
    let importing = try StartedProcess(
      tool: ["import", folder.path + "/weeks", "--chart", "weekly", "--db", archive, "--quiet"])
    var counts: Set<Int> = []
    var copies = 0
    repeat {
      let copy = folder.url.appendingPathComponent("copy-\(copies).sqlite").path
      let run = try chartArchive(["backup", copy, "--db", archive, "--format", "json"])
      #expect(run.status == 0, "\(run.error)")
      counts.insert(try json(run.output)["snapshots"] as? Int ?? -1)
      copies += 1
    } while importing.isRunning && copies < 30
    #expect(importing.wait().status == 0)
    #expect(counts.isSubset(of: [18, 418]), "\(counts)")
  }
}
