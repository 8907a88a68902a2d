import ChartFormats
import ChartRanking

/// One value of an output table.
enum Cell: Equatable {
  case null
  case int(Int)
  case text(String)
  /// A movement: its marker in tables, its kind in JSON and CSV.
  case movement(Movement)

  var json: JSONValue {
    switch self {
    case .null: .null
    case .int(let value): .int(value)
    case .text(let value): .string(value)
    case .movement(let movement): .string(movement.kind)
    }
  }

  /// The text in CSV: empty for null.
  var csv: String {
    switch self {
    case .null: ""
    case .int(let value): String(value)
    case .text(let value): value
    case .movement(let movement): movement.kind
    }
  }

  /// The text in a table for people: control characters (an escape sequence in a title, a line
  /// break) are shown as U+FFFD so that they cannot move the cursor or break the table.
  var display: String {
    switch self {
    case .null: ""
    case .int(let value): String(value)
    case .text(let value):
      value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        ? String(
          String.UnicodeScalarView(
            value.unicodeScalars.map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }
          ))
        : value
    case .movement(let movement): movement.marker
    }
  }
}

/// A column: its machine key (JSON and CSV) and its heading for people.
struct Column {
  var key: String
  var heading: String
  var alignRight = false
  /// Whether the column is shown in tables for people (JSON and CSV always have it).
  var shownInTable = true
  /// Whether a table for people leaves the column out when none of its cells has a value.
  var hiddenWhenEmpty = false
}

/// Rows of cells under columns, rendered as an aligned table, JSON objects or CSV records.
struct Table {
  var columns: [Column]
  var rows: [[Cell]] = []

  /// An array of JSON objects, one per row, keyed by the columns' keys.
  var json: JSONValue {
    .array(rows.map { row in .object(zip(columns, row).map { ($0.key, $1.json) }) })
  }

  /// Aligned columns with a heading line, two spaces between columns; no line ends in spaces.
  /// Movement markers are coloured when `style` says so.
  func text(style: Style) -> String {
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

/// The number of terminal columns a text takes: East Asian wide and full-width characters and
/// emoji take two, combining marks none (an approximation of Unicode Standard Annex #11).
func displayWidth(_ text: String) -> Int {
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

/// How text for people is decorated: ANSI colours on a terminal, nothing otherwise.
struct Style {
  var colors: Bool

  /// Colours are used when standard output is a terminal, `NO_COLOR` is unset or empty
  /// (<https://no-color.org>) and `TERM` is not `dumb`.
  static func forOutput(isTerminal: Bool, environment: [String: String]) -> Style {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    return Style(colors: isTerminal && !noColor && environment["TERM"] != "dumb")
  }

  func bold(_ text: String) -> String { colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

  func paint(_ movement: Movement) -> String {
    guard colors else { return movement.marker }
    let code =
      switch movement {
      case .up: "32"
      case .down: "31"
      case .unchanged: "2"
      case .debut: "33"
      case .reentry: "36"
      }
    return "\u{1B}[\(code)m\(movement.marker)\u{1B}[0m"
  }
}
