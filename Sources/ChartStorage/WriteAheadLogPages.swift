import Glibc

/// The pages an archive's write-ahead log (`PATH-wal`) holds in committed transactions, read from
/// the log's frames as SQLite's recovery reads them (<https://www.sqlite.org/fileformat2.html>,
/// "The WAL File Format" and "Checksum Algorithm"): a frame counts when its salts are the log
/// header's and its cumulative checksum holds, up to the first frame that breaks either, and only
/// through the last commit frame (one whose second field, the database's size in pages after the
/// commit, is not zero) among them.
///
/// A file shorter than its header counts is not damaged when the log holds the pages past its end:
/// a checkpoint that failed half-way (a full disk) leaves the header of the newest state in the
/// file and the pages it could not write in the log, where SQLite reads them.
enum WriteAheadLogPages {
  /// The log header's bytes, and each frame header's.
  private static let headerSize = 32
  private static let frameHeaderSize = 24

  /// The page numbers (1-based) of the committed frames of the log at `path`; empty when there is
  /// no log, or it cannot be read, or its header is not a log's of pages of `pageSize` bytes.
  static func committedPages(ofLogAt path: String, pageSize: Int) -> Set<Int> {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return [] }
    defer { close(file) }
    var header = [UInt8](repeating: 0, count: headerSize)
    guard PageHeaderScan.read(file, at: 0, into: &header) == headerSize else { return [] }
    let magic = PageHeaderScan.integer(header, at: 0, bytes: 4)
    guard magic & ~1 == 0x377f_0682, PageHeaderScan.integer(header, at: 8, bytes: 4) == pageSize
    else { return [] }
    var sums = Checksum(bigEndian: magic & 1 == 1)
    sums.add(header[0..<24])
    guard sums.matches(header, at: 24) else { return [] }
    var committed: Set<Int> = []
    var pending: [Int] = []
    var frame = [UInt8](repeating: 0, count: frameHeaderSize + pageSize)
    var offset = headerSize
    while PageHeaderScan.read(file, at: offset, into: &frame) == frame.count,
      frame[8..<16].elementsEqual(header[16..<24])
    {
      sums.add(frame[0..<8])
      sums.add(frame[frameHeaderSize...])
      guard sums.matches(frame, at: 16) else { break }
      let page = PageHeaderScan.integer(frame, at: 0, bytes: 4)
      guard page > 0 else { break }
      pending.append(page)
      if PageHeaderScan.integer(frame, at: 4, bytes: 4) != 0 {
        committed.formUnion(pending)
        pending = []
      }
      offset += frame.count
    }
    return committed
  }

  /// The log's cumulative checksum: two 32-bit sums over the bytes' 32-bit words, taken two at a
  /// time, in the byte order the log's magic number gives.
  private struct Checksum {
    let bigEndian: Bool
    var first: UInt32 = 0
    var second: UInt32 = 0

    mutating func add(_ bytes: ArraySlice<UInt8>) {
      var index = bytes.startIndex
      while index + 8 <= bytes.endIndex {
        first &+= word(bytes, at: index) &+ second
        second &+= word(bytes, at: index + 4) &+ first
        index += 8
      }
    }

    private func word(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt32 {
      let value =
        UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
        | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
      return bigEndian ? value : value.byteSwapped
    }

    /// Whether the two big-endian sums stored at `offset` of `bytes` are these.
    func matches(_ bytes: [UInt8], at offset: Int) -> Bool {
      PageHeaderScan.integer(bytes, at: offset, bytes: 4) == Int(first)
        && PageHeaderScan.integer(bytes, at: offset + 4, bytes: 4) == Int(second)
    }
  }
}
