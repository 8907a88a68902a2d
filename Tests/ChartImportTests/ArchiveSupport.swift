import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

/// The repository's `Sample-data` folder: the charts the README imports.
let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sample-data")
  .path

/// A new archive, `a.sqlite` in a folder of its own that goes with the folder.
func archiveInFolder() throws -> (folder: TemporaryFolder, archive: Archive) {
  let folder = try TemporaryFolder()
  let archive = try Archive(
    path: folder.url.appendingPathComponent("a.sqlite").path, access: .create)
  return (folder, archive)
}

/// Imports chart files given as (name, text), in that order, as an upload of them is imported:
/// each name's folder and file name give the chart's name and date as a path's do.
func importFiles(
  _ files: [(name: String, text: String)], into archive: Archive, options: ImportOptions = .init()
) throws -> ImportReport {
  try Importer.run(
    files.map { .bytes(Data($0.text.utf8), name: $0.name) }, into: archive, options: options)
}

/// A weekly chart file in the billboard format, entries (title, artist, last week, peak, weeks)
/// ranked 1, 2, 3 … in order, `null` where a figure is not given.
func billboardWeek(_ date: String, _ entries: [(String, String, Int?, Int?, Int?)]) -> String {
  let lines = entries.enumerated().map { index, entry in
    func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    return #"{"song":"\#(entry.0)","artist":"\#(entry.1)","this_week":\#(index + 1),"#
      + #""last_week":\#(number(entry.2)),"peak_position":\#(number(entry.3)),"#
      + #""weeks_on_chart":\#(number(entry.4))}"#
  }
  return #"{"date":"\#(date)","data":[\#(lines.joined(separator: ","))]}"#
}

/// A ChartArchive snapshot of one chart: entries (title, artist, song URL, weeks on chart)
/// ranked 1, 2, 3 … in order.
func nativeSnapshot(
  _ chart: String, _ date: String, _ entries: [(String, String, String?, Int?)],
  frequency: String = "daily"
) -> String {
  let lines = entries.enumerated().map { index, entry in
    var fields = [
      #""rank": \#(index + 1)"#, #""title": "\#(entry.0)""#, #""artist": "\#(entry.1)""#,
    ]
    if let url = entry.2 { fields.append(#""song_url": "\#(url)""#) }
    if let weeks = entry.3 { fields.append(#""weeks_on_chart": \#(weeks)"#) }
    return "{" + fields.joined(separator: ", ") + "}"
  }
  return #"{"chart": "\#(chart)", "chart_date": "\#(date)", "frequency": "\#(frequency)", "#
    + #""entries": [\#(lines.joined(separator: ", "))]}"#
}

/// Each note of an import in the words every front end gives it (the command line after
/// `warning: `).
func noted(_ report: ImportReport) -> [String] { report.notes.map(ImportWords.describe) }

/// A Last.fm weekly track chart of (title, artist) from `from` (seconds since 1970) to seven days
/// later, the tracks ranked 1, 2, 3 … in order with 30, 29, 28 … plays, each track's Last.fm URL
/// spelled from its names as Last.fm spells them; no tracks for a week without plays.
func lastFMWeek(from: Int, _ tracks: [(String, String)]) -> String {
  func spelled(_ name: String) -> String {
    name.addingPercentEncoding(
      withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-")))!
      .replacingOccurrences(of: "%20", with: "+")
  }
  let lines = tracks.enumerated().map { index, track in
    ##"{"artist":{"mbid":"","#text":"\##(track.1)"},"@attr":{"rank":"\##(index + 1)"},"##
      + #""url":"https://www.last.fm/music/\#(spelled(track.1))/_/\#(spelled(track.0))","#
      + #""name":"\#(track.0)","playcount":"\#(30 - index)"}"#
  }
  return #"{"weeklytrackchart":{"track":[\#(lines.joined(separator: ","))],"#
    + #""@attr":{"from":"\#(from)","to":"\#(from + 604_800)","user":"u"}}}"#
}
