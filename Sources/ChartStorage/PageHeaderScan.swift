import CMappedFile
import Glibc

/// A quick look for damage in an archive file, without SQLite: every page's header and cell
/// pointers are read once, in file order, from a mapping of the file, and checked against what the
/// file format allows there (<https://www.sqlite.org/fileformat2.html>, "B-tree Pages", "The
/// Freelist" and "Cell Payload Overflow Pages"). A B-tree page's header must hold a known page
/// type, a cell count and a cell content area that fit the page, a first freeblock within it, cell
/// pointers into the content area and, on an interior page, a right child within the file; a page
/// of no B-tree (an overflow page) must start with the number of a page in the file or zero, and
/// not be all zeros; pages on the free list are skipped; a file that ends inside a page, or holds
/// fewer pages than its header counts, is cut short. A page that breaks one of these is a suspect,
/// for ``dbstat`` to judge (``ArchiveReader/damagedPages(limit:)``), which walks the B-trees
/// through SQLite, with the write-ahead log's newer pages, and parses each cell too.
///
/// On the whole Hot 100 (44 MB, from the page cache) it takes about 3 ms of CPU, where `dbstat`
/// takes about 15 ms and `PRAGMA quick_check` 280 ms: cheap enough for every import, which is what
/// it is for. A page garbled as a whole (a block of the disk, 4 KB written over) is found when its
/// header is; damage inside a page that leaves its header well formed is not (see
/// ``ArchiveReader/damagedPages(limit:)`` for what `dbstat` cannot see either).
public enum PageHeaderScan {
  /// The B-tree page types, from the format's page header (offset 0).
  private static let interiorIndex: UInt8 = 2
  private static let interiorTable: UInt8 = 5
  private static let leafIndex: UInt8 = 10
  private static let leafTable: UInt8 = 13

  /// The file's layout, read from its 100-byte header.
  struct Layout: Equatable {
    /// The page size in bytes (512 to 65,536).
    var pageSize: Int
    /// The bytes of each page that pages may use: the page size less the reserved bytes.
    var usableSize: Int
    /// How many pages the scan reads: the whole pages of the file, no more than the header counts.
    var pageCount: Int
    /// Whether the file is shorter than its pages: it ends inside a page, or the header counts
    /// more pages than it holds (a file cut short).
    var isCutShort: Bool
    /// How many pages the header counts, when it counts them (0 when its count is stale).
    var pagesCounted = 0
    /// The first page of the free list's trunk; 0 for none.
    var firstFreelistTrunk: Int
    /// How many pages the free list holds.
    var freelistCount: Int
  }

  /// The pages of the archive file at `path` whose first bytes the format does not allow, in
  /// file order (1-based page numbers, page 1 starting the file).
  ///
  /// - Returns: the suspect pages (empty for a file that looks sound); `nil` when this scan cannot
  ///   tell: the file cannot be opened or read, it is not an SQLite file of the layout this scan
  ///   knows (an auto-vacuum file, whose pointer-map pages it does not place), or its free list
  ///   cannot be followed. Then only `dbstat` can answer.
  public static func suspectPages(inFileAt path: String) -> [Int]? {
    withLayout(ofFileAt: path) { file, layout in
      guard let free = freelistPages(file, layout) else { return nil }
      // A file cut short lacks the page after its last whole one.
      return scan(file, layout, skipping: free).map {
        $0 + (layout.isCutShort ? [layout.pageCount + 1] : [])
      }
    }
  }

  /// The first page a file cut short lacks when it ends inside a page or holds fewer pages than
  /// its header counts, and its write-ahead log (`PATH-wal`) does not hold the page either
  /// (``WriteAheadLogPages``: a checkpoint that failed half-way, on a full disk, leaves the pages
  /// it could not write there); `nil` for a file of whole pages, or one whose missing pages are
  /// all in its log, or one that cannot be read. SQLite reads a page missing from both as zeros
  /// and `dbstat` does not report it.
  public static func missingPage(inFileAt path: String) -> Int? {
    withLayout(ofFileAt: path) { _, layout in
      guard layout.isCutShort else { return nil }
      let inLog = WriteAheadLogPages.committedPages(
        ofLogAt: path + "-wal", pageSize: layout.pageSize)
      let missing = (layout.pageCount + 1)...max(layout.pageCount + 1, layout.pagesCounted)
      return missing.first { !inLog.contains($0) }
    }
  }

  /// Opens the file at `path` and reads its layout for `body`; `nil` when the file cannot be
  /// opened or its header read, or it is not of a layout this scan knows.
  private static func withLayout<Result>(
    ofFileAt path: String, _ body: (Int32, Layout) -> Result?
  ) -> Result? {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var status = stat()
    var header = [UInt8](repeating: 0, count: 100)
    guard fstat(file, &status) == 0, read(file, at: 0, into: &header) == 100,
      let layout = layout(header: header, fileSize: Int(status.st_size))
    else { return nil }
    return body(file, layout)
  }

  /// The layout the header gives, or `nil` for a file that is not SQLite's or whose pages this
  /// scan cannot place.
  static func layout(header: [UInt8], fileSize: Int) -> Layout? {
    guard header.count >= 100, header[0..<16].elementsEqual(headerString) else {
      return nil
    }
    let sizeField = integer(header, at: 16, bytes: 2)
    let pageSize = sizeField == 1 ? 65_536 : sizeField
    guard pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else { return nil }
    // Auto-vacuum's pointer-map pages sit among the others; an archive never has them.
    guard integer(header, at: 52, bytes: 4) == 0 else { return nil }
    let filePages = fileSize / pageSize
    var pageCount = filePages
    var isCutShort = fileSize % pageSize != 0
    var pagesCounted = 0
    // The header's size counts when it was written with the change counter it holds.
    if integer(header, at: 24, bytes: 4) == integer(header, at: 92, bytes: 4) {
      pagesCounted = integer(header, at: 28, bytes: 4)
      pageCount = min(pageCount, pagesCounted)
      isCutShort = isCutShort || pagesCounted > filePages
    }
    return Layout(
      pageSize: pageSize, usableSize: pageSize - Int(header[20]), pageCount: pageCount,
      isCutShort: isCutShort, pagesCounted: pagesCounted,
      firstFreelistTrunk: integer(header, at: 32, bytes: 4),
      freelistCount: integer(header, at: 36, bytes: 4))
  }

  /// The pages on the free list (its trunk pages and their leaves), and the lock-byte page (the
  /// page holding the file's byte 1,073,741,824, which SQLite never uses); `nil` when the list
  /// cannot be followed (a trunk out of the file, more pages than the header counts).
  private static func freelistPages(_ file: Int32, _ layout: Layout) -> Set<Int>? {
    var pages: Set<Int> = [(1 << 30) / layout.pageSize + 1]
    var trunk = layout.firstFreelistTrunk
    var page = [UInt8](repeating: 0, count: layout.pageSize)
    while trunk != 0 {
      guard trunk >= 2, trunk <= layout.pageCount, pages.count <= layout.freelistCount + 1,
        read(file, at: (trunk - 1) * layout.pageSize, into: &page) == layout.pageSize
      else { return nil }
      pages.insert(trunk)
      let leaves = integer(page, at: 4, bytes: 4)
      guard leaves <= (layout.usableSize - 8) / 4 else { return nil }
      for index in 0..<leaves { pages.insert(integer(page, at: 8 + 4 * index, bytes: 4)) }
      trunk = integer(page, at: 0, bytes: 4)
    }
    return pages
  }

  /// Checks each page not in `skipped`, in file order, reading only the bytes its check looks at
  /// (``bytesChecked(of:number:_:)``) from a mapping of the file, ``bytesPerMapping`` at a time.
  /// Reading every page whole (`pread`) copied all 44 MB of the whole Hot 100 out of the system's
  /// cache, most of the scan's time: some 10 ms of CPU, where the mapping takes some 3 ms.
  ///
  /// - Returns: the suspect pages; `nil` when the file cannot be mapped, or no longer holds a page
  ///   it held when the scan began (it was cut shorter meanwhile).
  private static func scan(_ file: Int32, _ layout: Layout, skipping skipped: Set<Int>) -> [Int]? {
    let page = UnsafeMutableRawBufferPointer.allocate(
      byteCount: layout.pageSize, alignment: MemoryLayout<UInt64>.alignment)
    defer { page.deallocate() }
    var suspects: [Int] = []
    var first = 1
    while first <= layout.pageCount {
      let count = min(bytesPerMapping / layout.pageSize, layout.pageCount - first + 1)
      let length = count * layout.pageSize
      let address = mmap(
        nil, length, PROT_READ, MAP_SHARED, file, off_t((first - 1) * layout.pageSize))
      guard let address, address != MAP_FAILED else { return nil }
      defer { munmap(address, length) }
      // In order: the system maps the pages that follow a page touched along with it.
      madvise(address, length, MADV_SEQUENTIAL)
      for index in 0..<count where !skipped.contains(first + index) {
        let number = first + index
        let source = address + index * layout.pageSize
        // The header, which tells how many more bytes the check reads.
        let head = (number == 1 ? 100 : 0) + headerBytes
        guard chart_archive_copy_mapped(page.baseAddress!, source, head) == 0 else { return nil }
        let checked = bytesChecked(
          of: UnsafeRawBufferPointer(rebasing: page[..<head]), number: number, layout)
        if checked > head {
          guard
            chart_archive_copy_mapped(page.baseAddress! + head, source + head, checked - head) == 0
          else { return nil }
        }
        if !isWellFormed(UnsafeRawBufferPointer(rebasing: page[..<checked]), number: number, layout)
        {
          suspects.append(number)
        }
      }
      first += count
    }
    return suspects
  }

  /// How many bytes one mapping of the scan holds (4 MiB, a whole number of pages of any size):
  /// each page the scan reads counts in the process's memory until its mapping is let go, so the
  /// scan adds at most this much, whatever the file's size. With 16 MiB, a one-week import into
  /// the whole Hot 100 peaked at 35 MB, against 20 MB before the scan read a mapping.
  static let bytesPerMapping = 4 << 20

  /// How many bytes of a page the scan reads first: a B-tree page header, the longer kind (an
  /// interior page's), after the file's header on page 1. Each page's bytes come into the CPU's
  /// cache from memory, 64 at a time: the fewer read, the faster the scan.
  static let headerBytes = 12

  /// How many bytes from its start ``isWellFormed(_:number:_:)`` looks at, told by the page's
  /// first bytes (`head`, its header: the first ``headerBytes``, after the file's header on page
  /// 1): a B-tree page's header and cell pointers, the next-page number of a page of no B-tree,
  /// or the whole page when that number is zero (the check looks for a byte that is not); page 1,
  /// a B-tree's always, through its type byte. At most the page size.
  static func bytesChecked(of head: UnsafeRawBufferPointer, number: Int, _ layout: Layout) -> Int {
    let start = number == 1 ? 100 : 0
    switch head[start] {
    case interiorIndex, interiorTable, leafIndex, leafTable:
      let interior = head[start] == interiorIndex || head[start] == interiorTable
      let cells = integer(head, at: start + 3, bytes: 2)
      return min(layout.pageSize, start + (interior ? 12 : 8) + 2 * cells)
    default:
      // Page 1 of no B-tree type is a suspect whatever follows: the check reads that byte.
      if number == 1 { return start + 1 }
      return integer(head, at: 0, bytes: 4) == 0 ? layout.pageSize : 4
    }
  }

  /// Whether a page's first bytes are those of a B-tree page or an overflow page.
  ///
  /// - Parameters:
  ///   - page: the page's bytes from its start: the first ``bytesChecked(of:number:_:)`` of them
  ///     at least (the whole page will do).
  ///   - number: its 1-based number (page 1's B-tree header follows the file's header).
  static func isWellFormed(_ page: UnsafeRawBufferPointer, number: Int, _ layout: Layout) -> Bool {
    let start = number == 1 ? 100 : 0
    let type = page[start]
    let interior = type == interiorIndex || type == interiorTable
    guard interior || type == leafIndex || type == leafTable else {
      // An overflow page starts with the next page of its chain, or zero; page 1 is a B-tree's.
      // A page of zeros is a suspect too: a block the disk lost reads so, and the last page of an
      // overflow chain holds some of a record (text, never a page of zeros) after its zero.
      let next = integer(page, at: 0, bytes: 4)
      return number != 1 && next <= layout.pageCount && (next != 0 || page.contains { $0 != 0 })
    }
    let headerEnd = start + (interior ? 12 : 8)
    let cells = integer(page, at: start + 3, bytes: 2)
    let pointersEnd = headerEnd + 2 * cells
    let contentField = integer(page, at: start + 5, bytes: 2)
    let contentStart = contentField == 0 ? 65_536 : contentField
    let freeblock = integer(page, at: start + 1, bytes: 2)
    guard pointersEnd <= contentStart, contentStart <= layout.usableSize,
      freeblock == 0 || (freeblock >= contentStart && freeblock <= layout.usableSize - 4)
    else { return false }
    if interior {
      let rightChild = integer(page, at: start + 8, bytes: 4)
      guard rightChild >= 2, rightChild <= layout.pageCount else { return false }
    }
    guard cells > 0 else { return true }
    let pointers = pointerRange(page, at: headerEnd, count: cells)
    return pointers.lowest >= contentStart && pointers.highest <= layout.usableSize - 4
  }

  /// The lowest and highest of the `count` cell pointers (2-byte big-endian offsets) at `offset`
  /// of `page`, which holds them all, `count` at least 1. One pass without branches, which the
  /// compiler makes vector instructions of: the scan checks every page of the file, the whole
  /// Hot 100's 11,000 leaves with 95 cells each on average (311 on a leaf of `entries_by_song`).
  private static func pointerRange(_ page: UnsafeRawBufferPointer, at offset: Int, count: Int)
    -> (lowest: Int, highest: Int)
  {
    precondition(count > 0 && offset >= 0 && offset + 2 * count <= page.count)
    let pointers = page.baseAddress! + offset
    var lowest = UInt16.max
    var highest = UInt16.min
    for index in 0..<count {
      let pointer = UInt16(
        bigEndian: pointers.loadUnaligned(fromByteOffset: index &<< 1, as: UInt16.self))
      lowest = min(lowest, pointer)
      highest = max(highest, pointer)
    }
    return (Int(lowest), Int(highest))
  }

  /// The 16 bytes every SQLite database file starts with
  /// (<https://www.sqlite.org/fileformat2.html#the_database_header>).
  static let headerString = Array("SQLite format 3\0".utf8)

  /// The big-endian integer of `bytes` bytes at `offset`, as the format writes its fields.
  static func integer<Bytes: RandomAccessCollection>(
    _ data: Bytes, at offset: Int, bytes: Int
  ) -> Int where Bytes.Element == UInt8, Bytes.Index == Int {
    var value = 0
    for index in offset..<(offset + bytes) {
      value = value << 8 | Int(data[data.startIndex + index])
    }
    return value
  }

  /// Reads `length` bytes (all of `buffer` when `nil`) at `offset`, retrying short reads.
  ///
  /// - Returns: the bytes read: fewer than asked at the file's end, -1 on an error.
  static func read(
    _ file: Int32, at offset: Int, into buffer: inout [UInt8], length: Int? = nil
  )
    -> Int
  {
    let wanted = length ?? buffer.count
    var done = 0
    while done < wanted {
      let got = buffer.withUnsafeMutableBytes {
        pread(file, $0.baseAddress! + done, wanted - done, off_t(offset + done))
      }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { return got < 0 ? -1 : done }
      done += got
    }
    return done
  }
}
