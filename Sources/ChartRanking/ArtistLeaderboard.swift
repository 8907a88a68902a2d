/// A leaderboard of artists on one chart: who has the most of a figure, from the entries the
/// archive holds and the artists credited on their songs (lead or featured, see ``ArtistRole``),
/// optionally over a span of chart dates.
public struct ArtistLeaderboard: Sendable, Equatable {
  /// What an artist leaderboard counts.
  public enum Figure: String, CaseIterable, Sendable {
    /// Songs credited to the artist that were at number 1 (in the span).
    case numberOnes = "number-ones"
    /// Songs credited to the artist that were in the top 10 (in the span).
    case topTens = "top-10s"
    /// Songs credited to the artist that were on the chart (in the span): their entries, as
    /// chart histories count an artist's entries.
    case entries
    /// Weeks (the chart's snapshots: days on a daily chart) one of the artist's songs was at
    /// number 1 (in the span), counted as weeks on chart count them: a snapshot that repeats the
    /// previous one and adds no week is not counted again, nor are two of the artist's songs tied
    /// at number 1 on one snapshot.
    case weeksAtNumberOne = "weeks-at-number-one"
    /// The most of the artist's songs on one snapshot.
    case entriesAtOnce = "entries-at-once"

    /// The lowest rank of the top 10 (1-based): ``topTens`` counts songs with an entry ranked 1
    /// to 10, as a song's peak position does (``ArtistSong/isTopTen``).
    public static let lowestTopTenRank = 10
  }

  /// One artist's place.
  public struct Row: Sendable, Equatable {
    /// 1-based; artists with the same figure share a rank, and the next rank skips as many
    /// (1, 1, 3).
    public var rank: Int
    /// The artist (its song count is the artist's songs on any chart).
    public var artist: ArtistSummary
    /// The figure: songs, weeks, or entries on one snapshot.
    public var figure: Int
    /// The dates that make it: the first and last chart dates counted (the first and last
    /// snapshot with that many entries at once, for ``Figure/entriesAtOnce``).
    public var firstDate: ChartDate
    public var lastDate: ChartDate

    /// A row of a leaderboard.
    public init(
      rank: Int, artist: ArtistSummary, figure: Int, firstDate: ChartDate, lastDate: ChartDate
    ) {
      self.rank = rank
      self.artist = artist
      self.figure = figure
      self.firstDate = firstDate
      self.lastDate = lastDate
    }
  }

  /// What it counts.
  public var figure: Figure
  /// The chart's name.
  public var chart: String
  /// The span's first and last chart dates, inclusive, when it is limited to one.
  public var from: ChartDate?
  public var to: ChartDate?
  /// The artists, by rank, then name; those ranked within the limit it was asked for (more rows
  /// than the limit where artists tie at its end).
  public var rows: [Row]

  /// A leaderboard with its rows as given.
  public init(figure: Figure, chart: String, from: ChartDate?, to: ChartDate?, rows: [Row]) {
    self.figure = figure
    self.chart = chart
    self.from = from
    self.to = to
    self.rows = rows
  }

  /// Ranks artists by a figure, most first, ties sharing a rank (1, 1, 3), then by name (folded,
  /// then as written) and ID: those ranked within `limit`.
  ///
  /// - Parameters:
  ///   - scores: each artist's figure and dates; artists with a figure of 0 are left out.
  ///   - limit: the last rank kept (at least 1).
  public static func ranked(
    _ scores: [(artist: ArtistSummary, figure: Int, firstDate: ChartDate, lastDate: ChartDate)],
    limit: Int
  ) -> [Row] {
    let sorted = scores.filter { $0.figure > 0 }.sorted {
      ($1.figure, SongIdentity.fold($0.artist.name), $0.artist.name, $0.artist.id)
        < ($0.figure, SongIdentity.fold($1.artist.name), $1.artist.name, $1.artist.id)
    }
    var rows: [Row] = []
    for (index, score) in sorted.enumerated() {
      let rank =
        index > 0 && sorted[index - 1].figure == score.figure ? rows[index - 1].rank : index + 1
      guard rank <= max(1, limit) else { break }
      rows.append(
        Row(
          rank: rank, artist: score.artist, figure: score.figure, firstDate: score.firstDate,
          lastDate: score.lastDate))
    }
    return rows
  }
}
