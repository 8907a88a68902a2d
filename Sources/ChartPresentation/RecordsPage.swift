import ChartRanking
import ChartStorage

/// A chart's records (`/charts/NAME/records?from=&to=&limit=`): a form for the span, then each
/// leaderboard as ``RecordsView`` gives it, a table of rank, figure, song (linking to its page,
/// with its credit) or artist (linking to theirs) and the dates that make the record, narrow
/// enough for a phone.
public struct RecordsPage: HTMLPage {
  /// The records as `records` gives them.
  public var view: RecordsView

  /// The page of a chart's records.
  public init(_ view: RecordsView) { self.view = view }

  private var records: ChartRecords { view.records }

  public var title: String { "\(records.chart): records" }

  public func main(_ setting: PageSetting) -> String {
    let chart = records.chart
    var output = "<h1>"
    Markup.append(chart, to: &output)
    output += ": records</h1>\n"
    output += PagePieces.paragraph(
      "Leaderboards of \(view.spanWords), read from the figures the archive stored for each"
        + " entry. Equal figures share a rank.", class: "sub")
    if setting == .served { output += form }
    for board in records.leaderboards {
      output += PagePieces.heading(view.title(board.kind), id: board.kind.rawValue)
      output +=
        board.rows.isEmpty
        ? PagePieces.paragraph("None.", class: "sub") : table(board, setting)
    }
    return output
  }

  /// The span's form: from, to, and the chart page's link.
  private var form: String {
    let path = PagePath.records(records.chart)
    var output = "<nav class=\"bar\" aria-label=\"Span\">"
    output += "<a href=\"\(PagePath.chart(records.chart))\">Latest chart</a>"
    output += "<form action=\"\(path)\" method=\"get\">"
    output += "<label for=\"rf\">From</label><input id=\"rf\" type=\"date\" name=\"from\""
    if let from = records.span.from { output += " value=\"\(from.day)\"" }
    output += "><label for=\"rt\">To</label><input id=\"rt\" type=\"date\" name=\"to\""
    if let to = records.span.to { output += " value=\"\(to.day)\"" }
    output += "><button type=\"submit\">Show</button></form></nav>\n"
    return output
  }

  private func table(_ board: Leaderboard, _ setting: PageSetting) -> String {
    let moves = board.kind == .biggestClimb || board.kind == .biggestFall
    let unit = view.unit(board.kind)
    let figureHeading = unit.prefix(1).uppercased() + unit.dropFirst()
    let rows = board.rows.map { row -> [String] in
      let record = row.record
      var figure = "\(record.figure)"
      if moves, let from = record.fromRank, let to = record.toRank {
        figure += "<small class=\"sub\"><br>\(from)\u{A0}→\u{A0}\(to)</small>"
      }
      var song = ""
      switch record.holder {
      case .song(let held):
        song = PagePieces.songLink(held.id, held.title, setting) + "<br><small class=\"sub\">"
        song += Markup.isolated(held.artist) + "</small>"
      case .artist(let held):
        song = PagePieces.link(
          PagePath.artist(ArtistID(held.id)), held.name, setting, isolated: true)
      }
      var dates = date(record.firstDate, setting)
      if record.lastDate != record.firstDate { dates += "<br>" + date(record.lastDate, setting) }
      return ["\(row.rank)", figure, song, dates]
    }
    return PagePieces.table(
      caption: view.title(board.kind),
      [
        ("#", true), (figureHeading, true),
        (board.kind.subject == .song ? "Song" : "Artist", false),
        ("Dates", true),
      ], rows)
  }
}

extension RecordsPage {
  /// A chart date as a `<time>` (kept on one line), linking to the chart's snapshot of that date.
  fileprivate func date(_ date: ChartDate, _ setting: PageSetting) -> String {
    "<time datetime=\"\(date.iso8601)\">"
      + PagePieces.link(PagePath.chart(records.chart, date), date.iso8601, setting) + "</time>"
  }
}

extension PagePath {
  /// `/charts/NAME/records`.
  public static func records(_ name: String) -> String { chart(name) + "/records" }
}
