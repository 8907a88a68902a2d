public import ChartRanking
import Foundation

/// A chart's records: its leaderboards over a span of chart dates, as `records` shows them.
public struct ChartRecords: Hashable, Sendable {
  /// The chart's name.
  public var chart: String
  /// How often it is published, when known: the leaderboards' periods are its weeks, days or
  /// hours.
  public var frequency: ChartFrequency?
  /// The span the records are limited to.
  public var span: RecordSpan
  /// At most how many rows each leaderboard holds.
  public var limit: Int
  /// The leaderboards, in the order asked for.
  public var leaderboards: [Leaderboard]
}

extension ArchiveReader {
  // MARK: - Records

  /// A chart's leaderboards over a span, each ranked by ``Leaderboard/init(_:ranking:limit:)``
  /// from the figures stored for its entries (docs/rules.md, "Records").
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - span: the chart dates counted, both ends included; ``RecordSpan/all`` for the whole chart.
  ///   - limit: at most this many rows a leaderboard, 1 or more.
  ///   - kinds: the leaderboards, in order; every one by default, the song leaderboards then the
  ///     by-artist ones.
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` or ``ArchiveError/database(path:_:)``.
  public func records(
    of chart: String, span: RecordSpan = .all, limit: Int = 10,
    kinds: [RecordKind] = RecordKind.allCases
  ) throws(ArchiveError) -> ChartRecords {
    let chartID = try self.chartID(chart)
    let frequency = try reading {
      try database.row("SELECT frequency FROM charts WHERE id = ?", [chartID]) {
        $0.optionalString(at: 0)
      } ?? nil
    }
    var boards: [Leaderboard] = []
    var shared = SharedRecords()
    for kind in kinds {
      boards.append(
        try leaderboard(kind, chartID: chartID, span: span, limit: limit, shared: &shared))
    }
    return ChartRecords(
      chart: chart, frequency: frequency.flatMap(ChartFrequency.init), span: span, limit: limit,
      leaderboards: boards)
  }

  /// One leaderboard of a chart.
  ///
  /// - Throws: as ``records(of:span:limit:kinds:)``.
  public func leaderboard(
    _ kind: RecordKind, of chart: String, span: RecordSpan = .all, limit: Int = 10
  ) throws(ArchiveError) -> Leaderboard {
    var shared = SharedRecords()
    return try leaderboard(
      kind, chartID: try chartID(chart), span: span, limit: limit, shared: &shared)
  }

  /// What two leaderboards of one span read alike, read once: the stays at number one (weeks at
  /// number one and the longest stay) and the rises to it (fastest and longest).
  struct SharedRecords {
    var stays: [RecordCandidate]?
    var rises: [RecordCandidate]?
    /// The artists' scores of every artist leaderboard.
    var artists: ArtistScores?
  }

  func leaderboard(
    _ kind: RecordKind, chartID: Int64, span: RecordSpan, limit: Int,
    shared: inout SharedRecords
  ) throws(ArchiveError) -> Leaderboard {
    let bounds = RecordBounds(chartID: chartID, span: span, zone: try timeZone(ofChart: chartID))
    let candidates: [RecordCandidate]
    switch kind {
    case .weeksAtNumberOne, .longestStayAtNumberOne:
      if shared.stays == nil { shared.stays = try numberOneStays(bounds) }
      let stays = shared.stays ?? []
      candidates = kind == .weeksAtNumberOne ? RecordCandidate.totals(of: stays) : stays
    case .weeksOnChart, .longestRun:
      candidates = try thresholded(limit) { (threshold) throws(ArchiveError) in
        kind == .weeksOnChart
          ? try weeksOnChart(bounds, atLeast: threshold)
          : try longestRuns(bounds, atLeast: threshold, limit: limit)
      }
    case .highestDebut:
      candidates = try debuts(bounds, limit: limit)
    case .biggestClimb, .biggestFall:
      candidates = try moves(bounds, climbing: kind == .biggestClimb, limit: limit)
    case .artistNumberOnes, .artistTopTens, .artistEntries, .artistWeeksAtNumberOne,
      .artistEntriesAtOnce:
      let rows = try artistRows(
        kind.artistFigure ?? .entries, chartID: chartID, from: span.from, to: span.to,
        limit: limit, scores: &shared.artists)
      return Leaderboard(kind, rows: rows.map(RecordRow.init))
    case .fastestRiseToNumberOne, .longestRoadToNumberOne:
      if shared.rises == nil { shared.rises = try risesToNumberOne(bounds) }
      let rises = shared.rises ?? []
      var board = Leaderboard(kind, ranking: rises, limit: limit)
      for index in board.rows.indices {
        let record = board.rows[index].record
        board.rows[index].record.firstDate =
          try firstDate(of: record.holder, bounds) ?? record.firstDate
      }
      return board
    }
    return Leaderboard(kind, ranking: candidates, limit: limit)
  }

  /// The chart date of a song's first entry on the chart.
  func firstDate(of holder: RecordHolder, _ bounds: RecordBounds) throws(ArchiveError)
    -> ChartDate?
  {
    guard case .song(let song) = holder else { return nil }
    return try reading {
      try database.row(
        """
        SELECT ps.chart_date, ps.chart_time
        FROM entries p INDEXED BY entries_by_song CROSS JOIN snapshots ps
        WHERE p.song_id = ?1 AND ps.id = p.snapshot_id AND ps.chart_id = ?2
        ORDER BY ps.chart_time LIMIT 1
        """, [song.id.rawValue, bounds.chartID]
      ) { ChartDate(trustedISO8601: $0.string(at: 0), secondsSince1970: $0.int64(at: 1)) }
    }
  }

  /// The candidates of a leaderboard read first from a partial index (figures of 40 or more),
  /// and from every entry of the span when fewer than `limit` reach it: a record below 40 has no
  /// entry in the index, so the first answer is complete when `limit` records reach 40.
  private func thresholded(
    _ limit: Int, _ read: (Int?) throws(ArchiveError) -> [RecordCandidate]
  ) throws(ArchiveError) -> [RecordCandidate] {
    let found = try read(RecordBounds.longCharting).filter {
      $0.figure >= RecordBounds.longCharting
    }
    return found.count >= limit ? found : try read(nil)
  }

  /// Every stay at number one in the span, cut at its ends: one candidate a stay, its periods the
  /// last entry's weeks on chart less the first's, plus one (migration 13's `number_one_stays`).
  func numberOneStays(_ bounds: RecordBounds) throws(ArchiveError) -> [RecordCandidate] {
    try reading {
      try database.rows(
        """
        SELECT w.song_id, g.title, g.artist, max(w.weeks_on_chart) - min(w.weeks_on_chart) + 1,
          min(w.chart_date), min(w.chart_time), max(w.chart_date), max(w.chart_time)
        FROM (
          SELECT e.song_id, e.weeks_on_chart, s.chart_date, s.chart_time,
            sum(e.previous_rank IS NOT 1) OVER (
              PARTITION BY e.song_id ORDER BY s.chart_time ROWS UNBOUNDED PRECEDING
            ) AS stay
          FROM entries e INDEXED BY entries_at_number_one CROSS JOIN snapshots s
          WHERE e.rank = 1 AND s.id = e.snapshot_id AND s.chart_id = ?
            AND s.chart_time BETWEEN ? AND ?
        ) w
        JOIN songs g ON g.id = w.song_id
        GROUP BY w.song_id, w.stay
        """, bounds.arguments, RecordBounds.readSpanning)
    }
  }

  /// Songs' periods on the chart: their stored weeks on chart (the last in the span, for a span
  /// from the chart's start); in a span with a first date, the periods counted in it (its last
  /// weeks on chart less its first, plus one: a song the archive first holds in the span, with
  /// the source's weeks from before, counts its weeks in the span only). With a threshold, only
  /// songs with an entry in the span at that many weeks or more.
  func weeksOnChart(_ bounds: RecordBounds, atLeast threshold: Int?) throws(ArchiveError)
    -> [RecordCandidate]
  {
    let (index, condition) = RecordBounds.longChartingClause(threshold)
    let figure =
      bounds.hasStart
      ? """
      k.weeks - (
          SELECT min(p.weeks_on_chart)
          FROM entries p INDEXED BY entries_by_song CROSS JOIN snapshots ps
          WHERE p.song_id = k.song_id AND ps.id = p.snapshot_id AND ps.chart_id = ?1
            AND ps.chart_time BETWEEN ?2 AND ?3
        ) + 1
      """ : "k.weeks"
    return try reading {
      try database.rows(
        """
        SELECT k.song_id, g.title, g.artist, \(figure),
          ps.chart_date, ps.chart_time, k.last_date, k.last_time
        FROM (
          SELECT e.song_id, max(e.weeks_on_chart) AS weeks, max(s.chart_date) AS last_date,
            max(s.chart_time) AS last_time
          FROM entries e \(index) CROSS JOIN snapshots s
          WHERE \(condition) AND s.id = e.snapshot_id AND s.chart_id = ?1
            AND s.chart_time BETWEEN ?2 AND ?3
          GROUP BY e.song_id
        ) k
        JOIN songs g ON g.id = k.song_id
        JOIN snapshots ps ON ps.id = (
          SELECT p.snapshot_id FROM entries p INDEXED BY entries_by_song CROSS JOIN snapshots ps
          WHERE p.song_id = k.song_id AND ps.id = p.snapshot_id AND ps.chart_id = ?1
            AND ps.chart_time BETWEEN ?2 AND ?3
          ORDER BY ps.chart_time LIMIT 1
        )
        """, bounds.arguments, RecordBounds.readSpanning)
    }
  }

  /// Songs' runs in the span, cut at its ends: the run's last weeks on chart less its first, plus
  /// one; with a threshold, only runs with an entry in the span at that many weeks or more. A
  /// run is no longer than its last weeks on chart in the span, which the candidates query gives:
  /// runs are measured longest bound first, until `limit` are measured and no bound left can
  /// reach the shortest of them.
  func longestRuns(_ bounds: RecordBounds, atLeast threshold: Int?, limit: Int)
    throws(ArchiveError) -> [RecordCandidate]
  {
    let (index, condition) = RecordBounds.longChartingClause(threshold)
    let candidates = try reading {
      try database.rows(
        """
        SELECT e.song_id, e.run, max(e.weeks_on_chart) AS bound
        FROM entries e \(index) CROSS JOIN snapshots s
        WHERE \(condition) AND s.id = e.snapshot_id AND s.chart_id = ?1
          AND s.chart_time BETWEEN ?2 AND ?3
        GROUP BY e.song_id, e.run ORDER BY bound DESC
        """, bounds.arguments
      ) { (song: $0.int64(at: 0), run: $0.int(at: 1), bound: $0.int(at: 2)) }
    }
    var runs: [RecordCandidate] = []
    for candidate in candidates {
      let shortest = runs.map(\.figure).sorted(by: >).dropFirst(max(0, limit - 1)).first
      if let shortest, runs.count >= limit, candidate.bound < shortest { break }
      if let run = try run(candidate.song, candidate.run, bounds) { runs.append(run) }
    }
    return runs
  }

  /// One run of a song in the span, measured from its entries in it.
  func run(_ song: Int64, _ run: Int, _ bounds: RecordBounds) throws(ArchiveError)
    -> RecordCandidate?
  {
    try reading {
      try database.row(
        """
        SELECT p.song_id, g.title, g.artist, max(p.weeks_on_chart) - min(p.weeks_on_chart) + 1,
          min(ps.chart_date), min(ps.chart_time), max(ps.chart_date), max(ps.chart_time)
        FROM entries p INDEXED BY entries_by_song CROSS JOIN snapshots ps
        JOIN songs g ON g.id = p.song_id
        WHERE p.song_id = ?4 AND p.run = ?5 AND ps.id = p.snapshot_id
          AND ps.chart_id = ?1 AND ps.chart_time BETWEEN ?2 AND ?3
        GROUP BY p.song_id
        """, bounds.arguments + [song, run], RecordBounds.readSpanning)
    }
  }

  /// The best `limit` debuts in the span by rank (on any snapshot but the chart's first), read
  /// from the index of debuts in the top 20 and from every entry when fewer are there.
  func debuts(_ bounds: RecordBounds, limit: Int) throws(ArchiveError) -> [RecordCandidate] {
    func read(indexed: Bool) throws(ArchiveError) -> [RecordCandidate] {
      let (index, condition) =
        indexed
        ? ("INDEXED BY entries_debuting", "AND e.rank <= \(RecordBounds.debutingRanks)") : ("", "")
      return try reading {
        try database.rows(
          """
          SELECT e.song_id, g.title, g.artist, e.rank, s.chart_date, s.chart_time,
            s.chart_date, s.chart_time
          FROM entries e \(index) CROSS JOIN snapshots s JOIN songs g ON g.id = e.song_id
          WHERE e.previous_rank IS NULL AND e.figure_flags & 8 = 0 \(condition)
            AND s.id = e.snapshot_id AND s.chart_id = ?1 AND s.chart_time BETWEEN ?2 AND ?3
            AND s.chart_time > (SELECT min(chart_time) FROM snapshots WHERE chart_id = ?1)
          ORDER BY e.rank, s.chart_time, e.song_id LIMIT ?4
          """, bounds.arguments + [limit], RecordBounds.readSpanning)
      }
    }
    let found = try read(indexed: true)
    return found.count >= limit ? found : try read(indexed: false)
  }

  /// The best `limit` climbs (or falls) in the span, by places moved from the previous rank: read
  /// from the index of moves of 30 places or more, and from every entry when fewer are there. A
  /// debut or re-entry has no previous rank and is no move.
  func moves(_ bounds: RecordBounds, climbing: Bool, limit: Int) throws(ArchiveError)
    -> [RecordCandidate]
  {
    let places = climbing ? "e.previous_rank - e.rank" : "e.rank - e.previous_rank"
    let order = climbing ? "DESC" : "ASC"
    func read(indexed: Bool) throws(ArchiveError) -> [RecordCandidate] {
      let index = indexed ? "INDEXED BY entries_moving" : ""
      let least = indexed ? RecordBounds.movingPlaces : 1
      let condition =
        indexed
        ? "(e.previous_rank - e.rank >= \(least) OR e.rank - e.previous_rank >= \(least)) AND" : ""
      return try reading {
        try database.rows(
          """
          SELECT e.song_id, g.title, g.artist, \(places), s.chart_date, s.chart_time,
            s.chart_date, s.chart_time, e.previous_rank, e.rank
          FROM entries e \(index) CROSS JOIN snapshots s JOIN songs g ON g.id = e.song_id
          WHERE \(condition) \(places) >= \(least)
            AND s.id = e.snapshot_id AND s.chart_id = ?1 AND s.chart_time BETWEEN ?2 AND ?3
          ORDER BY e.previous_rank - e.rank \(order), s.chart_time, e.song_id LIMIT ?4
          """, bounds.arguments + [limit]
        ) { row in
          var candidate = RecordBounds.readSpanning(row)
          candidate.fromRank = row.int(at: 8)
          candidate.toRank = row.int(at: 9)
          return candidate
        }
      }
    }
    let found = try read(indexed: true)
    return found.count >= limit ? found : try read(indexed: false)
  }

  /// Every song whose first week at number one on the chart is in the span and not on the chart's
  /// first snapshot (where the archive cannot tell it was the first): its weeks on chart that
  /// week, and that week's date as both first and last date (the first entry's date, which
  /// migration 13's `rises_to_number_one` gives, is read for the rows kept, ``firstDate(of:_:)``).
  /// The grouped query's date and weeks on chart are those of the row holding the `min`
  /// (<https://www.sqlite.org/lang_select.html#bareagg>).
  func risesToNumberOne(_ bounds: RecordBounds) throws(ArchiveError) -> [RecordCandidate] {
    try reading {
      try database.rows(
        """
        SELECT f.song_id, g.title, g.artist, f.weeks_on_chart, f.chart_date, f.chart_time,
          f.chart_date, f.chart_time
        FROM (
          SELECT e.song_id, min(s.chart_time) AS chart_time, s.chart_date, e.weeks_on_chart
          FROM entries e INDEXED BY entries_at_number_one CROSS JOIN snapshots s
          WHERE e.rank = 1 AND s.id = e.snapshot_id AND s.chart_id = ?1
          GROUP BY e.song_id
        ) f
        JOIN songs g ON g.id = f.song_id
        WHERE f.chart_time BETWEEN ?2 AND ?3
          AND f.chart_time > (SELECT min(chart_time) FROM snapshots WHERE chart_id = ?1)
        """, bounds.arguments, RecordBounds.readSpanning)
    }
  }
}

/// A chart and a span as a records query binds them (`?1` the chart, `?2` and `?3` the first and
/// last instant of the span's days in the chart's zone), and the bounds of migration 13's partial
/// indexes.
struct RecordBounds {
  var chartID: Int64
  var from: Int64
  var to: Int64

  /// - Parameter zone: the chart's time zone, whose days the span's dates are
  ///   (``RecordSpan/instants(in:)``).
  init(chartID: Int64, span: RecordSpan, zone: TimeZone) {
    self.chartID = chartID
    (from, to) = span.instants(in: zone)
  }

  var arguments: [any StatementArgument] { [chartID, from, to] }

  /// Whether the span has a first date (else it starts with the chart).
  var hasStart: Bool { from != Int64.min }

  /// `entries_long_charting` holds entries of 40 weeks on chart or more.
  static let longCharting = 40
  /// `entries_debuting` holds debuts at ranks 1 to 20.
  static let debutingRanks = 20
  /// `entries_moving` holds moves of 30 places or more.
  static let movingPlaces = 30

  /// The index and condition that read entries of `threshold` weeks on chart or more (the
  /// partial index's own condition, which SQLite must see written out to use it), or every entry.
  static func longChartingClause(_ threshold: Int?) -> (index: String, condition: String) {
    threshold == nil
      ? ("", "1")
      : ("INDEXED BY entries_long_charting", "e.weeks_on_chart >= \(longCharting)")
  }

  /// A candidate from a song's ID, title and credit, the figure, then the first and last chart
  /// date and chart time.
  static func readSpanning(_ row: Statement) -> RecordCandidate {
    RecordCandidate(
      holder: .song(
        RecordSong(
          id: SongID(row.int64(at: 0)), title: row.string(at: 1), artist: row.string(at: 2))),
      figure: row.int(at: 3),
      firstDate: ChartDate(trustedISO8601: row.string(at: 4), secondsSince1970: row.int64(at: 5)),
      lastDate: ChartDate(trustedISO8601: row.string(at: 6), secondsSince1970: row.int64(at: 7)))
  }
}

extension RecordRow {
  /// A by-artist leaderboard's row as a record: its rank, the artist, the figure and its dates.
  init(_ row: ArtistLeaderboard.Row) {
    self.init(
      rank: row.rank,
      record: RecordCandidate(
        holder: .artist(RecordArtist(id: row.artist.id.rawValue, name: row.artist.name)),
        figure: row.figure, firstDate: row.firstDate, lastDate: row.lastDate))
  }
}
