import ChartPresentation
import ChartRanking
import ChartStorage

/// The web pages: every path outside `/api/`, answered with HTML rendered by ChartPresentation's
/// pages from the same library calls as the API (one read transaction each).
///
/// - `/`: the charts, each with its latest chart date and the top of its latest snapshot.
/// - `/charts/NAME` (the latest snapshot), `/charts/NAME/DATE` (or `latest`, `previous`): a
///   snapshot as the chart app shows it; `/charts/NAME?date=DATE`, what the date picker sends,
///   redirects to the snapshot of that date, else the one before it (the chart in force that day),
///   else the first after it (for charts with a time of day, the first after its midnight).
/// - `/charts/NAME/diff?from=&to=` and `/charts/NAME/report?date=`: as the API's, as pages.
/// - `/songs/ID`: a song's rank history as a picture, and its table.
/// - `/search?q=`: the songs a search finds; one song found redirects to its page.
/// - `/assets/style.css`, `/assets/icon.svg`: carried in the binary (``PageAssets``).
///
/// Every page is sent with a `Content-Security-Policy` that allows no script
/// (``PageAssets/pagePolicy``). Pages are cached like the API's responses (kept by the server
/// until the archive changes, with an ETag and their gzip form): for a day a dated report or diff
/// and the assets, for an hour a dated snapshot (its link to the next chart date appears with the
/// next import), for a minute the rest.
extension Router {
  /// The page for a request outside `/api/`, its path's decoded segments given.
  func page(_ request: HTTPRequest, segments: [String]) -> HTTPResponse {
    guard request.method == "GET" || request.method == "HEAD" else {
      var response = errorPage(
        405, "\(request.method) is not allowed here (allowed: GET, HEAD)")
      response.headers.append(("Allow", "GET, HEAD"))
      return response
    }
    do {
      switch segments {
      case []:
        return try pageView(caching: .seconds(60)) { reader in
          let charts = try reader.charts()
          var tops: [String: [Placement]] = [:]
          for chart in charts where chart.snapshotCount > 0 {
            tops[chart.name] = try reader.placements(
              of: try reader.snapshot(of: chart.name, at: .latest))
          }
          return ChartsPage(ChartsView(charts: charts), tops: tops)
        }
      case let path where path.count == 2 && path[0] == "assets":
        guard let asset = PageAssets.all[path[1]] else {
          throw ServerProblem(404, "no such asset: \(path[1])")
        }
        return HTTPResponse(
          status: 200, headers: [("Content-Type", asset.contentType)] + Self.pageHeaders,
          body: asset.bytes, caching: .seconds(86_400))
      case ["charts"]:
        return HTTPResponse(status: 301, headers: [("Location", "/")])
      case ["search"]:
        return try search(request.query["q"] ?? "")
      case let path where path.count == 2 && path[0] == "charts":
        if let text = request.query["date"], !text.isEmpty {
          return try pickedDate(text, chart: path[1])
        }
        return try snapshotPage(path[1], at: .latest)
      case let path where path.count == 3 && path[0] == "charts" && path[2] == "diff":
        let from = try snapshotDate(request.query["from"], name: "from")
        let to = try snapshotDate(request.query["to"], name: "to")
        return try pageView(caching: .seconds(from == nil || to == nil ? 60 : 86_400)) {
          reader in
          let (older, newer) = try reader.snapshotsToCompare(of: path[1], from, to)
          return DiffPage(
            DiffView(
              chart: path[1], older: older, newer: newer,
              diff: try reader.diff(from: older, to: newer)))
        }
      case let path where path.count == 3 && path[0] == "charts" && path[2] == "report":
        let date = try snapshotDate(request.query["date"], name: "date")
        return try pageView(caching: .seconds(Self.seconds(for: date))) { reader in
          let snapshot = try reader.snapshot(of: path[1], at: date ?? .latest)
          let (report, previous) = try reader.report(on: snapshot, limit: 10)
          return ReportPage(
            ReportView(chart: path[1], snapshot: snapshot, previous: previous, report: report))
        }
      case let path where path.count == 3 && path[0] == "charts":
        return try snapshotPage(path[1], at: try snapshotDate(path[2], name: "date") ?? .latest)
      case let path where path.count == 2 && path[0] == "songs":
        guard let id = Int64(path[1]), id > 0 else {
          throw ServerProblem(404, "no song with ID \(path[1])")
        }
        return try pageView(caching: .seconds(60)) { reader in
          guard let song = try reader.song(SongID(id)) else {
            throw ServerProblem(404, "no song with ID \(id)")
          }
          return SongPage(HistoryView(try reader.recordings(of: [song])))
        }
      default:
        return errorPage(404, "no such page: \(request.path)")
      }
    } catch let problem as ServerProblem {
      return errorPage(problem.status, problem.detail)
    } catch let error as ArchiveError {
      return errorPage(
        problem(for: error).status,
        error.description + (ErrorHints.hint(for: error).map { " (\($0))" } ?? ""))
    } catch {
      return errorPage(500, "\(error)")
    }
  }

  /// What every page and asset is sent with: no script (``PageAssets/pagePolicy``), no guessing
  /// of media types, the referrer sent in full to the server itself only.
  static let pageHeaders = [
    ("Content-Security-Policy", PageAssets.pagePolicy), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "strict-origin-when-cross-origin"),
  ]

  /// A page made in one read transaction, as HTML.
  private func pageView(
    status: Int = 200, caching: HTTPResponse.Caching,
    _ make: (ArchiveReader) throws -> some HTMLPage
  ) throws -> HTTPResponse {
    let page = try archive.read(make)
    return html(page, status: status, caching: caching)
  }

  private func html(_ page: some HTMLPage, status: Int, caching: HTTPResponse.Caching)
    -> HTTPResponse
  {
    HTTPResponse(
      status: status, headers: [("Content-Type", "text/html; charset=utf-8")] + Self.pageHeaders,
      body: Array(page.html(.served).utf8), caching: caching)
  }

  /// An error as a page, with its status: `Not Found`, and the archive's words.
  private func errorPage(_ status: Int, _ detail: String) -> HTTPResponse {
    html(ErrorPage(heading: reasonPhrase(status), message: detail), status: status, caching: .none)
  }

  /// A snapshot's page with the chart dates around it, its climbers and drop-outs.
  private func snapshotPage(_ chart: String, at date: SnapshotDate) throws -> HTTPResponse {
    let dated = if case .on = date { true } else { false }
    return try pageView(caching: .seconds(dated ? 3_600 : 60)) { reader in
      let snapshot = try reader.chartSnapshot(of: chart, at: date)
      let dropOuts = try snapshot.previous.map { previous in
        SnapshotDiff(previous: try reader.entries(of: previous.id), placements: snapshot.placements)
          .dropOuts
      }
      let next = try reader.snapshot(after: snapshot.summary)
      return SnapshotPage(
        SnapshotView(snapshot), next: next,
        latest: next == nil
          ? snapshot.summary.chartDate : try reader.snapshot(of: chart, at: .latest).chartDate,
        dropOuts: dropOuts)
    }
  }

  /// Where the date picker's date leads (see ``page(_:segments:)``): a redirect to a snapshot.
  private func pickedDate(_ text: String, chart: String) throws -> HTTPResponse {
    guard let date = try? ChartDate(iso8601: text) else {
      throw ServerProblem(400, "date '\(text)' is not a chart date (YYYY-MM-DD)")
    }
    let found: ChartDate
    do {
      found = try archive.read { try $0.snapshot(of: chart, at: .on(date)).chartDate }
    } catch let error as ArchiveError {
      guard case .noSuchSnapshot(_, _, let before, let after) = error else { throw error }
      let hasTime = (before ?? after)?.hasTime ?? false
      guard let nearest = hasTime ? after ?? before : before ?? after else {
        throw ArchiveError.noSuchSnapshot(chart: chart, chartDate: date, before: nil, after: nil)
      }
      found = nearest
    }
    return HTTPResponse(
      status: 303,
      headers: [("Location", PagePath.chart(chart, found))])
  }

  /// The songs a search finds, or a redirect to the one song it finds.
  private func search(_ text: String) throws -> HTTPResponse {
    let query = text.trimmingPrefix(while: \.isWhitespace)
    guard !query.isEmpty else {
      return html(
        SearchPage(query: "", matches: SongMatchesView([]), suggestion: nil), status: 200,
        caching: .seconds(60))
    }
    let words = String(query)
    let (songs, suggestion) = try archive.read { reader in
      let songs = try reader.songs(matching: words)
      return (
        songs,
        songs.isEmpty
          ? try reader.suggestion(forSearch: words).map { ($0.query, $0.songs) } : nil
      )
    }
    if songs.count == 1 {
      return HTTPResponse(status: 303, headers: [("Location", PagePath.song(songs[0].id))])
    }
    return html(
      SearchPage(query: words, matches: SongMatchesView(songs), suggestion: suggestion),
      status: 200,
      caching: .seconds(60))
  }
}
