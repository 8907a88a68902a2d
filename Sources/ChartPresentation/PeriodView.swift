import ChartFormats
public import ChartRanking
public import ChartStorage

/// A chart of a span (`period`, `GET /api/charts/{chart}/periods`, the year page): each song's
/// rank, its rank in the period before and how it moved, title, artist, points, peak in the
/// span, snapshots at that peak and snapshots in the span, counted in the chart's periods
/// (weeks, days …).
public struct PeriodView: Presentation {
  /// The period chart.
  public var period: PeriodChart

  /// The view of a period chart.
  public init(_ period: PeriodChart) { self.period = period }

  /// The sentence every front end says of a period chart: it is the archive's ranking, not the
  /// publisher's.
  public static let notice =
    "The archive's own ranking from the charts it holds, not a publisher's year-end chart."

  /// The span in words: `1985 (charts dated 1984-12-01 to 1985-11-30)`, or `1985-01-01 to
  /// 1985-03-31`.
  public static func spanWords(_ span: PeriodSpan) -> String {
    let dates = "\(span.from.iso8601) to \(span.to.iso8601)"
    return span.year.map { "\($0) (charts dated \(dates))" } ?? dates
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let periods = Periods(period.frequency)
    var document = Document()
    document.fields = [
      ("chart", .text(period.chart)), ("year", .optional(period.span.year)),
      ("from", .text(period.span.from.iso8601)), ("to", .text(period.span.to.iso8601)),
      ("previous_from", .text(period.previousSpan.from.iso8601)),
      ("previous_to", .text(period.previousSpan.to.iso8601)),
      ("scoring", .text(period.scoring.rawValue)), ("snapshots", .int(period.snapshotCount)),
      ("previous_snapshots", .int(period.previousSnapshotCount)),
      ("first_chart_date", .optional(period.firstChartDate?.iso8601)),
      ("last_chart_date", .optional(period.lastChartDate?.iso8601)),
      ("songs", .int(period.songCount)), ("notice", .text(Self.notice)),
    ]
    if format == .csv {
      // A row of CSV names its chart, span and scoring; the rest is the JSON's.
      document.fields = document.fields.filter {
        ["chart", "from", "to", "scoring"].contains($0.key)
      }
    }
    document.heading = [
      "\(period.chart) · \(Self.spanWords(period.span)): \(periods.count(period.snapshotCount)),"
        + " \(period.songCount) songs, scored by \(period.scoring.rawValue)",
      Self.notice,
    ]
    document.sections = [("entries", "", Self.table(period.songs, periods: periods))]
    if period.snapshotCount == 0 {
      document.footer = ["No snapshot of \(period.chart) is dated in this span."]
    }
    return document.rendered(as: format, style: style)
  }

  /// The table of a period's songs.
  static func table(_ songs: [PeriodSong], periods: Periods) -> Table {
    Table(
      columns: [
        Column(key: "rank", heading: "RANK", alignRight: true),
        Column(key: "movement", heading: "MOVE"),
        Column(key: "previous_rank", heading: "PREV", alignRight: true),
        Column(key: "title", heading: "TITLE"),
        Column(key: "artist", heading: "ARTIST"),
        Column(key: "points", heading: "POINTS", alignRight: true),
        Column(key: "peak", heading: "PEAK", alignRight: true),
        Column(key: "at_peak", heading: "AT PEAK", alignRight: true),
        Column(key: "periods", heading: periods.heading, alignRight: true),
      ],
      rows: songs.map { song in
        let standing = song.standing
        return [
          .int(standing.rank), .movement(standing.movement), .optional(standing.previousRank),
          .text(song.title), .text(song.artist), .int(Int(standing.points.rounded())),
          .int(standing.peak), .int(standing.periodsAtPeak), .int(standing.periods),
        ]
      })
  }
}
