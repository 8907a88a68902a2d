/// Reads fields of nested JSON objects by their paths (`chartEntryData.currentRank`), turning a
/// wrong type into a problem named by the path instead of failing the whole file, as
/// ``FieldReader`` does for the fields of one object.
struct NestedReader {
  let root: JSONTree
  var problems: [ChartFileProblem] = []
  /// The paths of the objects whose repeated keys were reported already.
  private var checkedObjects: Set<String> = []

  /// A reader of `root`'s fields.
  init(_ root: JSONTree) { self.root = root }

  /// The value at `path` (keys joined with `.`), or `nil` when a key along it is missing or its
  /// value is null. A value along it that is not an object is a problem; so is a key given twice in
  /// an object along it.
  mutating func value(_ path: String) -> JSONTree? {
    var value = root
    var walked = ""
    for key in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
      guard case .object(let object) = value else {
        if case .null = value { return nil }
        report(walked.isEmpty ? nil : walked, "expected a JSON object")
        return nil
      }
      if checkedObjects.insert(walked).inserted {
        for repeated in object.repeatedKeys {
          report(walked.isEmpty ? repeated : walked + "." + repeated, "given more than once")
        }
      }
      walked = walked.isEmpty ? key : walked + "." + key
      guard let next = object[key] else { return nil }
      value = next
    }
    if case .null = value { return nil }
    return value
  }

  /// Whether the value at `path` is there, even as null.
  func has(_ path: String) -> Bool {
    var value = root
    for key in path.split(separator: ".", omittingEmptySubsequences: false).map(String.init) {
      guard case .object(let object) = value, let next = object[key] else { return false }
      value = next
    }
    return true
  }

  mutating func report(_ field: String?, _ message: String) {
    problems.append(ChartFileProblem(field: field, message: message))
  }

  /// The string at `path`.
  mutating func string(_ path: String) -> String? {
    guard let value = value(path) else { return nil }
    guard case .string(let text) = value else {
      report(path, "expected a string or null")
      return nil
    }
    return text
  }

  /// The integer at `path`: a JSON integer, or with `text`, a whole number written as a string
  /// (`"1371493"`, as Spotify writes its streams and Last.fm its ranks and play counts).
  mutating func int(_ path: String, orText text: Bool = false) -> Int? {
    guard let value = value(path) else { return nil }
    if let integer = value.integer { return integer }
    if text, case .string(let written) = value { return wholeNumber(written, field: path) }
    report(
      path,
      notAnInteger(
        value, expected: text ? "an integer or its digits, or null" : "an integer or null"))
    return nil
  }

  /// A whole number written as text: digits, with a sign or not; a problem otherwise.
  mutating func wholeNumber(_ text: String, field: String) -> Int? {
    if let number = Int(text) { return number }
    report(field, wholeNumberProblem(text))
    return nil
  }

  /// The array at `path`, or `nil` (with a problem when it is something else).
  mutating func array(_ path: String) -> [JSONTree]? {
    guard let value = value(path) else { return nil }
    guard case .array(let list) = value else {
      report(path, "expected an array")
      return nil
    }
    return list
  }
}
