/// Text for a message on one line: control characters written as `\n`, `\t` or `\u{1B}`, and
/// Unicode's bidirectional controls (Bidi_Control: U+061C, U+200E, U+200F, U+202A to U+202E,
/// U+2066 to U+2069) as `\u{202E}`, so that a name cannot reverse or isolate the words after it.
func escaped(_ text: String) -> String {
  // Most names are printable ASCII, given back as they are: building the string again scalar by
  // scalar cost the report of a whole history's files some 40,000 instructions a name.
  if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
  var output = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": output += "\\n"
    case "\r": output += "\\r"
    case "\t": output += "\\t"
    case let control
    where control.properties.generalCategory == .control || control.properties.isBidiControl:
      output += "\\u{\(String(control.value, radix: 16, uppercase: true))}"
    default: output.unicodeScalars.append(scalar)
    }
  }
  return output
}

/// A scalar as Unicode writes it: `U+001B`, `U+1F3B5`.
func codePoint(_ scalar: Unicode.Scalar) -> String {
  let hex = String(scalar.value, radix: 16, uppercase: true)
  return "U+" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex
}
