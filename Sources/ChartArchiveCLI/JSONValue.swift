import ChartFormats

/// A JSON value with its object keys kept in the order they were added, for stable output.
enum JSONValue: Equatable {
  case null
  case bool(Bool)
  case int(Int)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    lhs.serialized() == rhs.serialized()
  }

  /// RFC 8259 text, indented by two spaces.
  func serialized(indent: Int = 0) -> String {
    var output = ""
    write(to: &output, indent: indent)
    return output
  }

  private func write(to output: inout String, indent: Int) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .string(let value): Self.writeString(value, to: &output)
    case .array(let values):
      guard !values.isEmpty else {
        output += "[]"
        return
      }
      output += "[\n"
      for (index, value) in values.enumerated() {
        output += String(repeating: " ", count: indent + 2)
        value.write(to: &output, indent: indent + 2)
        output += index + 1 < values.count ? ",\n" : "\n"
      }
      output += String(repeating: " ", count: indent) + "]"
    case .object(let members):
      guard !members.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      for (index, (key, value)) in members.enumerated() {
        output += String(repeating: " ", count: indent + 2)
        Self.writeString(key, to: &output)
        output += ": "
        value.write(to: &output, indent: indent + 2)
        output += index + 1 < members.count ? ",\n" : "\n"
      }
      output += String(repeating: " ", count: indent) + "}"
    }
  }

  private static func writeString(_ text: String, to output: inout String) {
    output += NativeFormatWriter.quoted(text)
  }
}
