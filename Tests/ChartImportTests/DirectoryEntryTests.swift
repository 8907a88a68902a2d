import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// Reading the names of a folder's entries never reads past the record `readdir` returned.
struct DirectoryEntryTests {
  /// A record of 24 bytes (`d_name` at 19, "a.json" and its NUL) that ends where readable memory
  /// ends, before a page that may not be read: loading the whole `dirent` (280 bytes) or its
  /// whole `d_name` (256) faults there, as an import did when `opendir`'s buffer ended on a page
  /// boundary.
  @Test func aNameIsReadWithinItsRecordAtTheEndOfReadableMemory() throws {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    guard
      let memory = mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      memory != MAP_FAILED
    else {
      Issue.record("mmap failed: \(String(cString: strerror(errno)))")
      return
    }
    defer { munmap(memory, 2 * page) }
    #expect(mprotect(memory + page, page, PROT_NONE) == 0)
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let name = Array("a.json".utf8) + [0]
    let recordLength = (nameOffset + name.count + 7) / 8 * 8
    let record = memory + page - recordLength
    record.initializeMemory(as: UInt8.self, repeating: 0, count: recordLength)
    record.storeBytes(
      of: UInt16(recordLength), toByteOffset: MemoryLayout<dirent>.offset(of: \dirent.d_reclen)!,
      as: UInt16.self)
    (record + nameOffset).copyMemory(from: name, byteCount: name.count)
    let entry = record.assumingMemoryBound(to: dirent.self)
    #expect(DirectoryEntry.name(of: entry) == Array("a.json".utf8))
  }

  /// A folder of 1,500 entries fills `opendir`'s buffer (32 KB) more than once, so that records
  /// end near the end of it: every name is read whole, and under AddressSanitizer (the CI's
  /// sanitizer step) a read past a record's end is a heap-buffer-overflow there, which a small
  /// folder would not show (its records end far from the buffer's end).
  @Test func aFolderOfManyEntriesIsWalkedWhole() throws {
    let folder = try TemporaryFolder()
    let names = (0..<1_500).map { "chart-\($0).json" }
    for name in names {
      #expect(FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data()))
    }
    #expect(
      try ImportSource.files(in: [folder.path]).map { ($0 as NSString).lastPathComponent }
        == names.sorted())
  }

  /// The names of a real folder's entries, as `readdir` gives them.
  @Test func theNamesOfAFoldersEntriesAreRead() throws {
    let folder = try TemporaryFolder()
    for name in ["b.csv", "a.json", "é.html"] {
      #expect(FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data()))
    }
    #expect(
      try ImportSource.files(in: [folder.path]).map { ($0 as NSString).lastPathComponent } == [
        "a.json", "b.csv", "é.html",
      ])
  }
}
