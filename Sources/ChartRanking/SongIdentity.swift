import Foundation

/// What makes two entries, in two snapshots, the same song.
///
/// The rule: the song URL when the source gives one (a streaming chart's track URL names one
/// recording); otherwise the title and the artist credit, each put through Unicode NFC
/// normalisation (Unicode Standard Annex #15), case folding and whitespace collapsing, so that
/// `"Blinding  Lights"` by `"the weeknd"` is the same song as `"Blinding Lights"` by
/// `"The Weeknd"`.
///
/// Two entries of one snapshot are never merged, even when their identities are equal: the
/// archive keeps each entry, and pairs equal identities between snapshots in rank order.
public struct SongIdentity: Hashable, Sendable, CustomStringConvertible {
  /// The identity as text: `url:<song URL>` or `song:<folded title>` + U+001F + `<folded artist>`.
  public let key: String

  /// Computes the identity of a song.
  ///
  /// - Parameters:
  ///   - title: the title as published.
  ///   - artist: the artist credit as published.
  ///   - songURL: the song's URL at the source, if any; blank counts as none.
  public init(title: String, artist: String, songURL: String?) {
    if let url = songURL?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
      key = "url:" + url
    } else {
      key = "song:" + Self.fold(title) + "\u{1F}" + Self.fold(artist)
    }
  }

  /// Creates an identity from its stored ``key``.
  public init(key: String) { self.key = key }

  public var description: String { key }

  /// Normalizes text for matching: NFC, case folding (locale-independent), runs of white space
  /// made one space, leading and trailing white space removed.
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
      .folding(options: [.caseInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
    return folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }
}
