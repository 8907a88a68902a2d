public import ChartFormats
public import ChartRanking

/// One value of an output table.
public enum Cell: Equatable, Sendable {
  /// No value: empty in tables and CSV, `null` in JSON.
  case null
  /// An integer.
  case int(Int)
  /// Text: a title, an artist, a chart's name, a URL, a word. In CSV, a text that starts like a
  /// spreadsheet's formula is escaped (see ``csv``).
  case text(String)
  /// A figure in its source's notation, as text (a published trend: `+3`, `-2`, `=`, `NEW`):
  /// written as it is everywhere, in CSV too.
  case figure(String)
  /// Yes or no: `true` or `false` in JSON and CSV, `yes` or `no` in tables.
  case bool(Bool)
  /// A movement: its marker in tables, its kind in JSON and CSV.
  case movement(Movement)
  /// An integer with a mark after it in tables (`8*`), the integer alone in JSON and CSV.
  case marked(Int, mark: String)
  /// No value, with a mark in tables (`!`): `null` in JSON, empty in CSV.
  case markedNull(mark: String)

  /// An integer, or ``null`` when there is none.
  public static func optional(_ value: Int?) -> Cell { value.map(Cell.int) ?? .null }
  /// Text, or ``null`` when there is none.
  public static func optional(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }

  /// The value in JSON.
  public var json: JSONValue {
    switch self {
    case .null: .null
    case .int(let value): .int(value)
    case .text(let value), .figure(let value): .string(value)
    case .bool(let value): .bool(value)
    case .movement(let movement): .string(movement.kind)
    case .marked(let value, _): .int(value)
    case .markedNull: .null
    }
  }

  /// The text in CSV: empty for null; a text that starts with `=`, `+`, `-`, `@`, tab or CR with
  /// an apostrophe before it, so that a spreadsheet does not run it as a formula
  /// (``CSVWriter/text(_:)``; ``CSVWriter/record(_:)`` quotes it). Figures keep their notation.
  public var csv: String {
    switch self {
    case .null: ""
    case .int(let value): String(value)
    case .text(let value): CSVWriter.text(value)
    case .figure(let value): value
    case .bool(let value): value ? "true" : "false"
    case .movement(let movement): movement.kind
    case .marked(let value, _): String(value)
    case .markedNull: ""
    }
  }

  /// The text in a table for people, as ``terminalText(_:)`` shows it: control characters and
  /// bidirectional controls as U+FFFD.
  public var display: String {
    switch self {
    case .null: ""
    case .int(let value): String(value)
    case .text(let value), .figure(let value): terminalText(value)
    case .bool(let value): value ? "yes" : "no"
    case .movement(let movement): movement.marker
    case .marked(let value, let mark): String(value) + mark
    case .markedNull(let mark): mark
    }
  }
}

/// A column: its machine key (JSON and CSV) and its heading for people.
public struct Column: Sendable {
  /// The key in JSON objects and the CSV header, in snake case (`previous_rank`).
  public var key: String
  /// The heading in tables for people (`LAST`).
  public var heading: String
  /// Whether tables align the column's values right (numbers).
  public var alignRight: Bool
  /// Whether the column is shown in tables for people (JSON and CSV always have it).
  public var shownInTable: Bool
  /// Whether a table for people leaves the column out when none of its cells has a value.
  public var hiddenWhenEmpty: Bool

  /// A column.
  public init(
    key: String, heading: String, alignRight: Bool = false, shownInTable: Bool = true,
    hiddenWhenEmpty: Bool = false
  ) {
    self.key = key
    self.heading = heading
    self.alignRight = alignRight
    self.shownInTable = shownInTable
    self.hiddenWhenEmpty = hiddenWhenEmpty
  }
}

/// Rows of cells under columns, rendered as an aligned table, JSON objects or CSV records.
public struct Table: Sendable {
  /// The columns, in order.
  public var columns: [Column]
  /// The rows, each with one cell per column.
  public var rows: [[Cell]]

  /// A table of rows under columns.
  public init(columns: [Column], rows: [[Cell]] = []) {
    self.columns = columns
    self.rows = rows
  }

  /// An array of JSON objects, one per row, keyed by the columns' keys.
  public var json: JSONValue {
    .array(rows.map { row in .object(zip(columns, row).map { ($0.key, $1.json) }) })
  }

  /// Aligned columns with a heading line, two spaces between columns; no line ends in spaces.
  /// Movement markers are coloured when `style` says so.
  public func text(style: Style) -> String {
    let shown = columns.indices.filter { index in
      columns[index].shownInTable
        && !(columns[index].hiddenWhenEmpty && rows.allSatisfy { $0[index] == .null })
    }
    var widths = shown.map { displayWidth(columns[$0].heading) }
    for row in rows {
      for (position, index) in shown.enumerated() {
        widths[position] = max(widths[position], displayWidth(row[index].display))
      }
    }
    func line(_ texts: [String], painted: [String]) -> String {
      var output = ""
      for (position, index) in shown.enumerated() {
        let padding = String(
          repeating: " ", count: widths[position] - displayWidth(texts[position]))
        let isLast = position == shown.count - 1
        if columns[index].alignRight {
          output += padding + painted[position]
        } else {
          output += painted[position] + (isLast ? "" : padding)
        }
        if !isLast { output += "  " }
      }
      // Empty cells at the end of a row leave no spaces behind.
      while output.hasSuffix(" ") { output.removeLast() }
      return output
    }
    let headings = shown.map { columns[$0].heading }
    var lines = [line(headings, painted: headings.map { style.bold($0) })]
    for row in rows {
      let texts = shown.map { row[$0].display }
      let painted = shown.map { index in
        if case .movement(let movement) = row[index] { return style.paint(movement) }
        return row[index].display
      }
      lines.append(line(texts, painted: painted))
    }
    return lines.joined(separator: "\n")
  }
}

/// Text as a terminal shows it to people: control characters (an escape sequence in a title, a
/// line break) and Unicode's bidirectional controls (Bidi_Control: U+061C, U+200E, U+200F, U+202A
/// to U+202E, U+2066 to U+2069) become U+FFFD, so that a title cannot move the cursor, break a
/// table, or reverse or isolate what follows it on its line (a terminal isolates no cell, so the
/// controls are not kept there; JSON, CSV and the archive keep them).
func terminalText(_ text: String) -> String {
  // Printable ASCII, most text of most charts, needs nothing.
  if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
  func isShownAsReplacement(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.generalCategory == .control || scalar.properties.isBidiControl
  }
  guard text.unicodeScalars.contains(where: isShownAsReplacement) else { return text }
  return String(
    String.UnicodeScalarView(
      text.unicodeScalars.map { isShownAsReplacement($0) ? "\u{FFFD}" : $0 }))
}

/// The number of terminal columns a text takes: East Asian wide and full-width characters and
/// emoji take two, combining marks none (an approximation of Unicode Standard Annex #11).
public func displayWidth(_ text: String) -> Int {
  // Printable ASCII, most text of most charts: one column a byte, without looking up Unicode
  // properties (which would cost most of a long table's rendering).
  if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
  var width = 0
  for character in text {
    guard let scalar = character.unicodeScalars.first else { continue }
    let value = scalar.value
    if character.unicodeScalars.count > 1 && scalar.properties.isEmojiPresentation
      || scalar.properties.isEmojiPresentation
      || (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
      || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
      || (0xFE30...0xFE4F).contains(value) || (0xFF00...0xFF60).contains(value)
      || (0xFFE0...0xFFE6).contains(value) || (0x20000...0x3FFFD).contains(value)
    {
      width += 2
    } else if scalar.properties.generalCategory == .nonspacingMark
      || scalar.properties.generalCategory == .control
    {
      continue
    } else {
      width += 1
    }
  }
  return width
}
