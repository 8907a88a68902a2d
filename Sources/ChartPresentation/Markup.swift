/// Text written into HTML and SVG: always as text, never as markup, and never reordering what
/// follows it.
///
/// The five characters that mean something in markup (`&`, `<`, `>`, `"`, `'`) become character
/// references everywhere, in text and in attribute values alike, so that a title
/// `<script>alert(1)</script>` shows as those characters. Characters XML 1.0 does not allow (C0
/// controls other than tab, line feed and carriage return, U+FFFE and U+FFFF;
/// <https://www.w3.org/TR/xml/#charsets>) become U+FFFD, so that an SVG picture of any title is
/// well-formed. Unicode's bidirectional controls (Bidi_Control: U+061C, U+200E, U+200F, U+202A to
/// U+202E, U+2066 to U+2069) become U+FFFD too, so that a title holding U+202E (right-to-left
/// override) cannot reverse the text after it; a title or an artist in a page's text is written
/// by ``appendIsolated(_:to:)`` instead, inside `<bdi>`, which keeps the marks.
public enum Markup {
  /// The text with markup characters escaped (see ``Markup``).
  static func escaped(_ text: String) -> String {
    var output = ""
    append(text, to: &output)
    return output
  }

  /// Appends the text, escaped (see ``Markup``): every bidirectional control becomes U+FFFD.
  static func append(_ text: String, to output: inout String) {
    append(text, keepingMarks: false, to: &output)
  }

  /// The text escaped inside `<bdi>` (see ``appendIsolated(_:to:)``).
  static func isolated(_ text: String) -> String {
    var output = ""
    appendIsolated(text, to: &output)
    return output
  }

  /// Appends a text people read as one piece (a title, an artist credit) inside `<bdi>` (HTML's
  /// bidirectional isolate, <https://html.spec.whatwg.org/#the-bdi-element>), escaped: its own
  /// direction (a Hebrew or Arabic title's) is kept to itself, and what follows it (an artist, the
  /// figures, a link) keeps its order. The embeddings, overrides and isolates (U+202A to U+202E,
  /// U+2066 to U+2069) become U+FFFD even so, since a stray U+2069 would close the `<bdi>` from
  /// inside; the marks (U+061C, U+200E, U+200F), which only set the direction of the characters
  /// beside them, stay as the title has them.
  static func appendIsolated(_ text: String, to output: inout String) {
    output += "<bdi>"
    append(text, keepingMarks: true, to: &output)
    output += "</bdi>"
  }

  /// Appends the text, escaped, with the bidirectional marks kept or not.
  private static func append(_ text: String, keepingMarks: Bool, to output: inout String) {
    // Most titles need nothing: one pass over the bytes to tell.
    if !text.utf8.contains(where: needsWork) {
      output += text
      return
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": output += "&amp;"
      case "<": output += "&lt;"
      case ">": output += "&gt;"
      case "\"": output += "&quot;"
      case "'": output += "&#39;"
      case "\u{061C}", "\u{200E}", "\u{200F}":
        output.unicodeScalars.append(keepingMarks ? scalar : "\u{FFFD}")
      default:
        output.unicodeScalars.append(
          isForbidden(scalar) || scalar.properties.isBidiControl ? "\u{FFFD}" : scalar)
      }
    }
  }

  /// Whether a byte may need escaping: a markup character, a control, 0xEF, which begins the
  /// UTF-8 of U+FFFE and U+FFFF, or 0xD8 and 0xE2, which begin that of the bidirectional controls
  /// (and of other characters, looked at one by one then).
  private static func needsWork(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
      || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte < 0x20 || byte == 0x7F
      || byte == 0xEF || byte == 0xE2 || byte == 0xD8
  }

  /// Whether XML 1.0 refuses the character (HTML's parsers take the controls, but a picture must
  /// be XML): C0 controls other than tab, line feed and carriage return, DEL (a control a
  /// browser shows as nothing), U+FFFE and U+FFFF.
  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || value == 0x7F
      || value == 0xFFFE || value == 0xFFFF
  }

  /// A URL from the archive (an image or a song's page, as the source gave it) when it is one a
  /// page may link to or load: `http` or `https` only (never `javascript:` or `data:`), without
  /// spaces or control characters; `nil` otherwise.
  static func webURL(_ text: String?) -> String? {
    guard let text else { return nil }
    let lower = text.prefix(8).lowercased()
    guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
      return nil
    }
    return text
  }

  /// A path segment percent-encoded (RFC 3986, section 3.3): every byte but the unreserved
  /// characters (letters, digits, `-`, `.`, `_`, `~`) and `:` written `%XX`, so that a chart
  /// named `a/b` or `a?b` stays one segment. It does as a query's value too (RFC 3986, section
  /// 3.4: `&`, `=`, `+` and `#` written `%XX`), as the service's `Link` headers write them.
  public static func pathSegment(_ text: String) -> String {
    var output = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"):
        output.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        output.unicodeScalars.append("%")
        output.unicodeScalars.append(hex[Int(byte >> 4)])
        output.unicodeScalars.append(hex[Int(byte & 0x0F)])
      }
    }
    return output
  }

  /// A query value percent-encoded as a form sends it (`+` for a space).
  static func queryValue(_ text: String) -> String {
    pathSegment(text).replacing("%20", with: "+")
  }
}
