import ChartFormats

/// A document of titled tables: printed for people as headed blocks, as one JSON object (leading
/// fields, then each table under its key), or as one CSV table (leading fields and the section
/// name as columns).
public struct Document: Presentation {
  /// Fields before the tables: a JSON object's first members, CSV columns repeated on each row.
  public var fields: [(key: String, value: Cell)] = []
  /// Lines printed above the tables for people.
  public var heading: [String] = []
  /// The tables: their key (JSON member, CSV `section` column), title for people and rows.
  public var sections: [(key: String, title: String, table: Table)] = []
  /// Sections whose table is not known (the drop-outs of a chart's first snapshot): their key
  /// (`null` in JSON, absent from CSV) and the line printed for people, after the tables.
  public var unknownSections: [(key: String, title: String)] = []
  /// Lines printed below the tables for people.
  public var footer: [String] = []

  /// An empty document.
  public init() {}

  /// A document of one table without a title, after its fields.
  ///
  /// - Parameters:
  ///   - key: the table's key (the JSON member it is under).
  ///   - table: the table.
  ///   - fields: fields before it.
  public init(_ key: String, _ table: Table, fields: [(key: String, value: Cell)] = []) {
    self.fields = fields
    sections = [(key, "", table)]
  }

  /// The document's text (see ``Presentation/rendered(as:style:)``).
  public func rendered(as format: OutputFormat, style: Style) -> String {
    switch format {
    case .json:
      let members =
        fields.map { ($0.key, $0.value.json) } + sections.map { ($0.key, $0.table.json) }
        + unknownSections.map { ($0.key, JSONValue.null) }
      return JSONValue.object(members).encoded() + "\n"
    case .csv:
      var columns: [String] = fields.map(\.key)
      if sections.count > 1 { columns.append("section") }
      for section in sections {
        for column in section.table.columns where !columns.contains(column.key) {
          columns.append(column.key)
        }
      }
      var output = CSVWriter.record(columns)
      for section in sections {
        for row in section.table.rows {
          var values: [String: String] = ["section": section.key]
          for field in fields { values[field.key] = field.value.csv }
          for (column, cell) in zip(section.table.columns, row) { values[column.key] = cell.csv }
          output += CSVWriter.record(columns.map { values[$0] ?? "" })
        }
      }
      return output
    case .table:
      var blocks: [String] = []
      // A heading names a chart, whose name may hold what a terminal must not be given.
      if !heading.isEmpty {
        blocks.append(heading.map { style.bold(terminalText($0)) }.joined(separator: "\n"))
      }
      for section in sections {
        var block = section.title.isEmpty ? "" : section.title + "\n"
        block += section.table.rows.isEmpty ? "  (none)" : section.table.text(style: style)
        blocks.append(block)
      }
      blocks += unknownSections.map(\.title)
      if !footer.isEmpty { blocks.append(footer.joined(separator: "\n")) }
      return blocks.joined(separator: "\n\n") + "\n"
    }
  }
}
