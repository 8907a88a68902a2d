import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// One song is one song in the archive, whatever the order of the imports: linked against the
/// songs stored by earlier imports, on other charts, under every credit it charted under.
struct StoredSongTests {
  @Test func theSampleHot100ImportedNewestWeekFirstKeepsItsSongsAndFigures() throws {
    // One import per week, 2024-01-13 first: each earlier week linked the later ones again, and
    // each debut of the earlier week took a new song, so that Bellakeo's song (made by the first
    // import) was replaced, its ID lost and its rows numbered recording 4. The figures must be
    // those of the archive imported oldest week first.
    let (forwardFolder, forward) = try archiveInFolder()
    let (backwardFolder, backward) = try archiveInFolder()
    _ = (forwardFolder, backwardFolder)
    let files = try ImportSource.files(in: [sampleData + "/hot-100"])
    #expect(files.count == 4)
    _ = try Importer.run(files.map { .file($0) }, into: forward)
    let weeks = ["2024-01-13", "2023-12-30", "2024-01-06", "2023-12-23"]
    func bellakeo() throws -> [String] {
      try backward.read { reader in
        guard case .found(let songs) = try reader.song(matching: "Bellakeo") else { return [] }
        return songs.map { "\($0.recording) \($0.id.rawValue)" }
      }
    }
    var first: [String] = []
    for week in weeks {
      let report = try Importer.run([.file(sampleData + "/hot-100/\(week).json")], into: backward)
      #expect(report.imported == 1, "\(week)")
      if first.isEmpty { first = try bellakeo() }
    }
    #expect(first.count == 1)
    #expect(try bellakeo() == first)
    // Each week as `show` gives it: its previous snapshot, and each entry with its figures.
    func shown(_ archive: Archive, _ week: String) throws -> (String?, [ChartEntry], [EntryFigures])
    {
      try archive.read { reader in
        let snapshot = try reader.chartSnapshot(of: "hot-100", at: try ChartDate(iso8601: week))
        return (
          snapshot.previous?.chartDate.iso8601, snapshot.placements.map(\.entry),
          snapshot.placements.map(\.figures)
        )
      }
    }
    for week in weeks {
      let (backwardShown, forwardShown) = (try shown(backward, week), try shown(forward, week))
      #expect(backwardShown.0 == forwardShown.0, "\(week)")
      #expect(backwardShown.1 == forwardShown.1, "\(week)")
      #expect(backwardShown.2 == forwardShown.2, "\(week)")
      #expect(backwardShown.1.count == 100)
    }
  }

  @Test func aFirstWeekOnASecondChartIsTheSameSong() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        ("us/2024-05-01.json", nativeSnapshot("us", "2024-05-01", [("Song", "Band", nil, 1)])),
        ("uk/2024-05-02.json", nativeSnapshot("uk", "2024-05-02", [("Song", "Band", nil, 1)])),
      ], into: archive)
    let recordings = try archive.read { reader -> [SongRecording] in
      guard case .found(let songs) = try reader.song(matching: "song") else { return [] }
      return try reader.recordings(of: songs)
    }
    #expect(recordings.count == 1)
    #expect(recordings.first?.histories.map(\.chart) == ["uk", "us"])
  }

  @Test func aSongIsFoundByEveryCreditItChartedUnder() throws {
    // Area Codes by Kali, then Kaliii: one song, whose credit change the history names.
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        (
          "hot/2024-01-06.json",
          billboardWeek(
            "2024-01-06",
            [
              ("Area Codes", "Kali", nil, 1, 1), ("Hello", "Queen Bee", nil, 2, 1),
              ("Hello", "Max & Queen Bee", nil, 3, 1),
            ])
        ),
        (
          "hot/2024-01-13.json",
          billboardWeek(
            "2024-01-13",
            [
              ("Area Codes", "Kaliii", 1, 1, 2), ("Hello", "Queen Bee", 2, 2, 2),
              ("Hello", "Max & Queen Bee", 3, 3, 2),
            ])
        ),
      ], into: archive)
    for (query, artist) in [("Area Codes", "Kaliii"), ("kaliii", nil), ("Area Codes", "Kali")] {
      let changes = try archive.read { reader in
        guard case .found(let songs) = try reader.song(matching: query, artist: artist) else {
          return [String]()
        }
        return try reader.recordings(of: songs).flatMap(\.histories).flatMap {
          $0.history.creditChanges.map { "\($0.chartDate) '\($0.from)' → '\($0.to)'" }
        }
      }
      #expect(changes == ["2024-01-13 'Kali' → 'Kaliii'"], "\(query) \(artist ?? "")")
    }
  }

  @Test func replacingASnapshotForgetsSongsOnlyItHad() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    func snapshot(_ title: String, _ artist: String) -> [(name: String, text: String)] {
      [
        (
          "r/2024-01-06.json",
          #"{"chart":"r","chart_date":"2024-01-06","entries":[{"rank":1,"title":"\#(title)","#
            + #""artist":"\#(artist)"}]}"#
        )
      ]
    }
    _ = try importFiles(snapshot("Ghost Song", "Nobody"), into: archive)
    let report = try importFiles(
      snapshot("Real Song", "Somebody"), into: archive, options: ImportOptions(replacing: true))
    #expect(report.replaced == 1)
    let (ghost, song) = try archive.read { reader in
      (try reader.song(matching: "ghost"), try reader.song(matching: "song"))
    }
    guard case .none = ghost else {
      Issue.record("the replaced snapshot's song is still found: \(ghost)")
      return
    }
    guard case .found(let songs) = song else {
      Issue.record("no song found: \(song)")
      return
    }
    #expect(songs.map { "\($0.title) — \($0.artist)" } == ["Real Song — Somebody"])
  }
}
