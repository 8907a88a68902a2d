import Glibc

/// The size bounds of what an import reads, so that no input can exhaust the machine: a line, a
/// field, a file of one snapshot, a snapshot of a file of many. A file of many weeks (a dataset's
/// CSV, an export) has no bound of its own: it is read in parts, in bounded memory (see
/// ``ChartFileReader/decode(_:path:weeksPerPart:deliver:)``). docs/formats.md gives the bounds
/// and why.
extension ChartFileReader {
  /// The longest line of a CSV file, in bytes (1 MiB): a row of the Hot 100 datasets takes about
  /// 150, one of Spotify's downloads about 200. JSON and HTML may be written on one line.
  public static let maximumLineLength = 1 << 20
  /// The longest field, in bytes (1 MiB): a CSV field, a JSON string or number, a cell of an HTML
  /// table. A title or an artist is refused past 10,000 Unicode scalars (40 KB at most), a URL
  /// past 64 KB.
  public static let maximumFieldLength = 1 << 20
  /// The most bytes the rows (or the JSON) of one snapshot of a file of many may take (4 MiB):
  /// each is read as a file of one, and a few at a time.
  public static let maximumSnapshotSize = 4 << 20

  /// The largest file of one snapshot of a format, in bytes: 8 MiB for a CSV (a top 200 takes
  /// some 30 KB), 16 MiB for JSON (Spotify's charts site JSON of a top 200 some 500 KB, a Last.fm
  /// listener's busiest week a few MB; its values are bounded too, ``JSONTree/maximumValues``),
  /// 2 MiB for HTML (a kworb page some 150 KB: libxml2's tree of a document takes up to some 80
  /// bytes a byte of it, 160 MB at the bound). A larger file is read as a file of many weeks,
  /// which only a CSV with a date column and an export can be.
  ///
  /// - Parameter kind: what the file is written in.
  public static func maximumFileSize(of kind: ChartFormat.Kind) -> Int {
    switch kind {
    case .csv: 8 << 20
    case .json: 16 << 20
    case .html: 2 << 20
    }
  }

  /// The most bytes of a file read in one piece, whatever its format: the largest bound of a file
  /// of one snapshot. A named pipe's bytes beyond it go to a temporary file.
  static let largestFileReadWhole = 16 << 20

  /// `1,048,576 bytes (1 MiB)`.
  static func words(forBytes count: Int) -> String {
    var digits = String(count)
    var index = digits.endIndex
    while digits.distance(from: digits.startIndex, to: index) > 3 {
      index = digits.index(index, offsetBy: -3)
      digits.insert(",", at: index)
    }
    let mebibytes = count >> 20
    return "\(digits) bytes" + (count & ((1 << 20) - 1) == 0 ? " (\(mebibytes) MiB)" : "")
  }
}

extension ChartFileProblem {
  /// A size bound an input goes beyond, with the bound in bytes (see ``ChartFileReader``'s
  /// `maximum…` bounds).
  public enum SizeBound: Hashable, Sendable {
    /// A line longer than ``ChartFileReader/maximumLineLength``.
    case line(Int)
    /// A field longer than ``ChartFileReader/maximumFieldLength``.
    case field(Int)
    /// A file of one snapshot larger than ``ChartFileReader/maximumFileSize(of:)`` of its kind.
    case file(ChartFormat.Kind, Int)
    /// The rows of one snapshot of a file of many, larger than
    /// ``ChartFileReader/maximumSnapshotSize``.
    case snapshot(Int)
    /// A file of many weeks whose rows change snapshot more often than a file read in parts
    /// can keep track of (``DatasetIndex/maximumRuns`` runs of rows): rows in no order.
    case runs(Int)
    /// A file of many weeks of more snapshots than one read in parts can keep track of
    /// (``DatasetIndex/maximumSnapshots``).
    case snapshots(Int)
  }

  /// `line L: longer than 1,048,576 bytes (1 MiB), the bound on a line`.
  static func lineTooLong(line: Int) -> ChartFileProblem {
    let bound = ChartFileReader.maximumLineLength
    return ChartFileProblem(
      line: line,
      message: "longer than \(ChartFileReader.words(forBytes: bound)), the bound on a line",
      bound: .line(bound))
  }

  /// `FIELD is longer than 1,048,576 bytes (1 MiB), the bound on a field`, where `field` says
  /// which (`field 3`, `a string`, `a cell`).
  static func fieldTooLong(_ field: String, row: Int? = nil, line: Int? = nil) -> ChartFileProblem {
    let bound = ChartFileReader.maximumFieldLength
    return ChartFileProblem(
      row: row, line: line,
      message:
        "\(field) is longer than \(ChartFileReader.words(forBytes: bound)), the bound on a field",
      bound: .field(bound))
  }

  /// A file of one snapshot larger than its kind's bound; `atLeast` when `size` is what was read
  /// of it so far (a pipe).
  static func fileTooLarge(
    _ kind: ChartFormat.Kind, size: Int, manyWeeks: String, atLeast: Bool = false
  ) -> ChartFileProblem {
    let bound = ChartFileReader.maximumFileSize(of: kind)
    return ChartFileProblem(
      message: (atLeast ? "at least " : "") + "\(ChartFileReader.words(forBytes: size)) long,"
        + " larger than the"
        + " \(ChartFileReader.words(forBytes: bound)) a \(kind.rawValue) file of one snapshot may"
        + " be (\(manyWeeks))",
      bound: .file(kind, bound))
  }
}

/// Measures the lines of a text as its bytes come, a chunk at a time: lines end at LF, CRLF or a
/// lone CR, as libcsv's records do (see ``CSVTable/recordLines(in:)``).
struct LineMeter {
  /// The 1-based line the next byte is on.
  private(set) var line = 1
  /// The bytes of that line so far.
  private var length = 0
  /// Whether the last byte was a CR (a LF after it ends no other line).
  private var afterCR = false

  /// Reads the next bytes of the text.
  ///
  /// - Returns: the 1-based number of a line longer than ``ChartFileReader/maximumLineLength``,
  ///   as soon as it is that long; `nil` while none is.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let limit = ChartFileReader.maximumLineLength
    var index = 0
    // The next LF, looked for again only once passed: a text of lone CRs is not searched to its
    // end for each line.
    var lineFeed: Int? = nil
    var lineFeedSearched = false
    while index < bytes.count {
      if !lineFeedSearched || (lineFeed.map { $0 < index } ?? false) {
        lineFeed = memchr(base + index, 0x0A, bytes.count - index).map { base.distance(to: $0) }
        lineFeedSearched = true
      }
      // The next line end: a LF, or a CR before it.
      let scanned = (lineFeed ?? bytes.count) - index
      let end = memchr(base + index, 0x0D, scanned).map { base.distance(to: $0) } ?? lineFeed
      let stop = end ?? bytes.count
      length += stop - index
      if length > limit { return line }
      guard let end else { break }
      if end > index { afterCR = false }
      if bytes[end] == 0x0D {
        line += 1
        afterCR = true
      } else {
        if !afterCR { line += 1 }
        afterCR = false
      }
      length = 0
      index = end + 1
    }
    if index < bytes.count { afterCR = false }
    return nil
  }

  /// The first line of a whole text longer than ``ChartFileReader/maximumLineLength``, if any.
  static func firstLongLine(in text: UnsafeRawBufferPointer) -> Int? {
    var meter = LineMeter()
    return meter.scan(text)
  }
}

/// Measures the strings and the numbers (and other bare words) of a JSON text as its bytes come,
/// a chunk at a time, so that one longer than ``ChartFileReader/maximumFieldLength`` is refused
/// before yajl gathers it (yajl keeps a string or a number that spans two chunks in a buffer of
/// its own, as long as it runs).
struct TokenMeter {
  /// Whether the next byte is in a string, and right after a backslash in it.
  private var inString = false
  private var escaped = false
  /// The bytes of the string or the bare word being read so far.
  private var length = 0

  /// Reads the next bytes of the text.
  ///
  /// - Returns: the offset, in `bytes`, of the byte at which a string or a word goes past the
  ///   bound; `nil` while none does.
  mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int? {
    let limit = ChartFileReader.maximumFieldLength
    for (offset, byte) in bytes.enumerated() {
      if inString {
        length += 1
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          length = 0
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
          length = 0
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
          UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x0A, 0x0D, 0x09:
          length = 0
        default:
          length += 1
        }
      }
      if length > limit { return offset }
    }
    return nil
  }
}
