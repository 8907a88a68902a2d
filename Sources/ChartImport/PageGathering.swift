import ChartFormats
import ChartRanking
import ChartStorage

/// The pages of charts published in pages (Apple Music's: 20 songs a page, each naming the
/// offset of the next), gathered from an import's sources until a chart of one chart date is
/// whole, then joined into one snapshot, ranked by place in the whole chart.
///
/// Where each page goes: its own offset when it tells it, else (a last page that names neither its
/// address nor a next page) the offset the other pages leave for it. A chart is whole when its
/// pages run from the first song to a page without a next one, each starting where the one
/// before it ends; it is stored as soon as it is whole when every page tells its offset, else when
/// every source is read.
struct PageGathering {
  /// One page: a snapshot of a source's file.
  struct Page {
    var source: Int
    var prepared: PreparedFile
    /// The index of the page's snapshot in its file.
    var snapshot: Int
    var page: ChartPage

    var entries: [ChartEntry] { prepared.file.snapshots[snapshot].entries }
  }

  /// A chart's pages joined into one snapshot.
  struct Joined {
    /// The snapshot and its keys, as one file: the first page's, its entries those of every page.
    var prepared: PreparedFile
    /// The sources of the pages, in page order.
    var sources: [Int]
    /// The offset of the page after the last one joined, when the chart goes on beyond them.
    var continuesAt: Int?
    /// Every page's file, to free once the snapshot is stored.
    var pages: [PreparedFile]
  }

  /// The pages of each chart and chart date not yet whole, in the order first seen.
  private var pending: [(key: String, pages: [Page])] = []

  /// Adds the paged snapshots of a file.
  ///
  /// - Returns: the charts that are whole with these pages.
  mutating func add(_ prepared: PreparedFile, source: Int) -> [Joined] {
    var whole: [Joined] = []
    for (index, page) in prepared.file.pages.enumerated() {
      guard let page else { continue }
      let snapshot = prepared.file.snapshots[index]
      let key = snapshot.chart + "\u{1F}" + snapshot.chartDate.iso8601
      let item = Page(source: source, prepared: prepared, snapshot: index, page: page)
      let position: Int
      if let found = pending.firstIndex(where: { $0.key == key }) {
        pending[found].pages.append(item)
        position = found
      } else {
        pending.append((key, [item]))
        position = pending.count - 1
      }
      // Whole, and sure to be: a page that tells no offset may be the last of pages still to
      // come, or a chart of one page, which only the end of the import tells apart.
      if case .joined(let joined) = Self.join(pending[position].pages), joined.continuesAt == nil,
        pending[position].pages.allSatisfy({ $0.page.offset != nil })
      {
        whole.append(joined)
        pending.remove(at: position)
      }
    }
    return whole
  }

  /// The charts left when every source is read: those whose first pages are all there, joined
  /// (whole, or going on beyond pages not imported: see ``Joined/continuesAt``), and the pages
  /// that cannot be joined, refused.
  mutating func finish() -> (joined: [Joined], refused: [RefusedSource]) {
    var joined: [Joined] = []
    var refused: [RefusedSource] = []
    for (_, pages) in pending {
      switch Self.join(pages) {
      case .joined(let chart): joined.append(chart)
      case .refused(let reason):
        for page in pages.sorted(by: { $0.source < $1.source }) {
          let snapshot = page.prepared.file.snapshots[page.snapshot]
          let entries = page.entries
          let span =
            page.page.offset.map { "entries \($0 + 1) to \($0 + entries.count)" }
            ?? "a page of \(entries.count) \(entries.count == 1 ? "entry" : "entries") that tells no"
            + " offset"
          refused.append(
            RefusedSource(
              source: page.source, name: page.prepared.file.path,
              reason: .invalid(
                ChartFileError(
                  path: page.prepared.file.path,
                  "\(span) of chart '\(snapshot.chart)' of \(snapshot.chartDate): \(reason)"
                    + " (import every page of a chart together)"))))
        }
      }
    }
    pending = []
    return (joined, refused)
  }

  /// What joining a chart's pages gives.
  enum Joining {
    /// The pages from the first, joined; the chart may go on (``Joined/continuesAt``).
    case joined(Joined)
    /// Why the pages cannot be joined.
    case refused(String)
  }

  /// Joins a chart's pages when they run from its first song without a gap.
  static func join(_ pages: [Page]) -> Joining {
    // Each page's offset: its own, or the one the others leave for a last page that names none.
    let unplaced = pages.filter { $0.page.offset == nil }
    guard unplaced.count <= 1 else {
      return .refused("two of its pages say neither where they start nor where the next one does")
    }
    var placed = pages.filter { $0.page.offset != nil }.map { ($0.page.offset!, $0) }
    if let last = unplaced.first {
      let after = placed.compactMap { $0.1.page.nextOffset }.max() ?? 0
      placed.append((after, last))
    }
    placed.sort { $0.0 < $1.0 }
    var expected = 0
    for (index, (offset, page)) in placed.enumerated() {
      guard offset <= expected else {
        return .refused(
          "its entries \(expected + 1) to \(offset) are on a page not among the files imported")
      }
      guard offset == expected else {
        return .refused(
          "\(placed[index - 1].1.prepared.file.path) holds entry \(offset + 1) too")
      }
      expected = offset + page.entries.count
      guard page.page.nextOffset != nil || index == placed.count - 1 else {
        return .refused(
          "\(page.prepared.file.path) says the chart ends with it, before its last page")
      }
    }
    guard expected <= ChartFileReader.maximumRank else {
      return .refused(
        "its pages hold \(expected) entries; a chart has at most \(ChartFileReader.maximumRank)")
    }
    let first = placed[0].1
    let firstSnapshot = first.prepared.file.snapshots[first.snapshot]
    var entries: [ChartEntry] = []
    var keys: [SongKeys] = []
    for (offset, page) in placed {
      for (index, entry) in page.entries.enumerated() {
        var entry = entry
        entry.rank = offset + index + 1
        entries.append(entry)
      }
      keys += page.prepared.keys[page.snapshot]
    }
    var file = first.prepared.file
    file.snapshots = [
      Snapshot(
        chart: firstSnapshot.chart, chartDate: firstSnapshot.chartDate,
        publishesPreviousRank: firstSnapshot.publishesPreviousRank, entries: entries)
    ]
    file.pages = []
    // Each page's was checked when it came (see ``ImportOptions/chartIsRequired``).
    file.chartsNamedInContent = []
    file.dateDisagreements = first.prepared.file.dateDisagreements
    return .joined(
      Joined(
        prepared: PreparedFile(file: file, keys: [keys]), sources: placed.map(\.1.source),
        continuesAt: placed.last!.1.page.nextOffset, pages: placed.map(\.1.prepared)))
  }
}
