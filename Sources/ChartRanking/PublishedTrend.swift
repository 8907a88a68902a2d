/// A movement as a source publishes it beside an entry, to check against the movement the archive
/// derives (see ``Movement``): a charts CSV's `trend`, Spotify's `entryStatus`, kworb's `P+`, the
/// UK chart's `New` and `RE`.
public struct PublishedTrend: Hashable, Sendable {
  /// What the source says of the entry's movement.
  public enum Kind: Hashable, Sendable {
    /// Climbed since the previous chart, by this many places when the source says.
    case up(places: Int?)
    /// Fell since the previous chart, by this many places when the source says.
    case down(places: Int?)
    /// The same rank as on the previous chart.
    case unchanged
    /// Not on the previous chart: a debut or a re-entry, the source does not say which.
    case notOnPrevious
    /// First appearance on the chart.
    case debut
    /// Back on the chart after at least one chart away.
    case reentry
  }

  /// What the source says.
  public var kind: Kind
  /// The marker as the source wrote it (`MOVE_UP`, `RE_ENTRY`, `+3`, `New`), for messages.
  public var text: String

  /// A published movement.
  public init(_ kind: Kind, text: String) {
    self.kind = kind
    self.text = text
  }

  /// Whether a derived movement is the published one: the direction, and the places when the
  /// source gives them; a re-entry or a debut is `notOnPrevious`.
  public func agrees(with movement: Movement) -> Bool {
    switch (kind, movement) {
    case (.up(let places), .up(let derived)), (.down(let places), .down(let derived)):
      places.map { $0 == derived } ?? true
    case (.unchanged, .unchanged), (.debut, .debut), (.reentry, .reentry),
      (.notOnPrevious, .debut), (.notOnPrevious, .reentry):
      true
    default: false
    }
  }

  /// Whether the published movement can be checked against the derived one for an entry of a
  /// snapshot: where the archive can tell how the entry moved, when the source publishes previous
  /// ranks or the archive holds the chart's previous snapshot (the first snapshot of a chart whose
  /// source publishes none is all debuts and re-entries to the archive, whatever moved).
  ///
  /// - Parameters:
  ///   - publishesPreviousRank: whether the snapshot's source publishes previous ranks.
  ///   - hasPrevious: whether the archive holds the chart's snapshot before it.
  public static func canBeChecked(publishesPreviousRank: Bool, hasPrevious: Bool) -> Bool {
    publishesPreviousRank || hasPrevious
  }
}

extension PublishedTrend.Kind {
  /// What the source says, in a word (`up`, `down`, `unchanged`, `not on previous`, `debut`,
  /// `re-entry`), without the places.
  public var word: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .unchanged: "unchanged"
    case .notOnPrevious: "not on previous"
    case .debut: "debut"
    case .reentry: "re-entry"
    }
  }

  /// The places up or down, when the source says.
  public var places: Int? {
    switch self {
    case .up(let places), .down(let places): places
    default: nil
    }
  }

  /// The kind a word (see ``word``) and places say; `nil` for a word that is none of them.
  public init?(word: String, places: Int?) {
    switch word {
    case "up": self = .up(places: places)
    case "down": self = .down(places: places)
    case "unchanged": self = .unchanged
    case "not on previous": self = .notOnPrevious
    case "debut": self = .debut
    case "re-entry": self = .reentry
    default: return nil
    }
  }
}

extension PublishedTrend {
  /// What the marker says, then `: ` and the marker as the source wrote it (`up 3: +3`, `not on
  /// previous: NEW_ENTRY`, `re-entry: RE`): the form the archive's `published_trend` column
  /// (Migrations/0008_published_trends.sql) and ChartArchive's own formats' `trend` write, so that
  /// what the source said survives an export and an import again, its words included.
  public var notation: String {
    kind.word + (kind.places.map { " \($0)" } ?? "") + ": " + text
  }

  /// The published trend a ``notation`` writes; `nil` for text not of that form (no `: ` after
  /// a word of ``Kind/word``, with its places where the source gave them).
  public init?(notation: String) {
    guard let colon = notation.firstRange(of: ": ") else { return nil }
    let says = notation[..<colon.lowerBound]
    var word = String(says)
    var places: Int?
    if let space = says.lastIndex(of: " "), let number = Int(says[says.index(after: space)...]) {
      word = String(says[..<space])
      places = number
    }
    guard let kind = Kind(word: word, places: places) else { return nil }
    self.init(kind, text: String(notation[colon.upperBound...]))
  }
}
