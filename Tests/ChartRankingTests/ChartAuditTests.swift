import ChartRanking
import Testing

/// One line of a test chart: song number, rank, published previous rank, peak and weeks.
private struct Line {
  var song: Int64
  var rank: Int
  var previous: Int?
  var peak: Int
  var weeks: Int
  var title: String?
  var artist = "Artist"
}

private func chart(_ weeks: [[Line]]) throws -> [LinkedSnapshot] {
  try weeks.enumerated().map { index, lines in
    LinkedSnapshot(
      id: SnapshotID(Int64(index + 1)),
      chartDate: try ChartDate(iso8601: "2024-01-\(index + 10)"), publishesPreviousRank: true,
      entries: lines.map { line in
        ArchivedEntry(
          entry: ChartEntry(
            rank: line.rank, title: line.title ?? "Song \(line.song)", artist: line.artist,
            publishedPreviousRank: line.previous, publishedPeakPosition: line.peak,
            publishedWeeksOnChart: line.weeks),
          song: SongID(line.song))
      })
  }
}

/// A clean week of four songs, each new.
private let firstWeek = (1...4).map {
  Line(song: Int64($0), rank: $0, previous: nil, peak: $0, weeks: 1)
}

struct ChartAuditTests {
  @Test func agreementIsCountedPerFigure() throws {
    let audit = ChartAudit(
      snapshots: try chart([
        firstWeek,
        [
          Line(song: 2, rank: 1, previous: 2, peak: 1, weeks: 2),
          Line(song: 1, rank: 2, previous: 1, peak: 1, weeks: 2),
          Line(song: 3, rank: 3, previous: 3, peak: 3, weeks: 2),
          Line(song: 4, rank: 4, previous: 4, peak: 4, weeks: 2),
        ],
      ]))
    #expect(audit.agreements.map(\.compared) == [8, 8, 8, 0, 0])
    #expect(audit.agreements.map(\.agreeing) == [8, 8, 8, 0, 0])
    #expect(audit.disagreements.isEmpty)
  }

  @Test func aFigureNothingPublishedHasNoPercentage() throws {
    // It showed 100 % agreement for a chart that publishes previous ranks only.
    let snapshots = try (1...2).map { day in
      LinkedSnapshot(
        id: SnapshotID(Int64(day)), chartDate: try ChartDate(iso8601: "2024-05-0\(day)"),
        publishesPreviousRank: true,
        entries: [
          ArchivedEntry(
            entry: ChartEntry(
              rank: 1, title: "A", artist: "X", publishedPreviousRank: day == 1 ? nil : 1),
            song: SongID(1))
        ])
    }
    let audit = ChartAudit(snapshots: snapshots)
    #expect(
      audit.agreements.map(\.figure) == [
        .previousRank, .peakPosition, .weeksOnChart, .run, .movement,
      ])
    #expect(audit.agreements.map(\.compared) == [2, 0, 0, 0, 0])
    #expect(audit.agreements.map(\.percentage) == [100, nil, nil, nil, nil])
  }

  @Test func aShortSnapshotIsASourceGap() throws {
    // Week 2 lost its rank-2 row: songs 3 and 4 moved up a rank in the file only.
    let audit = ChartAudit(
      snapshots: try chart([
        firstWeek,
        [
          Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 2),
          Line(song: 3, rank: 2, previous: 3, peak: 3, weeks: 2),
          Line(song: 4, rank: 3, previous: 4, peak: 4, weeks: 2),
        ],
        [
          Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 3),
          Line(song: 3, rank: 2, previous: 3, peak: 2, weeks: 3),
          Line(song: 4, rank: 3, previous: 4, peak: 3, weeks: 3),
          Line(song: 2, rank: 4, previous: 2, peak: 2, weeks: 3),
        ],
      ]))
    #expect(Set(audit.disagreements.map(\.cause)) == [.sourceGap])
    // Week 3's previous ranks correct week 2's file ranks (songs 3 and 4 were 3 and 4, not 2
    // and 3); song 2, on the lost row, disagrees on its previous rank and its weeks.
    #expect(
      audit.disagreements.map { "\($0.entry.rank) \($0.figure.rawValue)" } == [
        "4 previous_rank", "4 weeks_on_chart",
      ])
    #expect(audit.agreements.map(\.agreeing) == [10, 11, 10, 0, 0])
  }

  @Test func aRunOfMisrankedEntriesIsCorrected() throws {
    // Week 1's file ranks 2 to 4 are one too small: the source's own peaks (debuts) and week 2's
    // previous ranks both say 3 to 5.
    let audit = ChartAudit(
      snapshots: try chart([
        [
          Line(song: 1, rank: 1, previous: nil, peak: 1, weeks: 1),
          Line(song: 2, rank: 2, previous: nil, peak: 3, weeks: 1),
          Line(song: 3, rank: 3, previous: nil, peak: 4, weeks: 1),
          Line(song: 4, rank: 4, previous: nil, peak: 5, weeks: 1),
        ],
        [
          Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 2),
          Line(song: 2, rank: 2, previous: 3, peak: 2, weeks: 2),
          Line(song: 3, rank: 3, previous: 4, peak: 3, weeks: 2),
          Line(song: 4, rank: 4, previous: 5, peak: 4, weeks: 2),
        ],
      ]))
    #expect(audit.disagreements.isEmpty)
    #expect(audit.agreements.map(\.agreeing) == [8, 8, 8, 0, 0])
  }

  @Test func oneMisrankedEntryIsARankShift() throws {
    // Week 1 swapped songs 2 and 3: their own peaks and week 2's previous ranks say so.
    let audit = ChartAudit(
      snapshots: try chart([
        [
          Line(song: 1, rank: 1, previous: nil, peak: 1, weeks: 1),
          Line(song: 2, rank: 2, previous: nil, peak: 3, weeks: 1),
          Line(song: 3, rank: 3, previous: nil, peak: 2, weeks: 1),
        ],
        [
          Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 2),
          Line(song: 2, rank: 2, previous: 3, peak: 2, weeks: 2),
          Line(song: 3, rank: 3, previous: 2, peak: 2, weeks: 2),
        ],
      ]))
    #expect(
      audit.disagreements.map { "\($0.chartDate) \($0.entry.rank) \($0.figure.rawValue)" } == [
        "2024-01-10 2 peak_position", "2024-01-10 3 peak_position", "2024-01-11 2 previous_rank",
        "2024-01-11 3 previous_rank", "2024-01-11 3 peak_position",
      ])
    #expect(Set(audit.disagreements.map(\.cause)) == [.rankShift])
  }

  @Test func twoClaimsOnOnePreviousRankAreATie() throws {
    // Songs 4 and 5 were tied at 4; the source kept song 4 only.
    let audit = ChartAudit(
      snapshots: try chart([
        firstWeek,
        [
          Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 2),
          Line(song: 2, rank: 2, previous: 2, peak: 2, weeks: 2),
          Line(song: 4, rank: 3, previous: 4, peak: 3, weeks: 2),
          Line(song: 5, rank: 4, previous: 4, peak: 4, weeks: 2),
        ],
      ]))
    let previousRank = audit.disagreements.filter { $0.figure == .previousRank }
    #expect(previousRank.map(\.entry.rank) == [4])
    #expect(previousRank.map(\.cause) == [.tie])
  }

  @Test func oneTitleSplitOverTwoSongsIsACreditChange() throws {
    // Song 9 is song 3 under another credit that the archive did not join.
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 3, rank: 1, previous: nil, peak: 1, weeks: 1, title: "Hit", artist: "Ann")],
        [Line(song: 9, rank: 1, previous: 1, peak: 1, weeks: 2, title: "Hit", artist: "Ann, Bo")],
        [Line(song: 9, rank: 2, previous: 1, peak: 1, weeks: 3, title: "Hit", artist: "Ann, Bo")],
      ]))
    #expect(audit.disagreements.map(\.figure) == [.previousRank, .weeksOnChart, .weeksOnChart])
    #expect(audit.disagreements.map(\.cause) == [.creditChange, .creditChange, .creditChange])
  }

  @Test func twoSongsOfOneTitleAndArtistAreTwoRecordings() throws {
    // A reissue (song 2) that the source counts as the first recording's run (peak carried).
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 1, rank: 4, previous: nil, peak: 4, weeks: 1, title: "Melody")],
        [Line(song: 5, rank: 4, previous: nil, peak: 4, weeks: 1)],
        [Line(song: 2, rank: 78, previous: nil, peak: 4, weeks: 1, title: "Melody")],
      ]))
    #expect(audit.disagreements.map(\.figure) == [.peakPosition])
    #expect(audit.disagreements.map(\.cause) == [.twoRecordings])
  }

  @Test func aMissingSnapshotIsASourceGapAndItsWeekCounts() throws {
    // The source's chart between the two snapshots is not in the archive: week 2's previous ranks
    // speak of it (no common offset), and its weeks on chart count it.
    let first = (1...6).map { Line(song: Int64($0), rank: $0, previous: nil, peak: $0, weeks: 1) }
    let previousRanks = [3, 6, 1, 5, 2, 4]
    let third = (1...6).map {
      Line(
        song: Int64($0), rank: $0, previous: previousRanks[$0 - 1],
        peak: min($0, previousRanks[$0 - 1]), weeks: 3)
    }
    let audit = ChartAudit(snapshots: try chart([first, third]))
    #expect(
      ChartFigures.decideAll(try chart([first, third])).map(\.followsMissingSnapshot) == [
        false, true,
      ])
    // Every previous rank, and the peaks reached on the missing chart, disagree.
    #expect(
      audit.disagreements.map { "\($0.entry.rank) \($0.figure.rawValue)" } == [
        "1 previous_rank", "2 previous_rank", "3 previous_rank", "3 peak_position",
        "4 previous_rank", "5 previous_rank", "5 peak_position", "6 previous_rank",
        "6 peak_position",
      ])
    #expect(Set(audit.disagreements.map(\.cause)) == [.sourceGap])
    // Weeks on chart count the missing chart for every song with a previous rank after it.
    #expect(audit.agreements.map(\.agreeing)[2] == 12)
  }

  @Test func aFirstEntryCountingEarlierWeeksIsASourceGap() throws {
    // The source says five weeks; nothing earlier in the archive has the title.
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 1, rank: 1, previous: nil, peak: 1, weeks: 5)],
        [Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 6)],
      ]))
    #expect(audit.disagreements.map(\.figure) == [.weeksOnChart, .weeksOnChart])
    #expect(audit.disagreements.map(\.cause) == [.sourceGap, .sourceGap])
  }

  @Test func anythingElseIsUnexplainedAndACarriedDifferenceKeepsItsCause() throws {
    // A peak of 1 that no rank of the song, nor any neighbour, explains.
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 1, rank: 5, previous: nil, peak: 5, weeks: 1)],
        [Line(song: 1, rank: 6, previous: 5, peak: 1, weeks: 2)],
        [Line(song: 1, rank: 7, previous: 6, peak: 1, weeks: 3)],
      ]))
    #expect(audit.disagreements.map(\.figure) == [.peakPosition, .peakPosition])
    #expect(audit.disagreements.map(\.cause) == [.unexplained, .unexplained])
    #expect(audit.causeCounts == [.unexplained: 2])
  }

  @Test func aPeakFromBeforeTheArchiveKeepsItsCauseWhileTheSongClimbs() throws {
    // A re-issue whose published peak of 6 dates from before the archive: the derived peak
    // improves from 12 to 9 to 8, the published one stays 6, for the same reason each week.
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 1, rank: 12, previous: nil, peak: 6, weeks: 20)],
        [Line(song: 1, rank: 9, previous: 12, peak: 6, weeks: 21)],
        [Line(song: 1, rank: 8, previous: 9, peak: 6, weeks: 22)],
      ]))
    #expect(
      audit.disagreements.map(\.figure) == [
        .peakPosition, .weeksOnChart, .peakPosition, .weeksOnChart, .peakPosition, .weeksOnChart,
      ])
    #expect(audit.disagreements.map(\.derived) == [12, 1, 9, 2, 8, 3])
    #expect(audit.causeCounts == [.sourceGap: 6])
  }

  @Test func onlyTheChosenDatesAreAudited() throws {
    let audit = ChartAudit(
      snapshots: try chart([
        [Line(song: 1, rank: 1, previous: nil, peak: 1, weeks: 5)],
        [Line(song: 1, rank: 1, previous: 1, peak: 1, weeks: 6)],
      ]), from: try ChartDate(iso8601: "2024-01-11"))
    #expect(audit.agreements.map(\.compared) == [1, 1, 1, 0, 0])
    #expect(audit.disagreements.map(\.chartDate.iso8601) == ["2024-01-11"])
  }
}
