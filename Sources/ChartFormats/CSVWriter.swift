/// Writes CSV (RFC 4180).
public enum CSVWriter {
  /// A CSV record: fields with a comma, quote, CR or LF quoted, quotes doubled, CRLF at the end.
  /// Looks at Unicode scalars: a comma followed by a combining mark is still a comma. A text
  /// escaped as ``text(_:)`` escapes it (an apostrophe before `=`, `+`, `-`, `@`, tab or CR) is
  /// quoted too, as OWASP recommends.
  ///
  /// - Parameter fields: the record's fields.
  /// - Returns: the record's text with its CRLF.
  public static func record(_ fields: [String]) -> String {
    fields.map { field in
      guard needsQuotes(field) else { return field }
      var quoted = String.UnicodeScalarView()
      quoted.append("\"")
      for scalar in field.unicodeScalars {
        quoted.append(scalar)
        if scalar == "\"" { quoted.append(scalar) }
      }
      quoted.append("\"")
      return String(quoted)
    }.joined(separator: ",") + "\r\n"
  }

  /// Whether a field is quoted: it has a comma, a quote, a CR or an LF, or it is a text
  /// ``text(_:)`` escaped.
  private static func needsQuotes(_ field: String) -> Bool {
    field.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
      || field.utf8.first == apostrophe && startsLikeAFormula(field.utf8)
  }

  /// A text cell (a title, an artist, a chart's name, a URL) as a spreadsheet cannot take it for a
  /// formula, as OWASP's CSV injection page recommends
  /// (<https://owasp.org/www-community/attacks/CSV_Injection>): a text that starts with `=`, `+`,
  /// `-`, `@`, tab or CR gets an apostrophe before it (`=1+1` is written `'=1+1`, and
  /// ``record(_:)`` quotes it), which a spreadsheet takes as "this is text". So that a reader can
  /// tell that apostrophe from one of the text's own, a text of apostrophes before such a
  /// character (`'=1+1`) gets one more as well (`''=1+1`); any other text is written as it is
  /// (`'Til Tuesday`, `Rock-a-Bye`). ``readText(_:)`` takes the apostrophe off again. Figures keep
  /// their own notation and are not written through this (`-` for no previous rank, `=8` for a
  /// tie).
  ///
  /// - Parameter value: the text.
  /// - Returns: the cell's text, before ``record(_:)`` quotes it.
  public static func text(_ value: String) -> String {
    startsLikeAFormula(value.utf8) ? "'" + value : value
  }

  /// The text of a cell ``text(_:)`` wrote: without the apostrophe it put before a text that
  /// starts like a formula (`'=1+1` is `=1+1`, `''=1+1` is `'=1+1`); any other cell as it is
  /// (`'Til Tuesday`). Only ChartArchive's own CSV is read so: another program's CSV is read as
  /// it was written.
  ///
  /// - Parameter cell: the cell's text, unquoted.
  /// - Returns: the text that was written.
  public static func readText(_ cell: String) -> String {
    guard cell.utf8.first == apostrophe, startsLikeAFormula(cell.utf8.dropFirst()) else {
      return cell
    }
    return String(cell.dropFirst())
  }

  /// The UTF-8 of `'`.
  private static let apostrophe = UInt8(ascii: "'")

  /// Whether a text starts like a formula, after any apostrophes: with `=`, `+`, `-`, `@`, tab or
  /// CR (OWASP's list).
  private static func startsLikeAFormula(_ utf8: some Collection<UInt8>) -> Bool {
    guard let first = utf8.first(where: { $0 != apostrophe }) else { return false }
    switch first {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D:
      return true
    default: return false
    }
  }
}
