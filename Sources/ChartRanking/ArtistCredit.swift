import Foundation

/// An artist credit split into its artists: the one splitter that song matching and the listing
/// of an artist's songs use.
///
/// A credit names one artist, or several joined by words: `Featuring`, `feat.`, `ft.`, `With`,
/// `W/`, `Duet With` and `vs.` (which always join two artists), and `&`, `and`, `x`, `/` and a comma
/// (which also appear inside an act's name: `Simon & Garfunkel`, `Earth, Wind & Fire`, `AC/DC`,
/// `Tyler, The Creator`). A joining word joins only between two names: `Lil Nas X` and `X
/// Ambassadors` are one name each.
///
/// Where a name holds `&`, `and`, `x`, `/` or a comma, the names it joins are kept as one act:
/// - an act of ``knownActs`` (a short list, for acts whose members never chart on their own);
/// - a singer and their band, `A & The B`, `A And His B`, `A & Her B` (`Gladys Knight & The
///   Pips`, `Tom Petty And The Heartbreakers`, `Nat King Cole & His Trio`);
/// - with the archive's credits to ask (``artists(in:chartsAlone:)``): names joined that chart on
///   their own as a whole credit while none of them charts on its own (`Peaches & Herb`, `Hall &
///   Oates`), whereas `Peabo Bryson & Roberta Flack`, each of whom charts on their own, is two.
public enum ArtistCredit {
  /// What joins a name to the name before it.
  public enum Joiner: Sendable, Equatable {
    /// `Featuring`, `feat.`, `ft.`, `With`, `Duet With`, `vs.`: always two artists.
    case featuring
    /// `&`, `and`, `x`, `/` or a comma: two artists, or a part of one act's name.
    case and
  }

  /// A credit's names in order, and what joins each to the one before it (`joiners[i]` between
  /// `names[i]` and `names[i + 1]`).
  public struct Names: Sendable, Equatable {
    /// The names as written, white space collapsed.
    public var names: [String]
    /// `names.count - 1` joiners.
    public var joiners: [Joiner]
    /// Each joiner as written (`&`, `and`, `,`), for writing an act's name back.
    var joinerWords: [String]
  }

  /// Acts whose names hold a joining word and whose members rarely or never chart under these
  /// names on their own, folded (``SongIdentity/fold(_:)``, `and` written `&`): kept whole whatever
  /// the archive holds.
  public static let knownActs: Set<String> = [
    "simon & garfunkel", "earth, wind & fire", "hall & oates", "daryl hall & john oates",
    "peaches & herb", "crosby, stills & nash", "crosby, stills, nash & young", "tyler, the creator",
    "ike & tina turner", "sam & dave", "brooks & dunn", "mumford & sons", "kool & the gang",
    "ac/dc", "tones & i", "chase & status", "blood, sweat & tears",
    "emerson, lake & palmer", "country joe & the fish", "sonny & cher", "captain & tennille",
  ]

  /// The first names of ``knownActs``, up to a comma, `&` or `/`.
  static let knownActFirstNames: Set<String> = Set(
    knownActs.map { act in
      String(act.prefix { $0 != "," && $0 != "/" }.components(separatedBy: " & ")[0])
    })

  /// Splits a credit at every joining word: its names and the words between them.
  ///
  /// - Parameter credit: an artist credit as published (or folded).
  /// - Returns: one name for a credit without a joining word between two names.
  public static func names(in credit: String) -> Names {
    var credit = credit
    return credit.withUTF8 { bytes in
      let words = splitWords(bytes)
      func text(_ range: Range<Int>) -> String {
        var text = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[words[range.lowerBound]]), as: UTF8.self)
        for word in words[range].dropFirst() {
          // A comma kept in a name ("Ray Parker, Jr.") follows its word.
          let isComma = word.count == 1 && bytes[word.lowerBound] == 0x2C
          text +=
            (isComma ? "" : " ")
            + String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
        }
        return text
      }
      var result = Names(names: [], joiners: [], joinerWords: [])
      var nameStart = 0
      var index = 0
      while index < words.count {
        // A joining word between two names: after a word of a name, before one.
        if index > nameStart, let (kind, length) = joiner(at: index, of: words, in: bytes),
          index + length < words.count, joiner(at: index + length, of: words, in: bytes) == nil,
          !isSuffix(words[index + length], in: bytes)
        {
          result.names.append(text(nameStart..<index))
          result.joiners.append(kind)
          result.joinerWords.append(text(index..<index + length))
          index += length
          nameStart = index
        } else {
          index += 1
        }
      }
      if nameStart < words.count { result.names.append(text(nameStart..<words.count)) }
      return result
    }
  }

  /// The artists of a credit, each as written: the names (``names(in:)``) with those of one act
  /// kept together (see ``ArtistCredit``).
  ///
  /// - Parameters:
  ///   - credit: an artist credit as published.
  ///   - chartsAlone: whether a name, folded (``SongIdentity/fold(_:)``), charts on its own as a
  ///     whole credit in the archive; `nil` for the rules that need no archive.
  /// - Returns: the artists in the credit's order, the lead artist first.
  public static func artists(in credit: String, chartsAlone: ((String) -> Bool)? = nil)
    -> [String]
  {
    artists(in: credit, chartsAlone: chartsAlone, ampersands: false)
  }

  /// ``artists(in:chartsAlone:)``, with an act's `and` written `&` when `ampersands` (as song
  /// matching compares acts).
  static func artists(in credit: String, chartsAlone: ((String) -> Bool)?, ampersands: Bool)
    -> [String]
  {
    let split = names(in: credit)
    guard split.names.count > 1 else { return split.names }
    var artists: [String] = []
    var start = 0
    while start < split.names.count {
      var end = start
      if start + 1 < split.names.count {
        let first = SongIdentity.fold(split.names[start])
        for candidate in stride(from: split.names.count - 1, to: start, by: -1)
        where isAct(split, start...candidate, first: first, chartsAlone: chartsAlone) {
          end = candidate
          break
        }
      }
      artists.append(text(of: split, start...end, ampersands: ampersands))
      start = end + 1
    }
    return artists
  }

  /// The credit's names `range` written back as one name, with the words that joined them.
  static func text(of split: Names, _ range: ClosedRange<Int>, ampersands: Bool = false)
    -> String
  {
    var text = split.names[range.lowerBound]
    for index in range.dropFirst() {
      let word = split.joinerWords[index - 1]
      let joiner =
        switch word {
        case ",": ", "
        case "/": "/"
        case _ where ampersands && word.lowercased() == "and": " & "
        default: " " + word + " "
        }
      text += joiner + split.names[index]
    }
    return text
  }

  /// Whether the names `range` (two or more, joined by `&`, `and`, `x`, `/` or commas) are one
  /// act.
  static func isAct(
    _ split: Names, _ range: ClosedRange<Int>, first: String, chartsAlone: ((String) -> Bool)?
  ) -> Bool {
    guard split.joiners[range.lowerBound..<range.upperBound].allSatisfy({ $0 == .and }) else {
      return false
    }
    if range.count == 2, split.joinerWords[range.lowerBound] != ",",
      split.joinerWords[range.lowerBound] != "/"
    {
      let band = split.names[range.upperBound].prefix(4).lowercased()
      if band == "the " || band == "his " || band == "her " { return true }
    }
    // Only names that start a known act are looked for among them (most names start none).
    if knownActFirstNames.contains(first),
      knownActs.contains(SongIdentity.fold(text(of: split, range, ampersands: true)))
    {
      return true
    }
    guard let chartsAlone, !chartsAlone(first) else { return false }
    return chartsAlone(SongIdentity.fold(text(of: split, range)))
      && range.dropFirst().allSatisfy { !chartsAlone(SongIdentity.fold(split.names[$0])) }
  }

  /// The words of a credit, as ranges of its UTF-8 bytes split at ASCII white space, with a
  /// slash and a comma before a space each a word of its own.
  private static func splitWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
    var words: [Range<Int>] = []
    var start = 0
    for index in bytes.indices {
      let byte = bytes[index]
      let isSpace = byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
      let atEnd = index + 1 == bytes.count || bytes[index + 1] == 0x20
      // A comma ends a word only before a space ("10,000 Maniacs", "Ray Parker,Jr." are names);
      // "W/" before a space is a joining word of its own.
      guard isSpace || (byte == 0x2C && atEnd) || byte == 0x2F else { continue }
      if byte == 0x2F, atEnd, index - start == 1, bytes[start] | 0x20 == 0x77 {  // w/ W/
        words.append(start..<index + 1)
        start = index + 1
        continue
      }
      if start < index { words.append(start..<index) }
      if !isSpace { words.append(index..<index + 1) }
      start = index + 1
    }
    if start < bytes.count { words.append(start..<bytes.count) }
    return words
  }

  /// Whether a word is a name's suffix that a comma may come before (`Jr.`, `Sr.`, `II`, `III`):
  /// `Ray Parker, Jr.` is one name.
  private static func isSuffix(_ word: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let word = UnsafeBufferPointer(rebasing: bytes[word])
    return suffixes.contains { equalsIgnoringCase(word, $0) }
  }

  private static let suffixes = ["jr.", "jr", "sr.", "sr", "ii", "iii"].map { Array($0.utf8) }

  /// The joining word at `words[index]` (with the word after it, for `Duet With`): its kind and
  /// how many words it takes; `nil` for a word of a name. Compared byte by byte, ASCII case
  /// folded, without making a lowercase copy of each word.
  private static func joiner(
    at index: Int, of words: [Range<Int>], in bytes: UnsafeBufferPointer<UInt8>
  ) -> (Joiner, Int)? {
    let word = UnsafeBufferPointer(rebasing: bytes[words[index]])
    guard word.count <= 9 else { return nil }
    for candidate in featuringWords where equalsIgnoringCase(word, candidate) {
      return (.featuring, 1)
    }
    for candidate in andWords where equalsIgnoringCase(word, candidate) { return (.and, 1) }
    if equalsIgnoringCase(word, duet), index + 1 < words.count,
      equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[words[index + 1]]), with)
    {
      return (.featuring, 2)
    }
    return nil
  }

  /// Every joining word that is a word of its own, lowercase, as UTF-8 (`Duet` of `Duet With`):
  /// what a credit without any of them, `&`, a comma or a slash, needs no splitting for.
  static var joiningWords: [[UInt8]] { featuringWords + andWords + [duet] }

  private static let featuringWords = [
    "featuring", "feat.", "feat", "ft.", "ft", "with", "w/", "vs.", "vs",
  ]
  .map { Array($0.utf8) }
  private static let andWords = ["&", "and", "x", "/", ","].map { Array($0.utf8) }
  private static let duet = Array("duet".utf8)
  private static let with = Array("with".utf8)

  /// Whether a word's UTF-8 equals lowercase ASCII `lowercase`, ASCII letters compared without case.
  private static func equalsIgnoringCase(
    _ word: UnsafeBufferPointer<UInt8>, _ lowercase: [UInt8]
  ) -> Bool {
    guard word.count == lowercase.count else { return false }
    return zip(word, lowercase).allSatisfy { byte, expected in
      byte == expected || (byte >= 0x41 && byte <= 0x5A && byte + 0x20 == expected)
    }
  }
}
