import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// An ISRC joins the entries of any charts into one song, before their titles and credits are
/// compared; a different ISRC keeps nothing apart.
struct ISRCLinkingTests {
  /// An Apple Music chart of (title, artist, ISRC).
  func appleChart(_ songs: [(String, String, String)]) -> String {
    let data = songs.enumerated().map { index, song in
      #"{"id":"\#(index)","type":"songs","attributes":{"name":"\#(song.0)","#
        + #""artistName":"\#(song.1)","url":"https://music.apple.com/us/song/\#(index)","#
        + #""isrc":"\#(song.2)"}}"#
    }
    return #"{"results":{"songs":[{"chart":"most-played","name":"Top Songs","data":["#
      + data.joined(separator: ",") + "]}]}}"
  }

  /// A snapshot in ChartArchive's JSON of (title, artist, ISRC or `nil`), ranked in order.
  func nativeChart(_ chart: String, _ date: String, _ entries: [(String, String, String?)])
    -> String
  {
    let lines = entries.enumerated().map { index, entry in
      #"{"rank":\#(index + 1),"title":"\#(entry.0)","artist":"\#(entry.1)""#
        + (entry.2.map { #","isrc":"\#($0)""# } ?? "") + "}"
    }
    return #"{"chart":"\#(chart)","chart_date":"\#(date)","entries":["#
      + lines.joined(separator: ",") + "]}"
  }

  /// The songs of each snapshot of each chart, in chart-date and rank order.
  func songs(of charts: [String], in archive: Archive) throws -> [[SongID]] {
    try archive.read { reader in
      try charts.flatMap { chart in
        try reader.snapshots(of: chart).map { try reader.placements(of: $0).map(\.song) }
      }
    }
  }

  @Test(arguments: [false, true])
  func anAppleChartAndAChartOfOurOwnWithOneISRCAreOneSong(nativeFirst: Bool) throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    var files = [
      (
        "apple-us/apple-music-most-played-2024-03-21-page-1.json",
        appleChart([
          ("Lanterns Over Lisbon", "Mira Solen", "QZXYZ2400001"),
          ("Gravity Well", "KAIROS", "QZXYZ2400002"),
        ])
      ),
      (
        "mine/2024-03-28.json",
        nativeChart(
          "mine", "2024-03-28",
          [
            ("Gravity Well", "Kairos & Jun", "qz-xyz-24-00002"),
            ("Lanterns over Lisboa", "M. Solen", "QZXYZ2400001"),
            ("Lanterns Over Lisbon", "Mira Solen", nil),
          ])
      ),
    ]
    // One import each, in that order: the first makes the songs, the second finds them.
    if nativeFirst { files.reverse() }
    for file in files { _ = try importFiles([file], into: archive) }
    let songs = try songs(of: ["apple-us", "mine"], in: archive)
    // Titles and credits apart, one ISRC: one song each. Without an ISRC, its title and credit
    // name the first recording, which the ISRC took: a song of its own.
    #expect(songs[1][0] == songs[0][1])
    #expect(songs[1][1] == songs[0][0])
    #expect(!songs[0].contains(songs[1][2]))
    // The ISRC's song took the credit it was found under: a search finds it by that too.
    let found = try archive.read { reader -> [SongID] in
      guard case .found(let found) = try reader.song(matching: "Lisboa") else { return [] }
      return found.map(\.id)
    }
    #expect(found == [songs[0][0]])
  }

  /// Within one chart without previous ranks: a renamed title under another credit continues the
  /// song its ISRC names; a remaster under a new ISRC continues it by its title (its label names
  /// the same recording); two entries of one snapshot with one ISRC are two songs.
  @Test func withinAChartTheISRCJoinsAndADifferentOneKeepsNothingApart() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        (
          "c/2024-01-06.json",
          nativeChart(
            "c", "2024-01-06",
            [
              ("Night Drive", "Mara Vey", "GBAYE2400001"),
              ("Paper Moons", "Ada Quill", "GBAYE0900001"),
            ]
          )
        ),
        (
          "c/2024-01-13.json",
          nativeChart(
            "c", "2024-01-13",
            [
              ("Nightdrive", "Mara Vey & Sol", "GBAYE2400001"),
              ("Paper Moons - Remastered 2009", "Ada Quill", "GBAYE0900002"),
              ("Another", "Sol", "GBAYE2400001"),
            ])
        ),
      ], into: archive)
    let songs = try songs(of: ["c"], in: archive)
    #expect(songs[1][0] == songs[0][0])
    #expect(songs[1][1] == songs[0][1])
    #expect(!songs[0].contains(songs[1][2]))
    #expect(Set(songs.joined()).count == 3)
  }
}
