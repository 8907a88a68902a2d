public import ChartRanking
import Foundation

/// A chart of a span made from the snapshots in it (see ``PeriodRanking``): the archive's own
/// ranking from the charts it holds, not a publisher's year-end chart.
public struct PeriodChart: Sendable {
  /// The chart's name.
  public var chart: String
  /// How often the chart is published, when known.
  public var frequency: ChartFrequency?
  /// The span.
  public var span: PeriodSpan
  /// The span of the same length before it, whose ranks the standings compare with.
  public var previousSpan: PeriodSpan
  /// How the places were scored.
  public var scoring: PeriodScoring
  /// The chart dates of the span's first and last snapshots, `nil` when it has none.
  public var firstChartDate: ChartDate?
  public var lastChartDate: ChartDate?
  /// How many snapshots the span holds, and the span before.
  public var snapshotCount: Int
  public var previousSnapshotCount: Int
  /// How many songs the span holds (``songs`` may be fewer, by the limit asked for).
  public var songCount: Int
  /// The standings shown, best first, each with its song's title and credit.
  public var songs: [PeriodSong]
}

/// One song of a period chart, with its title and credit as first imported.
public struct PeriodSong: Hashable, Sendable {
  /// Its standing.
  public var standing: PeriodStanding
  /// The song's title.
  public var title: String
  /// The song's artist credit.
  public var artist: String
}

extension ArchiveReader {
  // MARK: - Periods

  /// A chart of a span of a chart: every song of the span's snapshots ranked by
  /// ``PeriodRanking/rank(_:previous:scoring:)``, with its rank in the span before.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - span: the span; a year by ``PeriodSpan/year(_:frequency:)`` with the chart's frequency
  ///     (see ``periodSpan(ofYear:chart:)``).
  ///   - scoring: how places score; `nil` for ``PeriodScoring/standard(everyEntryHasStreams:)``.
  ///   - limit: how many songs to give, from the top (all when `nil`).
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` or ``ArchiveError/database(path:_:)``.
  public func periodChart(
    of chart: String, span: PeriodSpan, scoring: PeriodScoring? = nil, limit: Int? = nil
  ) throws(ArchiveError) -> PeriodChart {
    let chartID = try self.chartID(chart)
    let frequency = try self.chart(named: chart)?.frequency
    let previousSpan = span.previous(frequency: frequency)
    // The span's days are the chart's days in its zone.
    let zone = try timeZone(ofChart: chartID)
    let current = try periodPlacements(ofChart: chartID, in: span.instants(in: zone))
    let before = try periodPlacements(ofChart: chartID, in: previousSpan.instants(in: zone))
    let scoring =
      scoring
      ?? .standard(
        everyEntryHasStreams: !current.isEmpty && current.allSatisfy { $0.streams != nil })
    let standings = PeriodRanking.rank(current, previous: before, scoring: scoring)
    let shown = standings.prefix(limit ?? standings.count)
    let names = try songNames(shown.map(\.song))
    // Every snapshot of the span counts, one of no entries (a listener's week without plays) too.
    let times = try snapshotTimes(ofChart: chartID, in: span.instants(in: zone))
    var first: ChartDate?
    var last: ChartDate?
    if let earliest = times.first, let latest = times.last {
      first = try chartDate(ofChart: chartID, at: earliest)
      last = try chartDate(ofChart: chartID, at: latest)
    }
    return PeriodChart(
      chart: chart, frequency: frequency, span: span, previousSpan: previousSpan,
      scoring: scoring,
      firstChartDate: first, lastChartDate: last,
      snapshotCount: times.count,
      previousSnapshotCount: try snapshotTimes(
        ofChart: chartID, in: previousSpan.instants(in: zone)
      ).count,
      songCount: standings.count,
      songs: shown.map {
        PeriodSong(standing: $0, title: names[$0.song]?.0 ?? "", artist: names[$0.song]?.1 ?? "")
      })
  }

  /// The span of a year of a chart, by its frequency (``PeriodSpan/year(_:frequency:)``).
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` or ``ArchiveError/database(path:_:)``.
  public func periodSpan(ofYear year: Int, chart: String) throws(ArchiveError) -> PeriodSpan {
    _ = try chartID(chart)
    return .year(year, frequency: try self.chart(named: chart)?.frequency)
  }

  /// The entries of a chart's snapshots dated in a range of seconds, by chart date then rank (the
  /// order of their positions).
  func periodPlacements(ofChart chartID: Int64, in seconds: ClosedRange<Int64>)
    throws(ArchiveError) -> [PeriodPlacement]
  {
    try reading {
      try database.rows(
        """
        SELECT s.chart_time, s.entry_count, e.rank, e.song_id, e.streams
        FROM snapshots s CROSS JOIN entries e ON e.snapshot_id = s.id
        WHERE s.chart_id = ? AND s.chart_time BETWEEN ? AND ?
        ORDER BY s.chart_time, e.position
        """, [chartID, seconds.lowerBound, seconds.upperBound]
      ) { row in
        PeriodPlacement(
          chartTime: row.int64(at: 0), places: row.int(at: 1), rank: row.int(at: 2),
          song: SongID(row.int64(at: 3)), streams: row.optionalInt(at: 4))
      }
    }
  }

  /// The times (seconds since 1970) of a chart's snapshots dated in a range of seconds, oldest
  /// first: those of no entries among them.
  private func snapshotTimes(ofChart chartID: Int64, in seconds: ClosedRange<Int64>)
    throws(ArchiveError) -> [Int64]
  {
    try reading {
      try database.rows(
        "SELECT chart_time FROM snapshots WHERE chart_id = ? AND chart_time BETWEEN ? AND ?"
          + " ORDER BY chart_time", [chartID, seconds.lowerBound, seconds.upperBound]
      ) { $0.int64(at: 0) }
    }
  }

  /// The chart date of a chart's snapshot at a time (seconds since 1970).
  private func chartDate(ofChart chartID: Int64, at time: Int64) throws(ArchiveError) -> ChartDate {
    let text = try reading {
      try database.row(
        "SELECT chart_date FROM snapshots WHERE chart_id = ? AND chart_time = ?", [chartID, time]
      ) { $0.string(at: 0) }
    }
    return ChartDate(trustedISO8601: text ?? "", secondsSince1970: time)
  }

  /// The titles and credits of songs, as first imported.
  private func songNames(_ songs: [SongID]) throws(ArchiveError) -> [SongID: (String, String)] {
    guard !songs.isEmpty else { return [:] }
    let marks = Array(repeating: "?", count: songs.count).joined(separator: ", ")
    let rows = try reading {
      try database.rows(
        "SELECT id, title, artist FROM songs WHERE id IN (\(marks))", songs.map(\.rawValue)
      ) { (SongID($0.int64(at: 0)), $0.string(at: 1), $0.string(at: 2)) }
    }
    return Dictionary(rows.map { ($0.0, ($0.1, $0.2)) }, uniquingKeysWith: { first, _ in first })
  }
}
