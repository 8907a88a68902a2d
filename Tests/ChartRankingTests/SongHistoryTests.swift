import ChartRanking
import Testing

/// The history of song 1 on a chart whose snapshots are weeks 1, 2, 3, … (2024-01-01 on): its
/// ranks each week (none: another song alone that week), with its figures decided by
/// ``ChartFigures``.
private func history(
  _ ranks: [Int: [Int]], published: [Int: Int?] = [:], weeks: [Int: Int] = [:]
) throws -> SongHistory {
  let last = ranks.keys.max() ?? 1
  let snapshots = try (1...last).map { week in
    let song = (ranks[week] ?? []).map { rank in
      ArchivedEntry(
        entry: ChartEntry(
          rank: rank, title: "Song", artist: "Artist",
          publishedPreviousRank: published[week] ?? nil, publishedWeeksOnChart: weeks[week]),
        song: SongID(1))
    }
    let other = ArchivedEntry(
      entry: ChartEntry(rank: 100, title: "Other", artist: "Band"), song: SongID(2))
    return LinkedSnapshot(
      id: SnapshotID(Int64(week)),
      chartDate: try ChartDate(iso8601: "2024-01-\(week < 10 ? "0" : "")\(week)"),
      publishesPreviousRank: published[week] != nil,
      entries: (song + [other]).sorted { $0.entry.rank < $1.entry.rank })
  }
  return SongHistory(
    placements: ChartFigures.decideAll(snapshots).flatMap { decided in
      decided.snapshot.entries.indices.compactMap { index in
        decided.snapshot.songs[index] == SongID(1)
          ? Placement(
            snapshot: decided.snapshot.id, chartDate: decided.snapshot.chartDate,
            entry: decided.snapshot.entries[index], song: SongID(1),
            figures: decided.figures[index]) : nil
      }
    })
}

struct SongHistoryTests {
  @Test func aPublishedPreviousRankTheArchiveAgreesWithIsGiven() throws {
    let history = try history([1: [40], 2: [12]], published: [1: nil, 2: 40])
    #expect(history.placements.map(\.previousRank) == [nil, 40])
    #expect(history.placements.map(\.figures.previousRankSource) == [.published, .published])
    #expect(history.placements[1].figures.previousRankVerdict == nil)
  }

  @Test func derivesMovementPeakAndWeeksAcrossAReentry() throws {
    // Weeks 1–3 on the chart, off in week 4, back in week 5.
    let history = try history([1: [40], 2: [12], 3: [30], 5: [55]])
    #expect(history.placements.map(\.movement) == [.debut, .up(28), .down(18), .reentry])
    #expect(history.placements.map(\.previousRank) == [nil, 40, 12, nil])
    #expect(history.placements.map(\.peakPosition) == [40, 12, 12, 12])
    #expect(history.placements.map(\.weeksOnChart) == [1, 2, 3, 4])
    #expect(history.placements.map(\.figures.run) == [1, 1, 1, 2])
    #expect(history.placements.allSatisfy { $0.figures.previousRankSource == .derived })
    #expect(history.peakPosition == 12)
    #expect(history.weeksOnChart == 4)
    #expect(history.runs == 2)
    #expect(history.weeksAtPeak == 1)
    #expect(history.debutDate?.iso8601 == "2024-01-01")
    #expect(history.debutRank == 40)
  }

  @Test func aPublishedPreviousRankNothingExplainsIsCorrectedToTheArchives() throws {
    // The source says week 2's previous rank was 41 although the archive holds 40: a
    // disagreement the archive cannot explain, so its own is given, corrected.
    let history = try history([1: [40], 2: [12]], published: [1: nil, 2: 41])
    #expect(history.placements.map(\.previousRank) == [nil, 40])
    #expect(history.placements.map(\.figures.previousRankSource) == [.published, .corrected])
    #expect(history.placements.map(\.movement) == [.debut, .up(28)])
    #expect(
      history.placements[1].figures.previousRankVerdict
        == FigureVerdict(derived: 40, cause: .unexplained))
  }

  @Test func publishedWeeksAboveOneMakeAReentry() throws {
    let history = try history([3: [70]], weeks: [3: 9])
    #expect(history.placements.map(\.movement) == [.reentry])
    // The source's weeks, more than the archive holds: the run is partial.
    #expect(history.weeksOnChart == 9)
    #expect(history.placements[0].figures.archiveWeeksOnChart == 1)
    #expect(history.isPartial)
  }

  @Test func peakIsNeverALaterRank() throws {
    let history = try history([1: [5], 2: [9], 3: [1]])
    #expect(history.placements.map(\.peakPosition) == [5, 5, 1])
  }

  @Test func twoRecordingsInOneSnapshotPairInRankOrderAndCountOneWeek() throws {
    // "Unchained Melody" twice in weeks 1 and 2 (#19 and #45, then #13 and #50).
    let history = try history([1: [45, 19], 2: [50, 13]])
    #expect(history.placements.map(\.rank) == [19, 45, 13, 50])
    #expect(history.placements.map(\.previousRank) == [nil, nil, 19, 45])
    #expect(history.placements.map(\.movement) == [.debut, .debut, .up(6), .down(5)])
    #expect(history.placements.map(\.weeksOnChart) == [1, 1, 2, 2])
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
    let diff = SnapshotDiff(older: older, newer: newer, songsChartedByOlder: [SongID(60)])
    #expect(diff.moves.map(\.entry.song) == [SongID(20), SongID(10)])
    #expect(diff.moves.map(\.movement) == [.up(1), .down(2)])
    #expect(diff.moves.map(\.olderRank) == [2, 1])
    #expect(diff.arrivals.map(\.entry.song) == [SongID(50), SongID(60), SongID(70)])
    // Across a gap, an arrival is new unless it charted by the older date, whatever weeks the
    // source counts.
    #expect(diff.arrivals.map(\.movement) == [.debut, .reentry, .debut])
    #expect(diff.dropOuts.map(\.song) == [SongID(30), SongID(40)])
  }

  @Test func twoEntriesOfOneSongKeepTheirPartners() {
    let older = [entry(19, 1), entry(45, 1)]
    let newer = [entry(13, 1)]
    let diff = SnapshotDiff(older: older, newer: newer, songsChartedByOlder: [SongID(1)])
    #expect(diff.moves.map(\.movement) == [.up(6)])
    #expect(diff.dropOuts.map(\.entry.rank) == [45])
  }
}

struct RankChangeReportTests {
  private func placement(_ rank: Int, _ movement: Movement) throws -> Placement {
    Placement(
      snapshot: SnapshotID(1), chartDate: try ChartDate(iso8601: "2024-01-06"),
      entry: ChartEntry(rank: rank, title: "Song \(rank)", artist: "Artist"),
      song: SongID(Int64(rank)),
      figures: EntryFigures(
        previousRank: movement.change.map { rank + $0 }, previousRankSource: .derived,
        movement: movement, peakPosition: rank, weeksOnChart: 1, run: 1))
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
    #expect(report.dropOuts?.map(\.entry.title) == ["Gone"])
  }
}
