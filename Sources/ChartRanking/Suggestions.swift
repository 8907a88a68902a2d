import Foundation

/// "Did you mean" for what a user typed: chart names and search words close to the ones that
/// exist, by edit distance (Levenshtein) on their folded forms.
public enum Suggestions {
  /// The names among `names` closest to `typed`, best first: those equal to it once case, accents
  /// and everything but letters and digits are set aside (`hot100` and `Hot-100` mean `hot-100`),
  /// else those within ``allowedDistance(forLength:)`` edits of it.
  ///
  /// - Returns: at most three names; none when none is close.
  public static func closest(to typed: String, among names: [String]) -> [String] {
    let key = letters(typed)
    guard !key.isEmpty else { return [] }
    let scored = names.compactMap { name -> (name: String, distance: Int)? in
      let distance = editDistance(key, letters(name))
      return distance <= allowedDistance(forLength: key.count) ? (name, distance) : nil
    }
    return scored.sorted { ($0.distance, $0.name) < ($1.distance, $1.name) }.prefix(3).map(\.name)
  }

  /// A search word corrected to a term of the index: the term within
  /// ``allowedDistance(forLength:)`` edits, fewest edits first, then the one in the most rows.
  ///
  /// - Parameters:
  ///   - word: the word as typed.
  ///   - terms: the index's terms (folded, as the index keeps them) with the number of rows that
  ///     hold each.
  /// - Returns: the term, or `nil` when the word is one already, begins one, or none is close.
  public static func correction(of word: String, among terms: [(term: String, rows: Int)])
    -> String?
  {
    let folded = fold(word)
    guard !folded.isEmpty, !terms.contains(where: { $0.term.hasPrefix(folded) }) else {
      return nil
    }
    let allowed = allowedDistance(forLength: folded.count)
    var best: (term: String, distance: Int, rows: Int)?
    for (term, rows) in terms where abs(term.count - folded.count) <= allowed {
      let distance = editDistance(folded, term)
      guard distance <= allowed else { continue }
      if let current = best, (current.distance, -current.rows) <= (distance, -rows) { continue }
      best = (term, distance, rows)
    }
    return best?.term
  }

  /// How many edits a word of `length` characters may be from a suggestion: none for one or two
  /// characters, one up to five, two beyond.
  public static func allowedDistance(forLength length: Int) -> Int {
    length <= 2 ? 0 : length <= 5 ? 1 : 2
  }

  /// Lowercased, without accents (as the full-text index's `remove_diacritics 2` folds them).
  public static func fold(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
  }

  /// The folded text's letters and digits only.
  static func letters(_ text: String) -> String {
    String(
      fold(text).unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(
        Character.init))
  }

  /// The number of single-character insertions, deletions, substitutions and swaps of two
  /// neighbours ("nigth" for "night" is one) between two texts: the optimal string alignment
  /// distance (Damerau–Levenshtein without editing a substring twice).
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        current[j] = min(
          previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[b.count]
  }
}
