import CCSV
import Foundation

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
    var bytes = [UInt8](data)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
    let collector = Collector()
    var parser = csv_parser()
    guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI)) == 0 else {
      throw .malformed(row: 1, reason: "the CSV reader could not start")
    }
    defer { csv_free(&parser) }
    // RFC 4180: spaces are part of a field.
    csv_set_space_func(&parser) { _ in 0 }
    let context = Unmanaged.passUnretained(collector).toOpaque()
    let parsed = bytes.withUnsafeBytes { buffer in
      csv_parse(&parser, buffer.baseAddress, buffer.count, fieldEnded, rowEnded, context)
    }
    // The error is read before csv_fini, which clears it.
    if parsed != bytes.count {
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
  if let text = String(validating: bytes, as: UTF8.self) {
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
  collector.rows.append(collector.fields)
  collector.fields = []
}
