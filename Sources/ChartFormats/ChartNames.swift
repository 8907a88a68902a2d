import ChartRanking

/// Lowercase letters and digits, other runs as one `-`: `"Global"` → `global`, `"United States"` →
/// `united-states`.
func slug(_ text: String) -> String {
  var output = ""
  var pendingDash = false
  for scalar in text.lowercased().unicodeScalars {
    if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
      if pendingDash, !output.isEmpty { output += "-" }
      pendingDash = false
      output.unicodeScalars.append(scalar)
    } else {
      pendingDash = true
    }
  }
  return output
}

/// The chart's name in a file's name: what comes before its first date, without the separators
/// that end it (`regional-global-weekly-2024-03-21.csv` → `regional-global-weekly`); `nil` when the
/// name has no date, or nothing before it.
func chartName(inFileName name: String) -> String? {
  let bytes = Array(name.utf8)
  func isDigit(_ index: Int) -> Bool {
    bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9")
  }
  guard bytes.count >= 10 else { return nil }
  for start in 0...(bytes.count - 10) where start == 0 || !isDigit(start - 1) {
    let shape = (0..<10).allSatisfy { offset in
      offset == 4 || offset == 7
        ? bytes[start + offset] == UInt8(ascii: "-") : isDigit(start + offset)
    }
    guard shape,
      (try? ChartDate(iso8601: String(decoding: bytes[start..<start + 10], as: UTF8.self))) != nil
    else { continue }
    var end = start
    while end > 0, "-_. ".utf8.contains(bytes[end - 1]) { end -= 1 }
    return end > 0 ? String(decoding: bytes[..<end], as: UTF8.self) : nil
  }
  return nil
}

/// The chart's name in the address of its page on billboard.com: the path's part after `charts`
/// (`http://www.billboard.com/charts/hot-100/2020-01-11` → `hot-100`); `nil` when the address has
/// no such part.
func chartName(inChartURL address: String) -> String? {
  let parts = address.split(separator: "/", omittingEmptySubsequences: true)
  guard let index = parts.firstIndex(of: "charts"), index + 1 < parts.count else { return nil }
  let name = String(parts[index + 1])
  return Snapshot.isValidChartName(name) ? name : nil
}
