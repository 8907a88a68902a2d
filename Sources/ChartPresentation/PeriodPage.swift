import ChartRanking
public import ChartStorage

/// A chart's year chart (`/charts/NAME/years/YYYY`): the songs of the year's snapshots ranked as
/// `period --year` ranks them, each with its rank the year before and how it moved, peak, weeks
/// at peak, weeks in the year and points, as the chart app lists a snapshot's entries; links to
/// the years before and after, and the sentence saying it is the archive's ranking.
public struct PeriodPage: HTMLPage {
  /// The period chart, as `period` gives it.
  public var period: PeriodChart

  /// The page of a period chart.
  public init(_ period: PeriodChart) { self.period = period }

  public var title: String {
    "\(period.chart) · \(period.span.year.map(String.init) ?? PeriodView.spanWords(period.span))"
  }

  public func main(_ setting: PageSetting) -> String {
    let periods = Periods(period.frequency)
    var output = "<h1>"
    Markup.append(period.chart, to: &output)
    output += "</h1>\n<p class=\"sub\">"
    Markup.append(
      "Year chart of \(PeriodView.spanWords(period.span)): \(periods.count(period.snapshotCount)),"
        + " \(period.songCount) songs, scored by \(period.scoring.rawValue).", to: &output)
    output += "</p>\n"
    if let year = period.span.year, setting == .served {
      let chart = period.chart
      output += "<nav class=\"bar\" aria-label=\"Years\">"
      output += "<a rel=\"prev\" href=\"\(PagePath.year(chart, year - 1))\">← \(year - 1)</a>"
      output += "<a rel=\"next\" href=\"\(PagePath.year(chart, year + 1))\">\(year + 1) →</a>"
      output += "<a href=\"\(PagePath.chart(chart))\">Latest chart</a></nav>\n"
    }
    output += PagePieces.paragraph(PeriodView.notice, class: "notes")
    guard !period.songs.isEmpty else {
      return output
        + PagePieces.paragraph("No snapshot of the chart is dated in this year.", class: "sub")
    }
    output += entries(periods, setting)
    output += PagePieces.paragraph(
      "Points: \(Self.formula(period.scoring)) on each snapshot, summed. Last: the rank in the"
        + " \(period.span.year == nil ? "period" : "year") before; NEW: not in it.",
      class: "notes")
    return output
  }

  /// The songs as the chart app lists entries: rank, movement, title and artist, then the rank
  /// before, peak, periods at peak, periods and points.
  private func entries(_ periods: Periods, _ setting: PageSetting) -> String {
    let weeks = periods.plural.prefix(1).uppercased() + periods.plural.dropFirst()
    var output = "<ol class=\"entries\">\n"
    for song in period.songs {
      let standing = song.standing
      output += "<li><i></i><b>\(standing.rank)</b>" + PagePieces.marker(standing.movement)
      output += "<p>" + PagePieces.songLink(standing.song, song.title, setting) + "<span>"
      Markup.appendIsolated(song.artist, to: &output)
      // A no-break space (U+00A0) keeps each figure with its word on a phone.
      output += "</span></p><small>Last\u{A0}<b>"
      output += standing.previousRank.map(String.init) ?? "–"
      output += "</b> Peak\u{A0}<b>\(standing.peak)</b>"
      output += " At\u{A0}peak\u{A0}<b>\(standing.periodsAtPeak)</b>"
      output += " \(weeks)\u{A0}<b>\(standing.periods)</b>"
      output += " Points\u{A0}<b>\(Int(standing.points.rounded()))</b></small></li>\n"
    }
    return output + "</ol>\n"
  }

  /// A scoring's formula in words.
  static func formula(_ scoring: PeriodScoring) -> String {
    switch scoring {
    case .root: "100 ÷ √rank"
    case .linear: "places + 1 − rank"
    case .billboard: "places + 1 − rank, and places more for number one"
    case .streams: "the streams"
    }
  }
}

extension PagePieces {
  /// The years of a chart a song was on, each linking to the chart's year chart (`<dt>Year
  /// charts</dt><dd>…</dd>`, inside a `<dl>`); nothing when it has no entry.
  static func yearLinks(_ item: SongHistoryOnChart, _ setting: PageSetting) -> String {
    var years: [Int] = []
    for placement in item.history.placements {
      let year = PeriodSpan.year(holding: placement.chartDate, frequency: item.frequency)
      if years.last != year { years.append(year) }
    }
    guard !years.isEmpty else { return "" }
    return "<dt>Year charts</dt><dd>"
      + years.map { link(PagePath.year(item.chart, $0), String($0), setting) }
      .joined(separator: " ") + "</dd>"
  }
}
