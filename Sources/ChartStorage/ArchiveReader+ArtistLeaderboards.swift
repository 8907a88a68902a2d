public import ChartRanking
import Foundation

extension ArchiveReader {
  // MARK: - Artist leaderboards

  /// A leaderboard of artists on a chart (see ``ArtistLeaderboard/Figure``): each artist credited
  /// on a song (lead or featured, `song_artists`) scored from the chart's entries and their
  /// stored figures, never decided again; ranked most first, ties sharing a rank (1, 1, 3).
  ///
  /// One scan of the chart's entries in the span (those ranked 1 or in the top 10 only, for the
  /// figures about them) with the artists of each entry's song.
  ///
  /// - Parameters:
  ///   - figure: what is counted.
  ///   - chart: the chart's name.
  ///   - from: the span's first chart date, inclusive, or `nil` for the chart's first: a day is
  ///     the chart's day in its time zone (``RecordSpan/instants(in:)``).
  ///   - to: the span's last chart date, inclusive (all of its day), or `nil` for the chart's
  ///     latest.
  ///   - limit: the last rank listed (more rows where artists tie at it); at least 1.
  /// - Returns: the leaderboard; no rows when no entry of the span counts.
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` for an unknown chart,
  ///   ``ArchiveError/database(path:_:)``.
  public func artistLeaderboard(
    _ figure: ArtistLeaderboard.Figure, chart: String, from: ChartDate? = nil,
    to: ChartDate? = nil, limit: Int = 10
  ) throws(ArchiveError) -> ArtistLeaderboard {
    ArtistLeaderboard(
      figure: figure, chart: chart, from: from, to: to,
      rows: try artistRows(figure, chartID: try chartID(chart), from: from, to: to, limit: limit))
  }

  /// The rows of ``artistLeaderboard(_:chart:from:to:limit:)`` for a chart's ID.
  func artistRows(
    _ figure: ArtistLeaderboard.Figure, chartID: Int64, from: ChartDate?, to: ChartDate?,
    limit: Int
  ) throws(ArchiveError) -> [ArtistLeaderboard.Row] {
    let instants = RecordSpan(from: from, to: to).instants(in: try timeZone(ofChart: chartID))
    let scores = try reading { () throws(DatabaseError) in
      try artistScores(figure, chart: chartID, instants: instants)
    }
    // Names are read for the artists that may be ranked within the limit only.
    let figures = scores.values.map(\.figure).sorted(by: >)
    let threshold = figures.isEmpty ? 1 : figures[min(max(1, limit), figures.count) - 1]
    var named: [(artist: ArtistSummary, figure: Int, firstDate: ChartDate, lastDate: ChartDate)] =
      []
    for (id, score) in scores where score.figure >= threshold {
      guard let artist = try artist(ArtistID(id)) else { continue }
      named.append((artist, score.figure, score.first, score.last))
    }
    return ArtistLeaderboard.ranked(named, limit: limit)
  }

  /// One artist's score as the scan adds it up.
  struct ArtistScore {
    var figure = 0
    var first: ChartDate
    var last: ChartDate
    /// The songs counted, or the snapshots (for weeks at number 1).
    var counted: Set<Int64> = []
    /// For entries at once: the snapshot being counted and the artist's entries on it so far.
    var snapshot: Int64 = 0
    var atOnce = 0
  }

  /// Every artist's score, by artist ID.
  private func artistScores(
    _ figure: ArtistLeaderboard.Figure, chart: Int64, instants: (from: Int64, to: Int64)
  ) throws(DatabaseError) -> [Int64: ArtistScore] {
    let deepest =
      switch figure {
      case .numberOnes, .weeksAtNumberOne: 1
      case .topTens: 10
      case .entries, .entriesAtOnce: Int.max
      }
    let statement = try database.statement(
      "SELECT s.id, s.chart_date, s.chart_time, e.song_id, e.weeks_on_chart, r.artist_id"
        + " FROM snapshots s JOIN entries e ON e.snapshot_id = s.id"
        + " JOIN song_artists r ON r.song_id = e.song_id"
        + " WHERE s.chart_id = ?1 AND s.chart_time BETWEEN ?2 AND ?3 AND e.rank <= ?4"
        + " ORDER BY s.chart_time")
    statement.bind(chart, at: 1)
    statement.bind(instants.from, at: 2)
    statement.bind(instants.to, at: 3)
    statement.bind(deepest, at: 4)
    defer { statement.reset() }
    var scores: [Int64: ArtistScore] = [:]
    // The weeks already counted at number 1: (song, weeks on chart).
    var weeks: Set<[Int64]> = []
    while try statement.step() {
      let snapshot = statement.int64(at: 0)
      let date = ChartDate(
        trustedISO8601: statement.string(at: 1), secondsSince1970: statement.int64(at: 2))
      let song = statement.int64(at: 3)
      let artist = statement.int64(at: 5)
      var score = scores[artist] ?? ArtistScore(first: date, last: date)
      switch figure {
      case .numberOnes, .topTens, .entries:
        if score.counted.insert(song).inserted { score.figure += 1 }
        score.last = date
      case .weeksAtNumberOne:
        // A snapshot repeating the previous one adds no week: its weeks on chart are the same.
        guard weeks.insert([artist, song, statement.int64(at: 4)]).inserted else { break }
        if score.counted.insert(snapshot).inserted { score.figure += 1 }
        score.last = date
      case .entriesAtOnce:
        score.atOnce = score.snapshot == snapshot ? score.atOnce + 1 : 1
        score.snapshot = snapshot
        if score.atOnce > score.figure {
          (score.figure, score.first, score.last) = (score.atOnce, date, date)
        } else if score.atOnce == score.figure {
          score.last = date
        }
      }
      scores[artist] = score
    }
    return scores
  }
}
