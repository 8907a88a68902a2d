import CCSV
public import Foundation

/// The rows of a CSV file (RFC 4180: quoted fields, embedded commas, quotes and line breaks,
/// CRLF or LF line ends), read with libcsv in strict mode (<https://github.com/rgamble/libcsv>).
///
/// A UTF-8 byte order mark before the first field is skipped; spaces around unquoted fields are
/// kept, as RFC 4180 says; blank lines are skipped. Every field must be UTF-8.
struct CSVTable {
  /// The rows, each a list of fields, in file order.
  var rows: [[String]]

  /// Why a file is not readable CSV.
  enum Problem: Error, Equatable {
    /// libcsv's strict mode refused the text: in the `row`th row (1-based, the header's
    /// included), its `column`th field (1-based), on the 1-based `line` of the text where the
    /// field breaks the rule (for a quote never closed, the line of the quote).
    case malformed(row: Int, line: Int, column: Int, reason: MalformedReason)
    /// A field is not UTF-8.
    case notUTF8(row: Int, column: Int)
    /// A field is longer than ``ChartFileReader/maximumFieldLength``.
    case fieldTooLong(row: Int, column: Int)
  }

  /// Which rule of RFC 4180 a field breaks (<https://www.rfc-editor.org/rfc/rfc4180#section-2>).
  enum MalformedReason: Equatable {
    /// A quote in a field that does not start with one (`A "B" C`): such a field is quoted
    /// whole, with each quote in it written twice (`"A ""B"" C"`).
    case quoteInUnquotedField
    /// Text after the quote that closes a quoted field (`"A"B`).
    case textAfterClosingQuote
    /// A quoted field without its closing quote, running to the end of the text.
    case unclosedQuote
    /// libcsv could not start, in its words.
    case readerFailed(String)
  }

  /// Reads CSV text.
  ///
  /// A long text (a dataset of many weeks) is read in parts on several threads, each part a run
  /// of whole records (see ``parts(of:count:)``); the rows are the same as when it is read in one piece.
  /// When a part does not read, the text is read again in one piece, so that a problem is told as
  /// that reading tells it.
  ///
  /// - Parameters:
  ///   - data: the text.
  ///   - threads: how many threads may read it at once.
  ///   - unread: the columns (0-based) whose fields are checked but not kept below the header:
  ///     they are empty in ``rows``.
  ///   - headerRows: how many rows are read whole, the header's among them.
  /// - Throws: ``Problem``.
  init(
    _ data: Data, threads: Int = ChartFileReader.defaultThreadCount, unread: Set<Int> = [],
    headerRows: Int = 1
  ) throws(Problem) {
    let skipped = (0..<(unread.max().map { $0 + 1 } ?? 0)).map { unread.contains($0) }
    let parts = data.withUnsafeBytes { Self.parts(of: $0.afterByteOrderMark, count: threads) }
    if parts.count > 1 {
      let parsed = concurrentMap(parts.count) { index in
        data.withUnsafeBytes { bytes in
          try? Self.parse(
            UnsafeRawBufferPointer(rebasing: bytes.afterByteOrderMark[parts[index]]),
            skipped: skipped, headerRows: index == 0 ? headerRows : 0)
        }
      }
      if parsed.allSatisfy({ $0 != nil }) {
        rows = parsed.flatMap { $0! }
        return
      }
    }
    let whole = data.withUnsafeBytes { bytes in
      Result { () throws(Problem) in
        try Self.parse(bytes.afterByteOrderMark, skipped: skipped, headerRows: headerRows)
      }
    }
    rows = try whole.get()
  }

  /// The shortest part read on a thread of its own, in bytes: a smaller text is read in one piece.
  static let minimumPartSize = 1 << 18

  /// Where a text may be cut into parts to read on `count` threads: at most `count` parts and one
  /// per ``minimumPartSize`` bytes, each cut just after a line feed outside quotes.
  ///
  /// A quote opens or closes a quoted field (a doubled quote inside one closes and opens it
  /// again), as in ``recordLines(in:)``; in a text that libcsv reads without a problem, a line feed
  /// outside quotes ends a record, so each part is whole records. In a text it refuses, the part
  /// with the first problem is refused too (everything before it was cut where libcsv's records
  /// end), and the text is then read in one piece.
  ///
  /// - Returns: the byte ranges of the parts, in order, covering the whole text; one range when
  ///   the text is short or has no such line feed.
  static func parts(of text: UnsafeRawBufferPointer, count threads: Int) -> [Range<Int>] {
    let count = min(threads, max(text.count / minimumPartSize, 1))
    guard count > 1 else { return [0..<text.count] }
    var parts: [Range<Int>] = []
    var start = 0
    var quoted = false
    var index = 0
    for part in 1..<count {
      let target = text.count / count * part
      // Quotes are counted up to the target, then a line feed outside quotes is looked for.
      while index < text.count {
        let byte = text[index]
        index += 1
        if byte == UInt8(ascii: "\"") {
          quoted.toggle()
        } else if byte == 0x0A, !quoted, index >= target {
          break
        }
      }
      guard index < text.count else { break }
      parts.append(start..<index)
      start = index
    }
    parts.append(start..<text.count)
    return parts
  }

  /// Reads CSV text in one piece, keeping no field of the columns `skipped` says after the first
  /// `headerRows` rows.
  private static func parse(_ text: UnsafeRawBufferPointer, skipped: [Bool], headerRows: Int)
    throws(Problem) -> [[String]]
  {
    let collector = Collector(skipped: skipped, headerRows: headerRows)
    var parser = csv_parser()
    guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else {
      throw .malformed(row: 1, line: 1, column: 1, reason: .readerFailed("it could not start"))
    }
    defer { csv_free(&parser) }
    // RFC 4180: spaces are part of a field.
    csv_set_space_func(&parser) { _ in 0 }
    let context = Unmanaged.passUnretained(collector).toOpaque()
    // Read in place.
    let parsed = csv_parse(&parser, text.baseAddress, text.count, fieldEnded, rowEnded, context)
    // In strict mode libcsv stops at the byte that breaks the rules: a quote in a field that did
    // not start with one, or the byte after a closing quote that neither ends the field nor
    // doubles the quote (any other error is one of memory, which it reports as such).
    if parsed != text.count {
      guard csv_error(&parser) == CSV_EPARSE else {
        let reason = String(cString: csv_strerror(csv_error(&parser))).lowercased()
        throw .malformed(
          row: collector.rows.count + 1, line: 1, column: 1, reason: .readerFailed(reason))
      }
      throw .malformed(
        row: collector.rows.count + 1, line: Self.line(at: parsed, in: text),
        column: collector.fields.count + 1,
        reason: text[parsed] == UInt8(ascii: "\"") ? .quoteInUnquotedField : .textAfterClosingQuote)
    }
    // With CSV_STRICT_FINI the end of the text fails only inside a quoted field.
    if csv_fini(&parser, fieldEnded, rowEnded, context) != 0 {
      throw .malformed(
        row: collector.rows.count + 1, line: Self.line(at: Self.unclosedQuote(in: text), in: text),
        column: collector.fields.count + 1, reason: .unclosedQuote)
    }
    if let (row, column) = collector.longField { throw .fieldTooLong(row: row, column: column) }
    if let (row, column) = collector.invalidField { throw .notUTF8(row: row, column: column) }
    return collector.rows
  }
}

/// Gathers fields and rows from libcsv's callbacks.
private final class Collector {
  var rows: [[String]] = []
  var fields: [String] = []
  var invalidField: (row: Int, column: Int)?
  /// The first field longer than ``ChartFileReader/maximumFieldLength``.
  var longField: (row: Int, column: Int)?
  /// Whether each column's fields are left empty after the first `headerRows` rows.
  let skipped: [Bool]
  let headerRows: Int

  init(skipped: [Bool], headerRows: Int) {
    self.skipped = skipped
    self.headerRows = headerRows
  }
}

private func fieldEnded(
  _ field: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?
) {
  let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
  let bytes = UnsafeRawBufferPointer(start: field, count: field == nil ? 0 : length)
  let column = collector.fields.count
  if length > ChartFileReader.maximumFieldLength {
    if collector.longField == nil { collector.longField = (collector.rows.count + 1, column + 1) }
    collector.fields.append("")
    return
  }
  let kept =
    column >= collector.skipped.count || !collector.skipped[column]
    || collector.rows.count < collector.headerRows
  // ASCII, as most fields are, is UTF-8 without checking further (the generic validation costs
  // a look-up of type metadata for every field). A field that is not kept is checked, then empty.
  if !bytes.contains(where: { $0 >= 0x80 }) {
    collector.fields.append(kept ? String(decoding: bytes, as: UTF8.self) : "")
  } else if let text = String(validating: bytes, as: UTF8.self) {
    collector.fields.append(kept ? text : "")
  } else {
    if collector.invalidField == nil {
      collector.invalidField = (collector.rows.count + 1, collector.fields.count + 1)
    }
    collector.fields.append("")
  }
}

private func rowEnded(_ terminator: Int32, _ context: UnsafeMutableRawPointer?) {
  let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
  let count = collector.fields.count
  collector.rows.append(collector.fields)
  collector.fields = []
  // The next row most likely has as many fields.
  collector.fields.reserveCapacity(count)
}

extension CSVTable {
  /// The 1-based line on which each record of a CSV text starts, in order: one for each of the
  /// rows ``init(_:)`` reads from the same text, which it must have read without a problem.
  ///
  /// libcsv tells no positions, so the records are found again as its strict mode finds them: a
  /// record starts at the first byte after a line end that is not itself a line end (blank lines
  /// are no records), and ends at the next line end outside quotes; a quote opens or closes a
  /// quoted field (a doubled quote inside one closes and opens it again). A line ends at LF, CRLF
  /// or a lone CR, as libcsv's records do. Called only when a problem needs the lines, so an
  /// import of valid files never pays for it.
  static func recordLines(in data: Data) -> [Int] {
    data.withUnsafeBytes { bytes in
      let text = bytes.afterByteOrderMark
      var lines: [Int] = []
      var line = 1
      var walk = RecordWalk()
      for byte in text {
        switch walk.read(byte) {
        case .recordStart: lines.append(line)
        case .lineEnd: line += 1
        case .inside, .lineEndGoesOn: break
        }
      }
      return lines
    }
  }
}

/// Follows the records and the lines of a CSV text byte by byte, as libcsv's strict mode reads
/// them (see ``CSVTable/recordLines(in:)``): a record starts at the first byte after a line end
/// that is not itself a line end, and ends at the next line end outside quotes; a quote opens or
/// closes a quoted field; a line ends at LF, CRLF (counted at its CR) or a lone CR.
struct RecordWalk {
  /// Whether the last byte read is in a record, and in a quoted field.
  private(set) var inRecord = false
  private var quoted = false
  private var previous: UInt8 = 0

  /// What a byte is.
  enum Step {
    /// The first byte of a record.
    case recordStart
    /// A line end (a LF, a CR, the CR of a CRLF).
    case lineEnd
    /// The LF of a CRLF: the line end goes on.
    case lineEndGoesOn
    /// Any other byte.
    case inside
  }

  /// Reads the next byte.
  mutating func read(_ byte: UInt8) -> Step {
    defer { previous = byte }
    switch byte {
    case 0x0A, 0x0D:
      if !quoted { inRecord = false }
      return byte == 0x0A && previous == 0x0D ? .lineEndGoesOn : .lineEnd
    default:
      if byte == UInt8(ascii: "\"") { quoted.toggle() }
      guard !inRecord else { return .inside }
      inRecord = true
      return .recordStart
    }
  }
}

extension CSVTable {
  /// The 1-based line of the byte at `offset`, lines ending at LF, CRLF or a lone CR as libcsv's
  /// records do.
  static func line(at offset: Int, in text: UnsafeRawBufferPointer) -> Int {
    var line = 1
    var previous: UInt8 = 0
    for byte in text.prefix(offset) {
      if byte == 0x0D || (byte == 0x0A && previous != 0x0D) { line += 1 }
      previous = byte
    }
    return line
  }

  /// The offset of the quote that opens a quoted field never closed: the last quote that opens
  /// one, counting quotes as ``recordLines(in:)`` does (a doubled quote inside a quoted field
  /// closes and opens it again), or the end of the text when every quote is closed.
  static func unclosedQuote(in text: UnsafeRawBufferPointer) -> Int {
    let quote = UInt8(ascii: "\"")
    var opening = text.count
    var quoted = false
    for offset in text.indices where text[offset] == quote {
      quoted.toggle()
      // A quote right after a closing one doubles it: the field was opened earlier.
      if quoted, offset == 0 || text[offset - 1] != quote { opening = offset }
    }
    return quoted ? opening : text.count
  }
}

extension ChartFileReader {
  /// Whether ``CSVTable/recordLines(in:)`` finds as many records in `data` as libcsv does, when
  /// libcsv reads it: for the fuzzer, which checks it on every input it makes.
  @_spi(Fuzzing) public static func csvRecordLinesAgreeWithTheParser(on data: Data) -> Bool {
    guard let table = try? CSVTable(data) else { return true }
    return CSVTable.recordLines(in: data).count == table.rows.count
  }
}
