import Foundation

/// What makes two entries, in two snapshots, the same song.
///
/// The rule: the song URL when the source gives one (a streaming chart's track URL names one
/// recording; a Last.fm URL, which spells out the artist and title, compared with those names
/// folded, an opaque identifier exactly); otherwise the title and the artist credit in the forms
/// ``MatchKeys`` gives them: folded (Unicode NFC normalisation, Unicode Standard Annex #15, case
/// and accents folded, white space collapsed), the title without a label naming the same
/// recording (`- Remastered 2009`), the credit as its artists with those the title features. So
/// `"Blinding  Lights"` by `"the weeknd"` is the same song as `"Blinding Lights"` by `"The
/// Weeknd"`, and `"Night Drive (feat. Sol)"` by `"Mara Vey"` as `"Night Drive"` by `"Mara Vey,
/// Sol"`. An entry with a song URL is also matched by its title and credit (``SongKeys/creditIdentity``):
/// two services' URLs never meet, and a remaster gets a new URL.
///
/// Two entries of one snapshot are never merged, even when their identities are equal: the
/// archive keeps each entry, and pairs equal identities between snapshots in rank order.
public struct SongIdentity: Hashable, Sendable, CustomStringConvertible {
  /// The identity as text: `url:<song URL>` or `song:<folded title>` + U+001F + `<folded artist>`.
  public let key: String
  /// The 64-bit FNV-1a hash of the key's UTF-8 bytes, computed once: two identities with different
  /// fingerprints differ, so that comparing and hashing identities (song linking compares each
  /// debut's identity with the previous snapshot's) mostly compares two integers.
  private let fingerprint: UInt64

  /// Computes the identity of a song.
  ///
  /// - Parameters:
  ///   - title: the title as published.
  ///   - artist: the artist credit as published.
  ///   - songURL: the song's URL at the source, if any; blank counts as none.
  public init(title: String, artist: String, songURL: String?) {
    let forms = MatchKeys.forms(title: title, artist: artist, songURL: songURL)
    self.init(foldedTitle: forms.title, foldedArtist: forms.credit, songURL: songURL)
  }

  /// The identity from a title and artist already in their matching forms (``MatchKeys``).
  init(foldedTitle: String, foldedArtist: String, songURL: String?) {
    if let url = songURL?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
      self.init(key: "url:" + Self.comparableURL(url))
    } else {
      self.init(key: "song:" + foldedTitle + "\u{1F}" + foldedArtist)
    }
  }

  /// A song URL as identities compare it: a Last.fm URL (`https://www.last.fm/music/Artist/_/Title`),
  /// whose path spells out names, with its path percent-decoded, `+` read as a space and folded
  /// (``fold(_:)``), so that `Bj%C3%B6rk+Lind` and `bjork+lind` meet; any other URL as it is (a
  /// Spotify or Apple identifier is case-sensitive).
  public static func comparableURL(_ url: String) -> String {
    guard let host = url.range(of: "last.fm/", options: .caseInsensitive),
      url[..<host.lowerBound].allSatisfy({ $0 != "/" || url.hasPrefix("http") }),
      !url[..<host.lowerBound].contains(where: { $0 == "?" || $0 == "#" })
    else { return url }
    let path = url[host.upperBound...].replacingOccurrences(of: "+", with: " ")
    let decoded = path.removingPercentEncoding ?? path
    return "last.fm/" + fold(decoded)
  }

  /// Creates an identity from its stored ``key``.
  public init(key: String) {
    self.key = key
    fingerprint = Self.fnv1a(key)
  }

  /// The 64-bit FNV-1a hash (<http://www.isthe.com/chongo/tech/comp/fnv/>) of `text`'s UTF-8
  /// bytes, continuing from `hash` (to hash several texts as one; the offset basis to start).
  package static func fnv1a(_ text: String, continuing hash: UInt64 = 0xcbf2_9ce4_8422_2325)
    -> UInt64
  {
    // Over the contiguous bytes: stepping through `utf8` costs several times more per byte.
    var text = text
    return text.withUTF8 { bytes in
      var hash = hash
      for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      return hash
    }
  }

  /// Whether two identities are the same: their keys are equal (fingerprints first).
  public static func == (lhs: SongIdentity, rhs: SongIdentity) -> Bool {
    lhs.fingerprint == rhs.fingerprint && lhs.key == rhs.key
  }

  /// Hashes the fingerprint, which equal keys share.
  public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

  public var description: String { key }

  /// Whether the identity is a song URL's (`url:`), rather than a title's and artist's.
  public var isSongURL: Bool { key.hasPrefix("url:") }

  /// The folded title and artist of a title's and artist's identity (see ``fold(_:)``), as the
  /// archive keeps a credit's (`title_key`, `artist_key`); `nil` for a song URL's.
  public var foldedCredit: (title: String, artist: String)? {
    guard key.hasPrefix("song:") else { return nil }
    let parts = key.dropFirst("song:".count).split(
      separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
    return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
  }

  /// The words that join a lead artist to the others in a credit: "Featuring", "Feat.", "ft.",
  /// "With", "And", "&", "x", "vs." and commas and slashes; as UTF-8 bytes, compared with a
  /// credit's words without making a `String` of each word.
  private static let creditJoiners: [[UInt8]] = [
    "featuring", "feat", "feat.", "ft", "ft.", "with", "and", "&", "x", "vs", "vs.", "duet", "/",
  ].map { Array($0.utf8) }

  /// The lead artist of a credit, for matching one song across credit changes: the folded credit
  /// up to the first joining word ("Featuring", "Feat.", "ft.", "With", "And", "&", "x", "vs.", a
  /// comma, a colon or a slash), without a leading "the" and with only its letters and digits
  /// kept.
  ///
  /// `"Nat \"King\" Cole"`, `"Nat King Cole"` and `"Nat King Cole & His Trio"` all give
  /// `"natkingcole"`; `"The Weeknd Featuring Daft Punk"` gives `"weeknd"`.
  ///
  /// - Parameter artist: an artist credit as published.
  /// - Returns: the lead artist's letters and digits, lowercased; the whole credit's when it starts
  ///   with a joining word.
  public static func primaryArtist(_ artist: String) -> String {
    primaryArtist(folded: fold(artist))
  }

  /// ``primaryArtist(_:)`` of a credit already folded (``fold(_:)``).
  static func primaryArtist(folded: String) -> String {
    var folded = folded
    return folded.withUTF8 { bytes in
      // Words of the credit, as byte ranges, with a comma, a colon or a slash a word of its own.
      // Every separator is ASCII, so the credit is split on its UTF-8 bytes.
      var words: [Range<Int>] = []
      var start = 0
      for index in bytes.indices {
        let byte = bytes[index]
        if byte == 0x20 || byte == 0x2C || byte == 0x2F || byte == 0x3A {  // space , / :
          if start != index { words.append(start..<index) }
          if byte != 0x20 { words.append(index..<index + 1) }
          start = index + 1
        }
      }
      if start != bytes.count { words.append(start..<bytes.count) }
      func word(_ range: Range<Int>, is text: some Collection<UInt8>) -> Bool {
        range.count == text.count && bytes[range].elementsEqual(text)
      }
      var lead = 0..<0
      for (index, range) in words.enumerated() {
        let isStop =
          range.count == 1 && (bytes[range.lowerBound] == 0x2C || bytes[range.lowerBound] == 0x3A)
        if isStop || (!lead.isEmpty && creditJoiners.contains { word(range, is: $0) }) {
          break
        }
        lead = 0..<index + 1
      }
      if lead.count > 1, word(words[0], is: "the".utf8) { lead = 1..<lead.upperBound }
      if lead.isEmpty { lead = words.indices }
      var kept: [UInt8] = []
      kept.reserveCapacity(bytes.count)
      for range in words[lead] {
        appendLettersAndDigits(of: UnsafeBufferPointer(rebasing: bytes[range]), to: &kept)
      }
      return String(decoding: kept, as: UTF8.self)
    }
  }

  /// The letters and digits of a title, lowercased: `"Oklahoma Smoke Show"` and `"Oklahoma
  /// Smokeshow"` give the same, as do `"Let It Snow, Let It Snow"` and `"Let It Snow! Let It
  /// Snow"`.
  public static func squashedTitle(_ title: String) -> String {
    lettersAndDigits(fold(title)[...])
  }

  /// ``squashedTitle(_:)`` of a title already folded (``fold(_:)``).
  static func squashedTitle(folded: String) -> String { lettersAndDigits(folded[...]) }

  /// The letters and digits of a title before its first parenthesis or bracket, lowercased:
  /// `"Soak City (Do It)"` and `"White Christmas (1947)"` give `"soakcity"` and
  /// `"whitechristmas"`. The whole title's when it starts with one.
  public static func baseTitle(_ title: String) -> String {
    baseTitle(folded: fold(title))
  }

  /// ``baseTitle(_:)`` of a title already folded (``fold(_:)``).
  static func baseTitle(folded: String) -> String {
    // "(" and "[" are ASCII: the first one's UTF-8 byte is where the base title ends.
    let end = folded.utf8.firstIndex { $0 == 0x28 || $0 == 0x5B } ?? folded.endIndex
    return lettersAndDigits(end == folded.startIndex ? folded[...] : folded[..<end])
  }

  private static func lettersAndDigits(_ text: Substring) -> String {
    var text = text
    return text.withUTF8 { bytes in
      var kept: [UInt8] = []
      appendLettersAndDigits(of: bytes, to: &kept)
      return String(decoding: kept, as: UTF8.self)
    }
  }

  /// Appends the UTF-8 of the letters and digits of folded text (ASCII letters are lowercase),
  /// given as its UTF-8 bytes (whole scalars).
  private static func appendLettersAndDigits(
    of bytes: UnsafeBufferPointer<UInt8>, to kept: inout [UInt8]
  ) {
    kept.reserveCapacity(kept.count + bytes.count)
    if bytes.allSatisfy({ $0 < 0x80 }) {
      for byte in bytes where (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) {
        kept.append(byte)
      }
      return
    }
    for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
      if scalar.isASCII {
        if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
          kept.append(UInt8(scalar.value))
        }
      } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
        kept.append(contentsOf: UTF8.encode(scalar)!)
      }
    }
  }

  /// Normalizes text for matching: NFC, case and accents folded (locale-independent: `Björk` is
  /// `bjork`, `Motörhead` is `motorhead`), runs of white space made one space, leading and
  /// trailing white space removed.
  ///
  /// - Parameter text: any text.
  /// - Returns: the folded text; ASCII text is folded without Foundation, with the same result.
  public static func fold(_ text: String) -> String {
    var isASCII = true
    for byte in text.utf8 where byte >= 0x80 {
      isASCII = false
      break
    }
    if isASCII {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(text.utf8.count)
      var pendingSpace = false
      for byte in text.utf8 {
        // ASCII white space: tab, line feed, vertical tab, form feed, carriage return, space.
        if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
          pendingSpace = !bytes.isEmpty
          continue
        }
        if pendingSpace {
          bytes.append(0x20)
          pendingSpace = false
        }
        bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    let folded = text.precomposedStringWithCanonicalMapping
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
    return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}

/// What song linking compares of an entry, computed once: its identity, its title's letters and
/// digits (whole and before any parenthesis) and its lead artist (see ``SongLinking``).
public struct SongKeys: Hashable, Sendable {
  /// The entry's identity: its song URL's, or its title's and credit's.
  public let identity: SongIdentity
  /// The identity of its title and credit (``MatchKeys``), by which an entry with a song URL is
  /// matched too; ``identity`` for an entry without one.
  public var creditIdentity: SongIdentity { urlCreditIdentity ?? identity }
  /// ``creditIdentity`` of an entry with a song URL; `nil` without one, so that the keys of most
  /// entries hold one identity (keys are copied often).
  private let urlCreditIdentity: SongIdentity?
  /// Whether the entry has a song URL.
  public var hasSongURL: Bool { urlCreditIdentity != nil }
  /// ``SongIdentity/squashedTitle(_:)`` of the title's matching form.
  public let squashedTitle: String
  /// ``SongIdentity/baseTitle(_:)`` of the title's matching form.
  public let baseTitle: String
  /// ``SongIdentity/primaryArtist(_:)`` of the artist credit.
  public let primaryArtist: String
  /// The title's matching form (``MatchKeys/title(folded:original:)``): folded, without a label
  /// naming the same recording or a featured artist.
  public let foldedTitle: String
  /// The credit's matching form (``MatchKeys/credit(folded:featured:)``): folded, its artists
  /// with those the title features, the lead first.
  public let foldedArtist: String

  /// Computes the keys of an entry, folding its title and artist once.
  public init(_ entry: ChartEntry) {
    var credits = CreditForms(capacity: 0)
    self.init(entry, credits: &credits)
  }

  /// Computes the keys of an entry, its credit's forms looked up in, or added to, `credits`.
  public init(_ entry: ChartEntry, credits: inout CreditForms) {
    let forms = MatchKeys.forms(
      title: entry.title, artist: entry.artist, songURL: entry.songURL, credits: &credits)
    foldedTitle = forms.title
    foldedArtist = forms.credit
    let credit = SongIdentity(foldedTitle: foldedTitle, foldedArtist: foldedArtist, songURL: nil)
    urlCreditIdentity = forms.hasSongURL ? credit : nil
    identity =
      forms.hasSongURL
      ? SongIdentity(foldedTitle: foldedTitle, foldedArtist: foldedArtist, songURL: entry.songURL)
      : credit
    squashedTitle = SongIdentity.squashedTitle(folded: foldedTitle)
    baseTitle = SongIdentity.baseTitle(folded: foldedTitle)
    primaryArtist = SongIdentity.primaryArtist(folded: forms.foldedArtist)
  }
}
