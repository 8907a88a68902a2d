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
    /// libcsv's strict mode refused the text (a quote inside an unquoted field, a quoted field
    /// that never ends) at about this row (1-based).
    case malformed(row: Int, reason: String)
    /// A field is not UTF-8.
    case notUTF8(row: Int, column: Int)
  }

  /// Reads CSV text.
  ///
  /// - Throws: ``Problem``.
  init(_ data: Data) throws(Problem) {
    let collector = Collector()
    var parser = csv_parser()
    guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else {
      throw .malformed(row: 1, reason: "the CSV reader could not start")
    }
    defer { csv_free(&parser) }
    // RFC 4180: spaces are part of a field.
    csv_set_space_func(&parser) { _ in 0 }
    let context = Unmanaged.passUnretained(collector).toOpaque()
    // Read in place, after a byte order mark.
    let (parsed, count) = data.withUnsafeBytes { whole in
      let buffer =
        whole.starts(with: [0xEF, 0xBB, 0xBF])
        ? UnsafeRawBufferPointer(rebasing: whole[3...]) : whole
      return (
        csv_parse(&parser, buffer.baseAddress, buffer.count, fieldEnded, rowEnded, context),
        buffer.count
      )
    }
    // The error is read before csv_fini, which clears it.
    if parsed != count {
      let reason = String(cString: csv_strerror(csv_error(&parser)))
      throw .malformed(row: collector.rows.count + 1, reason: reason.lowercased())
    }
    if csv_fini(&parser, fieldEnded, rowEnded, context) != 0 {
      let reason = String(cString: csv_strerror(csv_error(&parser)))
      throw .malformed(row: collector.rows.count + 1, reason: reason.lowercased())
    }
    if let (row, column) = collector.invalidField { throw .notUTF8(row: row, column: column) }
    rows = collector.rows
  }
}

/// Gathers fields and rows from libcsv's callbacks.
private final class Collector {
  var rows: [[String]] = []
  var fields: [String] = []
  var invalidField: (row: Int, column: Int)?
}

private func fieldEnded(
  _ field: UnsafeMutableRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?
) {
  let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
  let bytes = UnsafeRawBufferPointer(start: field, count: field == nil ? 0 : length)
  // ASCII, as most fields are, is UTF-8 without checking further (the generic validation costs
  // a look-up of type metadata for every field).
  if !bytes.contains(where: { $0 >= 0x80 }) {
    collector.fields.append(String(decoding: bytes, as: UTF8.self))
  } else if let text = String(validating: bytes, as: UTF8.self) {
    collector.fields.append(text)
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
      let text =
        bytes.starts(with: [0xEF, 0xBB, 0xBF])
        ? UnsafeRawBufferPointer(rebasing: bytes[3...]) : bytes
      var lines: [Int] = []
      var line = 1
      var inRecord = false
      var quoted = false
      var previous: UInt8 = 0
      for byte in text {
        switch byte {
        case 0x0A, 0x0D:
          if !quoted { inRecord = false }
          // CRLF is one line end, counted at its CR.
          if byte == 0x0D || previous != 0x0D { line += 1 }
        default:
          if !inRecord {
            lines.append(line)
            inRecord = true
          }
          if byte == UInt8(ascii: "\"") { quoted.toggle() }
        }
        previous = byte
      }
      return lines
    }
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
