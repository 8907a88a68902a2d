import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// The HTTP API's routes: each endpoint under `/api/` with its parameters, its answers' media
/// types and caching, its words in the OpenAPI document and its handler. Each answer is what the
/// command line prints for the same question, from the same library calls and views (one read
/// transaction each).
enum APIRoutes {
  /// The routes, in the order the OpenAPI document lists them.
  static let all: [Route] = [
    health, openAPI, charts, snapshots, upload, diff, report, records, periods, snapshot,
    searchSongs, song, searchArtists, artist,
    mergeSongs, splitSong, decisions, undoDecision, feedUpdated, feed, metrics,
  ]

  /// `GET /api/health`: whether the service can read its archive.
  static let health = Route(
    .get, ["api", "health"], media: [.json], caching: .none,
    document: RouteDocument(
      summary: "Whether the service can read its archive", operationID: "health",
      answers: [.ok("The archive is readable", schema: "Health")],
      problems: [500])
  ) { router, _ in try router.health() }

  /// `GET /api/metrics`: the service's metrics in Prometheus's text format (``ServiceMetrics``).
  static let metrics = Route(
    .get, ["api", "metrics"], media: [.prometheus], caching: .none,
    document: RouteDocument(
      summary: "The service's metrics, in Prometheus's text format", operationID: "metrics",
      answers: [
        .ok(
          "Requests by method, route and status; their time to answer (a histogram); the bytes sent; the response cache's hits and misses; uploads by outcome; the archive's version, time of its last change and size. Counted since the service started; routes are named by their pattern, never by the path asked.",
          schema: .object([("type", .string("string"))]))
      ],
      problems: [500])
  ) { router, _ in try router.metricsText() }

  /// `GET /api/openapi.json`: the OpenAPI document.
  static let openAPI = Route(
    .get, ["api", "openapi.json"], media: [.json], caching: .seconds(3_600),
    document: RouteDocument(
      summary: "This document", operationID: "openAPI",
      answers: [
        .ok("The OpenAPI document", schema: .object([("type", .string("object"))]))
      ])
  ) { _, request in
    Router.json(Array(OpenAPIDocument.json.utf8), caching: request.caching())
  }

  /// `GET /api/charts`: the archive's charts (`charts`).
  static let charts = Route(
    .get, ["api", "charts"], media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "The archive's charts", operationID: "charts",
      answers: [
        .ok(
          "Every chart with its frequency, snapshot count and first and last chart dates",
          schema: "Charts")
      ])
  ) { router, request in
    try router.view(request) { ChartsView(charts: try $0.charts()) }
  }

  /// `GET /api/charts/NAME/snapshots?limit=&after=`: a chart's snapshots (`snapshots`), paged
  /// after a chart date: an import adds snapshots, and a client walking them gets each once.
  static let snapshots = Route(
    .get, ["api", "charts", .chart, "snapshots"],
    query: [Parameters.snapshotsLimit, Paging.afterDate], media: [.json, .csv],
    caching: .seconds(60),
    document: RouteDocument(
      summary: "A chart's snapshots",
      description:
        "Paged after a chart date: the next page's link gives after, the chart date of the page's last snapshot, so that a client walking the list while snapshots are imported gets each once.",
      operationID: "snapshots",
      answers: [.ok("Every snapshot of the chart, oldest first", schema: "Snapshots")],
      problems: [404], paged: true)
  ) { router, request in
    let chart = try request.value(Parameters.chart)
    let limit = try request.value(Parameters.snapshotsLimit)
    let after = try request.value(Paging.afterDate)
    return try router.pagedView(request) {
      // Each source by its file name: where the server's files are is not the client's business.
      let snapshots = try $0.snapshots(of: chart).map { snapshot in
        var named = snapshot
        named.source = snapshot.source.map { String($0.split(separator: "/").last ?? "") }
        return named
      }
      let start = after.map { after in snapshots.firstIndex { $0.chartDate > after } } ?? 0
      let (page, links) = Paging.after(
        snapshots, start: start ?? snapshots.count, limit: limit, cursor: \.chartDate.iso8601)
      return (SnapshotsView(chart: chart, snapshots: page), links)
    }
  }

  /// `POST /api/charts/NAME/snapshots`: an upload, on a server with a token (see
  /// ``Router/upload(_:)``).
  static let upload = Route(
    .post, ["api", "charts", .chart, "snapshots"],
    query: [Parameters.fileDate, Parameters.fileFormat, Parameters.frequency, Parameters.replace],
    media: [.json], caching: .none, needsUploads: true, document: uploadDocument
  ) { router, request in try router.upload(request) }

  /// `GET /api/charts/NAME/diff?from=&to=`: two snapshots compared (`diff`).
  static let diff = Route(
    .get, ["api", "charts", .chart, "diff"], query: [Parameters.from, Parameters.to],
    media: [.json, .csv], caching: .dated(86_400, otherwise: 60),
    document: RouteDocument(
      summary: "How a chart changed between two snapshots", operationID: "diff",
      answers: [
        .ok(
          "Arrivals, drop-outs and movements, ranks compared between the two snapshots",
          schema: "Diff")
      ], problems: [404])
  ) { router, request in
    let query = try Queries.Diff(request)
    return try router.view(request, dated: query.isDated) { try query.read($0) }
  }

  /// `GET /api/charts/NAME/report?date=&limit=`: a snapshot's rank-change report (`report`).
  static let report = Route(
    .get, ["api", "charts", .chart, "report"],
    query: [Parameters.reportDate, Parameters.reportLimit],
    media: [.json, .csv], caching: .dated(86_400, otherwise: 60),
    document: RouteDocument(
      summary: "A snapshot's rank-change report", operationID: "report",
      answers: [
        .ok("The number one, debuts, re-entries, climbers, fallers and drop-outs", schema: "Report")
      ], problems: [404])
  ) { router, request in
    let query = try Queries.Report(request, limit: Parameters.reportLimit)
    return try router.view(request, dated: query.isDated) { try query.read($0) }
  }

  /// `GET /api/charts/NAME/records?from=&to=&limit=&offset=`: a chart's leaderboards
  /// (`records`), each leaderboard's rows paged by offset (see ``Queries/Records/read(_:offset:)``).
  static let records = Route(
    .get, ["api", "charts", .chart, "records"],
    query: [
      Parameters.recordsFrom, Parameters.recordsTo, Parameters.recordsLimit, Paging.offset,
    ],
    media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "A chart's records",
      description:
        "Leaderboards read from the figures stored for each entry: weeks at number one, the"
        + " longest stay there, weeks on chart, the longest run, highest debuts, biggest climbs"
        + " and falls, fastest and longest rises to number one. Equal figures share a rank."
        + " Paged by offset: the rows of each leaderboard after the first offset it lists, down"
        + " to rank 100 at most (offset + limit ≤ 100); X-Total-Count counts the rows the"
        + " leaderboards list down to rank 100.",
      operationID: "records",
      answers: [.ok("The chart's leaderboards, best first", schema: "Records")],
      problems: [404], paged: true)
  ) { router, request in
    let query = try Queries.Records(request)
    let offset = try request.value(Paging.offset)
    return try router.pagedView(request) { try query.read($0, offset: offset) }
  }

  /// `GET /api/charts/NAME/periods?year=` (or `from=&to=`), `&scoring=&limit=`: a chart of a
  /// year or span made from its snapshots (`period`).
  static let periods = Route(
    .get, ["api", "charts", .chart, "periods"],
    query: [
      Parameters.year, Parameters.periodFrom, Parameters.periodTo, Parameters.scoring,
      Parameters.periodLimit,
    ],
    media: [.json, .csv], caching: .dated(3_600, otherwise: 60),
    document: RouteDocument(
      summary: "A chart of a year or span made from the chart's snapshots",
      description:
        "The archive's own ranking from the charts it holds, not a publisher's year-end chart: each song's points summed over the span's snapshots (scoring), ties broken by peak, weeks at peak and weeks in the span, with its rank in the period of the same length before. Cached for an hour when the span is past, a minute otherwise.",
      operationID: "periods",
      answers: [.ok("Every song of the span, best first", schema: "Period")],
      problems: [400, 404])
  ) { router, request in
    let query = try Queries.Period(request)
    return try router.view(request, dated: query.isDated) { PeriodView(try query.read($0)) }
  }

  /// `GET /api/charts/NAME/DATE?limit=&offset=`: a snapshot with its entries' figures (`show`),
  /// paged by offset.
  static let snapshot = Route(
    .get, ["api", "charts", .chart, .date], query: [Parameters.snapshotLimit, Paging.offset],
    media: [.json, .csv], caching: .dated(86_400, otherwise: 60),
    document: RouteDocument(
      summary: "A snapshot: its entries with their figures",
      description:
        "Cached for a day when dated, a minute for latest and previous. Paged by offset: a snapshot does not change once stored.",
      operationID: "snapshot",
      answers: [.ok("The snapshot's entries in rank order", schema: "Snapshot")], problems: [404],
      paged: true)
  ) { router, request in
    let query = try Queries.Snapshot(request)
    let limit = try request.value(Parameters.snapshotLimit)
    let offset = try request.value(Paging.offset)
    return try router.pagedView(request, dated: query.isDated) {
      let snapshot = try query.read($0)
      let (entries, links) = Paging.window(
        count: snapshot.placements.count, offset: offset, limit: limit)
      let view = SnapshotView(snapshot, limit: entries.count, offset: entries.lowerBound)
      return (view, links)
    }
  }

  /// `GET /api/songs?q=&artist=&chart=&limit=&after=`: the songs whose titles and credits match,
  /// paged after a song.
  static let searchSongs = Route(
    .get, ["api", "songs"],
    query: [
      Parameters.words, Parameters.artist, Parameters.onChart, Parameters.searchLimit,
      Paging.afterSong,
    ],
    media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "Search songs by words of their titles and credits",
      description:
        "Each word must begin a word of a title or credit; case and accents do not matter. Give q,"
        + " artist or both. Whole titles come first, then songs with every word of q a whole word"
        + " of a title or credit; songs that match only inside words when there are none of those."
        + " Paged after a song: the next page's link gives after, the song ID of the page's last"
        + " match.",
      operationID: "searchSongs",
      answers: [
        .ok(
          "The songs that match, best first: each kind by best rank, then entries (most first)",
          schema: "SongMatches")
      ],
      problems: [404], paged: true)
  ) { router, request in try router.searchSongs(request) }

  /// `GET /api/songs/ID?limit=&offset=`: a song's history on every chart (`history --song ID`),
  /// its entries paged by offset (see ``HistoryView/entryWindow``).
  static let song = Route(
    .get, ["api", "songs", .song], query: [Parameters.historyLimit, Paging.offset],
    media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "A song's history on every chart it was on",
      description:
        "Paged by offset over the entries (chart dates), counted over every recording and chart one after another in the answer's order; each chart's figures (peak, weeks, runs, debut, credit changes) are its whole history's on every page.",
      operationID: "song",
      answers: [
        .ok(
          "Every chart date of every recording of the song, with peak position, weeks on chart, runs and credit changes",
          schema: "History")
      ], problems: [404], paged: true)
  ) { router, request in
    let query = try Queries.Song(request)
    let limit = try request.value(Parameters.historyLimit)
    let offset = try request.value(Paging.offset)
    return try router.pagedView(request) {
      var history = try query.read($0)
      let (entries, links) = Paging.window(count: history.entryCount, offset: offset, limit: limit)
      history.entryWindow = entries
      return (history, links)
    }
  }

  /// `GET /api/artists?q=&limit=&after=`: the artists a search finds (`artist NAME`), paged
  /// after an artist.
  static let searchArtists = Route(
    .get, ["api", "artists"],
    query: [Parameters.artistWords, Parameters.searchLimit, Paging.afterArtist],
    media: [.json, .csv], caching: .seconds(60),
    document: RouteDocument(
      summary: "Search artists by name or credit",
      description:
        "Case and accents do not matter, nor 'and' for '&'. An artist whose whole name is q is the"
        + " one match; otherwise the artists each word of q begins a word of the name of; failing"
        + " that, the artists a credit names (q split by the credit splitter). Paged after an"
        + " artist: the next page's link gives after, the artist ID of the page's last match.",
      operationID: "searchArtists",
      answers: [
        .ok(
          "The artists that match, best first: by songs (most first), then name",
          schema: "ArtistMatches")
      ],
      problems: [400], paged: true)
  ) { router, request in
    let text = (try request.value(Parameters.artistWords) ?? "").trimmingCharacters(
      in: .whitespacesAndNewlines.union(.controlCharacters))
    guard !text.isEmpty else { throw ServerProblem(400, "give q (an artist's name or a credit)") }
    let limit = try request.value(Parameters.searchLimit)
    let after = try request.value(Paging.afterArtist)
    return try router.pagedView(request) { reader throws in
      let artists = try reader.artists(matching: text)
      let start = try Paging.start(after: after, in: artists, key: \.id)
      let (page, links) = Paging.after(
        artists, start: start, limit: limit, cursor: { "\($0.id.rawValue)" })
      return (ArtistMatchesView(page), links)
    }
  }

  /// `GET /api/artists/ID`: an artist's career on every chart (`artist --id ID`).
  static let artist = Route(
    .get, ["api", "artists", .artist], query: [Parameters.onChart], media: [.json, .csv],
    caching: .seconds(60),
    document: RouteDocument(
      summary: "An artist's career on every chart",
      description:
        "Every song credited to the artist as lead or featured, with debut, peak, weeks at peak,"
        + " weeks on chart and runs, and each chart's totals and first and latest entry.",
      operationID: "artist",
      answers: [.ok("The artist's songs and totals, per chart", schema: "Artist")],
      problems: [404])
  ) { router, request in
    let query = try Queries.Artist(request, chart: try request.value(Parameters.onChart))
    return try router.view(request) { try query.read($0) }
  }

  /// `GET /api/feed/updated`: when the archive last changed, in seconds since 1970, different
  /// for every version of the archive.
  static let feedUpdated = Route(
    .get, ["api", "feed", "updated"], media: [.json], caching: .seconds(10),
    document: RouteDocument(
      summary: "When the archive last changed",
      description:
        "When the archive last changed (an import, upload or replacement that stored something, a decision), in seconds since 1970-01-01T00:00:00Z (0 for an empty archive): a chart app compares it before fetching its feeds again. It is different for every state of the archive: a change within the second of the one before takes the next second. The archive's version (one more with each change) is in the X-Archive-Version header and the ETag.",
      operationID: "feedUpdated",
      answers: [
        .ok(
          "Seconds since 1970",
          schema: .object([("type", .string("integer")), ("minimum", .int(0))]))
      ])
  ) { router, request in
    let version = try router.archive.read { try $0.version() }
    var response = Router.json(Array("\(version.updated)\n".utf8), caching: request.caching())
    response.headers += Router.versionHeaders(version, body: response.body)
    return response
  }

  /// `GET /api/feed/CATEGORY?limit=&offset=`: a chart app's feed, the latest snapshot of the
  /// category's chart, paged by offset.
  static let feed = Route(
    .get, ["api", "feed", .category], query: [Parameters.feedLimit, Paging.offset],
    media: [.json], caching: .seconds(60),
    document: RouteDocument(
      summary: "A chart app's feed: the latest snapshot of the category's chart",
      description:
        "Paged by offset. Its first five fields (title, artist, image, url, last) are the app's and never change.",
      operationID: "feed",
      answers: [.ok("The entries in rank order", schema: "Feed")], problems: [404], paged: true)
  ) { router, request in try router.feed(request) }

  /// The upload's words in the document.
  private static let uploadDocument = RouteDocument(
    summary: "Import a chart file as the chart's snapshots",
    description:
      "The body is a chart file in any format chart-archive import reads, as it is or gzipped (Content-Encoding: gzip; another coding is a 415). All or nothing: the same checks as the command line. The file must be of the chart the address names: one whose content names another chart (or whose rows' region would make another) is a 422 naming both. Only on a server started with --token-file (405 otherwise), with Authorization: Bearer TOKEN.",
    operationID: "upload",
    answers: [
      .ok(
        "Nothing new (every snapshot was already stored), or a snapshot replaced (?replace=true): outcome says which",
        schema: "Upload"),
      .init(status: 201, description: "Stored", schema: RouteDocument.schema("Upload")),
      .init(
        status: 413,
        description:
          "The body is larger than the server takes (libevent's own HTML answer), or its gzipped file is, once decompressed (a problem)"
      ),
    ],
    problems: [401, 405, 409, 415, 422, 503],
    requestBody: .object([
      ("required", .bool(true)),
      (
        "content",
        .object([
          (
            "application/octet-stream",
            .object([
              ("schema", .object([("type", .string("string")), ("format", .string("binary"))]))
            ])
          ),
          ("application/json", .object([("schema", .object([]))])),
          ("text/csv", .object([("schema", .object([("type", .string("string"))]))])),
        ])
      ),
    ]),
    needsToken: true)
}

/// The API's answers: views rendered in the format asked, JSON, the health check, searches and
/// feeds.
extension Router {
  /// The API's routes (see ``APIRoutes``).
  static let apiRoutes = APIRoutes.all

  /// A view made in one read transaction, rendered in the request's format, kept as the route
  /// says (`dated`: whether the request names chart dates).
  func view(
    _ request: RouteRequest, dated: Bool = false,
    _ make: (ArchiveReader) throws -> some Presentation
  ) throws -> HTTPResponse {
    let view = try archive.read(make)
    let text = view.rendered(as: request.format, style: Style(colors: false))
    let media: Route.MediaType = request.format == .csv ? .csv : .json
    return HTTPResponse(
      status: 200, headers: [("Content-Type", media.rawValue)], body: Array(text.utf8),
      caching: request.caching(dated: dated))
  }

  /// A JSON body.
  static func json(_ body: [UInt8], caching: HTTPResponse.Caching = .none) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: [("Content-Type", Route.MediaType.json.rawValue)], body: body,
      caching: caching)
  }

  /// The metrics in Prometheus's text format, with the archive's version, last change and size
  /// (the file and its write-ahead log, stat(2)).
  func metricsText() throws -> HTTPResponse {
    let version = try archive.read { try $0.version() }
    func size(_ path: String) -> Int {
      var status = stat()
      return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }
    let path = configuration.archivePath
    let text = metrics.rendered(
      archive: ServiceMetrics.ArchiveFigures(
        version: version.version, updated: version.updated,
        bytes: size(path) + size(path + "-wal")),
      uploadRoute: APIRoutes.upload.pattern)
    return HTTPResponse(
      status: 200, headers: [("Content-Type", Route.MediaType.prometheus.rawValue)],
      body: Array(text.utf8))
  }

  /// The health check: the schema version, the number of charts and the last import's time.
  func health() throws -> HTTPResponse {
    let (charts, last) = try archive.read { (try $0.charts().count, try $0.lastImportTime()) }
    let body = JSONValue.object([
      ("status", .string("ok")), ("schema_version", .int(Archive.schemaVersion)),
      ("charts", .int(charts)), ("last_import", JSONValue(last?.iso8601)),
    ])
    return Self.json(Array((body.encoded() + "\n").utf8))
  }

  /// The songs a search finds: `q` words of a title or credit, `artist` words of the credit, both
  /// or either; `chart` keeps to one chart; at most `limit`, after the song `after`.
  ///
  /// - Throws: ``ServerProblem`` (400) when neither `q` nor `artist` has a word, or `after` is
  ///   none of the matches.
  func searchSongs(_ request: RouteRequest) throws -> HTTPResponse {
    // Blanks and control characters are no words (a search for them found every song).
    func words(_ text: String?) -> String? {
      let trimmed = (text ?? "").trimmingCharacters(
        in: .whitespacesAndNewlines.union(.controlCharacters))
      return trimmed.isEmpty ? nil : text
    }
    let text = words(try request.value(Parameters.words)) ?? ""
    let artist = words(try request.value(Parameters.artist))
    let chart = try request.value(Parameters.onChart)
    guard !text.isEmpty || artist != nil else {
      throw ServerProblem(400, "give q (words of a title or credit) or artist")
    }
    let limit = try request.value(Parameters.searchLimit)
    let after = try request.value(Paging.afterSong)
    return try pagedView(request) { reader throws in
      let songs = try reader.songs(matching: text, artist: artist, chart: chart)
      let start = try Paging.start(after: after, in: songs, key: \.id)
      let (page, links) = Paging.after(
        songs, start: start, limit: limit, cursor: { "\($0.id.rawValue)" })
      return (SongMatchesView(page), links)
    }
  }

  /// A feed: the latest snapshot of the chart the category names, at most `limit` entries after
  /// the first `offset`, with the page's headers (``Paging/headers(_:for:)``).
  ///
  /// - Throws: ``ServerProblem`` (404) for a category the server has no feed for.
  func feed(_ request: RouteRequest) throws -> HTTPResponse {
    let category = try request.value(Parameters.category)
    guard let chart = configuration.feeds[category] else {
      let known = configuration.feeds.keys.sorted().joined(separator: ", ")
      throw ServerProblem(
        404,
        "no feed '\(category)' (the feeds: \(known); and updated, when the archive last changed)")
    }
    let limit = try request.value(Parameters.feedLimit) ?? 20
    let offset = try request.value(Paging.offset)
    let (feed, links, version) = try archive.read { reader in
      let placements = try reader.chartSnapshot(of: chart, at: .latest).placements
      let (shown, links) = Paging.window(count: placements.count, offset: offset, limit: limit)
      return (FeedView(Array(placements[shown]), limit: limit), links, try reader.version())
    }
    var response = Self.json(
      Array(feed.rendered(as: .json, style: Style(colors: false)).utf8),
      caching: request.caching())
    response.headers += Self.versionHeaders(version, body: response.body)
    response.headers += Paging.headers(links, for: request)
    return response
  }

  /// The headers that tie a feed's answer to the archive's version: `X-Archive-Version` and an
  /// ETag that changes with it (`"v12-…"`, the version and the body's hash), so that every feed's
  /// ETag changes with every change of the archive.
  static func versionHeaders(_ version: ArchiveVersion, body: ResponseBody) -> [(String, String)] {
    [
      ("X-Archive-Version", "\(version.version)"),
      ("ETag", "\"v\(version.version)-" + EntityTag.of(body).dropFirst()),
    ]
  }
}
