import ChartRanking

/// `/artists/ID`: an artist's songs' runs as a picture, each chart's totals, and a table of the
/// songs credited to them (`artist --id ID`), each linking to its page.
public struct ArtistPage: HTMLPage {
  /// The artist and their careers.
  public var view: ArtistView

  /// The page of an artist.
  public init(_ view: ArtistView) { self.view = view }

  public var title: String { view.artist.name }

  public func main(_ setting: PageSetting) -> String {
    var output = "<h1>"
    Markup.appendIsolated(view.artist.name, to: &output)
    output += "</h1>\n"
    guard !view.careers.isEmpty else { return output + "<p>No song on the charts.</p>\n" }
    output += "<figure class=\"picture\">" + ArtistPicture(view).svg(.inline)
    output += "<figcaption class=\"notes\">Each song's runs on the chart, by debut: a strip from"
    output += " its first to its last chart date of each run.</figcaption></figure>\n"
    for career in view.careers {
      let periods = Periods(career.frequency)
      let capitalized = periods.plural.prefix(1).uppercased() + periods.plural.dropFirst()
      output += PagePieces.heading(career.chart)
      output += "<p>" + Markup.escaped(ArtistView.totals(career)) + ".</p>\n"
      output += PagePieces.table(
        caption: "\(career.chart): every song credited to \(view.artist.name)",
        [
          ("Song", false), ("Debut", false), ("Peak", true), ("At peak", true),
          (capitalized, true), ("Runs", true),
        ],
        career.songs.map { song in
          var title = PagePieces.link(
            PagePath.song(song.song), song.title, setting, isolated: true)
          if song.credit != view.artist.name || song.role == .featured {
            title += "<br><small>"
            Markup.appendIsolated(song.credit, to: &title)
            title += "</small>"
          }
          return [
            title,
            PagePieces.link(
              PagePath.chart(career.chart, song.debutDate), song.debutDate.iso8601, setting)
              + " at \(song.debutRank)",
            "\(song.peakPosition)", "\(song.weeksAtPeak)", "\(song.weeksOnChart)", "\(song.runs)",
          ]
        })
    }
    return output
  }
}

/// `/search?q=`'s artists: those whose names a search finds, each linking to their page.
enum ArtistLinks {
  /// A paragraph of links to artists' pages, or nothing for none.
  static func paragraph(_ artists: [ArtistSummary], _ setting: PageSetting, lead: String)
    -> String
  {
    guard !artists.isEmpty else { return "" }
    return "<p>" + Markup.escaped(lead) + " "
      + artists.map {
        PagePieces.link(PagePath.artist($0.id), $0.name, setting, isolated: true)
      }.joined(separator: ", ") + "</p>\n"
  }
}
