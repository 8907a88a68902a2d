import CYAJL

/// A JSON value as read from a chart file, with numbers kept as written so that a rank is read as
/// an exact integer (RFC 8259: <https://www.rfc-editor.org/rfc/rfc8259>).
enum JSONValue {
  case null
  case bool(Bool)
  /// A number as written (`12`, `-3`, `1.5`, `1e3`).
  case number(String)
  case string(String)
  case array([JSONValue])
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
    guard let value = Double(text), value.rounded() == value, let integer = Int(exactly: value)
    else { return nil }
    return integer
  }
}

/// A JSON object: its members in the order written.
struct JSONObject {
  var keys: [String]
  var values: [JSONValue]

  /// The value of the first member named `key`, or `nil` when there is none.
  subscript(key: String) -> JSONValue? {
    guard let index = keys.firstIndex(of: key) else { return nil }
    return values[index]
  }

  /// The names given to more than one member, each once, in the order written.
  var repeatedKeys: [String] {
    var repeated: [String] = []
    for (index, key) in keys.enumerated() where !repeated.contains(key) {
      if keys[(index + 1)...].contains(key) { repeated.append(key) }
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

  var description: String { "\(message) (line \(line), column \(column))" }
}

extension JSONValue {
  /// The deepest nesting of arrays and objects accepted.
  static let maximumDepth = 512

  /// Parses one JSON text with yajl (Debian's libyajl: <https://lloyd.github.io/yajl/>), which
  /// checks the grammar and that strings are UTF-8, and refuses comments, trailing commas and
  /// anything after the value.
  ///
  /// - Parameter bytes: the text, UTF-8; a leading byte order mark is skipped.
  /// - Returns: the value.
  /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
  static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
    var text = bytes
    if text.count >= 3, text[0] == 0xEF, text[1] == 0xBB, text[2] == 0xBF {
      text = UnsafeRawBufferPointer(rebasing: text[3...])
    }
    let builder = TreeBuilder()
    let context = Unmanaged.passUnretained(builder).toOpaque()
    let result: Result<JSONValue, JSONSyntaxError> = withUnsafePointer(to: TreeBuilder.callbacks) {
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
      if status == yajl_status_ok, let root = builder.root { return .success(root) }
      let message: String
      if let problem = builder.problem {
        message = problem
      } else if let error = yajl_get_error(handle, 0, start, text.count) {
        message = Self.tidy(String(cString: error))
        yajl_free_error(handle, error)
      } else {
        message = "the JSON text is malformed"
      }
      let (line, column) = Self.position(of: offset, in: text)
      return .failure(JSONSyntaxError(message: message, line: line, column: column))
    }
    return try result.get()
  }

  /// yajl's message in plain words, without its "parse error: " or "lexical error: " lead and
  /// final full stop.
  private static func tidy(_ message: String) -> String {
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

/// Builds a ``JSONValue`` from yajl's events, one open array or object per level.
private final class TreeBuilder {
  struct Level {
    var isObject: Bool
    var keys: [String] = []
    var values: [JSONValue] = []
  }
  var levels: [Level] = []
  var root: JSONValue?
  /// Why the builder stopped the parse, when it did.
  var problem: String?

  func add(_ value: JSONValue) -> Int32 {
    if levels.isEmpty {
      root = value
    } else {
      levels[levels.count - 1].values.append(value)
    }
    return 1
  }

  func open(isObject: Bool) -> Int32 {
    guard levels.count < JSONValue.maximumDepth else {
      problem = "arrays and objects nested more than \(JSONValue.maximumDepth) deep"
      return 0
    }
    levels.append(Level(isObject: isObject))
    return 1
  }

  func close() -> Int32 {
    let level = levels.removeLast()
    return add(
      level.isObject
        ? .object(JSONObject(keys: level.keys, values: level.values)) : .array(level.values))
  }

  static func from(_ context: UnsafeMutableRawPointer?) -> TreeBuilder {
    Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
  }

  static func text(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  static let callbacks = yajl_callbacks(
    yajl_null: { from($0).add(.null) },
    yajl_boolean: { from($0).add(.bool($1 != 0)) },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { context, bytes, count in
      from(context).add(
        .number(
          bytes.map {
            String(decoding: UnsafeRawBufferPointer(start: $0, count: count), as: UTF8.self)
          } ?? ""))
    },
    yajl_string: { from($0).add(.string(text($1, $2))) },
    yajl_start_map: { from($0).open(isObject: true) },
    yajl_map_key: { context, bytes, count in
      let builder = from(context)
      builder.levels[builder.levels.count - 1].keys.append(text(bytes, count))
      return 1
    },
    yajl_end_map: { from($0).close() },
    yajl_start_array: { from($0).open(isObject: false) },
    yajl_end_array: { from($0).close() })
}
