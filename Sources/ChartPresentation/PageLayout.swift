public import ChartRanking

/// Where an HTML page is shown.
public enum PageSetting: Sendable {
  /// Served by `chart-archive serve`: the style sheet and icon by URL (`/assets/…`), titles
  /// linking to the songs' pages, a search box.
  case served
  /// A file on its own (`report --format html`): the style sheet inside it, no link to a page
  /// of the server; a song's own URL (from the source) is still linked.
  case file
}

/// What every page of the product is: a title and its `<main>` content, written into the same
/// frame (see ``HTMLPage/html(_:)``).
public protocol HTMLPage: Sendable {
  /// The page's title, as text (escaped when written).
  var title: String { get }
  /// The search box's words, when the page answers a search.
  var searchText: String { get }
  /// The Atom feed a feed reader finds in the page's head (`<link rel="alternate">`): its path
  /// and title; `nil` for none.
  var feed: (path: String, title: String)? { get }
  /// The contents of `<main>`, markup.
  func main(_ setting: PageSetting) -> String
}

extension HTMLPage {
  public var searchText: String { "" }
  public var feed: (path: String, title: String)? { nil }

  /// The whole HTML document (the HTML Living Standard's syntax, UTF-8): language, viewport for
  /// phones, light and dark colour schemes, the style sheet, a skip link, the header with the
  /// search box (served pages), `<main>`, and a footer. No script, inline or not: served pages
  /// come with a `Content-Security-Policy` allowing none, a file carries the same policy in a
  /// `<meta>` element.
  public func html(_ setting: PageSetting) -> String {
    var page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    page += "<meta name=\"color-scheme\" content=\"light dark\">\n<title>"
    Markup.append(title, to: &page)
    page += " · ChartArchive</title>\n"
    switch setting {
    case .served:
      page += "<link rel=\"stylesheet\" href=\"/assets/style.css\">\n"
      page += "<link rel=\"icon\" href=\"/assets/icon.svg\" type=\"image/svg+xml\">\n"
      if let feed {
        page += "<link rel=\"alternate\" type=\"application/atom+xml\" title=\""
        Markup.append(feed.title, to: &page)
        page += "\" href=\"" + Markup.escaped(feed.path) + "\">\n"
      }
    case .file:
      page += "<meta http-equiv=\"Content-Security-Policy\" content=\"\(PageAssets.filePolicy)\">\n"
      page += "<style>\n" + PageAssets.styleSheet + "</style>\n"
    }
    page += "</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n"
    page += "<header class=\"top\">"
    switch setting {
    case .served:
      page += "<a class=\"brand\" href=\"/\"><img src=\"/assets/icon.svg\" alt=\"\">"
      page += "ChartArchive</a>\n"
      page += "<form class=\"search\" role=\"search\" action=\"/search\" method=\"get\">"
      page += "<label class=\"sr\" for=\"q\">Search titles and artists</label>"
      page += "<input id=\"q\" type=\"search\" name=\"q\" placeholder=\"Title or artist\" value=\""
      Markup.append(searchText, to: &page)
      page += "\"><button type=\"submit\">Search</button></form>"
    case .file:
      page += "<span class=\"brand\">ChartArchive</span>"
    }
    page += "</header>\n<main id=\"main\">\n"
    page += main(setting)
    page += "</main>\n<footer>ChartArchive: every snapshot of a chart, and how each entry moved."
    page += "</footer>\n</body>\n</html>\n"
    return page
  }
}

/// The addresses of the server's pages.
public enum PagePath {
  /// `/charts/NAME`, or `/charts/NAME/DATE` (the chart date in ISO 8601), each part
  /// percent-encoded so that any chart name stays one segment.
  public static func chart(_ chart: String, _ date: ChartDate? = nil) -> String {
    "/charts/" + Markup.pathSegment(chart)
      + (date.map { "/" + Markup.pathSegment($0.iso8601) } ?? "")
  }

  /// `/songs/ID`.
  public static func song(_ song: SongID) -> String { "/songs/\(song.rawValue)" }

  /// `/charts/NAME/years/YYYY`: a chart's year chart.
  public static func year(_ chart: String, _ year: Int) -> String {
    Self.chart(chart) + "/years/\(year)"
  }

  /// `/artists/ID`.
  public static func artist(_ artist: ArtistID) -> String { "/artists/\(artist.rawValue)" }
}

/// The pieces pages are made of.
enum PagePieces {
  /// A link to a server page (a path such as `/charts/hot-100`) around escaped text, or the text
  /// alone in a file; the text inside `<bdi>` when `isolated` (see
  /// ``Markup/appendIsolated(_:to:)``).
  static func link(
    _ path: String, _ text: String, _ setting: PageSetting, class name: String = "",
    isolated: Bool = false
  ) -> String {
    let classAttribute = name.isEmpty ? "" : " class=\"\(name)\""
    var output =
      setting == .served ? "<a\(classAttribute) href=\"\(path)\">" : "<span\(classAttribute)>"
    if isolated {
      Markup.appendIsolated(text, to: &output)
    } else {
      Markup.append(text, to: &output)
    }
    output += setting == .served ? "</a>" : "</span>"
    return output
  }

  /// A link to a song's page around its title, isolated, or the title alone in a file.
  static func songLink(_ song: SongID, _ title: String, _ setting: PageSetting) -> String {
    link(PagePath.song(song), title, setting, isolated: true)
  }

  /// A movement marker, coloured by its class, with words for screen readers: `▲3` and "up 3
  /// places", `▼2` and "down 2 places", `–` and "no change", `NEW` and "new", `RE` and
  /// "re-entry".
  static func marker(_ movement: Movement) -> String {
    let (name, words): (String, String) =
      switch movement {
      case .up(let places): ("up", "up \(places) place\(places == 1 ? "" : "s")")
      case .down(let places): ("down", "down \(places) place\(places == 1 ? "" : "s")")
      case .unchanged: ("same", "no change")
      case .debut: ("new", "new")
      case .reentry: ("re", "re-entry")
      }
    return
      "<span class=\"mv \(name)\" role=\"img\" aria-label=\"\(words)\">\(movement.marker)</span>"
  }

  /// A chart's entries as the app shows them (`<ol class="entries">`): cover (a placeholder when
  /// the source gave none), rank, movement marker, title (linking to the song's page) and artist,
  /// a link to the song's own URL when known, then previous rank, peak position and weeks on
  /// chart, each marked as ``SnapshotView`` marks them.
  static func entries(
    _ placements: some Sequence<Placement>, frequency: ChartFrequency?, _ setting: PageSetting
  ) -> String {
    let periods = Periods(frequency)
    let weeks = periods.plural.prefix(1).uppercased() + periods.plural.dropFirst()
    var output = "<ol class=\"entries\">\n"
    for placement in placements {
      let entry = placement.entry
      output += "<li>"
      if let image = Markup.webURL(entry.imageURL) {
        output += "<i><img src=\""
        Markup.append(image, to: &output)
        output += "\" alt=\"\" loading=\"lazy\" width=\"48\" height=\"48\"></i>"
      } else {
        output += "<i></i>"
      }
      output += "<b>\(entry.rank)</b>" + marker(placement.movement)
      output += "<p>" + songLink(placement.song, entry.title, setting)
      output += songURLLink(entry.songURL) + "<span>"
      Markup.appendIsolated(entry.artist, to: &output)
      let cells = figureCells(placement.figures)
      // A no-break space (U+00A0) keeps each figure with its word on a phone.
      output += "</span></p><small>Last\u{A0}<b>"
      output += cells.previous == .null ? "–" : cells.previous.display
      output += "</b> Peak\u{A0}<b>\(cells.peak.display)</b>"
      output += " \(weeks)\u{A0}<b>\(cells.weeks.display)</b>"
      output += "</small></li>\n"
    }
    output += "</ol>\n"
    return output
  }

  /// A link to the song's own page at the source (`song_url`), when it is a web address.
  static func songURLLink(_ url: String?) -> String {
    guard let url = Markup.webURL(url) else { return "" }
    var output = " <a href=\""
    Markup.append(url, to: &output)
    output += "\" rel=\"noopener noreferrer\">↗<span class=\"sr\">the song at the source</span></a>"
    return output
  }

  /// A table (`<table>`) of columns (a heading and whether the column holds numbers) and rows of
  /// cells already written as markup, in a box that scrolls sideways if it must.
  ///
  /// - Parameter minor: the 0-based indices of the columns a phone does without: their cells get
  ///   the class `m`, which the style sheet hides below 30rem (480 px) wide, so that the columns
  ///   that matter (the rank, the title, the artist) keep the screen.
  static func table(
    caption: String? = nil, _ columns: [(heading: String, numeric: Bool)], _ rows: [[String]],
    minor: Set<Int> = []
  ) -> String {
    var output = "<div class=\"scroll\"><table>"
    if let caption {
      output += "<caption class=\"sr\">"
      Markup.append(caption, to: &output)
      output += "</caption>"
    }
    // Each column's class: `n` for numbers, `s` for words, then `m` when a phone drops it.
    let classes = columns.indices.map { index in
      (columns[index].numeric ? "n" : "s") + (minor.contains(index) ? " m" : "")
    }
    output += "<thead><tr>"
    for (column, name) in zip(columns, classes) {
      // Headings are left-aligned by default: only `n` and `m` matter to them.
      let heading = name.split(separator: " ").filter { $0 != "s" }.joined(separator: " ")
      output += heading.isEmpty ? "<th scope=\"col\">" : "<th class=\"\(heading)\" scope=\"col\">"
      output += column.heading + "</th>"
    }
    output += "</tr></thead>\n<tbody>\n"
    for row in rows {
      output += "<tr>"
      for (name, cell) in zip(classes, row) {
        output += "<td class=\"\(name)\">" + cell + "</td>"
      }
      output += "</tr>\n"
    }
    output += "</tbody></table></div>\n"
    return output
  }

  /// A paragraph of escaped text with a class.
  static func paragraph(_ text: String, class name: String) -> String {
    "<p class=\"\(name)\">" + Markup.escaped(text) + "</p>\n"
  }

  /// The notes that explain the marks (`*`, `!`) a list shows, as ``markNotes(_:)`` words them.
  static func notes(_ figures: some Sequence<EntryFigures>) -> String {
    markNotes(figures).map { paragraph($0, class: "notes") }.joined()
  }

  /// A heading of a section (`<h2>`), escaped.
  static func heading(_ text: String, id: String? = nil) -> String {
    (id.map { "<h2 id=\"\($0)\">" } ?? "<h2>") + Markup.escaped(text) + "</h2>\n"
  }

  /// Drop-outs: their rank on the older snapshot, title (linking to the song's page) and artist.
  static func dropOuts(_ entries: [ArchivedEntry], rankHeading: String, _ setting: PageSetting)
    -> String
  {
    guard !entries.isEmpty else { return paragraph("None.", class: "sub") }
    return table(
      [(rankHeading, true), ("Title", false), ("Artist", false)],
      entries.map {
        [
          "\($0.entry.rank)", songLink($0.song, $0.entry.title, setting),
          Markup.isolated($0.entry.artist),
        ]
      })
  }
}
