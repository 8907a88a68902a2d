import Foundation
import Testing

/// `check` on a damaged file: the checks SQLite cannot finish fail with its words, the others
/// still run, and the exit status is 1 (it was 74, with SQLite's error and no report).
struct DamagedArchiveTests {
  /// An archive of Sample-data with `bytes` written at `offset`.
  private func damaged(at offset: (String) throws -> Int, _ bytes: [UInt8]) throws -> (
    TemporaryFolder, String
  ) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    let handle = try #require(FileHandle(forUpdatingAtPath: archive))
    try handle.seek(toOffset: UInt64(try offset(archive)))
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
    return (folder, archive)
  }

  /// The checks of `check --format json`: name, result and problems.
  private func checks(_ archive: String) throws -> (status: Int32, checks: [String]) {
    let run = try chartArchive(["check", "--db", archive, "--format", "json"])
    let checks = try #require(try json(run.output)["checks"] as? [[String: Any]])
    return (
      run.status,
      checks.map {
        "\($0["check"] as? String ?? "") \($0["result"] as? String ?? ""): "
          + "\($0["problems"] as? String ?? "")"
      }
    )
  }

  @Test func anArchiveWhoseSchemaCannotBeReadFailsItsFirstCheck() throws {
    // The b-tree header of page 1, where the schema starts.
    let (folder, archive) = try damaged(at: { _ in 100 }, Array(repeating: 0xFF, count: 8))
    _ = folder
    let result = try checks(archive)
    #expect(result.status == 1)
    #expect(
      result.checks == [
        "SQLite integrity failed: the schema cannot be read: database disk image is malformed"
      ])
  }

  @Test(
    .enabled(
      if: isInstalled("/usr/bin/sqlite3"),
      "the sqlite3 shell is not installed (script/setup --test-tools installs it): skipped"))
  func aDamagedTableFailsTheChecksThatReadIt() throws {
    // The header of the songs table's root page.
    var page = 0
    let (folder, archive) = try damaged(
      at: { path in
        let run = try runProgram(
          "/usr/bin/sqlite3", [path, "SELECT rootpage FROM sqlite_schema WHERE name = 'songs'"])
        page = Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (page - 1) * 4096
      }, [0x0D] + Array(repeating: 0xFF, count: 7))
    _ = folder
    let result = try checks(archive)
    #expect(result.status == 1)
    let malformed = "database disk image is malformed"
    #expect(
      result.checks.first?.hasPrefix(
        "SQLite integrity failed: Page \(page): btreeInitPage() returns error code 11; ") == true)
    #expect(
      result.checks.first?.hasSuffix("; could not be checked further: \(malformed)") == true)
    #expect(
      Array(result.checks.dropFirst()) == [
        "foreign keys failed: could not be checked: \(malformed)",
        "ranks positive and in order per snapshot ok: ",
        "snapshots dated, ordered and not empty ok: ",
        "every entry's song present failed: could not be checked: \(malformed)",
        "numbers within CHECK constraints ok: ",
        "artist totals agree with the entries ok: ",
      ])
  }

  /// 4 KB inverted across two pages (the second half of page 6, the first of page 7): SQLite's
  /// walk of the pages failed with "database or disk is full", which the import gave as its
  /// error; the page the quick look finds garbled is told as damage, and nothing is written.
  @Test func anImportIntoPagesGarbledAcrossTwoIsRefusedAsDamage() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    let handle = try #require(FileHandle(forUpdatingAtPath: archive))
    try handle.seek(toOffset: 5 * 4096 + 2048)
    let bytes = try #require(try handle.read(upToCount: 4096))
    try handle.seek(toOffset: 5 * 4096 + 2048)
    try handle.write(contentsOf: Data(bytes.map { ~$0 }))
    try handle.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: archive))
    let run = try chartArchive([
      "import", "Sample-data/app-daily/2024-05-05.json", "--chart", "app-daily", "--date",
      "2024-05-06", "--db", archive,
    ])
    #expect(run.status == 74)
    #expect(
      run.error
        == "Error: the archive \(archive) is damaged: page 7 cannot be read as SQLite wrote it"
        + " (nothing was written to it; chart-archive check tells what is wrong: restore it from a"
        + " backup, or import its charts again into a new archive)\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
    _ = folder
  }
}
