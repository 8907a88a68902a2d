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
  /// `pointers` as its cell pointers.
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
    return page.withUnsafeBytes { PageHeaderScan.isWellFormed($0, number: 2, layout) }
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
}
