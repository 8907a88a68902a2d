/// An entry as a decision names it: by its chart, chart date and identity as published, never by
/// row IDs, so that the decision finds it again after a re-import.
public struct DecisionEntry: Hashable, Sendable {
  /// The chart's name.
  public var chart: String
  /// The snapshot's chart date.
  public var chartDate: ChartDate
  /// The title and credit as published.
  public var title: String
  public var artist: String
  /// The song URL as published, or `nil`.
  public var songURL: String?

  /// An entry named by its chart, chart date (ISO 8601), title, credit and song URL as published.
  public init(chart: String, chartDate: ChartDate, title: String, artist: String, songURL: String?)
  {
    self.chart = chart
    self.chartDate = chartDate
    self.title = title
    self.artist = artist
    self.songURL = songURL
  }
}

/// A merge or a split a person made, as it travels between archives in an export
/// (docs/rules.md, "Corrections"): the entries it names by their identity, never by row IDs, so
/// that the archive an export is imported into applies it to the same entries.
public struct SongDecision: Hashable, Sendable {
  /// What it decides.
  public enum Kind: String, Sendable, CaseIterable {
    /// The songs holding the entries of ``SongDecision/songs`` are one song.
    case merge
    /// The song holding the entry of ``SongDecision/songs`` is another song on its chart from
    /// that entry's chart date on.
    case split
  }

  /// A merge or a split.
  public var kind: Kind
  /// When it was made (ISO 8601, UTC: `2026-12-02T07:30:00Z`).
  public var madeAt: String
  /// A merge's songs, each by its first entry on each chart it was on, the kept song first; a
  /// split's one entry (the first of the other song).
  public var songs: [[DecisionEntry]]

  /// A decision as an export carries it; `songs` as ``songs`` describes them.
  public init(kind: Kind, madeAt: String, songs: [[DecisionEntry]]) {
    self.kind = kind
    self.madeAt = madeAt
    self.songs = songs
  }

  /// Whether two decisions decide the same: the same kind and the same entries for each song,
  /// in any order within a song (when each was made does not count).
  public func decidesTheSame(as other: SongDecision) -> Bool {
    kind == other.kind && songs.map(Set.init) == other.songs.map(Set.init)
  }
}
