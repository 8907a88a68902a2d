import ChartRanking
import Foundation

/// An artist's songs' runs on one time axis, in SVG 1.1 (<https://www.w3.org/TR/SVG11/>): a song
/// per row, by debut, its label (title and peak) above a strip for each run from its first to
/// its last chart date, each song its own colour; the years along the top, with a line at each;
/// a chart's rows under its name when the artist's songs were on several. Each strip has a
/// tooltip (`<title>`) with the run's dates and best rank.
///
/// Rows rather than lines, so that 100 songs stay legible: nothing overlaps, however many runs
/// share a year. Plain SVG 1.1 with presentation attributes only, as ``RankChart`` is.
public struct ArtistPicture: Sendable {
  /// The artist and their careers.
  public var view: ArtistView

  /// The picture of an artist's careers.
  public init(_ view: ArtistView) { self.view = view }

  /// The picture's width, margins and row height, in SVG user units (pixels at 100 %): a file is
  /// 720 wide; on a page, 380, so that a phone 390 pixels wide shows its words at their size.
  static let fileWidth = 720.0
  static let pageWidth = 380.0
  static let margin = 12.0
  static let rowHeight = 28.0
  static let stripHeight = 9.0
  /// The most characters of a song's label in a file (a longer one is cut, ending in `…`); fewer
  /// in proportion on a page.
  static let labelCharacters = 70

  /// A song's colour: hues a golden angle apart, so that neighbouring rows differ, dark enough to
  /// read as text on white (`#rrggbb`).
  static func color(_ index: Int) -> String {
    let hue = (Double(index) * 137.508).truncatingRemainder(dividingBy: 360) / 360
    let (saturation, lightness) = (0.75, index % 2 == 0 ? 0.38 : 0.30)
    func channel(_ offset: Double) -> Int {
      let k = (offset + hue * 12).truncatingRemainder(dividingBy: 12)
      let a = saturation * min(lightness, 1 - lightness)
      return Int((lightness - a * max(-1, min(k - 3, 9 - k, 1))) * 255 + 0.5)
    }
    return String(format: "#%02x%02x%02x", channel(0), channel(8), channel(4))
  }

  /// The SVG text.
  public func svg(_ setting: RankChart.Setting) -> String {
    let width = setting == .file ? Self.fileWidth : Self.pageWidth
    let careers = view.careers.filter { !$0.songs.isEmpty }
    let rows = careers.reduce(0) { $0 + $1.songs.count } + (careers.count > 1 ? careers.count : 0)
    let top = (setting == .file ? 52.0 : 8.0) + 22
    let height = top + Double(rows) * Self.rowHeight + Self.margin
    let dates = careers.flatMap { $0.songs.flatMap { $0.spans.flatMap { [$0.from, $0.to] } } }
    let axis = TimeAxis(
      start: dates.min()?.secondsSince1970 ?? 0, end: dates.max()?.secondsSince1970 ?? 0,
      left: Self.margin, right: width - Self.margin)
    var svg = ""
    svg.reserveCapacity(2_000 + rows * 400)
    let name = Markup.escaped(view.artist.name)
    let summary = careers.map { "\($0.chart): \(ArtistView.totals($0))" }.joined(separator: "; ")
    if setting == .file {
      svg += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      svg +=
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(Int(width))\""
        + " height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\""
        + " font-family=\"sans-serif\">\n"
      svg += "<title>\(name)</title>\n<desc>" + Markup.escaped(summary) + "</desc>\n"
      svg += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      svg +=
        "<text x=\"\(Self.margin)\" y=\"24\" font-size=\"16\" font-weight=\"bold\">\(name)</text>\n"
      svg +=
        "<text x=\"\(Self.margin)\" y=\"42\" font-size=\"11\" fill=\"#444444\">"
        + Markup.escaped(summary) + "</text>\n"
    } else {
      svg +=
        "<svg class=\"artist-runs\" viewBox=\"0 0 \(Int(width)) \(Int(height))\""
        + " width=\"100%\" role=\"img\" aria-labelledby=\"artist-runs-title\""
        + " font-family=\"sans-serif\">\n"
      svg +=
        "<title id=\"artist-runs-title\">\(name): each song's runs on the chart, by debut ("
        + Markup.escaped(summary) + ")</title>\n"
    }
    axis.appendYears(top: top - 8, bottom: height - Self.margin / 2, to: &svg)
    var y = top
    var index = 0
    for career in careers {
      if careers.count > 1 {
        svg +=
          "<text x=\"\(Self.margin)\" y=\"\(y + 16)\" font-size=\"12\" font-weight=\"bold\">"
          + Markup.escaped(career.chart) + "</text>\n"
        y += Self.rowHeight
      }
      for song in career.songs {
        appendRow(song, color: Self.color(index), axis: axis, y: y, width: width, to: &svg)
        y += Self.rowHeight
        index += 1
      }
    }
    svg += "</svg>\n"
    return svg
  }

  /// One song's row: its label, then a strip per run.
  private func appendRow(
    _ song: ArtistSong, color: String, axis: TimeAxis, y: Double, width: Double,
    to svg: inout String
  ) {
    var label = song.title
    let most = Int(Double(Self.labelCharacters) * width / Self.fileWidth)
    if label.count > most { label = String(label.prefix(most - 1)) + "…" }
    label += song.role == .featured ? " (featured)" : ""
    let words = " · peak \(song.peakPosition)"
    // About 6 units a character at 11 units: the label starts at its first run, or earlier so
    // that it ends inside the picture.
    let textWidth = Double(label.count + words.count) * 6.0
    let start = axis.x(song.spans.first?.from.secondsSince1970 ?? 0)
    let x = max(Self.margin, min(start, width - Self.margin - textWidth))
    svg +=
      "<g fill=\"\(color)\"><text x=\"\(Self.format(x))\" y=\"\(Self.format(y + 11))\""
      + " font-size=\"11\">" + Markup.escaped(label)
      + "<tspan fill=\"#555555\">\(words)</tspan></text>\n"
    for span in song.spans {
      let from = axis.x(span.from.secondsSince1970)
      // A run of one chart date is a short strip still.
      let length = max(3, axis.x(span.to.secondsSince1970) - from)
      svg +=
        "<rect x=\"\(Self.format(from))\" y=\"\(Self.format(y + 15))\" width=\"\(Self.format(length))\""
        + " height=\"\(Self.stripHeight)\" rx=\"2\"><title>" + Markup.escaped(song.title) + ": "
        + span.from.iso8601 + " to " + span.to.iso8601 + ", best rank \(span.bestRank)"
        + "</title></rect>\n"
    }
    svg += "</g>\n"
  }

  /// A coordinate with at most one decimal.
  static func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  /// The time axis: seconds since 1970 to x, and the years marked along it.
  struct TimeAxis {
    let start: Int64
    let end: Int64
    let left: Double
    let right: Double

    func x(_ seconds: Int64) -> Double {
      guard end > start else { return left }
      return left + (right - left) * Double(seconds - start) / Double(end - start)
    }

    /// A line and a label at each year's start (every 2, 5 or 10 years on a long axis, so that
    /// the labels do not crowd).
    func appendYears(top: Double, bottom: Double, to svg: inout String) {
      let calendar = Calendar(identifier: .gregorian)
      var utc = calendar
      utc.timeZone = TimeZone(identifier: "UTC")!
      let first = utc.component(.year, from: Date(timeIntervalSince1970: Double(start)))
      let last = utc.component(.year, from: Date(timeIntervalSince1970: Double(end)))
      let span = last - first
      let step = span <= 8 ? 1 : span <= 16 ? 2 : span <= 40 ? 5 : 10
      var year = span == 0 ? first : (first / step + 1) * step
      while year <= last {
        let date = utc.date(from: DateComponents(year: year, month: 1, day: 1))!
        let seconds = Int64(date.timeIntervalSince1970)
        let at = seconds < start ? left : x(seconds)
        svg +=
          "<line x1=\"\(ArtistPicture.format(at))\" y1=\"\(ArtistPicture.format(top + 4))\""
          + " x2=\"\(ArtistPicture.format(at))\" y2=\"\(ArtistPicture.format(bottom))\""
          + " stroke=\"#dddddd\" stroke-width=\"1\"/>\n"
        // A label near an edge is anchored there, so that it is not cut.
        let anchor = at < left + 14 ? "start" : at > right - 14 ? "end" : "middle"
        svg +=
          "<text x=\"\(ArtistPicture.format(at))\" y=\"\(ArtistPicture.format(top))\""
          + " font-size=\"10\" fill=\"#555555\" text-anchor=\"\(anchor)\">\(year)</text>\n"
        year += step
      }
    }
  }
}
