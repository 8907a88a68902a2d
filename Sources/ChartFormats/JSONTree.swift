import CYAJL

#if canImport(Glibc)
  import Glibc
#endif

/// A JSON value as read from a chart file, with numbers kept as written so that a rank is read as
/// an exact integer (RFC 8259: <https://www.rfc-editor.org/rfc/rfc8259>). The product writes JSON
/// with ``JSONValue``.
enum JSONTree {
  case null
  case bool(Bool)
  /// A number as written (`12`, `-3`, `1.5`, `1e3`).
  case number(String)
  case string(String)
  case array([JSONTree])
  case object(JSONObject)

  /// Whether the value is an object.
  var isObject: Bool {
    if case .object = self { true } else { false }
  }

  /// The value as an integer: an integer as written, or a number with a fraction or exponent
  /// whose value is a whole number that fits (`1.0`, `1e2`); `nil` for anything else.
  var integer: Int? {
    guard case .number(let text) = self else { return nil }
    if let value = Int(text) { return value }
    if case .value(let value) = Self.wholeNumber(text) { return value }
    return nil
  }

  /// A whole number's value, or the side of an `Int`'s range it is beyond.
  enum WholeNumber: Equatable {
    /// The number fits in an `Int`.
    case value(Int)
    /// The number is above `Int.max` (9223372036854775807).
    case tooLarge
    /// The number is below `Int.min` (-9223372036854775808).
    case tooSmall
  }

  /// The exact value of a JSON number when it is a whole number (`12`, `1.0`, `2e0`, `1.5e1`), or
  /// the side of an `Int`'s range it is beyond (`99999999999999999999`, `1e30`, `-1e30`); `nil`
  /// for a number that is not whole (`1.5`, `1e-400`, `0.99999999999999999999`). Computed on the
  /// digits, not through a `Double`, which rounds.
  static func wholeNumber(_ text: String) -> WholeNumber? {
    let bytes = Array(text.utf8)
    func isDigit(_ index: Int) -> Bool {
      index < bytes.count && bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
    }
    var index = 0
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { index += 1 }
    var digits: [UInt8] = []
    while isDigit(index) {
      digits.append(bytes[index] - UInt8(ascii: "0"))
      index += 1
    }
    var fractionDigits = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while isDigit(index) {
        digits.append(bytes[index] - UInt8(ascii: "0"))
        fractionDigits += 1
        index += 1
      }
    }
    var exponent = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      var exponentNegative = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")
      {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      while isDigit(index) {
        // Beyond a million the answer no longer depends on the exponent's exact value.
        exponent = min(exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
        index += 1
      }
      if exponentNegative { exponent = -exponent }
    }
    guard index == bytes.count, !digits.isEmpty else { return nil }
    // The value is digits × 10^shift.
    let shift = exponent - fractionDigits
    if shift < 0 {
      // The last -shift digits must be zeros.
      let kept = digits.count + shift
      guard digits[max(kept, 0)...].allSatisfy({ $0 == 0 }) else { return nil }
      digits.removeLast(min(-shift, digits.count))
    } else if digits.contains(where: { $0 != 0 }) {
      // At least 10^20, beyond an Int's range.
      guard shift <= 19 else { return negative ? .tooSmall : .tooLarge }
      digits += repeatElement(0, count: shift)
    }
    var value = 0
    for digit in digits {
      let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = scaled.addingReportingOverflow(negative ? -Int(digit) : Int(digit))
      guard !overflow, !overflow2 else { return negative ? .tooSmall : .tooLarge }
      value = next
    }
    return .value(value)
  }
}

/// A JSON object: its members in the order written.
struct JSONObject {
  var keys: [String]
  var values: [JSONTree]

  /// The value of the first member named `key`, or `nil` when there is none.
  subscript(key: String) -> JSONTree? {
    guard let index = keys.firstIndex(of: key) else { return nil }
    return values[index]
  }

  /// The names given to more than one member, each once, in the order of their second use.
  var repeatedKeys: [String] {
    var repeated: [String] = []
    if keys.count <= 16 {
      // An entry's few keys: comparing them pairwise is cheaper than hashing them.
      for (index, key) in keys.enumerated().dropFirst()
      where keys[..<index].contains(key) && !repeated.contains(key) {
        repeated.append(key)
      }
      return repeated
    }
    var seen: Set<String> = []
    var reported: Set<String> = []
    for key in keys where !seen.insert(key).inserted && reported.insert(key).inserted {
      repeated.append(key)
    }
    return repeated
  }
}

/// Why a text is not JSON, and where.
struct JSONSyntaxError: Error, CustomStringConvertible {
  /// What is wrong, as the parser says it.
  var message: String
  /// Where, 1-based; the column counts characters (UTF-8 sequences), not bytes.
  var line: Int
  var column: Int
  /// Whether the text is JSON but a string or a number in it is longer than
  /// ``ChartFileReader/maximumFieldLength`` (at `line` and `column`).
  var isFieldTooLong = false
  /// Whether the text holds more than ``JSONTree/maximumValues`` values (the one at `line` and
  /// `column` is past the bound).
  var hasTooManyValues = false

  var description: String { "\(message) (line \(line), column \(column))" }
}

extension JSONTree {
  /// The deepest nesting of arrays and objects accepted.
  static let maximumDepth = 512
  /// The most values (strings, numbers, booleans, nulls, arrays and objects, each counted) a
  /// JSON text read whole may hold: 262,144. A value costs up to some 450 bytes of memory (an
  /// object's room for its fields), so that a text at the bound takes about 120 MB; a chart
  /// file of one snapshot holds far fewer (a Hot 100 week about 900, Spotify's charts site's top
  /// 200 some 20,000, a Last.fm listener's busiest week some 150,000). An export's snapshots are
  /// read one at a time, each its own text.
  static let maximumValues = 1 << 18

  /// Parses one JSON text with yajl (Debian's libyajl: <https://lloyd.github.io/yajl/>), which
  /// checks the grammar and that strings are UTF-8, and refuses comments, trailing commas and
  /// anything after the value.
  ///
  /// - Parameter bytes: the text, UTF-8; a leading byte order mark is skipped.
  /// - Returns: the value.
  /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONTree {
    let text = withoutByteOrderMark(bytes)
    let builder = TreeBuilder(text: text)
    let context = Unmanaged.passUnretained(builder).toOpaque()
    let result: Result<JSONTree, JSONSyntaxError> = withUnsafePointer(to: TreeBuilder.callbacks) {
      callbacks in
      guard let handle = yajl_alloc(callbacks, nil, context) else {
        return .failure(JSONSyntaxError(message: "out of memory", line: 1, column: 1))
      }
      defer { yajl_free(handle) }
      let start = text.baseAddress?.assumingMemoryBound(to: UInt8.self)
      var status = yajl_parse(handle, start, text.count)
      // Where the problem is: the byte yajl stopped at, or the end for a text cut short.
      var offset = max(min(yajl_get_bytes_consumed(handle), text.count) - 1, 0)
      if status == yajl_status_ok {
        status = yajl_complete_parse(handle)
        offset = text.count
      }
      if status == yajl_status_ok, let root = builder.root {
        // yajl decodes a \u escape of a lone UTF-16 surrogate into other text without a word.
        guard let lone = Self.loneSurrogateEscape(in: text) else { return .success(root) }
        let (line, column) = Self.position(of: lone, in: text)
        return .failure(
          JSONSyntaxError(message: Self.loneSurrogateMessage, line: line, column: column))
      }
      var message: String
      if let problem = builder.problem {
        message = problem
        if let at = builder.problemOffset {
          offset = at
        } else if let lone = Self.loneSurrogateEscape(in: text) {
          // A string with escapes that decoded to bytes that are not UTF-8: yajl's decoding of a
          // lone low surrogate.
          message = Self.loneSurrogateMessage
          offset = lone
        }
      } else if let error = yajl_get_error(handle, 0, start, text.count) {
        message = Self.tidy(String(cString: error))
        yajl_free_error(handle, error)
      } else {
        message = "the JSON text is malformed"
      }
      let (line, column) = Self.position(of: offset, in: text)
      return .failure(
        JSONSyntaxError(
          message: message, line: line, column: column, isFieldTooLong: builder.fieldTooLong,
          hasTooManyValues: builder.tooManyValues))
    }
    return try result.get()
  }

  /// yajl's message in plain words, without its "parse error: " or "lexical error: " lead and
  /// final full stop.
  static func tidy(_ message: String) -> String {
    var text = message.trimmingPrefix("parse error: ").trimmingPrefix("lexical error: ")
    while let last = text.last, last == "\n" || last == "." || last == " " { text.removeLast() }
    return plainWords[String(text)] ?? String(text)
  }

  /// yajl's commonest messages (yajl_lex.c, yajl_parser.c) as a user would say them.
  private static let plainWords = [
    "premature EOF": "the text ends before the JSON value is complete",
    "trailing garbage": "more text after the JSON value",
    "invalid char in json text": "unexpected character",
    "unallowed token at this point in JSON text":
      "unexpected token (a comma before a closing bracket?)",
    "invalid bytes in UTF8 string": "a string that is not valid UTF-8",
    "invalid character inside string": "a control character not escaped inside a string",
  ]

  /// What a `\u` escape of an unpaired surrogate is called in messages.
  static let loneSurrogateMessage = "a \\u escape of a lone UTF-16 surrogate (not a character)"

  /// `bytes` without a leading UTF-8 byte order mark.
  static func withoutByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else {
      return bytes
    }
    return UnsafeRawBufferPointer(rebasing: bytes[3...])
  }

  /// The text of a string's UTF-8 bytes as yajl gives them, or `nil` when they are not valid
  /// UTF-8: yajl checks the bytes' pattern only, so overlong forms, encoded surrogates and values
  /// above U+10FFFF pass it.
  static func text(ofUTF8 bytes: UnsafePointer<UInt8>?, count: Int) -> String? {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    // ASCII is valid UTF-8 and decodes without repairs; most chart text is ASCII, and the generic
    // validation costs more than the decoding.
    if !buffer.contains(where: { $0 >= 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
    return String(validating: buffer, as: UTF8.self)
  }

  /// The offset of the first `\u` escape in a string of a JSON text that is a UTF-16 surrogate
  /// without its partner (RFC 8259 section 8.2: such a string is not Unicode text), or `nil`.
  /// The text is valid JSON up to the first escape that is wrong, so every backslash before it
  /// starts an escape inside a string.
  static func loneSurrogateEscape(in text: UnsafeRawBufferPointer) -> Int? {
    let backslash = UInt8(ascii: "\\")
    func hexValue(at offset: Int) -> Int? {
      guard offset + 4 <= text.count else { return nil }
      var value = 0
      for byte in text[offset..<offset + 4] {
        let digit: Int
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = Int(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        value = value * 16 + digit
      }
      return value
    }
    // The text parsed, so a backslash is always inside a string and starts an escape: jump from
    // one backslash to the next.
    guard let base = text.baseAddress else { return nil }
    var index = 0
    while index < text.count, let found = memchr(base + index, Int32(backslash), text.count - index)
    {
      index = UnsafeRawPointer(found) - base
      if index + 1 < text.count, text[index + 1] == UInt8(ascii: "u"),
        let unit = hexValue(at: index + 2)
      {
        if (0xDC00...0xDFFF).contains(unit) { return index }
        if (0xD800...0xDBFF).contains(unit) {
          // A high surrogate must be followed at once by a \u escape of a low one.
          let next = index + 6
          guard next + 1 < text.count, text[next] == backslash, text[next + 1] == UInt8(ascii: "u"),
            let low = hexValue(at: next + 2), (0xDC00...0xDFFF).contains(low)
          else { return index }
          index = next + 6
        } else {
          index += 6
        }
      } else {
        index += 2  // any other escape: the backslash and the escaped character
      }
    }
    return nil
  }

  /// The 1-based line and column of a byte offset.
  private static func position(of offset: Int, in text: UnsafeRawBufferPointer) -> (Int, Int) {
    var line = 1
    var column = 1
    for byte in text.prefix(offset) {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }
}

/// Builds a ``JSONTree`` from yajl's events, one open array or object per level.
final class TreeBuilder {
  struct Level {
    var isObject: Bool
    var keys: [String] = []
    var values: [JSONTree] = []

    /// A level with room for a chart entry's fields (or the first entries of a list) before
    /// its arrays grow.
    init(isObject: Bool) {
      self.isObject = isObject
      if isObject { keys.reserveCapacity(8) }
      values.reserveCapacity(8)
    }
  }
  // yajl calls back for every value: the builder's state is touched only from those calls, one
  // at a time, so the run-time exclusivity checks on it are skipped.
  @exclusivity(unchecked) var levels: [Level] = []
  @exclusivity(unchecked) var root: JSONTree?
  /// Why the builder stopped the parse, when it did, and where when known.
  var problem: String?
  var problemOffset: Int?
  /// Whether it stopped at a string or a number longer than
  /// ``ChartFileReader/maximumFieldLength``.
  var fieldTooLong = false
  /// How many values it has been given, and whether it stopped past ``JSONTree/maximumValues``.
  var valueCount = 0
  var tooManyValues = false
  /// The text parsed, to tell where a string the builder refuses is.
  let text: UnsafeRawBufferPointer

  init(text: UnsafeRawBufferPointer) { self.text = text }

  /// The string of UTF-8 bytes (``JSONTree/text(ofUTF8:count:)``), or `nil` with the problem
  /// noted.
  func string(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> String? {
    if count > ChartFileReader.maximumFieldLength {
      fieldTooLong = true
      problem = "a string longer than the bound on a field"
    } else if let text = JSONTree.text(ofUTF8: bytes, count: count) {
      return text
    } else {
      problem = "a string that is not valid UTF-8"
    }
    if let bytes, let base = text.baseAddress,
      UnsafeRawPointer(bytes) >= base, UnsafeRawPointer(bytes) < base + text.count
    {
      problemOffset = UnsafeRawPointer(bytes) - base
    }
    return nil
  }

  /// Counts one more value; `false` with the problem noted past ``JSONTree/maximumValues``.
  func counted() -> Bool {
    valueCount += 1
    guard valueCount > JSONTree.maximumValues else { return true }
    tooManyValues = true
    problem =
      "more than \(JSONTree.maximumValues) values (strings, numbers, arrays, objects …), the"
      + " most a file of one snapshot holds"
    return false
  }

  /// Adds a value to the open array or object (or makes it the root); `counting` it but for an
  /// array or an object, counted when it opened.
  func add(_ value: JSONTree, counting: Bool = true) -> Int32 {
    if counting, !counted() { return 0 }
    if levels.isEmpty {
      root = value
    } else {
      levels[levels.count - 1].values.append(value)
    }
    return 1
  }

  func open(isObject: Bool) -> Int32 {
    guard counted() else { return 0 }
    guard levels.count < JSONTree.maximumDepth else {
      problem = "arrays and objects nested more than \(JSONTree.maximumDepth) deep"
      return 0
    }
    levels.append(Level(isObject: isObject))
    return 1
  }

  func close() -> Int32 {
    let level = levels.removeLast()
    return add(
      level.isObject
        ? .object(JSONObject(keys: level.keys, values: level.values)) : .array(level.values),
      counting: false)
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> TreeBuilder {
    Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
  }

  static let callbacks = yajl_callbacks(
    yajl_null: { from($0).add(.null) },
    yajl_boolean: { from($0).add(.bool($1 != 0)) },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { context, bytes, count in
      guard count <= ChartFileReader.maximumFieldLength else {
        let builder = from(context)
        builder.fieldTooLong = true
        builder.problem = "a number longer than the bound on a field"
        return 0
      }
      return from(context).add(
        .number(
          bytes.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self)
          } ?? ""))
    },
    yajl_string: { context, bytes, count in
      let builder = from(context)
      guard let text = builder.string(bytes, count) else { return 0 }
      return builder.add(.string(text))
    },
    yajl_start_map: { from($0).open(isObject: true) },
    yajl_map_key: { context, bytes, count in
      let builder = from(context)
      guard let key = builder.string(bytes, count) else { return 0 }
      builder.levels[builder.levels.count - 1].keys.append(key)
      return 1
    },
    yajl_end_map: { from($0).close() },
    yajl_start_array: { from($0).open(isObject: false) },
    yajl_end_array: { from($0).close() })
}
