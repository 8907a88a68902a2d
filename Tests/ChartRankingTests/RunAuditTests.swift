import ChartRanking
import Testing

/// One line of a test chart that numbers runs: song number, rank, published previous rank, weeks
/// on chart and run number, title and artist.
private struct Line {
  var song: Int64
  var rank: Int
  var previous: Int?
  var weeks: Int
  var run: Int
  var title = "Slow Train"
  var artist = "The Ardens"
}

/// Weekly snapshots from 2024-01-06, each publishing previous ranks; a peak is published as the
/// best rank of the song's lines so far in the test (the weeks before are left out on purpose by
/// the tests that say so).
private func chart(_ weeks: [[Line]]) throws -> [LinkedSnapshot] {
  let dates = [
    "2024-01-06", "2024-01-13", "2024-01-20", "2024-01-27", "2024-02-03", "2024-02-10",
    "2024-02-17",
  ]
  var best: [Int64: Int] = [:]
  return try weeks.enumerated().map { index, lines in
    LinkedSnapshot(
      id: SnapshotID(Int64(index + 1)), chartDate: try ChartDate(iso8601: dates[index]),
      publishesPreviousRank: true,
      entries: lines.map { line in
        best[line.song] = min(best[line.song] ?? line.rank, line.rank)
        return ArchivedEntry(
          entry: ChartEntry(
            rank: line.rank, title: line.title, artist: line.artist,
            publishedPreviousRank: line.previous, publishedPeakPosition: best[line.song],
            publishedWeeksOnChart: line.weeks, publishedRun: line.run),
          song: SongID(line.song))
      })
  }
}

/// A filler song on every week at rank 1, in its first run.
private func filler(_ week: Int) -> Line {
  Line(
    song: 9, rank: 1, previous: week == 0 ? nil : 1, weeks: week + 1, run: 1, title: "Neon Harbor",
    artist: "Mira Solen")
}

/// Another song, at rank 5 in the weeks it is given (so that every week holds two entries, as a
/// chart holds as many each week): new, then back after a week off.
private func standIn(weeks: Int) -> Line {
  Line(
    song: 8, rank: 5, previous: nil, weeks: weeks, run: weeks, title: "Paper Planes",
    artist: "The Quiet Hours")
}

/// Seven weeks of one song: a debut, a second week, a week off, a re-entry, a week off, a
/// re-entry and a week after it: runs 1, 1, 2, 3, 3.
private let threeRuns: [[Line]] = [
  [filler(0), Line(song: 1, rank: 3, previous: nil, weeks: 1, run: 1)],
  [filler(1), Line(song: 1, rank: 2, previous: 3, weeks: 2, run: 1)],
  [filler(2), standIn(weeks: 1)],
  [filler(3), Line(song: 1, rank: 4, previous: nil, weeks: 3, run: 2)],
  [filler(4), standIn(weeks: 2)],
  [filler(5), Line(song: 1, rank: 2, previous: nil, weeks: 4, run: 3)],
  [filler(6), Line(song: 1, rank: 3, previous: 2, weeks: 5, run: 3)],
]

/// The disagreements of an audit on the run of "Slow Train".
private func runDisagreements(_ audit: ChartAudit) -> [Disagreement] {
  audit.disagreements.filter { $0.figure == .run && $0.entry.title == "Slow Train" }
}

struct RunAuditTests {
  @Test func aSongOfThreeRunsHasTheRunNumbersTheSourceGives() throws {
    let snapshots = try chart(threeRuns)
    let decided = ChartFigures.decideAll(snapshots)
    let runs = decided.flatMap { item in
      zip(item.snapshot.songs, item.figures).filter { $0.0 == SongID(1) }.map(\.1.run)
    }
    #expect(runs == [1, 1, 2, 3, 3])
    let audit = ChartAudit(decided: decided)
    #expect(
      audit.agreements.map(\.figure) == [
        .previousRank, .peakPosition, .weeksOnChart, .run, .movement,
      ])
    #expect(audit.agreements.map(\.compared) == [14, 14, 14, 14, 0])
    #expect(audit.agreements.map(\.agreeing) == [14, 14, 14, 14, 0])
    #expect(audit.disagreements.isEmpty)
  }

  @Test func anArchiveWithoutTheFirstRunGivesTheSourcesRunNumbersAsAGap() throws {
    // The archive starts at the song's re-entry, its second run: its own count starts at 1.
    let decided = ChartFigures.decideAll(try chart(Array(threeRuns.dropFirst(3))))
    let song = decided.flatMap { item in
      zip(item.snapshot.songs, item.figures).filter { $0.0 == SongID(1) }.map(\.1)
    }
    #expect(song.map(\.run) == [2, 3, 3])
    #expect(song.map(\.archiveRun) == [1, 2, 2])
    #expect(song.map(\.isPartialRun) == [true, true, true])
    let audit = ChartAudit(decided: decided)
    let runs = runDisagreements(audit)
    #expect(runs.map(\.published) == [2, 3, 3])
    #expect(runs.map(\.derived) == [1, 2, 2])
    #expect(runs.map(\.cause) == [.sourceGap, .sourceGap, .sourceGap])
    #expect(audit.causeCounts[.unexplained] == nil)
  }

  @Test func oneTitleOfTwoSongsKeepsEachSongsRun() throws {
    // "Hold On" by two artists: the first stays on, the second drops out and re-enters.
    func holdOn(_ song: Int64, _ rank: Int, _ previous: Int?, weeks: Int, run: Int) -> Line {
      Line(
        song: song, rank: rank, previous: previous, weeks: weeks, run: run, title: "Hold On",
        artist: song == 1 ? "The Ardens" : "Nadia Rahimi")
    }
    let decided = ChartFigures.decideAll(
      try chart([
        [holdOn(1, 1, nil, weeks: 1, run: 1), holdOn(2, 2, nil, weeks: 1, run: 1)],
        [holdOn(1, 1, 1, weeks: 2, run: 1)],
        [holdOn(2, 1, nil, weeks: 2, run: 2), holdOn(1, 2, 1, weeks: 3, run: 1)],
      ]))
    #expect(
      decided.map { $0.figures.map(\.run) } == [[1, 1], [1], [2, 1]])
    #expect(decided[2].figures.map(\.movement) == [.reentry, .down(1)])
    let audit = ChartAudit(decided: decided)
    #expect(audit.agreements[3] == FigureAgreement(figure: .run, compared: 5, agreeing: 5))
    #expect(audit.disagreements.isEmpty)
  }

  @Test func aRunNumberedAfreshUnderANewCreditIsACreditChange() throws {
    // The archive joins the re-entry under a shorter credit to the song's first run, as the
    // source's weeks on chart do; its run numbers are those of each credit, starting again at 1.
    let decided = ChartFigures.decideAll(
      try chart([
        [filler(0), Line(song: 1, rank: 2, previous: nil, weeks: 1, run: 1, artist: "Ann & Bo")],
        [filler(1), standIn(weeks: 1)],
        [filler(2), Line(song: 1, rank: 3, previous: nil, weeks: 2, run: 1, artist: "Ann")],
        [filler(3), Line(song: 1, rank: 2, previous: 3, weeks: 3, run: 1, artist: "Ann")],
      ]))
    let audit = ChartAudit(decided: decided)
    let runs = runDisagreements(audit)
    #expect(audit.disagreements.count == runs.count)
    #expect(
      runs.map { "\($0.chartDate) \($0.published ?? 0) \($0.derived ?? 0)" } == [
        "2024-01-20 1 2", "2024-01-27 1 2",
      ])
    #expect(runs.map(\.cause) == [.creditChange, .creditChange])
    #expect(audit.causeCounts[.unexplained] == nil)
  }

  @Test func aCreditWrittenInOtherCapitalsIsAnotherCreditToTheSourcesRuns() throws {
    // One credit to the archive ("JENNIE" and "Jennie" fold alike), two to the source.
    let decided = ChartFigures.decideAll(
      try chart([
        [filler(0), Line(song: 1, rank: 2, previous: nil, weeks: 1, run: 1, artist: "Ann & BO")],
        [filler(1), standIn(weeks: 1)],
        [filler(2), Line(song: 1, rank: 3, previous: nil, weeks: 2, run: 1, artist: "Ann & Bo")],
      ]))
    let runs = runDisagreements(ChartAudit(decided: decided))
    #expect(
      runs.map { "\($0.published ?? 0) \($0.derived ?? 0) \($0.cause)" } == ["1 2 creditChange"])
  }
}
