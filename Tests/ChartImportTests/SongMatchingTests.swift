import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// One recording is one song across spellings, versions and services: each case from the
/// smallest charts that showed it split.
struct SongMatchingTests {
  /// Each entry of a chart's snapshots as `date rank movement title — artist #song`, songs
  /// numbered in order of appearance.
  func entries(of chart: String, in archive: Archive) throws -> [String] {
    try archive.read { reader in
      var numbers: [SongID: Int] = [:]
      return try reader.snapshots(of: chart).flatMap { snapshot in
        try reader.placements(of: snapshot).map { placement in
          let number = numbers[placement.song] ?? numbers.count + 1
          numbers[placement.song] = number
          return "\(snapshot.chartDate) \(placement.entry.rank) \(placement.movement)"
            + " \(placement.entry.title) — \(placement.entry.artist) #\(number)"
        }
      }
    }
  }

  @Test func aRemasterAndASpellingWithoutAccentsContinueTheSongLiveIsAnother() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        (
          "lastfm/2024-03-10.json",
          lastFMWeek(
            from: 1_710_072_000, [("Paper Moons", "Ada Quill"), ("Bright Fog", "Björk Lind")])
        ),
        (
          "lastfm/2024-03-17.json",
          lastFMWeek(
            from: 1_710_676_800,
            [
              ("Paper Moons - Remastered 2009", "Ada Quill"), ("Bright Fog", "Bjork Lind"),
              ("Paper Moons - Live", "Ada Quill"),
            ])
        ),
      ], into: archive)
    #expect(
      try entries(of: "lastfm", in: archive) == [
        "2024-03-17T12:00:00Z 1 debut Paper Moons — Ada Quill #1",
        "2024-03-17T12:00:00Z 2 debut Bright Fog — Björk Lind #2",
        "2024-03-24T12:00:00Z 1 unchanged Paper Moons - Remastered 2009 — Ada Quill #1",
        "2024-03-24T12:00:00Z 2 unchanged Bright Fog — Bjork Lind #2",
        "2024-03-24T12:00:00Z 3 debut Paper Moons - Live — Ada Quill #3",
      ])
    // The song is found by its title alone; the live recording by its own.
    let found = try archive.read { reader in
      try ["Paper Moons", "Paper Moons Live"].map { query -> [String] in
        guard case .found(let songs) = try reader.song(matching: query) else { return [] }
        return songs.map(\.title)
      }
    }
    #expect(found == [["Paper Moons"], ["Paper Moons - Live"]])
  }

  @Test func oneDayOnAppleMusicAndOnSpotifyIsOneSongPerRecording() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let apple =
      #"{"results":{"songs":[{"chart":"most-played","name":"Top Songs","data":["#
      + #"{"id":"1700000000","type":"songs","attributes":{"name":"Night Drive (feat. Sol)","#
      + #""artistName":"Mara Vey","url":"https://music.apple.com/us/song/1700000000"}},"#
      + #"{"id":"1700000001","type":"songs","attributes":{"name":"Same Name","#
      + #""artistName":"Ona Pike","url":"https://music.apple.com/us/song/1700000001"}}]}]}}"#
    let spotify =
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,days_on_chart,streams\n"
      + "1,spotify:track:1bR3cQyWu4lM0nO2sT6vX8,\"Mara Vey, Sol\",Night Drive,L,1,1,3,1000\n"
      + "2,spotify:track:0aQ2bPxVt3kL9mN1rS5uW7,Ona Pike,Same Name,L,2,2,4,900\n"
    _ = try importFiles(
      [
        ("apple-us/apple-music-most-played-2024-03-21-page-1.json", apple),
        ("regional-us-daily/regional-us-daily-2024-03-21.csv", spotify),
      ], into: archive)
    let songs = try archive.read { reader in
      try ["apple-us", "regional-us-daily"].map { chart in
        try reader.placements(of: try #require(reader.snapshots(of: chart).first)).map(\.song)
      }
    }
    #expect(songs[0] == songs[1])
    #expect(Set(songs[0]).count == 2)
    let found = try archive.read { reader -> Int in
      guard case .found(let songs) = try reader.song(matching: "Same Name") else { return 0 }
      return songs.count
    }
    #expect(found == 1)
  }
}
