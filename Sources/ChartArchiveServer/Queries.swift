import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// The questions an API route and a page both ask of one resource, each written once: its
/// parameters read from the request (in the order their problems are given), whether it names
/// chart dates (which decides how long the answer is kept), and the read, in the caller's read
/// transaction, of what the API renders as JSON or CSV and the page as HTML.
enum Queries {
  /// A snapshot with its entries' figures and the snapshot before it (`show`):
  /// `/api/charts/NAME/DATE`, `/charts/NAME/DATE`, `/charts/NAME`.
  struct Snapshot: Sendable {
    /// The chart's name.
    let chart: String
    /// Its chart date, `latest` or `previous`.
    let date: SnapshotDate

    /// A chart's snapshot.
    init(chart: String, date: SnapshotDate) {
      self.chart = chart
      self.date = date
    }

    /// The snapshot a route's path names: `{chart}`, then `{date}`.
    init(_ request: RouteRequest) throws(ServerProblem) {
      self.init(
        chart: try request.value(Parameters.chart),
        date: try request.value(Parameters.snapshotDate) ?? .latest)
    }

    /// Whether it names a chart date (the snapshot does not change), not `latest` or `previous`.
    var isDated: Bool { if case .on = date { true } else { false } }

    /// The snapshot, the one before it and its entries' figures.
    func read(_ reader: ArchiveReader) throws -> ChartSnapshot {
      try reader.chartSnapshot(of: chart, at: date)
    }
  }

  /// Two snapshots of a chart compared (`diff`): `/api/charts/NAME/diff`, `/charts/NAME/diff`.
  struct Diff: Sendable {
    /// The chart's name.
    let chart: String
    /// The older chart date and the newer, when given.
    let from, to: SnapshotDate?

    /// The diff a request asks for: `{chart}`, `from`, `to`.
    init(_ request: RouteRequest) throws(ServerProblem) {
      chart = try request.value(Parameters.chart)
      from = try request.value(Parameters.from)
      to = try request.value(Parameters.to)
    }

    /// Whether both dates name chart dates (the snapshots do not change), neither `latest` nor
    /// `previous` nor left out.
    var isDated: Bool {
      guard case .on = from, case .on = to else { return false }
      return true
    }

    /// Arrivals, drop-outs and movements between the two snapshots.
    func read(_ reader: ArchiveReader) throws -> DiffView {
      let (older, newer) = try reader.snapshotsToCompare(of: chart, from, to)
      return DiffView(
        chart: chart, older: older, newer: newer, diff: try reader.diff(from: older, to: newer))
    }
  }

  /// A chart's records (`records`): `/api/charts/NAME/records`, `/charts/NAME/records`.
  struct Records: Sendable {
    var chart: String
    var span: RecordSpan
    var limit: Int

    /// The records a request asks for: `{chart}`, `from`, `to` and `limit`.
    ///
    /// - Throws: ``ServerProblem`` (400) for a parameter it does not take, or `from` after `to`.
    init(_ request: RouteRequest) throws(ServerProblem) {
      chart = try request.value(Parameters.chart)
      let from = try request.value(Parameters.recordsFrom)
      let to = try request.value(Parameters.recordsTo)
      if let from, let to, from > to {
        throw ServerProblem(
          400, "from \(from) is after to \(to): give the earlier chart date first")
      }
      span = RecordSpan(from: from, to: to)
      limit = try request.value(Parameters.recordsLimit) ?? 10
    }

    func read(_ reader: ArchiveReader) throws -> RecordsView {
      RecordsView(try reader.records(of: chart, span: span, limit: limit))
    }

    /// A page of the records: each leaderboard's rows after the first `offset` it lists, at most
    /// `limit` (the rows it lists at `offset + limit` but not at `offset`: a by-artist
    /// leaderboard lists every artist tied at its last rank), read from the leaderboards down to
    /// rank ``Parameters/recordsLimitMaximum``, whose rows the links count. The first page is the
    /// answer without an offset.
    ///
    /// The next page's link gives the same limit, or what is left down to that rank.
    ///
    /// - Throws: ``ServerProblem`` (400) when `offset + limit` passes the most rows the API lists.
    func read(_ reader: ArchiveReader, offset: Int) throws -> (RecordsView, Paging.Links) {
      let most = Parameters.recordsLimitMaximum
      guard offset <= most - limit else {
        throw ServerProblem(
          400,
          "offset \(offset) and limit \(limit) reach past row \(most), the most a leaderboard"
            + " lists: give offset + limit of \(most) or less")
      }
      var records = try reader.records(of: chart, span: span, limit: most)
      // How many rows a leaderboard lists at a limit.
      func listed(_ board: Leaderboard, at limit: Int) -> Int {
        board.kind.subject == .artist
          ? board.rows.prefix { $0.rank <= limit }.count : min(limit, board.rows.count)
      }
      let total = records.leaderboards.reduce(0) { $0 + $1.rows.count }
      var more = false
      for index in records.leaderboards.indices {
        let board = records.leaderboards[index]
        let end = listed(board, at: offset + limit)
        more = more || end < board.rows.count
        records.leaderboards[index].rows = Array(board.rows[listed(board, at: offset)..<end])
      }
      records.limit = limit
      // The last page's limit is what is left down to row 100.
      let end = offset + limit
      let next =
        more && limit > 0 ? ["offset": "\(end)", "limit": "\(min(limit, most - end))"] : nil
      return (RecordsView(records), Paging.Links(total: total, next: next))
    }
  }

  /// A snapshot's rank-change report (`report`): `/api/charts/NAME/report`,
  /// `/charts/NAME/report`.
  struct Report: Sendable {
    /// The chart's name.
    let chart: String
    /// The snapshot's chart date, when given (the latest otherwise).
    let date: SnapshotDate?
    /// The most climbers and fallers listed.
    let limit: Int

    /// The report a request asks for: `{chart}`, `date`, then `limit` when the route takes it
    /// (10 otherwise).
    init(_ request: RouteRequest, limit: Parameter<Int?>? = nil) throws(ServerProblem) {
      chart = try request.value(Parameters.chart)
      date = try request.value(Parameters.reportDate)
      self.limit =
        try limit.flatMap { parameter throws(ServerProblem) in
          try request.value(parameter)
        } ?? 10
    }

    /// Whether it names a chart date, not the latest or previous.
    var isDated: Bool { if case .on = date { true } else { false } }

    /// The number one, debuts, re-entries, climbers, fallers and drop-outs.
    func read(_ reader: ArchiveReader) throws -> ReportView {
      let snapshot = try reader.snapshot(of: chart, at: date ?? .latest)
      let (report, previous) = try reader.report(on: snapshot, limit: limit)
      return ReportView(chart: chart, snapshot: snapshot, previous: previous, report: report)
    }
  }

  /// A song's history on every chart (`history --song ID`): `/api/songs/ID`, `/songs/ID`.
  struct Song: Sendable {
    /// The song's ID.
    let id: SongID

    /// The song a route's path names.
    ///
    /// - Throws: ``ServerProblem`` (404) for an ID that is not a whole number from 1.
    init(_ request: RouteRequest) throws(ServerProblem) { id = try request.value(Parameters.song) }

    /// Every recording of the song on every chart.
    ///
    /// - Throws: ``ServerProblem`` (404) when the archive has no song with the ID.
    func read(_ reader: ArchiveReader) throws -> HistoryView {
      guard let song = try reader.song(id) else {
        throw ServerProblem(404, "no song with ID \(id.rawValue)")
      }
      return HistoryView(try reader.recordings(of: [song]))
    }
  }

  /// A chart of a year or span of a chart (`period`): `/api/charts/NAME/periods?year=` (or
  /// `from` and `to`), `/charts/NAME/years/YYYY`.
  struct Period: Sendable {
    /// The chart's name.
    let chart: String
    /// The year, or the span's first and last days.
    let year: Int?
    let from, to: ChartDate?
    /// How places score, when asked.
    let scoring: PeriodScoring?
    /// How many songs to give.
    let limit: Int?

    /// The period chart an API request asks for: `{chart}`, `year`, `from`, `to`, `scoring`,
    /// `limit`.
    ///
    /// - Throws: ``ServerProblem`` (400) when neither a year nor both dates are given, or both.
    init(_ request: RouteRequest) throws(ServerProblem) {
      chart = try request.value(Parameters.chart)
      year = try request.value(Parameters.year)
      from = try request.value(Parameters.periodFrom)
      to = try request.value(Parameters.periodTo)
      scoring = try request.value(Parameters.scoring)
      limit = try request.value(Parameters.periodLimit)
      if year != nil, from != nil || to != nil {
        throw ServerProblem(400, "give year, or from and to, not both")
      }
      if year == nil, from == nil || to == nil {
        throw ServerProblem(400, "give year=YYYY, or from=DATE and to=DATE")
      }
      if let from, let to, from > to {
        throw ServerProblem(400, "from \(from) is after to \(to): give the earlier date first")
      }
    }

    /// The year chart a page's path names: `{chart}`, `{year}`, its top 100.
    init(page request: RouteRequest) throws(ServerProblem) {
      chart = try request.value(Parameters.chart)
      year = try request.value(Parameters.pathYear)
      (from, to, scoring, limit) = (nil, nil, nil, 100)
    }

    /// Whether the span ended before today (UTC): its snapshots are all published, and only an
    /// import into the past changes the answer.
    var isDated: Bool {
      let today = Int64(Date().timeIntervalSince1970) / 86_400 * 86_400
      if let to { return to.secondsSince1970 < today }
      guard let year else { return false }
      // The calendar year ends last of any chart's year.
      return PeriodSpan.year(year, frequency: nil).to.secondsSince1970 < today
    }

    /// The period chart.
    func read(_ reader: ArchiveReader) throws -> PeriodChart {
      let span =
        if let year {
          try reader.periodSpan(ofYear: year, chart: chart)
        } else {
          PeriodSpan(from: from!, to: to!)
        }
      return try reader.periodChart(of: chart, span: span, scoring: scoring, limit: limit)
    }
  }

  /// An artist's careers (`artist --id ID`): `/api/artists/ID`, `/artists/ID`.
  struct Artist: Sendable {
    /// The artist's ID.
    let id: ArtistID
    /// Only this chart's songs, when given (`?chart=`, the API's only).
    let chart: String?

    /// The artist a route's path names, and the chart its query names.
    ///
    /// - Throws: ``ServerProblem`` (404) for an ID that is not a whole number from 1.
    init(_ request: RouteRequest, chart: String? = nil) throws(ServerProblem) {
      id = try request.value(Parameters.artistID)
      self.chart = chart
    }

    /// The artist with their careers.
    ///
    /// - Throws: ``ServerProblem`` (404) when the archive has no artist with the ID, or no such
    ///   chart.
    func read(_ reader: ArchiveReader) throws -> ArtistView {
      guard let artist = try reader.artist(id) else {
        throw ServerProblem(404, "no artist with ID \(id.rawValue)")
      }
      return ArtistView(artist, careers: try reader.careers(of: id, onChart: chart))
    }
  }
}
