public import ChartRanking
public import ChartStorage

// MARK: - The charts

/// The home page (`/`): every chart of the command line's ``ChartsView`` with its frequency, its
/// number of snapshots and its latest chart date, and the top of its latest snapshot as the chart
/// app shows it (its number one first).
public struct ChartsPage: HTMLPage {
  /// The charts, as `charts` lists them.
  public var view: ChartsView
  /// The first entries of each chart's latest snapshot, with their figures, by chart name.
  public var tops: [String: [Placement]]
  /// How many entries of each chart the page shows.
  public static let topCount = 5

  /// The page of the charts.
  ///
  /// - Parameter tops: each chart's latest placements, in rank order (the first ``topCount``
  ///   are shown).
  public init(_ view: ChartsView, tops: [String: [Placement]]) {
    self.view = view
    self.tops = tops
  }

  private var charts: [ChartSummary] { view.charts }

  public var title: String { "Charts" }

  public func main(_ setting: PageSetting) -> String {
    var output = "<h1>Charts</h1>\n"
    guard !charts.isEmpty else {
      return output
        + PagePieces.paragraph(
          "The archive has no chart yet: import one with chart-archive import.", class: "sub")
    }
    output += PagePieces.paragraph(
      charts.count == 1 ? "1 chart in the archive." : "\(charts.count) charts in the archive.",
      class: "sub")
    output += "<ul class=\"charts\">\n"
    for chart in charts {
      output += "<li><h2>" + PagePieces.link(PagePath.chart(chart.name), chart.name, setting)
      output += "</h2><p>"
      if let frequency = chart.frequency { output += frequency.rawValue + " · " }
      output += chart.snapshotCount == 1 ? "1 snapshot" : "\(chart.snapshotCount) snapshots"
      if let latest = chart.lastChartDate {
        output += " · latest "
        output += PagePieces.link(PagePath.chart(chart.name, latest), latest.iso8601, setting)
      }
      output += "</p>\n"
      let top = (tops[chart.name] ?? []).prefix(Self.topCount)
      if !top.isEmpty {
        output += PagePieces.entries(top, frequency: chart.frequency, setting)
        output += "<p>" + PagePieces.link(PagePath.chart(chart.name), "The whole chart →", setting)
        output += "</p>"
      }
      output += "</li>\n"
    }
    output += "</ul>\n"
    return output
  }
}

// MARK: - A snapshot

/// A chart's snapshot as the chart app shows it (`/charts/NAME` and `/charts/NAME/DATE`): every
/// entry with cover, rank, movement marker, title, artist, previous rank, peak position and weeks
/// on chart; links to the chart dates before and after it, a date picker, its report and its
/// changes; then the biggest climbers and the drop-outs.
public struct SnapshotPage: HTMLPage {
  /// The snapshot as `show` gives it (its entries, all of them).
  public var view: SnapshotView
  /// The chart's snapshot after it, `nil` for its latest.
  public var next: SnapshotSummary?
  /// The chart's latest chart date, the date picker's last (a date before the chart's first
  /// opens its first snapshot).
  public var latest: ChartDate?
  /// The previous snapshot's entries whose song is not on this one, `nil` for the chart's first
  /// snapshot (unknown).
  public var dropOuts: [ArchivedEntry]?
  /// How many climbers to list.
  public static let climberCount = 5

  /// The page of a snapshot.
  public init(
    _ view: SnapshotView, next: SnapshotSummary?, latest: ChartDate?, dropOuts: [ArchivedEntry]?
  ) {
    self.view = view
    self.next = next
    self.latest = latest
    self.dropOuts = dropOuts
  }

  private var snapshot: ChartSnapshot { view.snapshot }

  public var title: String { "\(snapshot.summary.chart) · \(snapshot.summary.chartDate)" }

  /// The chart's Atom feed (``AtomFeed``).
  public var feed: (path: String, title: String)? {
    (PagePath.chart(snapshot.summary.chart) + ".atom", "\(snapshot.summary.chart) (Atom)")
  }

  public func main(_ setting: PageSetting) -> String {
    let summary = snapshot.summary
    let chart = summary.chart
    var output = "<h1>"
    Markup.append(chart, to: &output)
    output += "</h1>\n<p class=\"sub\">Chart date <time>\(summary.chartDate)</time>"
    output += " · \(summary.entryCount) entries</p>\n"
    if setting == .served {
      output += "<nav class=\"bar\" aria-label=\"Chart dates\">"
      if let previous = snapshot.previous {
        output += "<a rel=\"prev\" href=\"\(PagePath.chart(chart, previous.chartDate))\">"
        output += "← \(previous.chartDate)</a>"
      }
      if let next {
        output += "<a rel=\"next\" href=\"\(PagePath.chart(chart, next.chartDate))\">"
        output += "\(next.chartDate) →</a>"
      }
      output += "<form action=\"\(PagePath.chart(chart))\" method=\"get\">"
      output += "<label for=\"d\">Chart date</label><input id=\"d\" type=\"date\" name=\"date\""
      output += " value=\"\(summary.chartDate.day)\" required"
      if let latest { output += " max=\"\(latest.day)\"" }
      output += "><button type=\"submit\">Show</button></form>"
      let date = Markup.queryValue(summary.chartDate.iso8601)
      output += "<a href=\"\(PagePath.chart(chart))/report?date=\(date)\">Report</a>"
      output += "<a href=\"\(PagePath.records(chart))\">Records</a>"
      let year = PeriodSpan.year(holding: summary.chartDate, frequency: summary.frequency)
      output += "<a href=\"\(PagePath.year(chart, year))\">Year \(year)</a>"
      if let previous = snapshot.previous {
        output += "<a href=\"\(PagePath.chart(chart))/diff?from="
        output += "\(Markup.queryValue(previous.chartDate.iso8601))&amp;to=\(date)\">Changes</a>"
      }
      output += "</nav>\n"
    }
    let shown = snapshot.placements.prefix(view.limit)
    output += PagePieces.entries(shown, frequency: summary.frequency, setting)
    output += PagePieces.notes(shown.map(\.figures))
    let report = RankChangeReport(
      placements: snapshot.placements, dropOuts: dropOuts, limit: Self.climberCount)
    output += PagePieces.heading("Biggest climbers", id: "climbers")
    if report.climbers.isEmpty {
      output += PagePieces.paragraph("None.", class: "sub")
    } else {
      output += PagePieces.entries(report.climbers, frequency: summary.frequency, setting)
    }
    if let dropOuts {
      output += PagePieces.heading("Drop-outs (\(dropOuts.count))", id: "drop-outs")
      output += PagePieces.dropOuts(dropOuts, rankHeading: "Last", setting)
    } else {
      output += PagePieces.heading("Drop-outs", id: "drop-outs")
      output += PagePieces.paragraph(
        "Unknown: the archive holds no snapshot before this one.", class: "sub")
    }
    return output
  }
}

// MARK: - A song

/// A song's page (`/songs/ID`): its rank history as a picture (see ``RankChart``), then per chart
/// its peak position, weeks at peak, weeks on chart, runs and debut, every chart date with rank,
/// movement, previous rank, peak and weeks, and the credit changes its run was joined across.
public struct SongPage: HTMLPage {
  /// The song as `history` shows it (one song, or the recordings of one title and artist).
  public var view: HistoryView
  /// The artists credited on the song (its first recording), each linking to their page.
  public var artists: [(artist: ArtistSummary, role: ArtistRole)]

  /// The page of a song's recordings, with the artists credited on it.
  public init(_ view: HistoryView, artists: [(artist: ArtistSummary, role: ArtistRole)] = []) {
    self.view = view
    self.artists = artists
  }

  private var recordings: [SongRecording] { view.recordings }

  /// The artists credited on the song, each linking to their page: `Artists: A, B (featured)`;
  /// nothing when none is known.
  private func artistsLine(_ setting: PageSetting) -> String {
    guard !artists.isEmpty else { return "" }
    let names = artists.map {
      PagePieces.link(PagePath.artist($0.artist.id), $0.artist.name, setting, isolated: true)
        + ($0.role == .featured ? " (featured)" : "")
    }
    return "<p class=\"sub\">Artists: " + names.joined(separator: ", ") + "</p>\n"
  }

  public var title: String { "\(recordings[0].song.title) — \(recordings[0].song.artist)" }

  public func main(_ setting: PageSetting) -> String {
    let song = recordings[0].song
    var output = "<h1>"
    Markup.appendIsolated(song.title, to: &output)
    output += "</h1>\n<p class=\"sub\">"
    Markup.appendIsolated(song.artist, to: &output)
    output += "</p>\n"
    output += artistsLine(setting)
    output += "<figure class=\"picture\">"
    output += RankChart(view).svg(.inline)
    output += "<figcaption class=\"notes\">Rank on each chart date (1 at the top);"
    output += " the line breaks where the song was off the chart.</figcaption></figure>\n"
    for (index, recording) in recordings.enumerated() {
      for item in recording.histories {
        let history = item.history
        let periods = Periods(item.frequency)
        let capitalized = periods.plural.prefix(1).uppercased() + periods.plural.dropFirst()
        output += PagePieces.heading(
          recordings.count > 1 ? "Recording \(index + 1), \(item.chart)" : item.chart)
        let peakMark = history.peakIsTheSources ? partialMark : ""
        let weeksMark = history.weeksOnChartAreTheSources ? partialMark : ""
        output += "<dl class=\"facts\"><dt>Peak position</dt><dd>"
        output += "\(history.peakPosition.map(String.init) ?? "–")\(peakMark)"
        output += " (\(periods.atPeak(history.weeksAtPeak)))</dd>"
        output += "<dt>\(capitalized) on chart</dt><dd>\(history.weeksOnChart)\(weeksMark)</dd>"
        if history.runs > 1 { output += "<dt>Runs</dt><dd>\(history.runs)</dd>" }
        if let debut = history.debutDate, let rank = history.debutRank {
          let link = PagePieces.link(PagePath.chart(item.chart, debut), debut.iso8601, setting)
          output +=
            history.debutIsBeforeArchive
            ? "<dt>Debut</dt><dd>before \(debut) (archived from \(link) at \(rank))</dd>"
            : "<dt>Debut</dt><dd>\(link) at \(rank)</dd>"
        }
        output += PagePieces.yearLinks(item, setting)
        output += "</dl>\n"
        if setting == .served {
          output += "<p class=\"sub\"><a href=\"\(PagePath.records(item.chart))\">Records of "
          Markup.append(item.chart, to: &output)
          output += "</a></p>\n"
        }
        output += PagePieces.table(
          caption: "\(item.chart): every chart date",
          [
            ("Chart date", false), ("Rank", true), ("Move", false), ("Last", true),
            ("Peak", true), (capitalized, true),
          ],
          history.placements.map { placement in
            let cells = figureCells(placement.figures)
            return [
              PagePieces.link(
                PagePath.chart(item.chart, placement.chartDate),
                placement.chartDate.iso8601, setting),
              "\(placement.rank)", PagePieces.marker(placement.movement),
              Markup.escaped(cells.previous.display), cells.peak.display, cells.weeks.display,
            ]
          }, minor: [3])
        output += PagePieces.notes(history.placements.map(\.figures))
        if !history.creditChanges.isEmpty {
          output += "<h3>Credit changes</h3>\n<ul class=\"plain\">"
          for change in history.creditChanges {
            output += "<li>\(change.chartDate): &#39;"
            Markup.appendIsolated(change.from, to: &output)
            output += "&#39; → &#39;"
            Markup.appendIsolated(change.to, to: &output)
            output += "&#39; (one run)"
            output += "</li>"
          }
          output += "</ul>\n"
        }
        output += Self.decisions(item.decisions)
      }
    }
    return output
  }
}

extension SongPage {
  /// The decisions that joined or split the song's entries on a chart, as a list: `Joined by
  /// hand: 2024-01-20 'Paper Moonz' by 'Mara Vey' (decision 1)`; nothing when there are none.
  static func decisions(_ notes: [SongDecisionNote]) -> String {
    guard !notes.isEmpty else { return "" }
    var output = "<h3>Decisions</h3>\n<ul class=\"plain\">"
    for (label, value) in HistoryView.decisionFacts(notes) {
      output += "<li>" + Markup.escaped(label + " " + value) + "</li>"
    }
    return output + "</ul>\n"
  }
}

// MARK: - Changes and reports

/// What changed between two snapshots (`/charts/NAME/diff?from=&to=`): the debuts and
/// re-entries, the drop-outs and the movements of the entries on both, as ``DiffView`` gives them.
public struct DiffPage: HTMLPage {
  /// The diff as `diff` gives it.
  public var view: DiffView

  /// The page of a diff.
  public init(_ view: DiffView) { self.view = view }

  private var chart: String { view.chart }
  private var older: SnapshotSummary { view.older }
  private var newer: SnapshotSummary { view.newer }
  private var diff: SnapshotDiff { view.diff }

  public var title: String { "\(chart): \(older.chartDate) → \(newer.chartDate)" }

  public func main(_ setting: PageSetting) -> String {
    var output = "<h1>"
    Markup.append(chart, to: &output)
    output += "</h1>\n<p class=\"sub\">Changes from "
    output += PagePieces.link(
      PagePath.chart(chart, older.chartDate), older.chartDate.iso8601, setting)
    output += " to "
    output += PagePieces.link(
      PagePath.chart(chart, newer.chartDate), newer.chartDate.iso8601, setting)
    output += "</p>\n"
    if setting == .served {
      output += "<form class=\"bar\" action=\"\(PagePath.chart(chart))/diff\" method=\"get\">"
      output += "<label for=\"f\">From</label><input id=\"f\" type=\"date\" name=\"from\""
      output += " value=\"\(older.chartDate.day)\" required>"
      output += "<label for=\"t\">to</label><input id=\"t\" type=\"date\" name=\"to\""
      output += " value=\"\(newer.chartDate.day)\" required>"
      output += "<button type=\"submit\">Compare</button></form>\n"
    }
    let moves = diff.moves
    let arrivals = diff.arrivals
    let up = moves.filter { ($0.movement.change ?? 0) > 0 }.count
    let down = moves.filter { ($0.movement.change ?? 0) < 0 }.count
    // The "Was" column only when a line has a rank there (debuts have none).
    func rows(_ lines: [SnapshotDiff.Line]) -> String {
      guard !lines.isEmpty else { return PagePieces.paragraph("None.", class: "sub") }
      let was = lines.map {
        Markup.escaped(
          ($0.figures.map { figureCells($0).previous } ?? .optional($0.olderRank)).display)
      }
      let showsWas = was.contains { !$0.isEmpty }
      return PagePieces.table(
        [("Rank", true), ("Move", false)] + (showsWas ? [("Was", true)] : [])
          + [("Title", false), ("Artist", false)],
        zip(lines, was).map { line, was in
          ["\(line.entry.entry.rank)", PagePieces.marker(line.movement)]
            + (showsWas ? [was] : [])
            + [
              PagePieces.songLink(line.entry.song, line.entry.entry.title, setting)
                + PagePieces.songURLLink(line.entry.entry.songURL),
              Markup.isolated(line.entry.entry.artist),
            ]
        })
    }
    output += PagePieces.heading("Debuts and re-entries (\(arrivals.count))")
    output += rows(arrivals)
    output += PagePieces.heading("Drop-outs (\(diff.dropOuts.count))")
    output += PagePieces.dropOuts(diff.dropOuts, rankHeading: "Was", setting)
    output += PagePieces.heading(
      "On both (\(moves.count): \(up) up, \(down) down, \(moves.count - up - down) unchanged)")
    output += rows(moves)
    output += markNotes(diff.lines.compactMap(\.figures)).filter { $0.hasPrefix(correctedMark) }
      .map { PagePieces.paragraph($0, class: "notes") }.joined()
    return output
  }
}

/// A snapshot's rank-change report (`/charts/NAME/report?date=`, and `report --format html` as a
/// file): number one, debuts, re-entries, the biggest climbers and fallers, drop-outs, as
/// ``ReportView`` gives them.
public struct ReportPage: HTMLPage {
  /// The report as `report` gives it.
  public var view: ReportView

  /// The page of a report.
  public init(_ view: ReportView) { self.view = view }

  private var chart: String { view.chart }
  private var snapshot: SnapshotSummary { view.snapshot }
  private var previous: SnapshotSummary? { view.previous }
  private var report: RankChangeReport { view.report }

  public var title: String { "\(chart) · \(snapshot.chartDate): report" }

  public func main(_ setting: PageSetting) -> String {
    var output = "<h1>"
    Markup.append(chart, to: &output)
    output += "</h1>\n<p class=\"sub\">Report of "
    output += PagePieces.link(
      PagePath.chart(chart, snapshot.chartDate), snapshot.chartDate.iso8601, setting)
    if let previous {
      output += " against "
      output += PagePieces.link(
        PagePath.chart(chart, previous.chartDate), previous.chartDate.iso8601, setting)
    } else {
      output += " (the chart's first snapshot in the archive)"
    }
    output += "</p>\n"
    let sections: [(String, [Placement])] = [
      ("Number one", report.numberOne), ("Debuts (\(report.debuts.count))", report.debuts),
      ("Re-entries (\(report.reentries.count))", report.reentries),
      ("Biggest climbers", report.climbers), ("Biggest fallers", report.fallers),
    ]
    for (heading, placements) in sections {
      output += PagePieces.heading(heading)
      output +=
        placements.isEmpty
        ? PagePieces.paragraph("None.", class: "sub")
        : PagePieces.entries(placements, frequency: snapshot.frequency, setting)
    }
    if let dropOuts = report.dropOuts {
      output += PagePieces.heading("Drop-outs (\(dropOuts.count))")
      output += PagePieces.dropOuts(dropOuts, rankHeading: "Last", setting)
    } else {
      output += PagePieces.heading("Drop-outs")
      output += PagePieces.paragraph(
        "Unknown: the archive holds no snapshot before this one.", class: "sub")
    }
    output += PagePieces.notes(sections.flatMap { $0.1.map(\.figures) })
    return output
  }
}

// MARK: - Search and errors

/// The songs a search found (`/search?q=`): each with a link to its page, its artist, first chart
/// date, best rank and entries; or, when none matched, what the search may have meant.
public struct SearchPage: HTMLPage {
  /// The words searched.
  public var query: String
  /// The songs found, best first, as `history` lists them.
  public var matches: SongMatchesView
  /// What a search that found nothing may have meant (see
  /// ``ArchiveReader/suggestion(forSearch:artist:chart:)``).
  public var suggestion: (query: String, songs: [SongSummary])?
  /// The artists whose names the search finds (``ArchiveReader/artists(matching:)``), linked
  /// above the songs.
  public var artists: [ArtistSummary] = []
  /// The most songs listed.
  public static let limit = 100

  /// The page of a search's results.
  public init(
    query: String, matches: SongMatchesView, suggestion: (query: String, songs: [SongSummary])?
  ) {
    self.query = query
    self.matches = matches
    self.suggestion = suggestion
  }

  private var songs: [SongSummary] { matches.songs }

  public var title: String { query.isEmpty ? "Search" : "Search: \(query)" }
  public var searchText: String { query }

  public func main(_ setting: PageSetting) -> String {
    var output = "<h1>Search</h1>\n"
    output += ArtistLinks.paragraph(Array(artists.prefix(20)), setting, lead: "Artists:")
    if query.isEmpty {
      return output
        + PagePieces.paragraph(
          "Give words of a title or an artist: case and accents do not matter.", class: "sub")
    }
    var shown = songs
    if songs.isEmpty, let suggestion {
      output += "<p class=\"sub\">No song matches "
      Markup.append("'\(query)'", to: &output)
      output += ". Did you mean <a href=\"/search?q=\(Markup.queryValue(suggestion.query))\">"
      Markup.append(suggestion.query, to: &output)
      output += "</a>?</p>\n"
      shown = suggestion.songs
    } else if songs.isEmpty {
      return output + PagePieces.paragraph("No song matches '\(query)'.", class: "sub")
    } else {
      output += PagePieces.paragraph(
        songs.count == 1 ? "1 song matches '\(query)'." : "\(songs.count) songs match '\(query)'.",
        class: "sub")
    }
    output += PagePieces.table(
      caption: "Songs found",
      [
        ("Title", false), ("Artist", false), ("First charted", false), ("Best rank", true),
        ("Entries", true),
      ],
      shown.prefix(Self.limit).map { song in
        [
          PagePieces.songLink(song.id, song.title, setting)
            + (song.recording > 1 ? " (recording \(song.recording))" : ""),
          Markup.isolated(song.artist), song.firstChartDate.iso8601, "\(song.bestRank)",
          "\(song.entryCount)",
        ]
      }, minor: [2, 4])
    if shown.count > Self.limit {
      output += PagePieces.paragraph(
        "… and \(shown.count - Self.limit) more: add words to narrow the search.", class: "notes")
    }
    return output
  }
}

/// A page saying why a request has no page: the status's words and the archive's, and links to
/// the pages meant (the nearest chart dates).
public struct ErrorPage: HTMLPage {
  /// The heading (`Not found`).
  public var heading: String
  /// What went wrong, with its hint (the nearest chart dates, the chart names).
  public var message: String
  /// Pages the request may have meant, each a server path and its words, in order.
  public var links: [(path: String, text: String)]

  /// The page of an error.
  ///
  /// - Parameter links: the pages it may have meant (see ``nearest(chart:before:after:)``).
  public init(heading: String, message: String, links: [(path: String, text: String)] = []) {
    self.heading = heading
    self.message = message
    self.links = links
  }

  /// The links to a chart's snapshots nearest a date that has none: `← 2024-01-06` (the one
  /// before) and `2024-01-13 →` (the one after), whichever there are.
  public static func nearest(chart: String, before: ChartDate?, after: ChartDate?)
    -> [(path: String, text: String)]
  {
    (before.map { [(PagePath.chart(chart, $0), "← \($0)")] } ?? [])
      + (after.map { [(PagePath.chart(chart, $0), "\($0) →")] } ?? [])
  }

  public var title: String { heading }

  public func main(_ setting: PageSetting) -> String {
    var output =
      "<h1>" + Markup.escaped(heading) + "</h1>\n" + PagePieces.paragraph(message, class: "sub")
    if setting == .served, !links.isEmpty {
      output += "<nav class=\"bar\" aria-label=\"Nearest pages\">"
      for link in links { output += PagePieces.link(link.path, link.text, setting) }
      output += "</nav>\n"
    }
    return output + (setting == .served ? "<p><a href=\"/\">All charts</a></p>\n" : "")
  }
}
