/// Writes CSV (RFC 4180).
public enum CSVWriter {
  /// A CSV record: fields with a comma, quote, CR or LF quoted, quotes doubled, CRLF at the end.
  /// Looks at Unicode scalars: a comma followed by a combining mark is still a comma.
  ///
  /// - Parameter fields: the record's fields.
  /// - Returns: the record's text with its CRLF.
  public static func record(_ fields: [String]) -> String {
    fields.map { field in
      guard
        field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
        )
      else { return field }
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
}
