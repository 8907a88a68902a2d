/// Reads fields of one JSON object, turning a wrong type into a problem instead of failing the
/// whole file, so that every problem of a file is reported at once.
struct FieldReader {
  let object: JSONObject
  /// Whether the value read is an object (when not, every field is missing).
  let isObject: Bool
  var problems: [ChartFileProblem] = []

  /// A reader of `value`, or of an empty object (with a problem) when `value` is not an object.
  /// A key given twice in the object is a problem: which value is meant cannot be told.
  init(_ value: JSONTree) {
    if case .object(let object) = value {
      self.object = object
      isObject = true
      for key in object.repeatedKeys {
        problems.append(ChartFileProblem(field: key, message: "given more than once"))
      }
    } else {
      object = JSONObject(keys: [], values: [])
      isObject = false
      problems.append(ChartFileProblem(field: nil, message: "expected a JSON object"))
    }
  }

  func has(_ key: String?) -> Bool { key.map { object[$0] != nil } ?? false }

  mutating func int(_ key: String?) -> Int? {
    guard let key, let value = object[key] else { return nil }
    if case .null = value { return nil }
    guard let integer = value.integer else {
      problems.append(
        ChartFileProblem(field: key, message: notAnInteger(value, expected: "an integer or null")))
      return nil
    }
    return integer
  }

  /// A boolean field: `true`, `false`, or null or absent (`false`).
  mutating func bool(_ key: String?) -> Bool {
    guard let key, let value = object[key] else { return false }
    switch value {
    case .null: return false
    case .bool(let flag): return flag
    default:
      problems.append(ChartFileProblem(field: key, message: "expected true, false or null"))
      return false
    }
  }

  mutating func string(_ key: String?) -> String? {
    guard let key, let value = object[key] else { return nil }
    switch value {
    case .null: return nil
    case .string(let text): return text
    default:
      problems.append(ChartFileProblem(field: key, message: "expected a string or null"))
      return nil
    }
  }

  mutating func entries(_ key: String, keys: EntryKeys) -> [RawEntry]? {
    guard let value = object[key] else { return nil }
    guard case .array(let list) = value else {
      problems.append(ChartFileProblem(field: key, message: "expected an array of entries"))
      return nil
    }
    guard list.count <= ChartFileReader.maximumRank else {
      problems.append(Self.tooManyEntries(list.count, field: key))
      return nil
    }
    return list.map { RawEntry(json: $0, keys: keys) }
  }

  /// A list longer than any chart: refused before its entries are read one by one.
  static func tooManyEntries(_ count: Int, field: String?) -> ChartFileProblem {
    ChartFileProblem(
      field: field,
      message: "\(count) entries; a chart has at most \(ChartFileReader.maximumRank)")
  }
}

/// What is wrong with a whole number beyond the 64-bit range, as written (its first 20
/// characters and its length when it is longer than 40): `99999999999999999999 is too large (at
/// most 9223372036854775807)`.
///
/// - Parameters:
///   - text: the number as written in the file.
///   - tooLarge: whether it is above the range (otherwise below it).
func beyondRange(_ text: String, tooLarge: Bool) -> String {
  let shown = text.count > 40 ? "\(text.prefix(20))… (\(text.count) characters)" : text
  return tooLarge
    ? "\(shown) is too large (at most \(Int.max))" : "\(shown) is too small (at least \(Int.min))"
}

/// What is wrong with a JSON value that should be an integer and is not one that fits: a whole
/// number beyond 64 bits is an integer, only too large (see ``beyondRange(_:tooLarge:)``);
/// anything else is not what was `expected`.
func notAnInteger(_ value: JSONTree, expected: String) -> String {
  if case .number(let text) = value, let whole = JSONTree.wholeNumber(text),
    whole == .tooLarge || whole == .tooSmall
  {
    return beyondRange(text, tooLarge: whole == .tooLarge)
  }
  return "expected \(expected)"
}

/// What is wrong with a text that should be a whole number and that `Int(_:)` does not read:
/// digits alone (with a sign or not) are beyond the 64-bit range (see ``beyondRange(_:tooLarge:)``);
/// anything else is not a whole number.
func wholeNumberProblem(_ text: String) -> String {
  let digits = text.utf8.drop { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
  return text.utf8.count - digits.count <= 1 && !digits.isEmpty
    && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    ? beyondRange(text, tooLarge: text.utf8.first != UInt8(ascii: "-"))
    : "expected a whole number, found '\(escaped(text))'"
}
