public import ChartRanking
public import ChartStorage

/// A song's rank history drawn as a line chart, in SVG 1.1
/// (<https://www.w3.org/TR/SVG11/>): rank 1 at the top, chart dates along the bottom in time
/// order, one point per chart date with a tooltip (`<title>`) giving the date and the rank, the
/// line broken where the song was off the chart (a re-entry starts a new run, see ``Placement``),
/// the peak position marked, and one line per chart (and per song, when several are drawn) with
/// a legend when there is more than one.
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

    /// A line of points.
    ///
    /// - Parameter sourcePeak: the peak position when the archive lacks the start of the run and
    ///   the source's peak is better than any rank drawn; `nil` otherwise.
    public init(label: String, points: [Point], sourcePeak: Int? = nil) {
      self.label = label
      self.points = points
      self.sourcePeak = sourcePeak
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
    for recording in recordings {
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
            sourcePeak: peak.flatMap { peak in best.map { peak < $0 } == true ? peak : nil }))
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
    /// Inside an HTML page: no declaration nor background, sized by the page, described for
    /// screen readers by its title and a summary.
    case inline
  }

  /// The colours of the lines, in order (Okabe and Ito's palette, told apart by people with any
  /// colour vision), then dashed for the next ones.
  static let colors = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9"]

  /// The picture's width and the plot's margins, in SVG user units (pixels at 100 %).
  static let width = 720.0
  static let plotHeight = 240.0
  static let left = 48.0
  static let right = 20.0
  static let legendLine = 20.0
  /// The most characters of a legend's line (a longer label is cut, ending in `…`).
  static let legendCharacters = 92

  /// The SVG text: the heading, the grid and axes, each line with its points and its peak, and
  /// the legend when there are several lines.
  public func svg(_ setting: Setting) -> String {
    let plot = Plot(series: series, setting: setting)
    var svg = ""
    svg.reserveCapacity(2_000 + plot.pointCount * 90)
    appendHeading(setting, plot: plot, to: &svg)
    appendGridAndAxes(plot, to: &svg)
    for index in series.indices {
      appendLine(at: index, plot: plot, to: &svg)
    }
    if plot.legendRows > 0 { appendLegend(plot, to: &svg) }
    svg += "</svg>\n"
    return svg
  }

  /// Where the picture puts things: the plot's box, the chart dates and ranks as coordinates in
  /// it, and the picture's height with the legend, in SVG user units.
  private struct Plot {
    /// The plot's top and bottom.
    let top: Double
    let bottom: Double
    /// The plot's width, between the margins.
    let width = RankChart.width - RankChart.left - RankChart.right
    /// The picture's height.
    let height: Double
    /// The legend's lines: one per series when there are several, else none.
    let legendRows: Int
    /// The first and last chart dates drawn, in seconds since 1970.
    let start: Int64
    let end: Int64
    /// The rank axis.
    let scale: RankScale
    /// How many points are drawn.
    let pointCount: Int

    init(series: [Series], setting: Setting) {
      top = setting == .file ? 58.0 : 28.0
      bottom = top + RankChart.plotHeight
      legendRows = series.count > 1 ? series.count : 0
      height = bottom + 34 + Double(legendRows) * RankChart.legendLine + 6
      let all = series.flatMap(\.points)
      let times = all.map(\.chartDate.secondsSince1970)
      start = times.min() ?? 0
      end = times.max() ?? 0
      scale = RankScale(largest: all.map(\.rank).max() ?? 1)
      pointCount = all.count
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
      top + Double(rank - 1) / Double(scale.bottom - 1) * RankChart.plotHeight
    }
  }

  /// The opening `<svg>` with the picture's title and summary: for a file, with the XML
  /// declaration, a white background and the title as a heading; inline, for screen readers.
  private func appendHeading(_ setting: Setting, plot: Plot, to svg: inout String) {
    let size = "viewBox=\"0 0 \(number(Self.width)) \(number(plot.height))\""
    switch setting {
    case .file:
      svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      svg +=
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(number(Self.width))\""
        + " height=\"\(number(plot.height))\" \(size) font-family=\"DejaVu Sans, Verdana,"
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

  /// The grid (a line across at each rank tick, a line down at each date tick) and the axes'
  /// labels: the ranks, `Rank`, the dates.
  private func appendGridAndAxes(_ plot: Plot, to svg: inout String) {
    svg += "<g class=\"grid\" stroke=\"#d1d9e0\" stroke-width=\"1\">\n"
    for rank in plot.scale.ticks {
      svg += "<line x1=\"\(number(Self.left))\" x2=\"\(number(Self.left + plot.width))\""
      svg += " y1=\"\(number(plot.y(rank)))\" y2=\"\(number(plot.y(rank)))\"/>\n"
    }
    let dateTicks = TimeTicks(start: plot.start, end: plot.end)
    for tick in dateTicks.ticks {
      svg += "<line x1=\"\(number(plot.x(tick.seconds)))\" x2=\"\(number(plot.x(tick.seconds)))\""
      svg += " y1=\"\(number(plot.top))\" y2=\"\(number(plot.bottom))\"/>\n"
    }
    svg += "</g>\n<g class=\"axis\" fill=\"#59636e\">\n"
    for rank in plot.scale.ticks {
      svg += "<text x=\"\(number(Self.left - 8))\" y=\"\(number(plot.y(rank) + 4))\""
      svg += " text-anchor=\"end\">\(rank)</text>\n"
    }
    let middle = number(plot.top + Self.plotHeight / 2)
    svg += "<text x=\"12\" y=\"\(middle)\" text-anchor=\"middle\""
    svg += " transform=\"rotate(-90 12 \(middle))\">Rank</text>\n"
    for tick in dateTicks.ticks {
      let tickX = plot.x(tick.seconds)
      svg += "<text x=\"\(number(tickX))\" y=\"\(number(plot.bottom + 20))\""
      svg += " text-anchor=\"\(anchor(tickX, plotWidth: plot.width))\">\(tick.label)</text>\n"
    }
    svg += "</g>\n"
  }

  /// One line: its path (broken where the run changes), a point with a tooltip at each chart
  /// date, and its peak circled (labelled when it is the only line; the legend gives each peak
  /// otherwise).
  private func appendLine(at index: Int, plot: Plot, to svg: inout String) {
    let line = series[index]
    let color = Self.colors[index % Self.colors.count]
    let dashed = index >= Self.colors.count
    svg += "<g class=\"s s\(index % Self.colors.count)\" stroke=\"\(color)\" fill=\"\(color)\">\n"
    var path = ""
    var previous: Point?
    for point in line.points {
      path += (previous.map { $0.run == point.run } ?? false) ? "L" : "M"
      path += "\(number(plot.x(point.chartDate.secondsSince1970))),\(number(plot.y(point.rank)))"
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
      svg += "<circle cx=\"\(number(plot.x(point.chartDate.secondsSince1970)))\""
      svg += " cy=\"\(number(plot.y(point.rank)))\" r=\"3\">"
      tooltip("\(point.chartDate): rank \(point.rank)")
    }
    if let (peak, words) = line.peak {
      let peakX = plot.x(peak.chartDate.secondsSince1970)
      let peakY = plot.y(peak.rank)
      svg += "<circle class=\"pk\" cx=\"\(number(peakX))\" cy=\"\(number(peakY))\" r=\"7\""
      svg += " fill=\"none\" stroke-width=\"2\">"
      tooltip("\(words) on \(peak.chartDate)")
      // With several lines, the legend gives each peak: labels would overlap.
      if series.count == 1 {
        svg += "<text x=\"\(number(peakX))\" y=\"\(number(peakY - 11))\""
        svg += " text-anchor=\"\(anchor(peakX, plotWidth: plot.width))\" class=\"pl\""
        svg += " fill=\"#1f2328\" stroke=\"none\" font-weight=\"bold\">\(words)</text>\n"
      }
    }
    svg += "</g>\n"
  }

  /// The legend, one line per series: its colour (dashed as the line is), its label (cut to
  /// ``legendCharacters``) and its peak.
  private func appendLegend(_ plot: Plot, to svg: inout String) {
    svg += "<g class=\"legend\">\n"
    for (index, line) in series.enumerated() {
      let color = Self.colors[index % Self.colors.count]
      let rowY = plot.bottom + 40 + Double(index) * Self.legendLine
      svg += "<line x1=\"\(number(Self.left))\" x2=\"\(number(Self.left + 24))\""
      svg += " y1=\"\(number(rowY - 4))\" y2=\"\(number(rowY - 4))\" stroke=\"\(color)\""
      svg +=
        " stroke-width=\"3\"\(index >= Self.colors.count ? " stroke-dasharray=\"6 3\"" : "")/>"
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
