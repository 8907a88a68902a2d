import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// How the API's lists are paged (docs/http-api.md, "Paging"): `limit` items a page; the entries
/// of a snapshot, a song's history, records and a feed from `offset` (0-based); a chart's
/// snapshots and a search's matches after a cursor (`after`: the chart date, the song or the
/// artist of the last item of the page before), which a list that imports grow needs for a
/// client to get each item once. Every paged answer gives the list's length in `X-Total-Count`
/// and, but on its last page, the next page's path and query in `Link` (RFC 8288). A page's body
/// is the list's shape with the page's items: what the command line prints for the same
/// question, the other items left out.
enum Paging {
  /// The most items a page of a list gives, but records' (``Parameters/recordsLimitMaximum``):
  /// more than any chart's places, few enough to read and keep each answer.
  static let maximum = 1_000

  /// What a paged answer says beside its body: the length of the whole list, and the query
  /// parameters that change for the next page (`nil` on the last page, or for `limit=0`).
  struct Links: Sendable {
    /// The number of items of the whole list (`X-Total-Count`).
    var total: Int
    /// The next page's parameters that differ from this one's (`offset`, or `after`), by name.
    var next: [String: String]?
  }

  /// The items of a page of a list of `count` items from the 0-based `offset`, at most `limit`
  /// (all the rest when `nil`), and the page's links (the next one's `offset`).
  static func window(count: Int, offset: Int, limit: Int?) -> (Range<Int>, Links) {
    let start = min(offset, count)
    let end = limit.map { min(count, start + $0) } ?? count
    let more = end < count && (limit ?? 0) > 0
    return (start..<end, Links(total: count, next: more ? ["offset": "\(end)"] : nil))
  }

  /// The items of a list after a cursor's item (from `start`, the 0-based place after it), at
  /// most `limit` (all the rest when `nil`), and the page's links: the next page's `after` is the
  /// cursor of the page's last item, and its `limit` the same.
  static func after<Item>(
    _ items: [Item], start: Int, limit: Int?, cursor: (Item) -> String
  ) -> ([Item], Links) {
    let (range, links) = window(count: items.count, offset: start, limit: limit)
    let page = Array(items[range])
    guard links.next != nil, let last = page.last, let limit else {
      return (page, Links(total: items.count))
    }
    return (page, Links(total: items.count, next: ["after": cursor(last), "limit": "\(limit)"]))
  }

  /// The headers of a paged answer: `X-Total-Count`, and `Link` to the next page (the request's
  /// path as it came, its query with the next page's parameters, in the route's order).
  static func headers(_ links: Links, for request: RouteRequest) -> [(String, String)] {
    var headers = [("X-Total-Count", "\(links.total)")]
    if let next = links.next {
      let query = request.route.query.compactMap { parameter -> String? in
        guard let value = next[parameter.name] ?? request.query[parameter.name] else {
          return nil
        }
        return parameter.name + "=" + Markup.pathSegment(value)
      }
      headers.append(
        ("Link", "<\(request.http.path)?\(query.joined(separator: "&"))>; rel=\"next\""))
    }
    return headers
  }

  // MARK: - Parameters

  /// `offset`: how many items of the list come before the page, a whole number from 0 (0 when
  /// not given).
  static let offset = Parameter<Int>(
    "offset", in: .query, "How many items of the list come before the page (0-based)",
    schema: .object([
      ("type", .string("integer")), ("minimum", .int(0)), ("default", .int(0)),
    ])
  ) { text throws(ServerProblem) in
    guard let text else { return 0 }
    guard let value = Int(text), value >= 0 else {
      throw ServerProblem(400, "offset must be a whole number of 0 or more, found '\(text)'")
    }
    return value
  }

  /// `after`: a chart's snapshots after this chart date.
  static let afterDate = Parameter<ChartDate?>(
    "after", in: .query,
    "Only the snapshots after this chart date (YYYY-MM-DD): the last one of the page before",
    schema: .object([("type", .string("string"))])
  ) { text throws(ServerProblem) in
    try text.map { text throws(ServerProblem) in try Parameters.chartDate(text, name: "after") }
  }

  /// `after`: a search's matches after this song's.
  static let afterSong = Parameter<SongID?>(
    "after", in: .query,
    "Only the matches after this song's (a song ID): the last one of the page before",
    schema: .object([("type", .string("integer")), ("minimum", .int(1))])
  ) { text throws(ServerProblem) in
    try wholeNumber(text, name: "after", of: "a song ID").map(SongID.init)
  }

  /// `after`: an artist search's matches after this artist's.
  static let afterArtist = Parameter<ArtistID?>(
    "after", in: .query,
    "Only the matches after this artist's (an artist ID): the last one of the page before",
    schema: .object([("type", .string("integer")), ("minimum", .int(1))])
  ) { text throws(ServerProblem) in
    try wholeNumber(text, name: "after", of: "an artist ID").map(ArtistID.init)
  }

  /// A whole number from 1 (an ID); `nil` for no text.
  ///
  /// - Throws: ``ServerProblem`` (400) naming the parameter and the text.
  private static func wholeNumber(_ text: String?, name: String, of what: String)
    throws(ServerProblem) -> Int64?
  {
    guard let text else { return nil }
    guard let value = Int64(text), value > 0 else {
      throw ServerProblem(400, "\(name) must be \(what), a whole number from 1, found '\(text)'")
    }
    return value
  }

  /// The place after a cursor's item in a list (0 when there is no cursor).
  ///
  /// - Parameters:
  ///   - cursor: the item's key, `nil` when the request gives none.
  ///   - items: the list.
  ///   - key: an item's key (its ID).
  /// - Throws: ``ServerProblem`` (400) when the list does not hold the item: the cursor is of
  ///   another question, or the item was merged away.
  static func start<Item, Key: Equatable & Sendable>(
    after cursor: Key?, in items: [Item], key: (Item) -> Key
  ) throws(ServerProblem) -> Int {
    guard let cursor else { return 0 }
    guard let index = items.firstIndex(where: { key($0) == cursor }) else {
      throw ServerProblem(
        400,
        "after names no match of this search: give the ID of the last match of the page before")
    }
    return index + 1
  }
}

extension Router {
  /// A view made in one read transaction with its page's links, rendered as ``view(_:dated:_:)``
  /// renders it, with the page's headers (``Paging/headers(_:for:)``).
  func pagedView<View: Presentation>(
    _ request: RouteRequest, dated: Bool = false,
    _ make: (ArchiveReader) throws -> (View, Paging.Links)
  ) throws -> HTTPResponse {
    var links = Paging.Links(total: 0)
    var response = try view(request, dated: dated) { reader in
      let (view, made) = try make(reader)
      links = made
      return view
    }
    response.headers += Paging.headers(links, for: request)
    return response
  }
}
