import Foundation

/// The forms of a title and a credit that song matching compares: what two spellings of one
/// recording share (see ``SongIdentity``).
///
/// - A title without a label that names the same recording: remastered (with or without a year),
///   `Single Version`, `Radio Edit`, `Mono`, `Stereo` and the like, after ` - ` or in brackets
///   (`"Paper Moons - Remastered 2009"` is `"paper moons"`). A label that names another recording
///   (`Live`, `Remix`, `Acoustic`, `Instrumental`, `Sped Up`, `(Taylor's Version)`) stays.
/// - A featured artist written in the title (`(feat. B)`, `[feat. B]`, `ft. B`, `(featuring B)`,
///   and, from a source with song URLs, `(with B)` in lowercase as streaming services write it)
///   belongs to the credit.
/// - A credit is its artists (``ArtistCredit``): the lead artist, then the others in alphabetical
///   order, so that `"Mara Vey, Sol"`, `"Mara Vey Featuring Sol"`, `"Mara Vey & Sol"` and `"Mara
///   Vey"` with `"(feat. Sol)"` in the title are one credit.
///
/// Both are taken from folded text (``SongIdentity/fold(_:)``: case and accents folded).
public enum MatchKeys {
  /// The matching forms of an entry's title and credit (``title(folded:original:readsWith:)``,
  /// ``credit(folded:featured:)``), with its folded credit and whether it has a song URL (blank
  /// counts as none).
  static func forms(
    title: String, artist: String, songURL: String?, credits: inout CreditForms
  ) -> (title: String, credit: String, foldedArtist: String, hasSongURL: Bool) {
    let hasSongURL = !(songURL?.allSatisfy(\.isWhitespace) ?? true)
    let (matchTitle, featured) = Self.title(
      folded: SongIdentity.fold(title), original: title, readsWith: hasSongURL)
    guard featured.isEmpty else {
      let foldedArtist = SongIdentity.fold(artist)
      return (
        matchTitle, credit(folded: foldedArtist, featured: featured), foldedArtist, hasSongURL
      )
    }
    let (foldedArtist, credit) = credits.forms(of: artist)
    return (matchTitle, credit, foldedArtist, hasSongURL)
  }

  /// ``forms(title:artist:songURL:credits:)`` without remembering credits.
  static func forms(title: String, artist: String, songURL: String?) -> (
    title: String, credit: String, foldedArtist: String, hasSongURL: Bool
  ) {
    var credits = CreditForms(capacity: 0)
    return forms(title: title, artist: artist, songURL: songURL, credits: &credits)
  }

  /// The title's form for matching, and the artists it features.
  ///
  /// - Parameters:
  ///   - folded: the folded title.
  ///   - original: the title as published.
  ///   - readsWith: whether a lowercase `(with B)` names a featured artist: in the titles of a
  ///     source that gives song URLs (a streaming service's, which writes featured artists so);
  ///     not in a chart such as the Hot 100, where `"Ain't Gonna Bump No More (with No Big Fat
  ///     Woman)"` is the title.
  /// - Returns: the title without joining labels and featured artists (the folded title when
  ///   removing them would leave nothing), and the featured artists' names.
  public static func title(folded: String, original: String, readsWith: Bool = false) -> (
    title: String, featured: [String]
  ) {
    // Most titles hold none of what is removed: no bracket, no " - ", no "feat"/"ft" word.
    let marks = labelMarks(folded)
    guard !marks.isEmpty else { return (folded, []) }
    let allowsWith = readsWith && (original.contains("(with ") || original.contains("[with "))
    var title = Substring(folded)
    var featured: [String] = []
    while true {
      if let (rest, names) = featuring(
        in: title, allowsWith: allowsWith, afterWord: marks.contains(.featuringWord))
      {
        title = rest
        featured += names
      } else if let rest = withoutVersionLabel(title, afterDash: marks.contains(.dash)) {
        title = rest
      } else {
        break
      }
    }
    while title.last == " " { title.removeLast() }
    return title.isEmpty ? (folded, []) : (String(title), featured)
  }

  /// The credit's form for matching: its artists (``ArtistCredit/artists(in:chartsAlone:)``, with
  /// no archive to ask) and those featured in the title, the lead artist first and the others in
  /// order of their text, each once, joined by `", "`; an act's `and` written `&`.
  ///
  /// - Parameters:
  ///   - folded: the folded credit.
  ///   - featured: the artists the title features, folded.
  public static func credit(folded: String, featured: [String] = []) -> String {
    if featured.isEmpty, !mayJoin(folded) { return folded }
    var artists = ArtistCredit.artists(in: folded, chartsAlone: nil, ampersands: true)
    for name in featured {
      artists += ArtistCredit.artists(in: name, chartsAlone: nil, ampersands: true)
    }
    guard let lead = artists.first else { return folded }
    var others: [String] = []
    for artist in artists.dropFirst().sorted() where artist != lead && others.last != artist {
      others.append(artist)
    }
    return ([lead] + others).joined(separator: ", ")
  }

  /// What a title holds that may mark a label or a featured artist.
  struct LabelMarks: OptionSet {
    let rawValue: UInt8
    /// It ends with `)` or `]`.
    static let bracket = LabelMarks(rawValue: 1)
    /// It holds ` - `.
    static let dash = LabelMarks(rawValue: 2)
    /// It holds a word starting `fe` or `ft`.
    static let featuringWord = LabelMarks(rawValue: 4)
  }

  /// What a folded title holds that may mark a label or a featured artist: a scan of its bytes,
  /// so that most titles skip the rest.
  static func labelMarks(_ folded: String) -> LabelMarks {
    let bytes = folded.utf8
    var marks: LabelMarks = []
    if let last = bytes.last, last == 0x29 || last == 0x5D { marks.insert(.bracket) }  // ) ]
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in bytes {
      if previous.0 == 0x20, previous.1 == 0x2D, byte == 0x20 { marks.insert(.dash) }  // " - "
      if previous.0 == 0x20, previous.1 == 0x66, byte == 0x65 || byte == 0x74 {  // " fe", " ft"
        marks.insert(.featuringWord)
      }
      previous = (previous.1, byte)
    }
    return marks
  }

  /// Whether a folded credit may join two names: it holds `&`, a comma, a slash or a word of
  /// ``ArtistCredit``'s joining words after its first word. A scan of its bytes.
  static func mayJoin(_ folded: String) -> Bool {
    var text = folded
    return text.withUTF8 { bytes in
      var wordStart = 0
      for index in 0...bytes.count {
        let byte = index < bytes.count ? bytes[index] : 0x20
        if byte == 0x26 || byte == 0x2C || byte == 0x2F { return true }  // & , /
        guard byte == 0x20 else { continue }
        if wordStart > 0,
          joiningWords.contains(where: { word in
            word.count == index - wordStart
              && word.elementsEqual(UnsafeBufferPointer(rebasing: bytes[wordStart..<index]))
          })
        {
          return true
        }
        wordStart = index + 1
      }
      return false
    }
  }

  /// ``ArtistCredit``'s joining words, as UTF-8.
  private static let joiningWords = ArtistCredit.joiningWords

  /// The words that start a featured artist in a title.
  private static let featuringWords = ["feat. ", "feat ", "ft. ", "ft ", "featuring "]

  /// A featured artist at the end of a title: in brackets (`(feat. B)`, `[ft. B]`, `(with B)` when
  /// `allowsWith`) or, when `afterWord`, after the word (`Title feat. B`); the title before it and
  /// the artists.
  static func featuring(in title: Substring, allowsWith: Bool, afterWord: Bool) -> (
    Substring, [String]
  )? {
    if let (open, content) = lastBracket(of: title) {
      let words = allowsWith ? featuringWords + ["with "] : featuringWords
      guard let word = words.first(where: { content.hasPrefix($0) }) else { return nil }
      let names = content.dropFirst(word.count)
      return names.isEmpty ? nil : (title[..<open], artists(in: names))
    }
    guard afterWord else { return nil }
    for word in featuringWords {
      guard let range = lastRange(of: " " + word, in: title) else { continue }
      let names = title[range.upperBound...]
      if names.isEmpty || names.contains("(") || names.contains("[") { continue }
      return (title[..<range.lowerBound], artists(in: names))
    }
    return nil
  }

  private static func artists(in names: Substring) -> [String] {
    ArtistCredit.artists(in: String(names))
  }

  /// The title without its last label when that label names the same recording: the bracket at
  /// its end, or (when `afterDash`) what follows its last ` - `.
  static func withoutVersionLabel(_ title: Substring, afterDash: Bool) -> Substring? {
    if let (open, content) = lastBracket(of: title) {
      return isSameRecordingLabel(content) ? title[..<open] : nil
    }
    if afterDash, let dash = lastRange(of: " - ", in: title),
      isSameRecordingLabel(title[dash.upperBound...])
    {
      return title[..<dash.lowerBound]
    }
    return nil
  }

  /// Where `needle` last occurs in `text`, found on their UTF-8 bytes.
  static func lastRange(of needle: String, in text: Substring) -> Range<Substring.Index>? {
    let pattern = Array(needle.utf8)
    let bytes = text.utf8
    guard bytes.count >= pattern.count else { return nil }
    var index = bytes.index(bytes.endIndex, offsetBy: -pattern.count)
    while true {
      if bytes[index...].starts(with: pattern) {
        return index..<bytes.index(index, offsetBy: pattern.count)
      }
      if index == bytes.startIndex { return nil }
      index = bytes.index(before: index)
    }
  }

  /// The bracket that ends a title, `(…)` or `[…]`: where it opens and what it holds.
  static func lastBracket(of title: Substring) -> (open: Substring.Index, content: Substring)? {
    var end = title.endIndex
    while end > title.startIndex, title[title.index(before: end)] == " " {
      end = title.index(before: end)
    }
    guard end > title.startIndex else { return nil }
    let close = title.index(before: end)
    guard title[close] == ")" || title[close] == "]" else { return nil }
    let opening: Character = title[close] == ")" ? "(" : "["
    guard let open = title[..<close].lastIndex(of: opening), open != title.startIndex else {
      return nil
    }
    return (open, title[title.index(after: open)..<close])
  }

  /// The labels, as their words without years and "version", that name the same recording.
  private static let sameRecordingLabels: Set<[String]> = [
    ["single"], ["single", "edit"], ["radio", "edit"], ["radio"], ["album"], ["mono"], ["stereo"],
    ["mono", "mix"], ["stereo", "mix"], ["original"],
  ]

  /// Whether a label (folded) names the same recording as the title without it: remastered, with
  /// or without a year (`Remastered 2009`, `2011 Remaster`, `Digitally Remastered`), or one of
  /// `Single Version`, `Single Edit`, `Radio Edit`, `Radio Version`, `Album Version`, `Original
  /// Version`, `Mono`, `Stereo`, `Mono Mix`, `Stereo Mix`, with or without a year.
  static func isSameRecordingLabel(_ label: Substring) -> Bool {
    let words = label.split { !$0.isLetter && !$0.isNumber }
    let hasVersion = words.contains("version")
    let kept = words.filter { word in
      word != "version" && !(word.count == 4 && word.allSatisfy(\.isNumber))
    }.map(String.init)
    guard !kept.isEmpty else { return false }
    if kept.contains(where: { $0 == "remaster" || $0 == "remastered" }) {
      return kept.allSatisfy {
        ["remaster", "remastered", "digitally", "digital"].contains($0)
      }
    }
    // "Radio", "Album", "Single" and "Original" alone are labels only with "Version".
    if kept.count == 1, ["radio", "album", "single", "original"].contains(kept[0]) {
      return hasVersion
    }
    return sameRecordingLabels.contains(kept)
  }
}

/// The folded forms and matching forms of artist credits met recently (``MatchKeys``): an artist
/// charts many songs under one credit, and splitting a credit costs more than looking it up.
/// Holds at most ``capacity`` credits, then starts again.
public struct CreditForms: Sendable {
  private var forms: [String: (folded: String, credit: String)] = [:]
  private let capacity: Int

  /// An empty memory of at most `capacity` credits (0: none remembered).
  public init(capacity: Int = 16_384) { self.capacity = capacity }

  /// The folded credit and its matching form (``MatchKeys/credit(folded:featured:)``).
  mutating func forms(of artist: String) -> (folded: String, credit: String) {
    if let known = forms[artist] { return known }
    let folded = SongIdentity.fold(artist)
    let known = (folded, MatchKeys.credit(folded: folded))
    guard capacity > 0 else { return known }
    if forms.count >= capacity { forms.removeAll(keepingCapacity: true) }
    forms[artist] = known
    return known
  }
}
