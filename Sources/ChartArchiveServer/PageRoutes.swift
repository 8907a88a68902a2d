import ChartPresentation
import ChartRanking
import ChartStorage

/// The web pages: every path outside `/api/`, answered with HTML rendered by ChartPresentation's
/// pages from the same queries as the API (``Queries``, one read transaction each).
///
/// - `/`: the charts, each with its latest chart date and the top of its latest snapshot.
/// - `/charts/NAME` (the latest snapshot), `/charts/NAME/DATE` (or `latest`, `previous`): a
///   snapshot as the chart app shows it; `/charts/NAME?date=DATE`, what the date picker sends,
///   redirects to the snapshot of that date, else the one before it (the chart in force that day),
///   else the first after it (for charts with a time of day, the first after its midnight).
/// - `/charts/NAME/diff?from=&to=` and `/charts/NAME/report?date=`: as the API's, as pages.
/// - `/charts/NAME/years/YYYY`: the chart's year chart (as `period --year`), its top 100.
/// - `/songs/ID`: a song's rank history as a picture, and its table.
/// - `/artists/ID`: an artist's songs' runs as a picture, and their tables.
/// - `/search?q=`: the songs a search finds; one song found redirects to its page.
/// - `/assets/style.css`, `/assets/icon.svg`: carried in the binary (``PageAssets``).
///
/// Pages take GET and HEAD only, and ignore the query parameters they do not take (shared links
/// carry `utm_source` and the like), which are no part of the key they are kept under either.
/// Every page is sent with a `Content-Security-Policy` that allows no script
/// (``PageAssets/pagePolicy``). Pages are cached like the API's responses (kept by the server
/// until the archive changes, with an ETag and their gzip form): for a day a dated report or diff
/// and the assets, for an hour a dated snapshot (its link to the next chart date appears with the
/// next import), for a minute the rest.
enum PageRoutes {
  /// The routes.
  static let all: [Route] = [
    home, asset, chartsList, search, chart, atom, diff, report, records, year, snapshot, song,
    artist,
  ]

  /// `/`: the charts, with the top of each one's latest snapshot.
  static let home = Route(.get, [], media: [.html], caching: .seconds(60)) { router, request in
    try router.page(request) { reader in
      let charts = try reader.charts()
      var tops: [String: [Placement]] = [:]
      for chart in charts where chart.snapshotCount > 0 {
        tops[chart.name] = try reader.placements(
          of: try reader.snapshot(of: chart.name, at: .latest))
      }
      return ChartsPage(ChartsView(charts: charts), tops: tops)
    }
  }

  /// `/assets/NAME`: the style sheet and the icon.
  static let asset = Route(
    .get, ["assets", .asset], media: [.css, .svg], caching: .seconds(86_400)
  ) { _, request in
    let name = try request.value(Parameters.asset)
    guard let asset = PageAssets.all[name] else {
      throw ServerProblem(404, "no such asset: \(name)")
    }
    return HTTPResponse(
      status: 200, headers: [("Content-Type", asset.contentType)] + Router.pageHeaders,
      body: asset.bytes, caching: request.caching())
  }

  /// `/charts`: the charts are the home page.
  static let chartsList = Route(.get, ["charts"], media: [], caching: .none) { _, _ in
    HTTPResponse(status: 301, headers: [("Location", "/")])
  }

  /// `/search?q=`: the songs a search finds, or a redirect to the one it finds.
  static let search = Route(
    .get, ["search"], query: [Parameters.words], media: [.html], caching: .seconds(60)
  ) { router, request in
    try router.search(try request.value(Parameters.words) ?? "", request)
  }

  /// `/charts/NAME?date=`: the latest snapshot, or a redirect to the one the date picker's date
  /// leads to.
  static let chart = Route(
    .get, ["charts", .chart], query: [Parameters.pickedDate], media: [.html],
    caching: .seconds(60)
  ) { router, request in
    let chart = try request.value(Parameters.chart)
    if let date = try request.value(Parameters.pickedDate) {
      return try router.pickedDate(date, chart: chart)
    }
    return try router.snapshotPage(Queries.Snapshot(chart: chart, date: .latest), request)
  }

  /// `/charts/NAME.atom`: the chart's Atom feed, its newest snapshots first (``AtomFeed``).
  static let atom = Route(
    .get, ["charts", .chartAtom], media: [.atom], caching: .seconds(60)
  ) { router, request in
    let chart = try request.value(Parameters.chart)
    let feed = try router.archive.read { reader in
      let snapshots = try reader.snapshots(of: chart).suffix(AtomFeed.itemLimit).reversed()
      return AtomFeed(
        chart: chart,
        items: try snapshots.map {
          AtomFeed.Item(snapshot: $0, placements: try reader.placements(of: $0))
        })
    }
    return HTTPResponse(
      status: 200, headers: [("Content-Type", Route.MediaType.atom.rawValue)] + Router.pageHeaders,
      body: Array(feed.xml.utf8), caching: request.caching())
  }

  /// `/charts/NAME/diff?from=&to=`: two snapshots compared.
  static let diff = Route(
    .get, ["charts", .chart, "diff"], query: [Parameters.from, Parameters.to], media: [.html],
    caching: .dated(86_400, otherwise: 60)
  ) { router, request in
    let query = try Queries.Diff(request)
    return try router.page(request, dated: query.isDated) { DiffPage(try query.read($0)) }
  }

  /// `/charts/NAME/records?from=&to=&limit=`: a chart's leaderboards.
  static let records = Route(
    .get, ["charts", .chart, "records"],
    query: [Parameters.recordsFrom, Parameters.recordsTo, Parameters.recordsLimit],
    media: [.html], caching: .seconds(60)
  ) { router, request in
    let query = try Queries.Records(request)
    return try router.page(request) { RecordsPage(try query.read($0)) }
  }

  /// `/charts/NAME/report?date=`: a snapshot's rank-change report.
  static let report = Route(
    .get, ["charts", .chart, "report"], query: [Parameters.reportDate], media: [.html],
    caching: .dated(86_400, otherwise: 60)
  ) { router, request in
    let query = try Queries.Report(request)
    return try router.page(request, dated: query.isDated) { ReportPage(try query.read($0)) }
  }

  /// `/charts/NAME/years/YYYY`: the chart's year chart, its top 100.
  static let year = Route(
    .get, ["charts", .chart, "years", .year], media: [.html],
    caching: .dated(3_600, otherwise: 60)
  ) { router, request in
    let query = try Queries.Period(page: request)
    return try router.page(request, dated: query.isDated) { PeriodPage(try query.read($0)) }
  }

  /// `/charts/NAME/DATE`: a snapshot.
  static let snapshot = Route(
    .get, ["charts", .chart, .date], media: [.html], caching: .dated(3_600, otherwise: 60)
  ) { router, request in
    try router.snapshotPage(try Queries.Snapshot(request), request)
  }

  /// `/songs/ID`: a song's rank history as a picture, and its table.
  static let song = Route(
    .get, ["songs", .song], media: [.html], caching: .seconds(60)
  ) { router, request in
    let query = try Queries.Song(request)
    return try router.page(request) {
      SongPage(try query.read($0), artists: try $0.artists(of: query.id))
    }
  }

  /// `/artists/ID`: an artist's songs' runs as a picture, and their tables.
  static let artist = Route(
    .get, ["artists", .artist], media: [.html], caching: .seconds(60)
  ) { router, request in
    let query = try Queries.Artist(request)
    return try router.page(request) { ArtistPage(try query.read($0)) }
  }
}

/// The pages' answers.
extension Router {
  /// The pages' routes (see ``PageRoutes``).
  static let pageRoutes = PageRoutes.all

  /// What every page and asset is sent with: no script (``PageAssets/pagePolicy``), no guessing
  /// of media types, the referrer sent in full to the server itself only.
  static let pageHeaders = [
    ("Content-Security-Policy", PageAssets.pagePolicy), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
  ]

  /// A page made in one read transaction, as HTML, kept as the route says (`dated`: whether the
  /// request names chart dates).
  func page(
    _ request: RouteRequest, dated: Bool = false, _ make: (ArchiveReader) throws -> some HTMLPage
  ) throws -> HTTPResponse {
    let page = try archive.read(make)
    return Self.html(page, status: 200, caching: request.caching(dated: dated))
  }

  /// A page as HTML, with the pages' headers.
  static func html(_ page: some HTMLPage, status: Int, caching: HTTPResponse.Caching)
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, headers: [("Content-Type", Route.MediaType.html.rawValue)] + pageHeaders,
      body: Array(page.html(.served).utf8), caching: caching)
  }

  /// An error as a page, with its status: `Not Found`, the archive's words, and links to the
  /// pages meant.
  func errorPage(
    _ status: Int, _ detail: String, links: [(path: String, text: String)] = []
  ) -> HTTPResponse {
    Self.html(
      ErrorPage(heading: reasonPhrase(status), message: detail, links: links), status: status,
      caching: .none)
  }

  /// The pages an archive error's request may have meant: a chart's snapshots nearest a date
  /// without one, or those of a day that has several.
  static func links(for error: ArchiveError) -> [(path: String, text: String)] {
    switch error {
    case .noSuchSnapshot(let chart, _, let before, let after):
      return ErrorPage.nearest(chart: chart, before: before, after: after)
    case .severalSnapshotsOnDay(let chart, _, _, let chartDates):
      return chartDates.map { (PagePath.chart(chart, $0), $0.iso8601) }
    default:
      return []
    }
  }

  /// A snapshot's page with the chart dates around it, its climbers and drop-outs.
  func snapshotPage(_ query: Queries.Snapshot, _ request: RouteRequest) throws -> HTTPResponse {
    try page(request, dated: query.isDated) { reader in
      let snapshot = try query.read(reader)
      let dropOuts = try snapshot.previous.map { previous in
        SnapshotDiff(previous: try reader.entries(of: previous.id), placements: snapshot.placements)
          .dropOuts
      }
      let next = try reader.snapshot(after: snapshot.summary)
      return SnapshotPage(
        SnapshotView(snapshot), next: next,
        latest: next == nil
          ? snapshot.summary.chartDate
          : try reader.snapshot(of: query.chart, at: .latest).chartDate,
        dropOuts: dropOuts)
    }
  }

  /// Where the date picker's date leads (see ``PageRoutes``): a redirect to a snapshot.
  func pickedDate(_ date: ChartDate, chart: String) throws -> HTTPResponse {
    let found: ChartDate
    do {
      found = try archive.read { try $0.snapshot(of: chart, at: .on(date)).chartDate }
    } catch let error as ArchiveError {
      // A day of a chart published more than once a day in its zone: its first snapshot.
      if case .severalSnapshotsOnDay(_, _, _, let chartDates) = error, let first = chartDates.first
      {
        return HTTPResponse(status: 303, headers: [("Location", PagePath.chart(chart, first))])
      }
      guard case .noSuchSnapshot(_, _, let before, let after) = error else { throw error }
      let hasTime = (before ?? after)?.hasTime ?? false
      guard let nearest = hasTime ? after ?? before : before ?? after else {
        throw ArchiveError.noSuchSnapshot(chart: chart, chartDate: date, before: nil, after: nil)
      }
      found = nearest
    }
    return HTTPResponse(status: 303, headers: [("Location", PagePath.chart(chart, found))])
  }

  /// The songs a search finds, or a redirect to the one song it finds.
  func search(_ text: String, _ request: RouteRequest) throws -> HTTPResponse {
    let query = text.trimmingPrefix(while: \.isWhitespace)
    guard !query.isEmpty else {
      return Self.html(
        SearchPage(query: "", matches: SongMatchesView([]), suggestion: nil), status: 200,
        caching: request.caching())
    }
    let words = String(query)
    let (songs, suggestion, artists) = try archive.read { reader in
      let songs = try reader.songs(matching: words)
      return (
        songs,
        songs.isEmpty
          ? try reader.suggestion(forSearch: words).map { ($0.query, $0.songs) } : nil,
        try reader.artists(matching: words)
      )
    }
    if songs.count == 1 {
      return HTTPResponse(status: 303, headers: [("Location", PagePath.song(songs[0].id))])
    }
    var page = SearchPage(query: words, matches: SongMatchesView(songs), suggestion: suggestion)
    page.artists = artists
    return Self.html(page, status: 200, caching: request.caching())
  }
}
