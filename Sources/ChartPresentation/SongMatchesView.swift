import ChartRanking
public import ChartStorage

/// The songs a search matched, when it did not pick out one: song ID (for `history --song`),
/// title, artist, recording number, first chart date, best rank and number of entries.
public struct SongMatchesView: Presentation {
  /// The songs, best matches first.
  public var songs: [SongSummary]

  /// The most songs listed in a table for people; JSON and CSV list them all.
  public static let tableLimit = 50

  /// The view of a search's matches.
  public init(_ songs: [SongSummary]) { self.songs = songs }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    let shown = format == .table ? Array(songs.prefix(Self.tableLimit)) : songs
    var document = Document(
      "matches",
      Table(
        columns: [
          Column(key: "song_id", heading: "SONG", alignRight: true),
          Column(key: "title", heading: "TITLE"),
          Column(key: "artist", heading: "ARTIST"),
          Column(key: "recording", heading: "REC", alignRight: true),
          Column(key: "first_chart_date", heading: "FIRST"),
          Column(key: "best_rank", heading: "BEST", alignRight: true),
          Column(key: "entries", heading: "ENTRIES", alignRight: true),
        ],
        rows: shown.map {
          [
            .int(Int($0.id.rawValue)), .text($0.title), .text($0.artist), .int($0.recording),
            .text($0.firstChartDate.iso8601), .int($0.bestRank), .int($0.entryCount),
          ]
        }))
    if shown.count < songs.count { document.footer = ["… and \(songs.count - shown.count) more"] }
    return document.rendered(as: format, style: style)
  }
}
