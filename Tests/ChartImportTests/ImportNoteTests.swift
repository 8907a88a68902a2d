import ChartImport
import ChartRanking
import ChartStorage
import Testing

/// What storing finds that an import reports (``ImportReport/notes``): each case from its
/// smallest input, with every note the import gives it and its exact words.
struct ImportNoteTests {
  @Test func anHourlyChartOffItsRhythmIsToldInGoodEnglish() throws {
    // "a hourly chart's snapshots".
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let report = try importFiles(
      [
        (
          "kr-hourly/2024-05-05T12-00.json",
          nativeSnapshot(
            "kr-hourly", "2024-05-05T12:00:00Z", [("A", "X", nil, nil)], frequency: "hourly")
        ),
        (
          "kr-hourly/2024-05-05T15-00.json",
          nativeSnapshot(
            "kr-hourly", "2024-05-05T15:00:00Z", [("B", "Y", nil, nil)], frequency: "hourly")
        ),
      ], into: archive)
    #expect(
      report.notes.map(\.kind) == [
        .offRhythm(previous: try ChartDate(iso8601: "2024-05-05T12:00:00Z"), frequency: .hourly)
      ])
    #expect(
      noted(report) == [
        "kr-hourly 2024-05-05T15:00:00Z is 3 hours after the chart's previous snapshot"
          + " (2024-05-05T12:00:00Z); an hourly chart's snapshots are 1 hour apart: a snapshot"
          + " missing, or a date that is not the chart's?"
      ])
  }

  @Test func aWeeklyFileSavedUnderAMidWeekDateIsOffRhythmAndARepeat() throws {
    // 2024-01-11 holds the chart of 2024-01-13, which comes next as well.
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let saturday = billboardWeek("2024-01-13", [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)])
    let report = try importFiles(
      [
        (
          "hot/2024-01-06.json",
          billboardWeek("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])
        ),
        ("hot/2024-01-11.json", saturday.replacing("2024-01-13", with: "2024-01-11")),
        ("hot/2024-01-13.json", saturday),
      ], into: archive)
    #expect(
      report.notes.map(\.kind) == [
        .offRhythm(previous: try ChartDate(iso8601: "2024-01-06"), frequency: .weekly),
        .offRhythm(previous: try ChartDate(iso8601: "2024-01-11"), frequency: .weekly),
        .figures(
          .identicalToPrevious(
            previous: try ChartDate(iso8601: "2024-01-11"), countsNoNewWeek: true)),
      ])
    #expect(
      noted(report) == [
        "hot 2024-01-11 is 5 days after the chart's previous snapshot (2024-01-06); a weekly"
          + " chart's snapshots are 7 days apart: a snapshot missing, or a date that is not the"
          + " chart's?",
        "hot 2024-01-13 is 2 days after the chart's previous snapshot (2024-01-11); a weekly"
          + " chart's snapshots are 7 days apart: a snapshot missing, or a date that is not the"
          + " chart's?",
        "hot 2024-01-13 holds the same entries as 2024-01-11: the same chart saved under two"
          + " dates? It counts no new week on chart.",
      ])
  }

  @Test func aWeekMissingBetweenTwoSnapshotsIsNoted() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let report = try importFiles(
      [
        (
          "hot/2024-01-06.json",
          billboardWeek("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])
        ),
        (
          "hot/2024-01-20.json",
          billboardWeek("2024-01-20", [("A", "X", nil, 1, 2), ("B", "Y", 2, 2, 3)])
        ),
      ], into: archive)
    #expect(
      report.notes.map(\.kind) == [
        .offRhythm(previous: try ChartDate(iso8601: "2024-01-06"), frequency: .weekly)
      ])
    #expect(
      noted(report) == [
        "hot 2024-01-20 is 14 days after the chart's previous snapshot (2024-01-06); a weekly"
          + " chart's snapshots are 7 days apart: a snapshot missing, or a date that is not the"
          + " chart's?"
      ])
  }

  @Test func aDailyChartsSecondSnapshotOfADayIsHoursAfterTheFirst() throws {
    // It was "0 days after the chart's previous snapshot".
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let day = #"[{"title": "A", "artist": "X", "last": 0}]"#
    let report = try importFiles(
      [("app-daily/2024-05-02.json", day), ("app-daily/2024-05-02T12-00.json", day)],
      into: archive)
    #expect(
      report.notes.first?.kind
        == .offRhythm(previous: try ChartDate(iso8601: "2024-05-02"), frequency: .daily))
    #expect(
      noted(report).first?.hasPrefix(
        "app-daily 2024-05-02T12:00:00Z is 12 hours after the chart's previous snapshot"
          + " (2024-05-02); a daily chart's snapshots are 1 day apart") == true)
  }

  @Test func twoEntriesWithOneSongURLAreNoted() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let url = "https://open.spotify.com/track/a"
    let report = try importFiles(
      [
        (
          "d/1.json",
          nativeSnapshot("d", "2024-05-01", [("A", "X", url, nil), ("A", "X", url, nil)])
        )
      ], into: archive)
    #expect(report.notes.map(\.kind) == [.sameSongURLTwice(url: url, ranks: [1, 2])])
    #expect(
      noted(report) == [
        "d 2024-05-01: ranks 1, 2 have the same song URL (\(url)), which names one recording"
      ])
  }

  @Test func aSongURLJoiningAnotherTitleAndArtistIsNoted() throws {
    // The URL says one recording, so one song; but a title and artist it never charted under
    // were joined to it without a word (shown unchanged, in its second week).
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let url = "https://music.example.com/track/1"
    let report = try importFiles(
      [
        ("d/1.json", nativeSnapshot("d", "2024-05-01", [("Alpha", "One", url, nil)])),
        ("d/2.json", nativeSnapshot("d", "2024-05-02", [("Alpha", "One feat. Two", url, nil)])),
        ("d/3.json", nativeSnapshot("d", "2024-05-03", [("Other", "Someone", url, nil)])),
      ], into: archive)
    // A featured artist added is no note: the title is the song's.
    #expect(
      report.notes.map(\.kind) == [
        .songURLOfAnotherCredit(
          rank: 1, title: "Other", artist: "Someone", url: url, otherTitle: "Alpha",
          otherArtist: "One")
      ])
    #expect(
      noted(report) == [
        "d 2024-05-03 rank 1 'Other' by Someone has the song URL of 'Alpha' by One (\(url)): one"
          + " recording, so one song; a wrong URL in the source?"
      ])
  }

  @Test func aNoteWritesBidirectionalControlsOfATitleAsEscapes() throws {
    // The title's U+202E reversed the rest of the warning's line on a terminal.
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let url = "https://music.example.com/track/1"
    let report = try importFiles(
      [
        ("d/1.json", nativeSnapshot("d", "2024-05-01", [("Alpha", "One", url, nil)])),
        (
          "d/2.json",
          nativeSnapshot("d", "2024-05-02", [("\u{202E}Other", "Some\u{2067}one", url, nil)])
        ),
      ], into: archive)
    #expect(
      noted(report) == [
        "d 2024-05-02 rank 1 '\\u{202E}Other' by Some\\u{2067}one has the song URL of 'Alpha' by"
          + " One (\(url)): one recording, so one song; a wrong URL in the source?"
      ])
  }

  @Test func aNewChartNamedLikeAnotherIsNoted() throws {
    // The chart hot100 given for hot-100 made a second chart of the same weeks without a word.
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let first = try importFiles(
      [("1.json", nativeSnapshot("hot-100", "2024-05-04", [("A", "X", nil, nil)]))],
      into: archive)
    #expect(first.notes.isEmpty)
    let second = [("2.json", nativeSnapshot("hot-100", "2024-05-11", [("A", "X", nil, nil)]))]
    let misspelt = try importFiles(second, into: archive, options: ImportOptions(chart: "hot100"))
    #expect(misspelt.imported == 1)
    #expect(misspelt.notes.map(\.kind) == [.newChartNamedLike(names: ["hot-100"])])
    #expect(
      noted(misspelt) == [
        "hot100 2024-05-11 starts a new chart, named like the archive's hot-100: a misspelled"
          + " chart name? (chart-archive charts lists them)"
      ])
    // A chart named unlike the others is no note.
    let other = try importFiles(
      second, into: archive, options: ImportOptions(chart: "hot-100-airplay"))
    #expect(other.imported == 1)
    #expect(other.notes.isEmpty)
  }

  /// The notes of deciding figures (see ``ChartFigures/Note``, whose cases ChartRankingTests
  /// decide), as an import words them: each kind from its smallest input, files (name, text)
  /// and the words.
  static let decidingNotes: [(files: [(String, String)], words: String)] = [
    (
      [
        (
          "hot/2024-01-06.json",
          billboardWeek("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])
        ),
        (
          "hot/2024-01-13.json",
          billboardWeek("2024-01-13", [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)])
        ),
        (
          "hot/2024-01-20.json",
          billboardWeek("2024-01-20", [("A", "X", nil, nil, nil), ("B", "Y", nil, nil, nil)])
        ),
      ],
      "hot 2024-01-20: the source gives no previous rank, peak or weeks on chart for any entry,"
        + " after snapshots that had them; its movements are derived from the archive"
    ),
    (
      [
        (
          "app-daily/2024-05-01.json",
          #"[{"title": "A", "artist": "X"}, {"title": "B", "artist": "Y"}]"#
        ),
        (
          "app-daily/2024-05-02.json",
          #"[{"title": "A", "artist": "X"}, {"title": "B", "artist": "Y"}]"#
        ),
      ],
      "app-daily 2024-05-02 holds the same entries as 2024-05-01: the same chart saved under two"
        + " dates?"
    ),
    (
      [
        (
          "feed-daily/2024-05-05.json",
          #"[{"title": "A", "artist": "X", "last": 0}, {"title": "B", "artist": "Y", "last": 0}]"#
        ),
        ("feed-daily/2024-05-06.json", #"[{"title": "C", "artist": "Z", "last": 2}]"#),
      ],
      "feed-daily 2024-05-06 rank 1 'C': the published previous rank 2 cannot be right (the source"
        + " says the song is new, or the archive's previous snapshot has another song there); the"
        + " archive gives none (not on it)"
    ),
    (
      [
        (
          "hot/2024-01-06.json",
          billboardWeek("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])
        ),
        (
          "hot/2024-01-13.json",
          billboardWeek("2024-01-13", [("A", "X", 1, 1, 2), ("C", "Z", 2, 2, 5)])
        ),
      ],
      "hot 2024-01-13 rank 2 'C': the published previous rank 2 cannot be right (the source says"
        + " the song is new, or the archive's previous snapshot has another song there); the"
        + " archive gives none (not on it)"
    ),
    (
      [
        ("hot/2024-01-06.json", billboardWeek("2024-01-06", [("A", "X", nil, 1, 1)])),
        ("hot/2024-01-13.json", billboardWeek("2024-01-13", [("A", "X", nil, 1, 2)])),
      ],
      "hot 2024-01-13 rank 1 'A': the source says the song was not on the previous chart, and the"
        + " archive's previous snapshot has it at 1; the archive gives 1"
    ),
    (
      [
        (
          "feed/2024-05-01.json",
          #"[{"title":"A","artist":"X","last":0},{"title":"B","artist":"Y","last":0},"#
            + #"{"title":"C","artist":"Z","last":0},{"title":"D","artist":"W","last":0}]"#
        ),
        (
          "feed/2024-05-02.json",
          #"[{"title":"A","artist":"X","last":4},{"title":"B","artist":"Y","last":2},"#
            + #"{"title":"C","artist":"Z","last":3},{"title":"D","artist":"W","last":4}]"#
        ),
      ],
      "feed 2024-05-02 rank 1 'A': the published previous rank 4 cannot be right (the source says"
        + " the song is new, or the archive's previous snapshot has another song there); the"
        + " archive gives 1"
    ),
  ]

  @Test(arguments: decidingNotes)
  func aNoteOfDecidingFiguresIsWorded(files: [(String, String)], words: String) throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    #expect(noted(try importFiles(files.map { ($0.0, $0.1) }, into: archive)) == [words])
  }
}
