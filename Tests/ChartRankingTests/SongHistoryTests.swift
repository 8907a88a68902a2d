import ChartRanking
import Testing

/// Builds appearances of one song on a chart whose snapshots are numbered 1, 2, 3, … by week.
private func appearances(
  _ ranks: [Int: [Int]], published: [Int: Int?] = [:], weeks: [Int: Int] = [:]
) throws -> [Appearance] {
  try ranks.keys.sorted().flatMap { week in
    try ranks[week]!.map { rank in
      Appearance(
        snapshot: SnapshotID(Int64(week)),
        chartDate: try ChartDate(iso8601: "2024-01-\(week < 10 ? "0" : "")\(week)"),
        previousSnapshot: week > 1 ? SnapshotID(Int64(week - 1)) : nil,
        publishesPreviousRank: published[week] != nil,
        entry: ChartEntry(
          rank: rank, title: "Song", artist: "Artist",
          publishedPreviousRank: published[week] ?? nil, publishedWeeksOnChart: weeks[week]))
    }
  }
}

struct SongHistoryTests {
  @Test func derivesMovementPeakAndWeeksAcrossAReentry() throws {
    // Weeks 1–3 on the chart, off in week 4, back in week 5.
    let history = SongHistory(appearances: try appearances([1: [40], 2: [12], 3: [30], 5: [55]]))
    #expect(history.placements.map(\.movement) == [.debut, .up(28), .down(18), .reentry])
    #expect(history.placements.map(\.previousRank) == [nil, 40, 12, nil])
    #expect(history.placements.map(\.peakPosition) == [40, 12, 12, 12])
    #expect(history.placements.map(\.weeksOnChart) == [1, 2, 3, 4])
    #expect(history.peakPosition == 12)
    #expect(history.weeksOnChart == 4)
    #expect(history.weeksAtPeak == 1)
    #expect(history.debutDate?.iso8601 == "2024-01-01")
    #expect(history.debutRank == 40)
  }

  @Test func publishedPreviousRankWinsOverTheDerivedOne() throws {
    // The source says week 2's previous rank was 41 although the archive holds 40.
    let history = SongHistory(
      appearances: try appearances([1: [40], 2: [12]], published: [1: nil, 2: 41]))
    #expect(history.placements.map(\.previousRank) == [nil, 41])
    #expect(history.placements.map(\.movement) == [.debut, .up(29)])
  }

  @Test func publishedWeeksAboveOneMakeAReentry() throws {
    let history = SongHistory(appearances: try appearances([3: [70]], weeks: [3: 9]))
    #expect(history.placements.map(\.movement) == [.reentry])
    #expect(history.weeksOnChart == 1)
  }

  @Test func peakIsNeverALaterRank() throws {
    let history = SongHistory(appearances: try appearances([1: [5], 2: [9], 3: [1]]))
    #expect(history.placements.map(\.peakPosition) == [5, 5, 1])
  }

  @Test func twoRecordingsInOneSnapshotPairInRankOrderAndCountOneWeek() throws {
    // "Unchained Melody" twice in weeks 1 and 2 (#19 and #45, then #13 and #50).
    let history = SongHistory(appearances: try appearances([1: [45, 19], 2: [50, 13]]))
    #expect(history.placements.map(\.rank) == [19, 45, 13, 50])
    #expect(history.placements.map(\.previousRank) == [nil, nil, 19, 45])
    #expect(history.placements.map(\.movement) == [.debut, .debut, .up(6), .down(5)])
    #expect(history.placements.map(\.weeksOnChart) == [1, 1, 2, 2])
  }

  @Test func placementsOfASnapshotFollowEachSongsHistory() throws {
    let a = SongID(1)
    let b = SongID(2)
    let songA = try appearances([1: [3], 2: [1]])
    let songB = try appearances([2: [2]])
    let entries = [
      ArchivedEntry(entry: songA[1].entry, song: a), ArchivedEntry(entry: songB[0].entry, song: b),
    ]
    let date = try ChartDate(iso8601: "2024-01-02")
    let placements = SongHistory.placements(
      of: entries, in: SnapshotID(2), chartDate: date, appearances: [a: songA, b: songB])
    #expect(placements.map(\.rank) == [1, 2])
    #expect(placements.map(\.movement) == [.up(2), .debut])
    #expect(placements.map(\.weeksOnChart) == [2, 1])
    // A song whose appearances are missing is placed on its own, at the snapshot's date.
    let alone = SongHistory.placements(
      of: entries, in: SnapshotID(2), chartDate: date, appearances: [a: songA])
    #expect(alone.map(\.movement) == [.up(2), .debut])
    #expect(alone[1].chartDate == date)
  }
}

struct SnapshotDiffTests {
  private func entry(_ rank: Int, _ song: Int64, weeks: Int? = nil) -> ArchivedEntry {
    ArchivedEntry(
      entry: ChartEntry(
        rank: rank, title: "Song \(song)", artist: "Artist", publishedWeeksOnChart: weeks),
      song: SongID(song))
  }

  @Test func listsMovesArrivalsAndDropOuts() {
    let older = [entry(1, 10), entry(2, 20), entry(3, 30), entry(4, 40)]
    let newer = [entry(1, 20), entry(2, 50), entry(3, 10), entry(4, 60), entry(5, 70, weeks: 3)]
    let diff = SnapshotDiff(older: older, newer: newer, songsSeenBeforeNewer: [SongID(60)])
    #expect(diff.moves.map(\.entry.song) == [SongID(20), SongID(10)])
    #expect(diff.moves.map(\.movement) == [.up(1), .down(2)])
    #expect(diff.moves.map(\.olderRank) == [2, 1])
    #expect(diff.arrivals.map(\.entry.song) == [SongID(50), SongID(60), SongID(70)])
    #expect(diff.arrivals.map(\.movement) == [.debut, .reentry, .reentry])
    #expect(diff.dropOuts.map(\.song) == [SongID(30), SongID(40)])
  }

  @Test func twoEntriesOfOneSongKeepTheirPartners() {
    let older = [entry(19, 1), entry(45, 1)]
    let newer = [entry(13, 1)]
    let diff = SnapshotDiff(older: older, newer: newer, songsSeenBeforeNewer: [SongID(1)])
    #expect(diff.moves.map(\.movement) == [.up(6)])
    #expect(diff.dropOuts.map(\.entry.rank) == [45])
  }
}

struct RankChangeReportTests {
  private func placement(_ rank: Int, _ movement: Movement) throws -> Placement {
    Placement(
      snapshot: SnapshotID(1), chartDate: try ChartDate(iso8601: "2024-01-06"),
      entry: ChartEntry(rank: rank, title: "Song \(rank)", artist: "Artist"),
      previousRank: movement.change.map { rank + $0 }, movement: movement, peakPosition: rank,
      weeksOnChart: 1)
  }

  @Test func sortsEachSectionAsAChartEditorWould() throws {
    let placements = try [
      placement(1, .up(1)), placement(2, .down(1)), placement(3, .unchanged),
      placement(4, .up(20)), placement(5, .down(4)), placement(6, .debut), placement(7, .up(20)),
      placement(8, .reentry), placement(9, .down(4)), placement(10, .up(2)),
    ]
    let dropOut = ArchivedEntry(
      entry: ChartEntry(rank: 3, title: "Gone", artist: "A"), song: SongID(9))
    let report = RankChangeReport(placements: placements, dropOuts: [dropOut], limit: 3)
    #expect(report.numberOne.map(\.rank) == [1])
    #expect(report.debuts.map(\.rank) == [6])
    #expect(report.reentries.map(\.rank) == [8])
    #expect(report.climbers.map(\.rank) == [4, 7, 10])
    #expect(report.fallers.map(\.rank) == [5, 9, 2])
    #expect(report.dropOuts.map(\.entry.title) == ["Gone"])
  }
}
