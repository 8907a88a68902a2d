import Foundation

/// A JSON value to write (RFC 8259: <https://www.rfc-editor.org/rfc/rfc8259>): the one JSON
/// encoder of the product, for the native format's files, the command line's `--format json` and
/// the HTTP service's responses. Object members keep the order they are given in, so that output
/// is stable.
///
/// ```swift
/// JSONValue.object([("rank", .int(1)), ("title", .string("Café"))]).encoded(.singleLine)
/// // {"rank": 1, "title": "Café"}
/// ```
public enum JSONValue: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer, written in decimal.
  case int(Int)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object: its members, in order.
  case object([(String, JSONValue)])

  /// How the text is laid out.
  public enum Style: Sendable {
    /// One member or element a line, indented by two spaces a level, `"key": value`: for people
    /// reading `--format json`.
    case indented
    /// All on one line, with `", "` between members and `": "` after keys: one snapshot per line
    /// in an export.
    case singleLine
    /// All on one line without spaces: for machines (HTTP responses).
    case compact
  }

  /// An integer, or `null` when there is none.
  public init(_ value: Int?) { self = value.map(JSONValue.int) ?? .null }
  /// A string, or `null` when there is none.
  public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let left), .bool(let right)): left == right
    case (.int(let left), .int(let right)): left == right
    case (.string(let left), .string(let right)): left == right
    case (.array(let left), .array(let right)): left == right
    case (.object(let left), .object(let right)):
      left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: false
    }
  }

  /// The JSON text.
  ///
  /// - Parameter style: the layout; ``Style/indented`` by default.
  /// - Returns: the text, without a line break at the end.
  public func encoded(_ style: Style = .indented) -> String {
    var output = ""
    write(to: &output, style: style, indent: 0)
    return output
  }

  private func write(to output: inout String, style: Style, indent: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .string(let value): Self.appendQuoted(value, to: &output)
    case .array(let values):
      writeList(values.count, open: "[", close: "]", to: &output, style: style, indent: indent) {
        output, index in values[index].write(to: &output, style: style, indent: indent + 2)
      }
    case .object(let members):
      writeList(members.count, open: "{", close: "}", to: &output, style: style, indent: indent) {
        output, index in
        Self.appendQuoted(members[index].0, to: &output)
        output += style == .compact ? ":" : ": "
        members[index].1.write(to: &output, style: style, indent: indent + 2)
      }
    }
  }

  private func writeList(
    _ count: Int, open: String, close: String, to output: inout String, style: Style,
    indent: Int, element: (inout String, Int) -> Void
  ) {
    output += open
    guard count > 0 else {
      output += close
      return
    }
    for index in 0..<count {
      switch style {
      case .indented:
        output += index == 0 ? "\n" : ",\n"
        output += String(repeating: " ", count: indent + 2)
      case .singleLine: if index > 0 { output += ", " }
      case .compact: if index > 0 { output += "," }
      }
      element(&output, index)
    }
    if style == .indented { output += "\n" + String(repeating: " ", count: indent) }
    output += close
  }

  /// A JSON string literal: quotes, backslashes and control characters escaped (RFC 8259
  /// section 7), everything else as it is.
  ///
  /// - Parameter text: any text.
  /// - Returns: the literal, with its quotes.
  public static func quoted(_ text: String) -> String {
    var output = ""
    appendQuoted(text, to: &output)
    return output
  }

  private static func appendQuoted(_ text: String, to output: inout String) {
    output += "\""
    // Most text needs no escape: it is appended whole.
    if !text.utf8.contains(where: {
      $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
    }) {
      output += text
      output += "\""
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case let control where control.value < 0x20:
        output += String(format: "\\u%04x", control.value)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}
