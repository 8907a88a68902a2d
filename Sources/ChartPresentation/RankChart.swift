public import ChartRanking
public import ChartStorage

/// A song's rank history drawn as a line chart, in SVG 1.1
/// (<https://www.w3.org/TR/SVG11/>): rank 1 at the top, chart dates along the bottom in time
/// order, one point per chart date with a tooltip (`<title>`) giving the date and the rank, the
/// line broken where the song was off the chart (a re-entry starts a new run, see ``Placement``),
/// the peak position marked, and one line per chart (and per song, when several are drawn).
///
/// Each chart gets a panel of its own, one under the other, with its own time axis (its first to
/// its last chart date drawn) and its own rank axis (from 1 down to a round rank at or below the
/// lowest drawn), so that a song on a monthly chart and an hourly one is not squeezed into the
/// hours at the end of the months. A panel of several lines labels each line at its end, right
/// of the plot; a panel of one line labels its peak. Each song keeps one of 12 distinct colours
/// in every panel (dashed from the 13th), and a legend gives each line's whole label and peak
/// when a panel holds several lines.
///
/// Plain SVG 1.1 with presentation attributes only (no CSS, no script, no external reference), so
/// that image tools (librsvg's `rsvg-convert`) draw it as browsers do; on a page, the page's
/// style sheet recolours it for dark mode through its classes.
public struct RankChart: Sendable {
  /// One line: a label for the legend and its points.
  public struct Series: Sendable {
    /// The legend's words for the line (`hot-100`, or `Title — Artist (hot-100)`).
    public var label: String
    /// The points, in chart-date order; a point whose run differs from the one before starts a
    /// new stretch of line.
    public var points: [Point]
    /// The song's peak position on the chart (see ``SongHistory/peakPosition``), when it is not
    /// the best rank drawn: the source's, from before the archive's first chart date.
    public var sourcePeak: Int?
    /// The chart the line is on: the lines of one chart share a panel, in the order of their
    /// first line.
    public var chart: String
    /// The words at the line's end when its panel holds several lines (the song's title); the
    /// label when `nil`.
    public var endLabel: String?
    /// The line's colour, an index into the palette (the song's, so that a song has one colour
    /// in every panel); the line's index when `nil`.
    public var color: Int?

    /// A line of points.
    ///
    /// - Parameters:
    ///   - sourcePeak: the peak position when the archive lacks the start of the run and the
    ///     source's peak is better than any rank drawn; `nil` otherwise.
    ///   - chart: the chart of the line's panel; lines of one chart share one.
    ///   - endLabel: the short words at the line's end; `nil` for the label.
    ///   - color: the 0-based colour of the line (the 13th and later are dashed); `nil` for the
    ///     line's index.
    public init(
      label: String, points: [Point], sourcePeak: Int? = nil, chart: String = "",
      endLabel: String? = nil, color: Int? = nil
    ) {
      self.label = label
      self.points = points
      self.sourcePeak = sourcePeak
      self.chart = chart
      self.endLabel = endLabel
      self.color = color
    }

    /// The best rank drawn (the one marked), with the words for it: `peak 1`, or `best 5 (peak
    /// position 3*)` when the source's peak is better.
    var peak: (point: Point, words: String)? {
      guard let best = points.min(by: { $0.rank < $1.rank }) else { return nil }
      guard let sourcePeak, sourcePeak < best.rank else { return (best, "peak \(best.rank)") }
      return (best, "best \(best.rank) (peak position \(sourcePeak)\(partialMark))")
    }
  }

  /// One chart date of a line.
  public struct Point: Sendable, Equatable {
    /// The chart date.
    public var chartDate: ChartDate
    /// The rank on it, 1-based.
    public var rank: Int
    /// The song's run on the chart it belongs to: 1, then one more after each re-entry.
    public var run: Int

    /// A point.
    public init(chartDate: ChartDate, rank: Int, run: Int) {
      self.chartDate = chartDate
      self.rank = rank
      self.run = run
    }
  }

  /// The picture's title (its `<title>`, and the heading of a file on its own).
  public var title: String
  /// The lines, in legend order.
  public var series: [Series]

  /// A chart of lines.
  public init(title: String, series: [Series]) {
    self.title = title
    self.series = series
  }

  /// The chart of the songs `history` shows (the command line's ``HistoryView``): one line per
  /// recording and chart, in that order. With one song, a line is labelled with its chart; with
  /// several, with the song's title and artist, and the chart when the songs were on several.
  public init(_ view: HistoryView) {
    self.init(recordings: view.recordings)
  }

  /// The chart of songs' recordings (see ``init(_:)``).
  ///
  /// - Parameter recordings: the songs, each with its history per chart (see
  ///   ``ArchiveReader/recordings(of:onChart:)``).
  public init(recordings: [SongRecording]) {
    let charts = Set(recordings.flatMap { $0.histories.map(\.chart) })
    let songs = recordings.count
    var series: [Series] = []
    // Recordings of one title and artist are told apart at their lines' ends by their number.
    let oneTitle =
      songs > 1 && Set(recordings.map { "\($0.song.title)\u{1F}\($0.song.artist)" }).count == 1
    for (index, recording) in recordings.enumerated() {
      for item in recording.histories {
        let label =
          songs == 1
          ? item.chart
          : "\(recording.song.title) — \(recording.song.artist)"
            + (charts.count > 1 ? " (\(item.chart))" : "")
        let points = Self.points(item.history)
        let best = points.map(\.rank).min()
        let peak = item.history.peakPosition
        series.append(
          Series(
            label: label, points: points,
            sourcePeak: peak.flatMap { peak in best.map { peak < $0 } == true ? peak : nil },
            chart: item.chart,
            endLabel: oneTitle ? "Recording \(index + 1)" : recording.song.title,
            color: songs == 1 ? series.count : index))
      }
    }
    let first = recordings.first?.song
    title =
      songs == 1 || Set(recordings.map { "\($0.song.title)\u{1F}\($0.song.artist)" }).count == 1
      ? "\(first?.title ?? "") — \(first?.artist ?? "")"
      : "\(songs) songs"
    self.series = series
  }

  /// One point per chart date of a history: the best rank of the date (a song holds one entry a
  /// snapshot; two tied entries of one song would be one point).
  static func points(_ history: SongHistory) -> [Point] {
    var points: [Point] = []
    for placement in history.placements {
      if let last = points.last, last.chartDate == placement.chartDate {
        points[points.count - 1].rank = min(last.rank, placement.rank)
        continue
      }
      points.append(
        Point(chartDate: placement.chartDate, rank: placement.rank, run: placement.figures.run))
    }
    return points
  }

  // MARK: - Drawing

  /// How the picture is written.
  public enum Setting: Sendable {
    /// A file on its own: the XML declaration, the SVG namespace and version, a white background
    /// and a heading.
    case file
    /// Inside an HTML page: no declaration nor background, sized by the page (its width, the
    /// height following), described for screen readers by its title and a summary.
    case inline
  }

  /// The colours of the lines, in order: Okabe and Ito's palette (told apart by people with any
  /// colour vision) without its black and yellow, then six of Paul Tol's, all of them readable
  /// on white and on a dark page; the 13th line and later reuse them dashed.
  static let colors = [
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9",
    "#882255", "#999933", "#aa4499", "#44aa99", "#8c564b", "#ee3377",
  ]

  /// The picture's width and the plot's margins, in SVG user units (pixels at 100 %).
  static let width = 720.0
  static let plotHeight = 240.0
  /// The plot's height in a picture of several panels.
  static let panelPlotHeight = 150.0
  static let left = 48.0
  static let right = 20.0
  /// The right margin when lines are labelled at their ends.
  static let labelledRight = 150.0
  static let legendLine = 20.0
  /// The most characters of a legend's line (a longer label is cut, ending in `…`).
  static let legendCharacters = 92
  /// The most characters of a label at a line's end.
  static let endLabelCharacters = 20

  /// The SVG text: the heading, then each chart's panel (its grid and axes, each line with its
  /// points and its peak, the labels at the lines' ends), and the legend when a panel has
  /// several lines.
  public func svg(_ setting: Setting) -> String {
    let layout = Layout(series: series, setting: setting)
    var svg = ""
    svg.reserveCapacity(2_000 + series.reduce(0) { $0 + $1.points.count } * 90)
    appendHeading(setting, layout: layout, to: &svg)
    for panel in layout.panels {
      if layout.panels.count > 1 {
        svg += "<text class=\"lt\" x=\"\(number(Self.left))\" y=\"\(number(panel.top - 40))\""
        svg += " fill=\"#1f2328\" font-weight=\"bold\">"
        Markup.append(panel.chart, to: &svg)
        svg += "</text>\n"
      }
      appendGridAndAxes(panel, to: &svg)
      for index in panel.lines {
        appendLine(at: index, panel: panel, to: &svg)
      }
      if panel.lines.count > 1 { appendEndLabels(panel, to: &svg) }
    }
    if layout.legendRows > 0 { appendLegend(layout, to: &svg) }
    svg += "</svg>\n"
    return svg
  }

  /// The colour of a line (see ``colors``) and whether it is dashed.
  private func color(of index: Int) -> (color: String, dashed: Bool) {
    let color = series[index].color ?? index
    return (Self.colors[color % Self.colors.count], color >= Self.colors.count)
  }

  /// Where the picture puts its panels, its legend and its height, in SVG user units.
  private struct Layout {
    /// The panels, top first.
    let panels: [Panel]
    /// The legend's lines: one per series when a panel has several, else none.
    let legendRows: Int
    /// The legend's first line's baseline.
    let legendTop: Double
    /// The picture's height.
    let height: Double

    init(series: [Series], setting: Setting) {
      var charts: [String] = []
      var lines: [String: [Int]] = [:]
      for (index, line) in series.enumerated() {
        if lines[line.chart] == nil { charts.append(line.chart) }
        lines[line.chart, default: []].append(index)
      }
      let labelled = lines.values.contains { $0.count > 1 }
      let right = labelled ? RankChart.labelledRight : RankChart.right
      let plotHeight = charts.count > 1 ? RankChart.panelPlotHeight : RankChart.plotHeight
      // One panel sits under the file's heading; several each have a heading of their own, and
      // room above the plot for a peak's label.
      var cursor = (setting == .file ? 30.0 : 0.0) + (charts.count > 1 ? 12 : 0)
      var panels: [Panel] = []
      for chart in charts.isEmpty ? [""] : charts {
        let indices = lines[chart] ?? []
        let points = indices.flatMap { series[$0].points }
        let top = cursor + (charts.count > 1 ? 64 : 28)
        panels.append(
          Panel(
            chart: chart, lines: indices, top: top, bottom: top + plotHeight,
            width: RankChart.width - RankChart.left - right, points: points))
        cursor = top + plotHeight + 34
      }
      self.panels = panels
      // A legend when a panel has several lines, or when the panels' headings (the charts) do
      // not say whose each line is.
      legendRows =
        series.count > 1 && (labelled || series.contains { $0.label != $0.chart })
        ? series.count : 0
      legendTop = cursor + 6
      height = cursor + Double(legendRows) * RankChart.legendLine + 6
    }
  }

  /// One chart's plot: its box, and the chart dates and ranks of its lines as coordinates in it.
  private struct Panel {
    /// The chart, and the indices of its lines in ``series``.
    let chart: String
    let lines: [Int]
    /// The plot's top, bottom and width (from ``left``).
    let top: Double
    let bottom: Double
    let width: Double
    /// The first and last chart dates drawn, in seconds since 1970.
    let start: Int64
    let end: Int64
    /// The rank axis.
    let scale: RankScale

    init(chart: String, lines: [Int], top: Double, bottom: Double, width: Double, points: [Point]) {
      self.chart = chart
      self.lines = lines
      self.top = top
      self.bottom = bottom
      self.width = width
      let times = points.map(\.chartDate.secondsSince1970)
      start = times.min() ?? 0
      end = times.max() ?? 0
      scale = RankScale(largest: points.map(\.rank).max() ?? 1)
    }

    /// The x of a moment: its place between the first and last chart dates (the middle when
    /// they are one).
    func x(_ seconds: Int64) -> Double {
      end == start
        ? RankChart.left + width / 2
        : RankChart.left + Double(seconds - start) / Double(end - start) * width
    }

    /// The y of a rank: rank 1 at the top, the scale's bottom rank at the bottom.
    func y(_ rank: Int) -> Double {
      top + Double(rank - 1) / Double(scale.bottom - 1) * (bottom - top)
    }
  }

  /// The opening `<svg>` with the picture's title and summary: for a file, with the XML
  /// declaration, a white background and the title as a heading; inline, for screen readers.
  private func appendHeading(_ setting: Setting, layout: Layout, to svg: inout String) {
    let size = "viewBox=\"0 0 \(number(Self.width)) \(number(layout.height))\""
    switch setting {
    case .file:
      svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      svg +=
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(number(Self.width))\""
        + " height=\"\(number(layout.height))\" \(size) font-family=\"DejaVu Sans, Verdana,"
        + " sans-serif\" font-size=\"12\">\n"
      svg += "<title>"
      Markup.append(title, to: &svg)
      svg += "</title>\n<desc>"
      Markup.append(summary, to: &svg)
      svg += "</desc>\n"
      svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      svg += "<text x=\"\(number(Self.left))\" y=\"26\" font-size=\"16\" font-weight=\"bold\""
      svg += " fill=\"#1f2328\">"
      Markup.append(title, to: &svg)
      svg += "</text>\n"
    case .inline:
      svg +=
        "<svg class=\"rc\" xmlns=\"http://www.w3.org/2000/svg\" \(size) role=\"img\""
        + " aria-labelledby=\"rc-t rc-d\" font-size=\"12\">\n<title id=\"rc-t\">"
      Markup.append(title, to: &svg)
      svg += "</title>\n<desc id=\"rc-d\">"
      Markup.append(summary, to: &svg)
      svg += "</desc>\n"
    }
  }

  /// A panel's grid (a line across at each rank tick, a line down at each date tick) and its
  /// axes' labels: the ranks, `Rank`, the dates (at most one per 160 units of width, so that
  /// they do not overlap on a phone).
  private func appendGridAndAxes(_ panel: Panel, to svg: inout String) {
    svg += "<g class=\"grid\" stroke=\"#d1d9e0\" stroke-width=\"1\">\n"
    for rank in panel.scale.ticks {
      svg += "<line x1=\"\(number(Self.left))\" x2=\"\(number(Self.left + panel.width))\""
      svg += " y1=\"\(number(panel.y(rank)))\" y2=\"\(number(panel.y(rank)))\"/>\n"
    }
    let dateTicks = TimeTicks(
      start: panel.start, end: panel.end, limit: max(2, Int(panel.width / 160)))
    for tick in dateTicks.ticks {
      svg += "<line x1=\"\(number(panel.x(tick.seconds)))\" x2=\"\(number(panel.x(tick.seconds)))\""
      svg += " y1=\"\(number(panel.top))\" y2=\"\(number(panel.bottom))\"/>\n"
    }
    svg += "</g>\n<g class=\"axis\" fill=\"#59636e\">\n"
    for rank in panel.scale.ticks {
      svg += "<text x=\"\(number(Self.left - 8))\" y=\"\(number(panel.y(rank) + 4))\""
      svg += " text-anchor=\"end\">\(rank)</text>\n"
    }
    let middle = number((panel.top + panel.bottom) / 2)
    svg += "<text x=\"12\" y=\"\(middle)\" text-anchor=\"middle\""
    svg += " transform=\"rotate(-90 12 \(middle))\">Rank</text>\n"
    for tick in dateTicks.ticks {
      let tickX = panel.x(tick.seconds)
      svg += "<text x=\"\(number(tickX))\" y=\"\(number(panel.bottom + 20))\""
      svg += " text-anchor=\"\(anchor(tickX, plotWidth: panel.width))\">\(tick.label)</text>\n"
    }
    svg += "</g>\n"
  }

  /// One line: its path (broken where the run changes), a point with a tooltip at each chart
  /// date, and its peak circled (labelled when it is its panel's only line; the legend gives
  /// each peak otherwise).
  private func appendLine(at index: Int, panel: Panel, to svg: inout String) {
    let line = series[index]
    let (color, dashed) = color(of: index)
    let colorIndex = (line.color ?? index) % Self.colors.count
    svg += "<g class=\"s s\(colorIndex)\" stroke=\"\(color)\" fill=\"\(color)\">\n"
    var path = ""
    var previous: Point?
    for point in line.points {
      path += (previous.map { $0.run == point.run } ?? false) ? "L" : "M"
      path += "\(number(panel.x(point.chartDate.secondsSince1970))),\(number(panel.y(point.rank)))"
      previous = point
    }
    svg += "<path d=\"\(path)\" fill=\"none\" stroke-width=\"2\" stroke-linejoin=\"round\""
    svg += dashed ? " stroke-dasharray=\"6 3\"/>\n" : "/>\n"
    /// A point's tooltip: its words, after the line's label when there are several lines.
    func tooltip(_ words: String) {
      svg += "<title>"
      if series.count > 1 {
        Markup.append(line.label, to: &svg)
        svg += ": "
      }
      svg += words + "</title></circle>\n"
    }
    for point in line.points {
      svg += "<circle cx=\"\(number(panel.x(point.chartDate.secondsSince1970)))\""
      svg += " cy=\"\(number(panel.y(point.rank)))\" r=\"3\">"
      tooltip("\(point.chartDate): rank \(point.rank)")
    }
    if let (peak, words) = line.peak {
      let peakX = panel.x(peak.chartDate.secondsSince1970)
      let peakY = panel.y(peak.rank)
      svg += "<circle class=\"pk\" cx=\"\(number(peakX))\" cy=\"\(number(peakY))\" r=\"7\""
      svg += " fill=\"none\" stroke-width=\"2\">"
      tooltip("\(words) on \(peak.chartDate)")
      // With several lines in the panel, the legend gives each peak: labels would overlap.
      if panel.lines.count == 1 {
        svg += "<text x=\"\(number(peakX))\" y=\"\(number(peakY - 11))\""
        svg += " text-anchor=\"\(anchor(peakX, plotWidth: panel.width))\" class=\"pl\""
        svg += " fill=\"#1f2328\" stroke=\"none\" font-weight=\"bold\">\(words)</text>\n"
      }
    }
    svg += "</g>\n"
  }

  /// The labels at the ends of a panel's lines, right of the plot, each at the height of its
  /// line's last point in the line's colour, moved apart where they would overlap (see
  /// ``spread(_:gap:top:bottom:)``).
  private func appendEndLabels(_ panel: Panel, to svg: inout String) {
    let ends = panel.lines.compactMap { index in
      series[index].points.last.map { (index, panel.y($0.rank)) }
    }.sorted { $0.1 < $1.1 }
    let places = Self.spread(ends.map(\.1), gap: 13, top: panel.top, bottom: panel.bottom + 4)
    svg += "<g class=\"ends\" font-size=\"11\">\n"
    for ((index, _), place) in zip(ends, places) {
      let line = series[index]
      let words = line.endLabel ?? line.label
      svg += "<text class=\"el\" x=\"\(number(Self.left + panel.width + 8))\""
      svg += " y=\"\(number(place + 4))\" fill=\"\(color(of: index).color)\">"
      Markup.append(
        words.count > Self.endLabelCharacters
          ? words.prefix(Self.endLabelCharacters - 1) + "…" : words, to: &svg)
      svg += "</text>\n"
    }
    svg += "</g>\n"
  }

  /// Places for labels wanted at heights `wanted` (in order, top first): each at least `gap`
  /// below the one before, then, where the last would pass `bottom`, moved up again, none above
  /// `top` unless there are too many to fit.
  static func spread(_ wanted: [Double], gap: Double, top: Double, bottom: Double) -> [Double] {
    var places = wanted
    for index in places.indices {
      places[index] = max(places[index], top, index == 0 ? top : places[index - 1] + gap)
    }
    for index in places.indices.reversed() {
      let limit = index == places.count - 1 ? bottom : places[index + 1] - gap
      places[index] = min(places[index], limit)
    }
    return places
  }

  /// The legend, one line per series: its colour (dashed as the line is), its label (cut to
  /// ``legendCharacters``) and its peak.
  private func appendLegend(_ layout: Layout, to svg: inout String) {
    svg += "<g class=\"legend\">\n"
    for (index, line) in series.enumerated() {
      let (color, dashed) = color(of: index)
      let rowY = layout.legendTop + Double(index) * Self.legendLine
      svg += "<line x1=\"\(number(Self.left))\" x2=\"\(number(Self.left + 24))\""
      svg += " y1=\"\(number(rowY - 4))\" y2=\"\(number(rowY - 4))\" stroke=\"\(color)\""
      svg += " stroke-width=\"3\"\(dashed ? " stroke-dasharray=\"6 3\"" : "")/>"
      svg += "<text class=\"lt\" x=\"\(number(Self.left + 32))\" y=\"\(number(rowY))\""
      svg += " fill=\"#1f2328\">"
      let peak = line.peak.map { " · \($0.words)" } ?? ""
      let room = Self.legendCharacters - peak.count
      Markup.append(
        line.label.count > room ? line.label.prefix(room - 1) + "…" : line.label, to: &svg)
      svg += peak + "</text>\n"
    }
    svg += "</g>\n"
  }

  /// How a label at `x` is anchored: at its start near the left edge, its end near the right,
  /// else its middle, so that no label runs off the picture.
  private func anchor(_ x: Double, plotWidth: Double) -> String {
    x < Self.left + 36 ? "start" : x > Self.left + plotWidth - 36 ? "end" : "middle"
  }

  /// The words a screen reader gives for the picture: each line's chart dates, span and peak.
  var summary: String {
    series.map { line in
      guard let first = line.points.first, let last = line.points.last, let peak = line.peak
      else { return "\(line.label): no chart dates" }
      let dates = line.points.count == 1 ? "1 chart date" : "\(line.points.count) chart dates"
      return "\(line.label): \(dates) from \(first.chartDate) to \(last.chartDate),"
        + " \(peak.words) on \(peak.point.chartDate)"
    }.joined(separator: "; ")
  }

  /// A coordinate with at most one decimal, as short as it can be written.
  private func number(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(abs(tenths % 10))"
  }
}
