import ChartRanking
import Testing

/// The figures of a source that contradicts the archive, and what deciding them notes: each case
/// from its smallest input, the snapshots as their files give them.
struct ContradictingSourceTests {
  /// A chart's first snapshot in the archive keeps the previous ranks its source published: the
  /// snapshot they speak of is not there to contradict them (a chart app's feed imported from
  /// one day on was "corrected" to all new, a note for each entry).
  @Test func aFirstSnapshotKeepsItsPublishedPreviousRanks() throws {
    let chart = try LinkedChart(
      [.feed("2024-05-05", [("A", "X", 2), ("B", "Y", 1), ("C", "Z", 0)])], frequency: .daily)
    #expect(chart.hasNoNotes)
    #expect(chart.shown("2024-05-05") == ["1 up 2 1 1", "2 down 1 2 1", "3 new - 3 1"])
  }

  @Test func aWeeklyFileSavedUnderAMidWeekDateCountsNoWeekTwice() throws {
    // 2024-01-11 holds the chart of 2024-01-13, which comes next as well.
    let saturday =
      [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)] as [(String, String, Int?, Int?, Int?)]
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]),
        .week("2024-01-11", saturday), .week("2024-01-13", saturday),
      ], frequency: .weekly)
    #expect(chart.notes("2024-01-11") == [])
    #expect(
      chart.notes("2024-01-13") == [
        .identicalToPrevious(previous: try ChartDate(iso8601: "2024-01-11"), countsNoNewWeek: true)
      ])
    // Two weeks on chart, as the source says, not three.
    #expect(chart.shown("2024-01-13") == ["1 up 2 1 2", "2 down 1 1 2"])
    // One week at number one for B, as weeks on chart count them.
    let history = try #require(chart.histories(titled: "B").first)
    #expect(history.peakPosition == 1)
    #expect(history.weeksAtPeak == 1)
    #expect(history.weeksOnChart == 2)
    #expect(chart.histories(titled: "A").map(\.weeksAtPeak) == [1])
    #expect(chart.histories(titled: "A").map(\.weeksOnChart) == [2])
    #expect(chart.audit.disagreements.isEmpty)
  }

  @Test func aPartialRunsWeeksNeverGoBackWhereTheSourceDisagreesForNoCause() throws {
    // 10* weeks, then a published 15 that nothing explains: the archive's own 2 was given, and
    // the run was no longer partial.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("P", "X", nil, 1, 10)]),
        .week("2024-01-13", [("P", "X", 1, 1, 15)]),
      ], frequency: .weekly)
    #expect(chart.shown("2024-01-13") == ["1 unchanged 1 1 11"])
    // The source's 11, marked as such: the archive's own count is 2.
    let figures = try #require(chart.placements("2024-01-13").first?.figures)
    #expect(figures.isPartialRun)
    #expect(figures.archiveWeeksOnChart == 2)
  }

  @Test func songsTiedOnThePreviousSnapshotMayClaimThePlacesAfterTheirRank() throws {
    // B and C tied at 2: C's previous rank 3 was corrected (2!) and left unexplained.
    let chart = try LinkedChart(
      [
        FileSnapshot(
          date: "2024-01-06", publishesPreviousRank: true,
          entries: [
            ChartEntry(rank: 1, title: "A", artist: "X"),
            ChartEntry(rank: 2, title: "B", artist: "X"),
            ChartEntry(rank: 2, title: "C", artist: "X"),
          ]),
        .week(
          "2024-01-13", [("C", "X", 3, nil, nil), ("B", "X", 2, nil, nil), ("A", "X", 1, nil, nil)]),
      ], frequency: .weekly)
    #expect(chart.hasNoNotes)
    #expect(chart.shown("2024-01-13") == ["1 up 3 1 2", "2 unchanged 2 2 2", "3 down 1 1 2"])
    #expect(chart.audit.causeCounts == [.tie: 1])
  }

  @Test func aWeekMissingBetweenTwoSnapshotsLetsTheSourceSayASongWasAway() throws {
    // 2024-01-13 is missing: the source's "not on the previous chart" for A, at 1 on 2024-01-06,
    // was overruled (– 1!), though A may well have been away on 2024-01-13.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]),
        .week("2024-01-20", [("A", "X", nil, 1, 2), ("B", "Y", 2, 2, 3)]),
      ], frequency: .weekly)
    #expect(chart.hasNoNotes)
    // A re-entry; B's third week counts the missing one, on which the source had it at 2.
    #expect(chart.shown("2024-01-20") == ["1 re-entry - 1 2", "2 unchanged 2 2 3"])
  }

  @Test func aPartialRunGoesOnFromItsGivenFiguresThroughAWeekWithoutThem() throws {
    // The source counts 20 weeks and a peak of 1 before the archive's first week; the second
    // week's file publishes neither: the peak fell to 3 and the weeks to 2, and the third week's
    // 1 and 22 were unexplained.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("X1", "Y", nil, 1, 1), ("A", "X", 1, 1, 20)]),
        .week("2024-01-13", [("X1", "Y", 1, nil, nil), ("A", "X", 2, nil, nil)]),
        .week("2024-01-20", [("A", "X", 2, 1, 22), ("X1", "Y", 1, 1, 3)]),
      ], frequency: .weekly)
    #expect(chart.shown("2024-01-13")[1] == "2 unchanged 2 1 21")
    #expect(chart.shown("2024-01-20")[0] == "1 up 2 1 22")
    // A's history: every week's weeks on chart are the source's, and the peak of 1 too until the
    // song reached it in the archive (the rows `2 ▼1 1 1* 20*`, `2 – 2 1* 21*`, `1 ▲1 2 1 22*`).
    let history = try #require(chart.histories(titled: "A").first)
    let figures = history.placements.map(\.figures)
    #expect(history.placements.map(\.rank) == [2, 2, 1])
    #expect(figures.map(\.movement) == [.down(1), .unchanged, .up(1)])
    #expect(figures.map(\.previousRank) == [1, 2, 2])
    #expect(figures.map(\.peakPosition) == [1, 1, 1])
    #expect(figures.map(\.archivePeakPosition) == [2, 2, 1])
    #expect(figures.map(\.weeksOnChart) == [20, 21, 22])
    #expect(figures.map(\.archiveWeeksOnChart) == [1, 2, 3])
    #expect(figures.map(\.isPartialRun) == [true, true, true])
    // The weeks without published figures are compared with nothing; the others are source gaps.
    #expect(chart.audit.causeCounts == [.sourceGap: 4])
  }

  @Test func historyMarksTheFiguresThatAreTheSourcesAsTheTableDoes() throws {
    // Weeks from before the archive, but a published peak worse than the rank: the peak is the
    // archive's own, unmarked in the table, and was marked 1* under it.
    let chart = try LinkedChart(
      [.week("2024-01-06", [("A", "X", nil, 5, 10)])], frequency: .weekly)
    #expect(chart.shown("2024-01-06") == ["1 re-entry - 1 10"])
    let history = try #require(chart.histories(titled: "A").first)
    let figures = try #require(history.placements.first?.figures)
    // The row `1 RE 1 10*`.
    #expect(figures.archivePeakPosition == 1)
    #expect(figures.isPartialRun)
    #expect(figures.archiveWeeksOnChart == 1)
    // Peak position 1 (1 week at peak), weeks on chart 10*.
    #expect(history.peakPosition == 1)
    #expect(!history.peakIsTheSources)
    #expect(history.weeksAtPeak == 1)
    #expect(history.weeksOnChart == 10)
    #expect(history.weeksOnChartAreTheSources)
  }

  @Test func aDailyChartSavedTwiceIsSaidSoAndCountsItsDays() throws {
    let day = [("A", "X", nil, nil), ("B", "Y", nil, nil)] as [(String, String, String?, Int?)]
    let chart = try LinkedChart(
      [.unranked("2024-05-01", day), .unranked("2024-05-02", day)], frequency: .daily)
    // Nothing says it is not the next day's chart: it counts.
    #expect(
      chart.notes("2024-05-02") == [
        .identicalToPrevious(
          previous: try ChartDate(iso8601: "2024-05-01"), countsNoNewWeek: false)
      ])
    #expect(chart.shown("2024-05-02") == ["1 unchanged 1 1 2", "2 unchanged 2 2 2"])
  }

  @Test func aWeekThatLostItsPublishedFiguresMovesAsTheArchiveSays() throws {
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]),
        .week("2024-01-13", [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)]),
        .week("2024-01-20", [("A", "X", nil, nil, nil), ("B", "Y", nil, nil, nil)]),
      ], frequency: .weekly)
    #expect(chart.notes("2024-01-06") == [])
    #expect(chart.notes("2024-01-13") == [])
    #expect(chart.notes("2024-01-20") == [.lostPublishedFigures])
    // Not RE for every entry.
    #expect(chart.shown("2024-01-20") == ["1 up 2 1 3", "2 down 1 1 3"])
    #expect(
      chart.placements("2024-01-20").map(\.figures.previousRankSource) == [.derived, .derived])
  }

  @Test func aNumberOneSaidToBeNewAndLastWeeksNumberOneIsNew() throws {
    // billboard.py's isNew: true with lastPos: 1, while another song held #1 last week.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("Y", "B", nil, 1, 1)]),
        .week("2024-01-13", [("X", "A", 1, 1, 1), ("Y", "B", 1, 1, 2)]),
      ], frequency: .weekly)
    #expect(
      chart.notes("2024-01-13") == [
        .correctedPreviousRank(rank: 1, title: "X", published: 1, given: nil)
      ])
    #expect(chart.shown("2024-01-13") == ["1 new - 1 1", "2 down 1 1 2"])
    #expect(
      chart.placements("2024-01-13").map(\.figures.previousRankSource) == [.corrected, .published])
  }

  @Test func aPreviousRankNamingAnotherSongOfTheSnapshotBeforeIsCorrectedInAShortSnapshot() throws {
    // A one-entry feed after a two-entry one: its previous rank 2 names B. It was kept as a
    // source gap (a short snapshot), and the diff counted place 2 twice: C up from 2, B dropped
    // out.
    let chart = try LinkedChart(
      [
        .feed("2024-05-05", [("A", "X", 0), ("B", "Y", 0)]),
        .feed("2024-05-06", [("C", "Z", 2)]),
      ], frequency: .daily)
    #expect(
      chart.notes("2024-05-06") == [
        .correctedPreviousRank(rank: 1, title: "C", published: 2, given: nil)
      ])
    #expect(chart.shown("2024-05-06") == ["1 new - 1 1"])
    let diff = SnapshotDiff(
      previous: chart.entries("2024-05-05"), placements: chart.placements("2024-05-06"))
    #expect(diff.dropOuts.map(\.entry.title) == ["A", "B"])
    #expect(diff.arrivals.map(\.movement) == [.debut])
  }

  @Test func aPreviousRankNamingAnotherSongIsCorrectedThoughTheSourceCountsEarlierWeeks() throws {
    // C's weeks on chart (5) are more than the archive holds, which a source gap explains; its
    // previous rank 2, naming B on the week before, which the archive holds, it does not.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]),
        .week("2024-01-13", [("A", "X", 1, 1, 2), ("C", "Z", 2, 2, 5)]),
      ], frequency: .weekly)
    #expect(
      chart.notes("2024-01-13") == [
        .correctedPreviousRank(rank: 2, title: "C", published: 2, given: nil)
      ])
    // A re-entry (the source counts earlier weeks), with the source's peak and weeks: the
    // archive lacks the start of its run.
    #expect(chart.shown("2024-01-13") == ["1 unchanged 1 1 2", "2 re-entry - 2 5"])
  }

  @Test func peaksFromBeforeAChartsFirstWeekAreTheSourcesThoughSeveralShareAnOffset() throws {
    // C, D and E charted before the archive's first week, each two places above its rank: taken
    // for shifted ranks, their peaks were the archive's (3, 4, 5) beside the source's weeks.
    let chart = try LinkedChart(
      [
        .week(
          "2024-01-06",
          [
            ("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1), ("C", "Z", nil, 1, 9),
            ("D", "W", nil, 2, 9), ("E", "V", nil, 3, 9),
          ])
      ], frequency: .weekly)
    #expect(chart.hasNoNotes)
    #expect(
      chart.shown("2024-01-06") == [
        "1 new - 1 1", "2 new - 2 1", "3 re-entry - 1 9", "4 re-entry - 2 9", "5 re-entry - 3 9",
      ])
    #expect(
      Set(chart.audit.disagreements.map { "\($0.figure.rawValue) \($0.cause.rawValue)" }) == [
        "peak_position source gap", "weeks_on_chart source gap",
      ])
  }

  @Test func aSongSaidNotToBeOnThePreviousChartThoughItWasIsCorrected() throws {
    // A at 1 on both weeks, its second without a previous rank: it was a re-entry, and the
    // history counted two runs with no week between them.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1)]),
        .week("2024-01-13", [("A", "X", nil, 1, 2)]),
      ], frequency: .weekly)
    #expect(
      chart.notes("2024-01-13") == [
        .correctedPreviousRank(rank: 1, title: "A", published: nil, given: 1)
      ])
    #expect(chart.shown("2024-01-13") == ["1 unchanged 1 1 2"])
    #expect(chart.histories(titled: "A").map(\.runs) == [1])
  }

  @Test func aPreviousRankNamingTheSameTitleBeforeItsSubtitleIsACreditChange() throws {
    // A subtitle added as the artists were written in another order ("Ever Since U Left Me" by
    // Max B & French Montana, then "… (I Went Deaf)" by French Montana & Max B): two songs to
    // the archive, and a previous rank it does not correct (it was called a source gap, which
    // the previous snapshot, held by the archive, rules out). The weeks on chart the source
    // counts before the archive's song are a source gap, given as the source's.
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("Song", "A & B", nil, 1, 1)]),
        .week("2024-01-13", [("Song (Sub)", "B & A", 1, 1, 2)]),
      ], frequency: .weekly)
    #expect(chart.hasNoNotes)
    #expect(
      chart.snapshot("2024-01-06").snapshot.songs != chart.snapshot("2024-01-13").snapshot.songs)
    #expect(chart.shown("2024-01-13") == ["1 unchanged 1 1 2"])
    #expect(
      chart.audit.disagreements.map { "\($0.figure.rawValue) \($0.cause.rawValue)" } == [
        "previous_rank credit change", "weeks_on_chart source gap",
      ])
  }

  @Test func aSnapshotRepeatingThePreviousOneKeepsItsSongsDebutsIncluded() throws {
    // The same week saved under the next date: the debut B (weeks on chart 1) was made a second
    // recording, and the diff gave it as a drop-out beside its own debut.
    let repeated = [("A", "X", 1 as Int?, 1 as Int?, 2 as Int?), ("B", "Y", nil, 2, 1)]
    let chart = try LinkedChart(
      [
        .week("2024-01-06", [("A", "X", nil, 1, 1)]), .week("2024-01-13", repeated),
        .week("2024-01-20", repeated),
      ], frequency: .weekly)
    #expect(chart.notes("2024-01-13") == [])
    #expect(
      chart.notes("2024-01-20") == [
        .identicalToPrevious(previous: try ChartDate(iso8601: "2024-01-13"), countsNoNewWeek: true)
      ])
    let diff = SnapshotDiff(
      previous: chart.entries("2024-01-13"), placements: chart.placements("2024-01-20"))
    #expect(diff.dropOuts.isEmpty)
    #expect(chart.histories(titled: "B").map(\.weeksOnChart) == [1])
  }

  @Test func aSongURLBackAfterADayAwayIsARentryOfTheSameSong() throws {
    // The source restarts its weeks on chart at 1; the URL says it is the same recording.
    let url = "https://open.spotify.com/track/a"
    let chart = try LinkedChart(
      [
        .unranked("2024-05-01", [("A", "X", url, 1), ("B", "Y", nil, 1)]),
        .unranked("2024-05-02", [("A", "X", url, 2), ("B", "Y", nil, 2)]),
        .unranked("2024-05-03", [("B", "Y", nil, 3)]),
        .unranked("2024-05-04", [("B", "Y", nil, 4), ("A", "X", url, 1)]),
      ], frequency: .daily)
    #expect(chart.shown("2024-05-04") == ["1 unchanged 1 1 4", "2 re-entry - 1 3"])
    #expect(chart.histories(titled: "A").count == 1)
  }

  @Test func aPreviousRankClaimedTwiceFarFromTheSongsIsCorrectedNotATie() throws {
    // A was at 1, and its file says 4, where D was and which D claims too: it was called a tie,
    // and A shown down 3 from 4.
    let songs = [("A", "X"), ("B", "Y"), ("C", "Z"), ("D", "W")]
    func day(_ date: String, _ last: [Int]) -> FileSnapshot {
      .feed(date, zip(songs, last).map { ($0.0, $0.1, $1) })
    }
    let chart = try LinkedChart(
      [day("2024-05-01", [0, 0, 0, 0]), day("2024-05-02", [4, 2, 3, 4])], frequency: nil)
    #expect(
      chart.notes("2024-05-02") == [
        .correctedPreviousRank(rank: 1, title: "A", published: 4, given: 1)
      ])
    #expect(
      chart.shown("2024-05-02") == [
        "1 unchanged 1 1 2", "2 unchanged 2 2 2", "3 unchanged 3 3 2", "4 unchanged 4 4 2",
      ])
  }
}
