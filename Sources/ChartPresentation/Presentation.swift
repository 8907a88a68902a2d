/// The formats query results are rendered in.
public enum OutputFormat: String, CaseIterable, Sendable {
  /// Aligned tables for people, with headings and blank lines between sections.
  case table
  /// One JSON object (RFC 8259), indented.
  case json
  /// One CSV table (RFC 4180), CRLF line ends.
  case csv
}

/// What every view of the product renders to: the same bytes for the command line's standard
/// output and the HTTP service's responses.
public protocol Presentation: Sendable {
  /// The text in a format, with its final line end.
  ///
  /// - Parameters:
  ///   - format: table, JSON or CSV.
  ///   - style: colours for tables on a terminal; ignored by JSON and CSV.
  func rendered(as format: OutputFormat, style: Style) -> String
}
