import CMappedFile
import Foundation
import Testing

@testable import ChartStorage

/// The quick look's check of one B-tree page's cell pointers, on pages built byte by byte as
/// the file format lays them out (<https://www.sqlite.org/fileformat2.html>, "B-tree Pages").
struct PageHeaderScanTests {
  /// A file of 10 pages of 4,096 bytes, none reserved.
  static let layout = PageHeaderScan.Layout(
    pageSize: 4_096, usableSize: 4_096, pageCount: 10, isCutShort: false, firstFreelistTrunk: 0,
    freelistCount: 0)

  /// Page 2 as a table leaf (type 13) whose cell content area starts at byte 3,000, with
  /// `pointers` as its cell pointers; checked as the scan checks it, from the bytes its header
  /// says the check reads, which must answer as the whole page does.
  static func isWellFormed(leafWith pointers: [Int]) -> Bool {
    var page = [UInt8](repeating: 0, count: 4_096)
    page[0] = 13
    page[3] = UInt8(pointers.count >> 8)
    page[4] = UInt8(pointers.count & 0xFF)
    page[5] = UInt8(3_000 >> 8)
    page[6] = UInt8(3_000 & 0xFF)
    for (index, pointer) in pointers.enumerated() {
      page[8 + 2 * index] = UInt8(pointer >> 8)
      page[9 + 2 * index] = UInt8(pointer & 0xFF)
    }
    return isWellFormedFromBytesChecked(page, number: 2)
  }

  /// `page` checked from the bytes ``PageHeaderScan/bytesChecked(of:number:_:)`` tells from its
  /// header, as the scan reads it; expects the same answer from the whole page.
  static func isWellFormedFromBytesChecked(_ page: [UInt8], number: Int) -> Bool {
    let checked = bytesChecked(page, number: number)
    return page.withUnsafeBytes { whole in
      let answer = PageHeaderScan.isWellFormed(
        UnsafeRawBufferPointer(rebasing: whole[..<checked]), number: number, layout)
      #expect(answer == PageHeaderScan.isWellFormed(whole, number: number, layout))
      return answer
    }
  }

  /// How many bytes of `page` ``PageHeaderScan/bytesChecked(of:number:_:)`` tells from its
  /// header (after the file's 100-byte header on page 1), as the scan reads it.
  static func bytesChecked(_ page: [UInt8], number: Int) -> Int {
    page.withUnsafeBytes { whole in
      PageHeaderScan.bytesChecked(
        of: UnsafeRawBufferPointer(
          rebasing: whole[..<((number == 1 ? 100 : 0) + PageHeaderScan.headerBytes)]),
        number: number, layout)
    }
  }

  /// Pointers from the content area's start to the last place a cell fits (4 bytes before the
  /// page's end) are the page's; one byte outside either end makes the page a suspect, wherever
  /// that pointer stands among 1, 7, 40 or 300 (the pointers are checked several at a time, and
  /// the ones left over one by one).
  @Test(arguments: [1, 7, 40, 300])
  func aPointerOutsideTheContentAreaMakesThePageASuspect(count: Int) {
    let sound = (0..<count).map { 3_000 + ($0 * 7) % 1_093 }
    #expect(Self.isWellFormed(leafWith: sound))
    #expect(Self.isWellFormed(leafWith: sound.map { _ in 3_000 }))
    #expect(Self.isWellFormed(leafWith: sound.map { _ in 4_092 }))
    for place in Set([0, count / 2, count - 1]) {
      for wrong in [2_999, 4_093, 0, 65_535] {
        var pointers = sound
        pointers[place] = wrong
        let found = Self.isWellFormed(leafWith: pointers)
        #expect(!found, "pointer \(place) of \(count): \(wrong)")
      }
    }
  }

  /// A leaf with no cells has no pointers to check.
  @Test func aLeafWithoutCellsIsWellFormed() {
    #expect(Self.isWellFormed(leafWith: []))
  }

  /// An overflow page that ends its chain (next page 0) is read whole: the check looks for a byte
  /// that is not zero anywhere in it; one that goes on is read no further than its next page.
  @Test func anOverflowPageIsReadWholeOnlyWhenItEndsItsChain() {
    var page = [UInt8](repeating: 0, count: 4_096)
    #expect(!Self.isWellFormedFromBytesChecked(page, number: 3))
    page[4_095] = 7
    #expect(Self.isWellFormedFromBytesChecked(page, number: 3))
    #expect(Self.bytesChecked(page, number: 3) == 4_096)
    page[3] = 9
    #expect(Self.isWellFormedFromBytesChecked(page, number: 3))
    page[3] = 11
    #expect(!Self.isWellFormedFromBytesChecked(page, number: 3))
    #expect(Self.bytesChecked(page, number: 3) == 4)
  }

  /// Page 1 whose B-tree type byte (after the file's 100-byte header) is none is a suspect, read
  /// as far as that byte. The scan read only its first 4 bytes for the check, which reads the
  /// type byte at 100: past the bytes read (a trap in a debug build).
  @Test func pageOneOfNoBTreeTypeIsASuspectReadThroughItsTypeByte() {
    var page = [UInt8](repeating: 0, count: 4_096)
    page.replaceSubrange(0..<16, with: Array("SQLite format 3\0".utf8))
    page[100] = 0
    #expect(!Self.isWellFormedFromBytesChecked(page, number: 1))
    #expect(Self.bytesChecked(page, number: 1) == 101)
  }

  /// A copy from a mapping of a file answers -1 for bytes the file no longer holds (it was cut
  /// shorter after it was mapped: SIGBUS), every time, and copies those it holds.
  @Test func aCopyFromPagesTheFileNoLongerHoldsFails() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mapped-\(UUID().uuidString)"
    ).path
    try Data(repeating: 0x41, count: 8_192).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = open(path, O_RDWR)
    try #require(file >= 0)
    defer { close(file) }
    let mapping = try #require(mmap(nil, 8_192, PROT_READ, MAP_SHARED, file, 0))
    try #require(mapping != MAP_FAILED)
    defer { munmap(mapping, 8_192) }
    try #require(ftruncate(file, 4_096) == 0)
    var bytes = [UInt8](repeating: 0, count: 16)
    #expect(chart_archive_copy_mapped(&bytes, mapping + 4_080, 16) == 0)
    #expect(bytes == [UInt8](repeating: 0x41, count: 16))
    #expect(chart_archive_copy_mapped(&bytes, mapping + 4_096, 16) == -1)
    #expect(chart_archive_copy_mapped(&bytes, mapping + 8_000, 16) == -1)
    #expect(chart_archive_copy_mapped(&bytes, mapping, 16) == 0)
  }
}
