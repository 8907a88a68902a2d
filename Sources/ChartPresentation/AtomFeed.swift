public import ChartRanking
public import ChartStorage

/// A chart's Atom feed (RFC 4287, <https://www.rfc-editor.org/rfc/rfc4287>): one entry per
/// snapshot, newest first, each with its number one, its debuts and its re-entries, for a feed
/// reader to tell a person when a new chart is out.
///
/// Ids are tag URIs (RFC 4151) made of the chart's name and chart date, so that an entry keeps its
/// id whatever address the feed is read at: `tag:chart-archive,2026:charts/hot-100/2024-01-13`.
/// An entry's `updated` is when its snapshot was stored or last replaced; the feed's is its
/// newest entry's. Links are paths (`/charts/hot-100/2024-01-13`), which a reader resolves
/// against the feed's own address.
public struct AtomFeed: Sendable {
  /// One snapshot of the feed: the stored snapshot and its placements in rank order.
  public struct Item: Sendable {
    /// The snapshot as stored: its chart date and when it was stored (the entry's `updated`).
    public var snapshot: SnapshotSummary
    /// Its placements in rank order (ranks 1-based): the number one, debuts and re-entries come
    /// from their movements.
    public var placements: [Placement]

    /// One snapshot of the feed.
    public init(snapshot: SnapshotSummary, placements: [Placement]) {
      self.snapshot = snapshot
      self.placements = placements
    }
  }

  /// How many snapshots a feed holds: the newest.
  public static let itemLimit = 20

  /// The chart's name.
  public var chart: String
  /// The snapshots, newest first (at most ``itemLimit`` are written).
  public var items: [Item]

  /// The feed of a chart's snapshots, given newest first; only the first ``itemLimit`` are kept.
  public init(chart: String, items: [Item]) {
    self.chart = chart
    self.items = Array(items.prefix(Self.itemLimit))
  }

  /// The feed's id, and an entry's: a tag URI of the chart's page path.
  static func id(_ chart: String, _ date: ChartDate? = nil) -> String {
    "tag:chart-archive,2026:" + PagePath.chart(chart, date).dropFirst()
  }

  /// The feed as an XML document (UTF-8).
  public var xml: String {
    let updated = items.map(\.snapshot.importedAt).max() ?? "1970-01-01T00:00:00Z"
    var xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
    xml += "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n"
    xml += "<id>\(Markup.escaped(Self.id(chart)))</id>\n"
    xml += "<title>\(Markup.escaped(chart)) · ChartArchive</title>\n"
    xml += "<updated>\(Markup.escaped(updated))</updated>\n"
    xml += "<link rel=\"self\" type=\"application/atom+xml\" href=\""
    xml += Markup.escaped(PagePath.chart(chart) + ".atom") + "\"/>\n"
    xml += "<link rel=\"alternate\" type=\"text/html\" href=\""
    xml += Markup.escaped(PagePath.chart(chart)) + "\"/>\n"
    xml += "<author><name>ChartArchive</name></author>\n"
    xml += "<generator>ChartArchive</generator>\n"
    for item in items { xml += entry(item) }
    xml += "</feed>\n"
    return xml
  }

  /// One snapshot's entry: titled by its chart date and number one, its content the number one,
  /// the debuts and the re-entries as HTML.
  private func entry(_ item: Item) -> String {
    let date = item.snapshot.chartDate
    let top = item.placements.filter { $0.rank == 1 }
    let debuts = item.placements.filter { $0.movement == .debut }
    let reentries = item.placements.filter { $0.movement == .reentry }
    let leaders = top.map { "\($0.entry.title) by \($0.entry.artist)" }.joined(separator: " and ")
    let title = "\(chart) \(date.iso8601)" + (leaders.isEmpty ? "" : ": \(leaders) at number one")
    var content = "<p>Number one: " + Self.list(top) + "</p>"
    content += "<p>Debuts (\(debuts.count)): " + Self.list(debuts) + "</p>"
    content += "<p>Re-entries (\(reentries.count)): " + Self.list(reentries) + "</p>"
    var xml = "<entry>\n<id>\(Markup.escaped(Self.id(chart, date)))</id>\n"
    xml += "<title>\(Markup.escaped(title))</title>\n"
    xml += "<updated>\(Markup.escaped(item.snapshot.importedAt))</updated>\n"
    xml += "<link rel=\"alternate\" type=\"text/html\" href=\""
    xml += Markup.escaped(PagePath.chart(chart, date)) + "\"/>\n"
    xml += "<content type=\"html\">\(Markup.escaped(content))</content>\n</entry>\n"
    return xml
  }

  /// Placements as HTML: `<a href="/songs/7">Title</a> by Artist (2), …`, or `none`.
  private static func list(_ placements: [Placement]) -> String {
    guard !placements.isEmpty else { return "none" }
    return placements.map { placement in
      "<a href=\"\(PagePath.song(placement.song))\">\(Markup.escaped(placement.entry.title))</a>"
        + " by \(Markup.escaped(placement.entry.artist)) (\(placement.rank))"
    }.joined(separator: ", ")
  }
}
