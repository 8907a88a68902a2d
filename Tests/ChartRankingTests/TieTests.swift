import Testing

@testable import ChartRanking

/// A snapshot whose entries are (song, rank, published previous rank), titled "Song N" by "X".
private func snapshot(_ day: Int, _ lines: [(Int64, Int, Int?)], publishes: Bool = true) throws
  -> LinkedSnapshot
{
  LinkedSnapshot(
    id: SnapshotID(Int64(day)), chartDate: try ChartDate(iso8601: "2024-01-0\(day)"),
    publishesPreviousRank: publishes,
    entries: lines.map { song, rank, previous in
      ArchivedEntry(
        entry: ChartEntry(
          rank: rank, title: "Song \(song)", artist: "X", publishedPreviousRank: previous),
        song: SongID(song))
    })
}

/// Two entries at one rank (a tie): each moves from its own previous rank, and a later entry
/// that names the tied rank as its previous one finds its own song there.
struct TieTests {
  @Test func tiedEntriesMoveEachFromItsOwnPreviousRank() throws {
    // Week 1: songs 2 and 3 tie at 2. Week 2: song 3 is number one, song 2 third.
    let decided = ChartFigures.decideAll([
      try snapshot(1, [(1, 1, nil), (2, 2, nil), (3, 2, nil), (4, 4, nil)]),
      try snapshot(2, [(3, 1, 2), (1, 2, 1), (2, 3, 2), (4, 4, 4)]),
    ])
    #expect(decided[1].figures.map(\.previousRank) == [2, 1, 2, 4])
    #expect(decided[1].figures.map(\.movement) == [.up(1), .down(1), .down(1), .unchanged])
    #expect(decided[1].figures.allSatisfy { $0.previousRankSource == .published })
    #expect(decided[1].figures.allSatisfy { $0.previousRankVerdict == nil })
    // The tie itself: both at peak 2.
    #expect(decided[0].figures.map(\.peakPosition) == [1, 2, 2, 4])
  }

  @Test func derivedPreviousRanksOfATieAreTheTiedRank() throws {
    // The source publishes no previous rank: the archive gives both the rank they shared.
    let decided = ChartFigures.decideAll([
      try snapshot(1, [(1, 1, nil), (2, 1, nil), (3, 3, nil)], publishes: false),
      try snapshot(2, [(2, 1, nil), (3, 2, nil), (1, 3, nil)], publishes: false),
    ])
    #expect(decided[1].figures.map(\.previousRank) == [1, 3, 1])
    #expect(decided[1].figures.map(\.movement) == [.unchanged, .up(1), .down(2)])
  }

  @Test func aPreviousRankShowsTheSecondOfTwoTiedSongs() {
    // The previous rank 3 is the tie of songs 7 and 8; the new entry is song 8 under a new
    // credit (it was linked to nothing when only the first entry at the rank was looked at).
    let previous = [
      ArchivedEntry(
        entry: ChartEntry(rank: 3, title: "Blue Morning", artist: "Ann"), song: SongID(7)),
      ArchivedEntry(
        entry: ChartEntry(rank: 3, title: "Green Evening", artist: "Bo"), song: SongID(8)),
    ]
    let links = SongLinking.link(
      [ChartEntry(rank: 1, title: "Green Evening", artist: "Bo & Cy", publishedPreviousRank: 3)],
      publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [] },
      songsWithTitle: { _, _ in [] })
    #expect(links == [.previousRank(SongID(8))])
  }

  @Test func thePreviousEntriesAtARankAreEveryEntryTiedThere() {
    let entries = [1, 2, 2, 2, 5].enumerated().map {
      ChartEntry(rank: $0.element, title: "T\($0.offset + 1)", artist: "A")
    }
    let previous = SongLinking.PreviousSnapshot(
      entries: entries, songs: (1...5).map { SongID(Int64($0)) }, keys: entries.map(SongKeys.init))
    #expect(previous.indices(ofRank: 2) == 1..<4)
    #expect(previous.indices(ofRank: 1) == 0..<1)
    #expect(previous.indices(ofRank: 5) == 4..<5)
    #expect(previous.indices(ofRank: 3).isEmpty)
  }

  @Test func aTieAtNumberOneIsTwoNumberOnesAndADiffPairsEachBySong() throws {
    let decided = ChartFigures.decideAll([
      try snapshot(1, [(1, 1, nil), (2, 2, nil), (3, 3, nil)]),
      try snapshot(2, [(2, 1, 2), (1, 1, 1), (3, 3, 3)]),
    ])
    let placements = zip(decided[1].snapshot.entries.indices, decided[1].figures).map {
      index, figures in
      Placement(
        snapshot: SnapshotID(2), chartDate: decided[1].snapshot.chartDate,
        entry: decided[1].snapshot.entries[index], song: decided[1].snapshot.songs[index],
        figures: figures)
    }
    let report = RankChangeReport(placements: placements, dropOuts: [], limit: 5)
    #expect(report.numberOne.map(\.song) == [SongID(2), SongID(1)])
    #expect(report.climbers.map(\.song) == [SongID(2)])
    #expect(report.fallers.isEmpty)
    let older = zip(decided[0].snapshot.entries, decided[0].snapshot.songs).map {
      ArchivedEntry(entry: $0, song: $1)
    }
    let newer = zip(decided[1].snapshot.entries, decided[1].snapshot.songs).map {
      ArchivedEntry(entry: $0, song: $1)
    }
    let diff = SnapshotDiff(older: older, newer: newer, songsChartedByOlder: [])
    #expect(diff.lines.map(\.olderRank) == [2, 1, 3])
    #expect(diff.lines.map(\.movement) == [.up(1), .unchanged, .unchanged])
    #expect(diff.dropOuts.isEmpty)
  }
}
