/// How well a title and credit that a search found match its query, best first: a search lists
/// the songs of the best two kinds, and inside-word matches only when there is no better one.
public enum SearchMatch: Int, Comparable, Sendable {
  /// The title is the query: the same letters and digits in the same order, whatever the case,
  /// accents, punctuation and spaces (`halo` is "Halo", `dont stop believin` is "Don't Stop
  /// Believin'", `oklahoma smokeshow` is "Oklahoma Smoke Show"); for a query without a letter or
  /// digit (`🔥`), the same text whatever the case and the runs of spaces.
  case wholeTitle
  /// Every word of the query is a whole word of the title or of the credit, in any order (`halo`
  /// in "Halo / Walking On Sunshine", `halo beyonce` in "Halo" by "Beyoncé"), words being runs of
  /// letters and digits, as the full-text index cuts them.
  case wholeWords
  /// A word of the query begins a word or is inside one (`halo` in "Broken Halos" and in
  /// "Shamrocks And Shenanigans (Boom Shalock Lock Boom)"), or the query is part of the text
  /// (`🔥` in "🔥🔥🔥").
  case insideWords

  public static func < (lhs: SearchMatch, rhs: SearchMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A search's query, folded once, to tell how each title and credit the search found matches it
/// (see ``SearchMatch``).
public struct SearchQuery: Sendable {
  /// The query's words (see ``words(_:)``).
  public let words: [String]
  /// The query's words run together: what a whole title's words run together equal.
  public let letters: String
  /// The query folded as titles are for identity (``SongIdentity/fold(_:)``): what a whole title
  /// equals when the query has no letter or digit.
  public let folded: String

  /// The query as typed.
  public init(_ query: String) {
    words = Self.words(query)
    letters = words.joined()
    folded = SongIdentity.fold(query)
  }

  /// How a title and its credit match the query; every match is a whole-word one for an empty
  /// query (a search by artist alone, which the artist's words decide).
  ///
  /// - Parameters:
  ///   - title: a title the song charted under, as published.
  ///   - artist: the credit it charted under with that title, as published.
  public func match(title: String, artist: String) -> SearchMatch {
    guard !folded.isEmpty else { return .wholeWords }
    let titleWords = Self.words(title)
    if letters.isEmpty ? SongIdentity.fold(title) == folded : titleWords.joined() == letters {
      return .wholeTitle
    }
    guard !words.isEmpty else { return .insideWords }
    var artistWords: [String]?
    for word in words where !titleWords.contains(word) {
      if artistWords == nil { artistWords = Self.words(artist) }
      if artistWords?.contains(word) != true { return .insideWords }
    }
    return .wholeWords
  }

  /// The words of a text as the full-text index `song_search` keeps them (`unicode61
  /// remove_diacritics 2`, <https://www.sqlite.org/fts5.html#unicode61_tokenizer>): runs of
  /// letters and digits, lowercased and without accents. `"Don't Stop Believin'"` gives `["don",
  /// "t", "stop", "believin"]`, `"Beyoncé"` `["beyonce"]`.
  public static func words(_ text: String) -> [String] {
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      // ASCII, most titles: the same words without Foundation's folding.
      var words: [String] = []
      var word: [UInt8] = []
      for byte in text.utf8 {
        switch byte {
        case 0x30...0x39, 0x61...0x7A: word.append(byte)
        case 0x41...0x5A: word.append(byte + 0x20)
        default:
          if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
          word.removeAll(keepingCapacity: true)
        }
      }
      if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
      return words
    }
    return Suggestions.fold(text).split(whereSeparator: { !($0.isLetter || $0.isNumber) }).map(
      String.init)
  }
}
