import Foundation
import Testing

/// A weekly chart file (the billboard format) of entries (title, artist, last week, peak, weeks).
private func week(_ date: String, _ entries: [(String, String, Int?, Int?, Int?)]) -> String {
  let lines = entries.enumerated().map { index, entry in
    func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    return #"{"song":"\#(entry.0)","artist":"\#(entry.1)","this_week":\#(index + 1),"#
      + #""last_week":\#(number(entry.2)),"peak_position":\#(number(entry.3)),"#
      + #""weeks_on_chart":\#(number(entry.4))}"#
  }
  return #"{"date":"\#(date)","data":[\#(lines.joined(separator: ","))]}"#
}

/// A chart-archive snapshot of one chart: entries (title, artist, song URL, weeks on chart).
private func native(
  _ chart: String, _ date: String, _ entries: [(String, String, String?, Int?)],
  frequency: String = "daily"
) -> String {
  let lines = entries.enumerated().map { index, entry in
    var fields = [
      #""rank": \#(index + 1)"#, #""title": "\#(entry.0)""#, #""artist": "\#(entry.1)""#,
    ]
    if let url = entry.2 { fields.append(#""song_url": "\#(url)""#) }
    if let weeks = entry.3 { fields.append(#""weeks_on_chart": \#(weeks)"#) }
    return "{" + fields.joined(separator: ", ") + "}"
  }
  return #"{"chart": "\#(chart)", "chart_date": "\#(date)", "frequency": "\#(frequency)", "#
    + #""entries": [\#(lines.joined(separator: ", "))]}"#
}

/// The figures `show` gives a snapshot, as `rank movement last peak weeks` lines.
private func shown(_ chart: String, _ date: String, archive: String) throws -> [String] {
  let run = try chartArchive(["show", chart, date, "--db", archive, "--format", "json"])
  #expect(run.status == 0, "\(run.error)")
  let entries = try #require(try json(run.output)["entries"] as? [[String: Any]])
  return entries.map { entry in
    [
      "\(entry["rank"] as? Int ?? 0)", entry["movement"] as? String ?? "?",
      (entry["previous_rank"] as? Int).map(String.init) ?? "-",
      "\(entry["peak_position"] as? Int ?? 0)", "\(entry["weeks_on_chart"] as? Int ?? 0)",
    ].joined(separator: " ")
  }
}

/// Writes `files` (each a path in a new folder, under the folder `chart`, and its text) and
/// imports the folder `chart` into a new archive, quietly.
private func imported(_ files: [(String, String)], chart: String) throws -> (
  folder: TemporaryFolder, archive: String, run: Run
) {
  let folder = try TemporaryFolder()
  let archive = folder.url.appendingPathComponent("a.sqlite").path
  for (path, text) in files { try folder.write("\(chart)/\(path)", text) }
  let run = try chartArchive([
    "import", folder.url.appendingPathComponent(chart).path, "--db", archive, "--quiet",
  ])
  return (folder, archive, run)
}

/// What a source that contradicts the archive gets: each case from its smallest input, with the
/// exact warning or error.
struct ContradictingSourceTests {
  /// A chart's first snapshot in the archive keeps the previous ranks its source published: the
  /// snapshot they speak of is not there to contradict them (a chart app's feed imported from
  /// one day on was "corrected" to all new, a warning for each entry).
  @Test func aFirstSnapshotKeepsItsPublishedPreviousRanks() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "feed-daily/2024-05-05.json",
      #"[{"title": "A", "artist": "X", "last": 2}, {"title": "B", "artist": "Y", "last": 1},"#
        + #" {"title": "C", "artist": "Z", "last": 0}]"#)
    let run = try chartArchive(["import", file, "--db", archive, "--quiet"])
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(
      try shown("feed-daily", "2024-05-05", archive: archive) == [
        "1 up 2 1 1", "2 down 1 2 1", "3 new - 3 1",
      ])
  }

  @Test func anHourlyChartOffItsRhythmIsToldInGoodEnglish() throws {
    // "a hourly chart's snapshots".
    let (folder, archive, run) = try imported(
      [
        (
          "2024-05-05T12-00.json",
          native("kr-hourly", "2024-05-05T12:00:00Z", [("A", "X", nil, nil)], frequency: "hourly")
        ),
        (
          "2024-05-05T15-00.json",
          native("kr-hourly", "2024-05-05T15:00:00Z", [("B", "Y", nil, nil)], frequency: "hourly")
        ),
      ], chart: "kr-hourly")
    _ = (folder, archive)
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: kr-hourly 2024-05-05T15:00:00Z is 3 hours after the chart's previous snapshot"
        + " (2024-05-05T12:00:00Z); an hourly chart's snapshots are 1 hour apart: a snapshot"
        + " missing, or a date that is not the chart's?\n")
  }

  @Test func aWeeklyFileSavedUnderAMidWeekDateCountsNoWeekTwice() throws {
    // 2024-01-11 holds the chart of 2024-01-13, which comes next as well.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write(
      "hot/2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]))
    let saturday = week("2024-01-13", [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)])
    try folder.write("hot/2024-01-11.json", saturday.replacing("2024-01-13", with: "2024-01-11"))
    try folder.write("hot/2024-01-13.json", saturday)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("hot").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-11 is 5 days after the chart's previous snapshot (2024-01-06); a"
        + " weekly chart's snapshots are 7 days apart: a snapshot missing, or a date that is not"
        + " the chart's?\n"
        + "warning: hot 2024-01-13 is 2 days after the chart's previous snapshot (2024-01-11); a"
        + " weekly chart's snapshots are 7 days apart: a snapshot missing, or a date that is not"
        + " the chart's?\n"
        + "warning: hot 2024-01-13 holds the same entries as 2024-01-11: the same chart saved under"
        + " two dates? It counts no new week on chart.\n")
    // Two weeks on chart, as the source says, not three.
    #expect(try shown("hot", "2024-01-13", archive: archive) == ["1 up 2 1 2", "2 down 1 1 2"])
    // One week at number one for B, as weeks on chart count them: history and the SQL view alike.
    let history = try chartArchive(["history", "B", "--db", archive])
    #expect(history.output.contains("Peak position:  1 (1 week at peak)\nWeeks on chart: 2\n"))
    #expect(
      try rows(archive, "SELECT title, weeks_at_peak, weeks_on_chart FROM song_runs ORDER BY title")
        == ["A|1|2", "B|1|2"])
    let audit = try chartArchive(["audit", "hot", "--db", archive, "--summary", "--format", "json"])
    let causes = try #require(try json(audit.output)["causes"] as? [[String: Any]])
    #expect(causes.allSatisfy { $0["disagreements"] as? Int == 0 })
  }

  @Test func aPartialRunsWeeksNeverGoBackWhereTheSourceDisagreesForNoCause() throws {
    // 10* weeks, then a published 15 that nothing explains: the archive's own 2 was given, and
    // the run was no longer partial.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("P", "X", nil, 1, 10)])),
        ("2024-01-13.json", week("2024-01-13", [("P", "X", 1, 1, 15)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(try shown("hot", "2024-01-13", archive: archive) == ["1 unchanged 1 1 11"])
    let history = try chartArchive(["history", "P", "--db", archive])
    #expect(history.output.contains("2024-01-13     1  –        1     1  11*\n"))
  }

  @Test func songsTiedOnThePreviousSnapshotMayClaimThePlacesAfterTheirRank() throws {
    // B and C tied at 2: C's previous rank 3 was corrected (2!) and left unexplained.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write(
      "hot/2024-01-06.json",
      week("2024-01-06", [("A", "X", nil, nil, nil), ("B", "X", nil, nil, nil)])
        .replacing(
          #""this_week":2"#, with: #""this_week":2},{"song":"C","artist":"X","this_week":2"#))
    try folder.write(
      "hot/2024-01-13.json",
      week(
        "2024-01-13", [("C", "X", 3, nil, nil), ("B", "X", 2, nil, nil), ("A", "X", 1, nil, nil)]))
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("hot").path, "--db", archive, "--quiet",
      "--allow-ties",
    ])
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(
      try shown("hot", "2024-01-13", archive: archive) == [
        "1 up 3 1 2", "2 unchanged 2 2 2", "3 down 1 1 2",
      ])
    let audit = try json(
      chartArchive(["audit", "hot", "--db", archive, "--summary", "--format", "json"]).output)
    let causes = try #require(audit["causes"] as? [[String: Any]])
    #expect(causes.first { $0["cause"] as? String == "tie" }?["disagreements"] as? Int == 1)
  }

  @Test func aWeekMissingBetweenTwoSnapshotsLetsTheSourceSayASongWasAway() throws {
    // 2024-01-13 is missing: the source's "not on the previous chart" for A, at 1 on 2024-01-06,
    // was overruled (– 1!), though A may well have been away on 2024-01-13.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])),
        ("2024-01-20.json", week("2024-01-20", [("A", "X", nil, 1, 2), ("B", "Y", 2, 2, 3)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-20 is 14 days after the chart's previous snapshot (2024-01-06); a"
        + " weekly chart's snapshots are 7 days apart: a snapshot missing, or a date that is not"
        + " the chart's?\n")
    // A re-entry; B's third week counts the missing one, on which the source had it at 2.
    #expect(
      try shown("hot", "2024-01-20", archive: archive) == [
        "1 re-entry - 1 2", "2 unchanged 2 2 3",
      ])
  }

  @Test func aPartialRunGoesOnFromItsGivenFiguresThroughAWeekWithoutThem() throws {
    // The source counts 20 weeks and a peak of 1 before the archive's first week; the second
    // week's file publishes neither: the peak fell to 3 and the weeks to 2, and the third week's
    // 1 and 22 were unexplained.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("X1", "Y", nil, 1, 1), ("A", "X", 1, 1, 20)])),
        (
          "2024-01-13.json",
          week("2024-01-13", [("X1", "Y", 1, nil, nil), ("A", "X", 2, nil, nil)])
        ),
        ("2024-01-20.json", week("2024-01-20", [("A", "X", 2, 1, 22), ("X1", "Y", 1, 1, 3)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(try shown("hot", "2024-01-13", archive: archive)[1] == "2 unchanged 2 1 21")
    #expect(try shown("hot", "2024-01-20", archive: archive)[0] == "1 up 2 1 22")
    let history = try chartArchive(["history", "A", "--db", archive])
    #expect(
      history.output.contains(
        """
        2024-01-06     2  ▼1       1    1*  20*
        2024-01-13     2  –        2    1*  21*
        2024-01-20     1  ▲1       2     1  22*
        """))
    // The weeks without published figures are compared with nothing; the others are source gaps.
    let audit = try json(
      chartArchive(["audit", "hot", "--db", archive, "--summary", "--format", "json"]).output)
    let causes = try #require(audit["causes"] as? [[String: Any]])
    #expect(
      causes.compactMap { cause in
        (cause["disagreements"] as? Int).flatMap { $0 > 0 ? "\(cause["cause"]!) \($0)" : nil }
      } == ["source gap 4"])
  }

  @Test func historyMarksTheFiguresThatAreTheSourcesAsTheTableDoes() throws {
    // Weeks from before the archive, but a published peak worse than the rank: the peak is the
    // archive's own, unmarked in the table, and was marked 1* under it.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write("hot/2024-01-06.json", week("2024-01-06", [("A", "X", nil, 5, 10)]))
    #expect(try chartArchive(["import", file, "--db", archive, "--quiet"]).status == 0)
    let history = try chartArchive(["history", "A", "--db", archive])
    #expect(
      history.output.contains(
        """
        2024-01-06     1  RE             1  10*

        Peak position:  1 (1 week at peak)
        Weeks on chart: 10*
        """))
  }

  @Test func aDailyChartSavedTwiceIsSaidSoAndCountsItsDays() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let day = #"[{"title": "A", "artist": "X"}, {"title": "B", "artist": "Y"}]"#
    try folder.write("app-daily/2024-05-01.json", day)
    try folder.write("app-daily/2024-05-02.json", day)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("app-daily").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    // Nothing says it is not the next day's chart: it counts.
    #expect(
      run.error
        == "warning: app-daily 2024-05-02 holds the same entries as 2024-05-01: the same chart"
        + " saved under two dates?\n")
    #expect(
      try shown("app-daily", "2024-05-02", archive: archive) == [
        "1 unchanged 1 1 2", "2 unchanged 2 2 2",
      ])
  }

  @Test func aWeekThatLostItsPublishedFiguresMovesAsTheArchiveSays() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write(
      "hot/2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)]))
    try folder.write(
      "hot/2024-01-13.json", week("2024-01-13", [("B", "Y", 2, 1, 2), ("A", "X", 1, 1, 2)]))
    try folder.write(
      "hot/2024-01-20.json",
      week("2024-01-20", [("A", "X", nil, nil, nil), ("B", "Y", nil, nil, nil)]))
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("hot").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-20: the source gives no previous rank, peak or weeks on chart for"
        + " any entry, after snapshots that had them; its movements are derived from the archive\n")
    // Not RE for every entry.
    #expect(try shown("hot", "2024-01-20", archive: archive) == ["1 up 2 1 3", "2 down 1 1 3"])
    let sources = try json(
      chartArchive(["show", "hot", "2024-01-20", "--db", archive, "--format", "json"]).output)
    #expect(
      (sources["entries"] as? [[String: Any]])?.compactMap { $0["previous_rank_source"] as? String }
        == ["derived", "derived"])
  }

  @Test func aNumberOneSaidToBeNewAndLastWeeksNumberOneIsNew() throws {
    // billboard.py's isNew: true with lastPos: 1, while another song held #1 last week.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    func file(_ date: String, _ entries: String) -> String {
      #"{"name": "hot", "date": "\#(date)", "entries": [\#(entries)]}"#
    }
    try folder.write(
      "hot/2024-01-06.json",
      file(
        "2024-01-06",
        #"{"title": "Y", "artist": "B", "rank": 1, "isNew": true, "lastPos": 0, "peakPos": 1, "weeks": 1}"#
      ))
    try folder.write(
      "hot/2024-01-13.json",
      file(
        "2024-01-13",
        #"{"title": "X", "artist": "A", "rank": 1, "isNew": true, "lastPos": 1, "peakPos": 1, "weeks": 1}, "#
          + #"{"title": "Y", "artist": "B", "rank": 2, "isNew": false, "lastPos": 1, "peakPos": 1, "weeks": 2}"#
      ))
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("hot").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-13 rank 1 'X': the published previous rank 1 cannot be right (the"
        + " source says the song is new, or the archive's previous snapshot has another song"
        + " there); the archive gives none (not on it)\n")
    #expect(try shown("hot", "2024-01-13", archive: archive) == ["1 new - 1 1", "2 down 1 1 2"])
    let table = try chartArchive(["show", "hot", "--db", archive])
    #expect(
      table.output
        == """
        hot · 2024-01-13 (previous: 2024-01-06)

        RANK  MOVE  LAST  PEAK  WKS  TITLE  ARTIST
           1  NEW      !     1    1  X      A
           2  ▼1       1     1    2  Y      B

        ! the source's previous rank cannot be right; the archive's is given

        """)
  }

  @Test func aPreviousRankNamingAnotherSongOfTheSnapshotBeforeIsCorrectedInAShortSnapshot()
    throws
  {
    // A one-entry feed after a two-entry one: its previous rank 2 names B. It was kept as a
    // source gap (a short snapshot), and `diff` counted place 2 twice: C up from 2, B dropped out.
    let (folder, archive, run) = try imported(
      [
        (
          "2024-05-05.json",
          #"[{"title": "A", "artist": "X", "last": 0}, {"title": "B", "artist": "Y", "last": 0}]"#
        ),
        ("2024-05-06.json", #"[{"title": "C", "artist": "Z", "last": 2}]"#),
      ], chart: "feed-daily")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: feed-daily 2024-05-06 rank 1 'C': the published previous rank 2 cannot be"
        + " right (the source says the song is new, or the archive's previous snapshot has another"
        + " song there); the archive gives none (not on it)\n")
    #expect(try shown("feed-daily", "2024-05-06", archive: archive) == ["1 new - 1 1"])
    let diff = try chartArchive(["diff", "feed-daily", "--db", archive, "--format", "json"])
    let body = try json(diff.output)
    #expect(
      (body["drop_outs"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["A", "B"])
    #expect(
      (body["arrivals"] as? [[String: Any]])?.compactMap { $0["movement"] as? String } == ["new"])
  }

  @Test func aPreviousRankNamingAnotherSongIsCorrectedThoughTheSourceCountsEarlierWeeks() throws {
    // C's weeks on chart (5) are more than the archive holds, which a source gap explains; its
    // previous rank 2, naming B on the week before, which the archive holds, it does not.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1)])),
        ("2024-01-13.json", week("2024-01-13", [("A", "X", 1, 1, 2), ("C", "Z", 2, 2, 5)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-13 rank 2 'C': the published previous rank 2 cannot be right (the"
        + " source says the song is new, or the archive's previous snapshot has another song"
        + " there); the archive gives none (not on it)\n")
    // A re-entry (the source counts earlier weeks), with the source's peak and weeks: the
    // archive lacks the start of its run.
    #expect(
      try shown("hot", "2024-01-13", archive: archive) == ["1 unchanged 1 1 2", "2 re-entry - 2 5"])
  }

  @Test func peaksFromBeforeAChartsFirstWeekAreTheSourcesThoughSeveralShareAnOffset() throws {
    // C, D and E charted before the archive's first week, each two places above its rank: taken
    // for shifted ranks, their peaks were the archive's (3, 4, 5) beside the source's weeks.
    let (folder, archive, run) = try imported(
      [
        (
          "2024-01-06.json",
          week(
            "2024-01-06",
            [
              ("A", "X", nil, 1, 1), ("B", "Y", nil, 2, 1), ("C", "Z", nil, 1, 9),
              ("D", "W", nil, 2, 9), ("E", "V", nil, 3, 9),
            ])
        )
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(
      try shown("hot", "2024-01-06", archive: archive) == [
        "1 new - 1 1", "2 new - 2 1", "3 re-entry - 1 9", "4 re-entry - 2 9", "5 re-entry - 3 9",
      ])
    let audit = try json(
      chartArchive(["audit", "hot", "--db", archive, "--format", "json"]).output)
    #expect(
      Set(
        (audit["disagreements"] as? [[String: Any]])?.map {
          "\($0["figure"] as? String ?? "") \($0["cause"] as? String ?? "")"
        } ?? []) == ["peak_position source gap", "weeks_on_chart source gap"])
  }

  @Test func aSongSaidNotToBeOnThePreviousChartThoughItWasIsCorrected() throws {
    // A at 1 on both weeks, its second without a previous rank: it was a re-entry, and the
    // history counted two runs with no week between them.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1)])),
        ("2024-01-13.json", week("2024-01-13", [("A", "X", nil, 1, 2)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-13 rank 1 'A': the source says the song was not on the previous"
        + " chart, and the archive's previous snapshot has it at 1; the archive gives 1\n")
    #expect(try shown("hot", "2024-01-13", archive: archive) == ["1 unchanged 1 1 2"])
    let history = try chartArchive(["history", "A", "--db", archive])
    #expect(!history.output.contains("Runs:"))
  }

  @Test func aPreviousRankNamingTheSameTitleBeforeItsSubtitleIsACreditChange() throws {
    // A subtitle added as the artists were written in another order ("Ever Since U Left Me" by
    // Max B & French Montana, then "… (I Went Deaf)" by French Montana & Max B): two songs to
    // the archive, and a previous rank it does not correct (it was called a source gap, which
    // the previous snapshot, held by the archive, rules out). The weeks on chart the source
    // counts before the archive's song are a source gap, given as the source's.
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("Song", "A & B", nil, 1, 1)])),
        ("2024-01-13.json", week("2024-01-13", [("Song (Sub)", "B & A", 1, 1, 2)])),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(try shown("hot", "2024-01-13", archive: archive) == ["1 unchanged 1 1 2"])
    let audit = try json(
      chartArchive(["audit", "hot", "--db", archive, "--format", "json"]).output)
    #expect(
      (audit["disagreements"] as? [[String: Any]])?.map {
        "\($0["figure"] as? String ?? "") \($0["cause"] as? String ?? "")"
      } == ["previous_rank credit change", "weeks_on_chart source gap"])
  }

  @Test func aSnapshotRepeatingThePreviousOneKeepsItsSongsDebutsIncluded() throws {
    // The same week saved under the next date: the debut B (weeks on chart 1) was made a second
    // recording, and `diff` gave it as a drop-out beside its own debut.
    let repeated = [("A", "X", 1 as Int?, 1 as Int?, 2 as Int?), ("B", "Y", nil, 2, 1)]
    let (folder, archive, run) = try imported(
      [
        ("2024-01-06.json", week("2024-01-06", [("A", "X", nil, 1, 1)])),
        ("2024-01-13.json", week("2024-01-13", repeated)),
        ("2024-01-20.json", week("2024-01-20", repeated)),
      ], chart: "hot")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot 2024-01-20 holds the same entries as 2024-01-13: the same chart saved"
        + " under two dates? It counts no new week on chart.\n")
    let diff = try json(
      chartArchive(["diff", "hot", "--db", archive, "--format", "json"]).output)
    #expect((diff["drop_outs"] as? [[String: Any]])?.isEmpty == true)
    let history = try chartArchive(["history", "B", "--db", archive])
    #expect(history.status == 0)
    #expect(!history.output.contains("recordings"))
    #expect(history.output.contains("Weeks on chart: 1\n"))
  }

  @Test func aDateAndTimeWithoutAZoneNeedsTheTimezoneOption() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "kr.json",
      #"{"chart": "kr-hourly", "chart_date": "2023-04-09 20:00:00", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    let refused = try chartArchive(["import", file, "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "\(file): field 'chart_date': '2023-04-09 20:00:00' is a date and time without a time"
        + " zone: pass --timezone ZONE (an IANA name such as Asia/Seoul)\n"
        + "Error: 1 of 1 file could not be imported; nothing was stored\n")
    let imported = try chartArchive(["import", file, "--db", archive, "--timezone", "Asia/Seoul"])
    #expect(imported.status == 0)
    #expect(imported.output.hasPrefix("imported  kr-hourly 2023-04-09T11:00:00Z  1 entry"))
    let badZone = try chartArchive(["import", file, "--db", archive, "--timezone", "Mars/Base"])
    #expect(badZone.status == 64)
    #expect(
      badZone.error.hasPrefix(
        "Error: --timezone 'Mars/Base' is not a time zone (an IANA name such as Asia/Seoul)\n"))
  }

  @Test func aFractionOfASecondIsRefusedAndAPeriodsFileTakesItsEnd() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let fraction = try folder.write(
      "f.json",
      #"{"chart": "c", "chart_date": "2024-01-06T13:00:00.5Z", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    let refused = try chartArchive(["import", fraction, "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error.hasPrefix(
        "\(fraction): field 'chart_date': '2024-01-06T13:00:00.5Z' has a fraction of a second;"
          + " chart dates are kept to the second\n"))
    let period = try folder.write(
      "spotify/regional-global-weekly-2019-12-27--2020-01-03.csv",
      "Position,\"Track Name\",Artist,Streams,URL\n1,A,X,100,https://open.spotify.com/track/a\n")
    let imported = try chartArchive(["import", period, "--db", archive])
    #expect(imported.output.hasPrefix("imported  spotify 2020-01-03  1 entry"))
    // Two dates that are no period: the first was taken.
    let twoDates = try folder.write(
      "feed-daily/2024-05-12_2024-05-13.json", #"[{"title": "A", "artist": "X"}]"#)
    let refused2 = try chartArchive(["import", twoDates, "--db", archive])
    #expect(refused2.status == 65)
    #expect(
      refused2.error
        == "\(twoDates): the file name holds more than one date (2024-05-12, 2024-05-13), and not"
        + " as a period START--END, whose end would be the chart date: pass --date YYYY-MM-DD or"
        + " name the file YYYY-MM-DD.json (or YYYY-MM-DDTHH-MM.json)\nError: 1 of 1 file could not"
        + " be imported; nothing was stored\n")
    #expect(
      try chartArchive(["import", twoDates, "--db", archive, "--date", "2024-05-13"]).status == 0)
  }

  @Test func aFrequencyOtherThanTheChartsIsRefused() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try chartArchive(["import", "Sample-data/app-daily", "--db", archive])
    let weekly = try folder.write(
      "w.json", native("app-daily", "2024-05-06", [("A", "X", nil, nil)], frequency: "weekly"))
    let run = try chartArchive(["import", weekly, "--db", archive])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(weekly): chart 'app-daily' is daily in the archive, and this snapshot is said to be"
        + " weekly (import it into another chart with --chart NAME, or give --frequency daily if"
        + " it is this chart)\nError: 1 of 1 file could not be imported; nothing was stored\n")
    #expect(
      try chartArchive(["import", weekly, "--db", archive, "--frequency", "daily"]).status == 0)
    // A file of a format of weekly charts alone is weekly, whatever the chart's name says: a week
    // of the Hot 100 given --chart app-daily went into the daily chart, and made a new archive's
    // app-daily daily.
    let hot100 = "Sample-data/hot-100/2024-01-13.json"
    let refused = try chartArchive(["import", hot100, "--chart", "app-daily", "--db", archive])
    #expect(refused.status == 65)
    #expect(refused.error.contains("chart 'app-daily' is daily in the archive, and this snapshot"))
    let other = folder.url.appendingPathComponent("b.sqlite").path
    #expect(
      try chartArchive(["import", hot100, "--chart", "app-daily", "--db", other, "--quiet"]).status
        == 0)
    #expect(try chartArchive(["charts", "--db", other]).output.contains("app-daily  weekly"))
  }
}

/// One song is one song: its URL, its first week on another chart, every credit it charted under.
struct SongIdentityCLITests {
  @Test func theSampleHot100ImportedNewestWeekFirstKeepsItsSongsAndFigures() throws {
    // One import per week, 2024-01-13 first: each earlier week linked the later ones again, and
    // each debut of the earlier week took a new song, so that Bellakeo's song (made by the first
    // import) was replaced, its ID lost and its rows numbered recording 4. The figures, as shown,
    // must be those of the archive imported oldest week first.
    let folder = try TemporaryFolder()
    let forward = folder.url.appendingPathComponent("forward.sqlite").path
    let backward = folder.url.appendingPathComponent("backward.sqlite").path
    #expect(
      try chartArchive(["import", "Sample-data/hot-100", "--db", forward, "--quiet"]).status == 0)
    let weeks = ["2024-01-13", "2023-12-30", "2024-01-06", "2023-12-23"]
    func bellakeo() throws -> [String] {
      let history = try json(
        chartArchive(["history", "Bellakeo", "--db", backward, "--format", "json"]).output)
      return try #require(history["recordings"] as? [[String: Any]]).map {
        "\($0["recording"] as? Int ?? 0) \($0["song_id"] as? Int ?? 0)"
      }
    }
    var first: [String] = []
    for week in weeks {
      let run = try chartArchive(
        ["import", "Sample-data/hot-100/\(week).json", "--db", backward, "--quiet"])
      #expect(run.status == 0, "\(week): \(run.error)")
      if first.isEmpty { first = try bellakeo() }
    }
    #expect(first.count == 1)
    #expect(try bellakeo() == first)
    for week in weeks {
      let show = ["show", "hot-100", week, "--format", "json", "--db"]
      #expect(
        try chartArchive(show + [backward]).output == chartArchive(show + [forward]).output,
        "\(week)")
    }
  }

  @Test func aSongURLBackAfterADayAwayIsARentryOfTheSameSong() throws {
    // The source restarts its weeks on chart at 1; the URL says it is the same recording.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let url = "https://open.spotify.com/track/a"
    try folder.write(
      "d/1.json", native("d", "2024-05-01", [("A", "X", url, 1), ("B", "Y", nil, 1)]))
    try folder.write(
      "d/2.json", native("d", "2024-05-02", [("A", "X", url, 2), ("B", "Y", nil, 2)]))
    try folder.write("d/3.json", native("d", "2024-05-03", [("B", "Y", nil, 3)]))
    try folder.write(
      "d/4.json", native("d", "2024-05-04", [("B", "Y", nil, 4), ("A", "X", url, 1)]))
    #expect(
      try chartArchive(["import", folder.url.appendingPathComponent("d").path, "--db", archive])
        .status == 0)
    #expect(
      try shown("d", "2024-05-04", archive: archive) == ["1 unchanged 1 1 4", "2 re-entry - 1 3"])
    let history = try json(
      chartArchive(["history", "A", "--db", archive, "--format", "json"]).output)
    #expect((history["recordings"] as? [Any])?.count == 1)
  }

  @Test func aPreviousRankClaimedTwiceFarFromTheSongsIsCorrectedNotATie() throws {
    // A was at 1, and its file says 4, where D was and which D claims too: it was called a tie,
    // and A shown down 3 from 4.
    let songs = [("A", "X"), ("B", "Y"), ("C", "Z"), ("D", "W")]
    func day(_ last: [Int]) -> String {
      let rows = zip(songs, last).map { song, rank in
        #"{"title":"\#(song.0)","artist":"\#(song.1)","last":\#(rank)}"#
      }
      return "[" + rows.joined(separator: ",") + "]"
    }
    let (folder, archive, run) = try imported(
      [("2024-05-01.json", day([0, 0, 0, 0])), ("2024-05-02.json", day([4, 2, 3, 4]))],
      chart: "feed")
    _ = folder
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: feed 2024-05-02 rank 1 'A': the published previous rank 4 cannot be right (the"
        + " source says the song is new, or the archive's previous snapshot has another song"
        + " there); the archive gives 1\n")
    #expect(
      try shown("feed", "2024-05-02", archive: archive) == [
        "1 unchanged 1 1 2", "2 unchanged 2 2 2", "3 unchanged 3 3 2", "4 unchanged 4 4 2",
      ])
  }

  @Test func twoEntriesWithOneSongURLAreAWarning() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let url = "https://open.spotify.com/track/a"
    let file = try folder.write(
      "d/1.json", native("d", "2024-05-01", [("A", "X", url, nil), ("A", "X", url, nil)]))
    let run = try chartArchive(["import", file, "--db", archive, "--quiet"])
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: d 2024-05-01: ranks 1, 2 have the same song URL (\(url)), which names one"
        + " recording\n")
  }

  @Test func aDailyChartsSecondSnapshotOfADayIsHoursAfterTheFirst() throws {
    // It was "0 days after the chart's previous snapshot".
    let day = #"[{"title": "A", "artist": "X", "last": 0}]"#
    let (_, _, run) = try imported(
      [("2024-05-02.json", day), ("2024-05-02T12-00.json", day)], chart: "app-daily")
    #expect(run.status == 0)
    #expect(
      run.error.hasPrefix(
        "warning: app-daily 2024-05-02T12:00:00Z is 12 hours after the chart's previous snapshot"
          + " (2024-05-02); a daily chart's snapshots are 1 day apart"))
  }

  @Test func aSongURLJoiningAnotherTitleAndArtistIsAWarning() throws {
    // The URL says one recording, so one song; but a title and artist it never charted under
    // were joined to it without a word (shown unchanged, in its second week).
    let url = "https://music.example.com/track/1"
    let (_, _, run) = try imported(
      [
        ("1.json", native("d", "2024-05-01", [("Alpha", "One", url, nil)])),
        ("2.json", native("d", "2024-05-02", [("Alpha", "One feat. Two", url, nil)])),
        ("3.json", native("d", "2024-05-03", [("Other", "Someone", url, nil)])),
      ], chart: "d")
    #expect(run.status == 0)
    // A featured artist added is no warning: the title is the song's.
    #expect(
      run.error
        == "warning: d 2024-05-03 rank 1 'Other' by Someone has the song URL of 'Alpha' by One"
        + " (\(url)): one recording, so one song; a wrong URL in the source?\n")
  }

  @Test func aNewChartNamedLikeAnotherIsAWarning() throws {
    // `--chart hot100` for hot-100 made a second chart of the same weeks without a word.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let first = try folder.write(
      "1.json", native("hot-100", "2024-05-04", [("A", "X", nil, nil)]))
    let second = try folder.write(
      "2.json", native("hot-100", "2024-05-11", [("A", "X", nil, nil)]))
    #expect(try chartArchive(["import", first, "--db", archive, "--quiet"]).error == "")
    let run = try chartArchive(["import", second, "--chart", "hot100", "--db", archive, "--quiet"])
    #expect(run.status == 0)
    #expect(
      run.error
        == "warning: hot100 2024-05-11 starts a new chart, named like the archive's hot-100: a"
        + " misspelled chart name? (chart-archive charts lists them)\n")
    // A chart named unlike the others is no warning.
    let third = try chartArchive([
      "import", second, "--chart", "hot-100-airplay", "--db", archive, "--quiet",
    ])
    #expect(third.status == 0)
    #expect(third.error == "")
  }

  @Test func aFirstWeekOnASecondChartIsTheSameSong() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("us/2024-05-01.json", native("us", "2024-05-01", [("Song", "Band", nil, 1)]))
    try folder.write("uk/2024-05-02.json", native("uk", "2024-05-02", [("Song", "Band", nil, 1)]))
    let paths = ["us", "uk"].map { folder.url.appendingPathComponent($0).path }
    #expect(try chartArchive(["import"] + paths + ["--db", archive]).status == 0)
    let history = try json(
      chartArchive(["history", "song", "--db", archive, "--format", "json"]).output)
    let recordings = try #require(history["recordings"] as? [[String: Any]])
    #expect(recordings.count == 1)
    #expect(
      (recordings.first?["charts"] as? [[String: Any]])?.compactMap { $0["chart"] as? String }
        == ["uk", "us"])
  }

  /// Area Codes by Kali, then Kaliii; Hello by Queen Bee and by Max & Queen Bee.
  func songs() throws -> (TemporaryFolder, String) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write(
      "hot/2024-01-06.json",
      week(
        "2024-01-06",
        [
          ("Area Codes", "Kali", nil, 1, 1), ("Hello", "Queen Bee", nil, 2, 1),
          ("Hello", "Max & Queen Bee", nil, 3, 1),
        ]))
    try folder.write(
      "hot/2024-01-13.json",
      week(
        "2024-01-13",
        [
          ("Area Codes", "Kaliii", 1, 1, 2), ("Hello", "Queen Bee", 2, 2, 2),
          ("Hello", "Max & Queen Bee", 3, 3, 2),
        ]))
    #expect(
      try chartArchive(["import", folder.url.appendingPathComponent("hot").path, "--db", archive])
        .status == 0)
    return (folder, archive)
  }

  @Test func historyFindsASongByEveryCreditItChartedUnder() throws {
    let (folder, archive) = try songs()
    _ = folder
    for query in [
      ["Area Codes", "--artist", "Kaliii"], ["kaliii"], ["Area Codes", "--artist", "Kali"],
    ] {
      let run = try chartArchive(["history"] + query + ["--db", archive])
      #expect(run.status == 0, "\(query): \(run.error)")
      #expect(run.output.contains("Credit change:  2024-01-13 'Kali' → 'Kaliii' (one run)"))
    }
  }

  @Test func anExactCreditWinsAndEverySongCanBePickedOut() throws {
    let (folder, archive) = try songs()
    _ = folder
    let exact = try chartArchive(["history", "Hello", "--artist", "Queen Bee", "--db", archive])
    #expect(exact.status == 0)
    #expect(exact.output.hasPrefix("Hello — Queen Bee\n"))
    let both = try chartArchive(["history", "Hello", "--db", archive, "--format", "csv"])
    #expect(both.status == 1)
    #expect(
      both.output
        == "song_id,title,artist,recording,first_chart_date,best_rank,entries\r\n"
        + "3,Hello,Max & Queen Bee,1,2024-01-06,3,2\r\n2,Hello,Queen Bee,1,2024-01-06,2,2\r\n")
    let picked = try chartArchive(["history", "--song", "3", "--db", archive])
    #expect(picked.status == 0)
    #expect(picked.output.hasPrefix("Hello — Max & Queen Bee\n"))
    let artist = try chartArchive([
      "history", "--artist", "queen bee", "--db", archive, "--format", "csv",
    ])
    #expect(artist.status == 0)
    #expect(
      artist.output.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.count == 2)
    let missing = try chartArchive(["history", "--song", "99", "--db", archive])
    #expect(missing.status == 1)
    #expect(missing.error == "Error: no song with ID 99\n")
  }
}

/// What the archive says at its edges: a chart's first snapshot, a diff across a gap.
struct ArchiveEdgeTests {
  @Test func aChartsFirstSnapshotHasUnknownDropOuts() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "c/2024-05-01.json", native("c", "2024-05-01", [("A", "X", nil, nil)]))
    #expect(try chartArchive(["import", file, "--db", archive]).status == 0)
    let table = try chartArchive(["report", "c", "--db", archive])
    #expect(
      table.output.hasSuffix(
        "\n\nDrop-outs: unknown (the archive holds no snapshot before this one)\n"))
    let report = try json(
      chartArchive(["report", "c", "--db", archive, "--format", "json"]).output)
    #expect(report["drop_outs"] is NSNull)
  }

  @Test func aDiffAcrossAGapCallsASongNewWhenItFirstChartedAfterTheOlderDate() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("c/1.json", native("c", "2024-05-01", [("A", "X", nil, nil)]))
    try folder.write("c/2.json", native("c", "2024-05-02", [("B", "Y", nil, nil)]))
    try folder.write("c/3.json", native("c", "2024-05-03", [("C", "Z", nil, nil)]))
    // D's source counts 9 days: it charted before the archive's first of it, as `show`'s RE
    // says (the diff called it new).
    try folder.write(
      "c/4.json",
      native("c", "2024-05-04", [("A", "X", nil, nil), ("C", "Z", nil, nil), ("D", "W", nil, 9)]))
    #expect(
      try chartArchive(["import", folder.url.appendingPathComponent("c").path, "--db", archive])
        .status == 0)
    let diff = try json(
      chartArchive(["diff", "c", "2024-05-02", "2024-05-04", "--db", archive, "--format", "json"])
        .output)
    let arrivals = try #require(diff["arrivals"] as? [[String: Any]])
    // A charted on 2024-05-01, before the older date: back; C first charted after it: new.
    #expect(arrivals.compactMap { $0["title"] as? String } == ["A", "C", "D"])
    #expect(arrivals.compactMap { $0["movement"] as? String } == ["re-entry", "new", "re-entry"])
    #expect(
      try OneMovementTests.shownMovements("c", "2024-05-04", archive: archive)
        == ["1 re-entry -", "2 down 1", "3 re-entry -"])
  }
}

/// Every command gives an entry the one movement decided for it.
struct OneMovementTests {
  /// `(rank, movement, previous rank)` of each entry, as `show` gives them.
  static func shownMovements(_ chart: String, _ date: String, archive: String) throws -> [String] {
    let show = try json(
      chartArchive(["show", chart, date, "--db", archive, "--format", "json"]).output)
    return try #require(show["entries"] as? [[String: Any]]).map { entry in
      "\(entry["rank"] as? Int ?? 0) \(entry["movement"] as? String ?? "?")"
        + " \((entry["previous_rank"] as? Int).map(String.init) ?? "-")"
    }
  }

  @Test func showDiffReportAndHistoryAgreeOnEveryEntryOfTheSample() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    var pairs = 0
    var songsSeen: [String: [String: String]] = [:]  // title|artist → date → movement
    for chart in ["app-daily", "hot-100"] {
      let list = try json(
        chartArchive(["snapshots", chart, "--db", archive, "--format", "json"]).output)
      let dates = try #require(list["snapshots"] as? [[String: Any]]).compactMap {
        $0["chart_date"] as? String
      }
      for (older, newer) in zip(dates, dates.dropFirst()) {
        let diff = try json(
          chartArchive(["diff", chart, older, newer, "--db", archive, "--format", "json"]).output)
        let lines =
          ((diff["movements"] as? [[String: Any]]) ?? [])
          + ((diff["arrivals"] as? [[String: Any]]) ?? [])
        let diffed = lines.sorted { ($0["rank"] as? Int ?? 0) < ($1["rank"] as? Int ?? 0) }.map {
          "\($0["rank"] as? Int ?? 0) \($0["movement"] as? String ?? "?")"
            + " \(($0["older_rank"] as? Int).map(String.init) ?? "-")"
        }
        let shown = try Self.shownMovements(chart, newer, archive: archive)
        #expect(shown.count > 0)
        #expect(diffed == shown, "\(chart) \(older) → \(newer)")
        let report = try json(
          chartArchive(["report", chart, newer, "--db", archive, "--format", "json"]).output)
        for (section, kind) in [("debuts", "new"), ("reentries", "re-entry")] {
          let reported = try #require(report[section] as? [[String: Any]]).compactMap {
            $0["rank"] as? Int
          }
          #expect(
            reported
              == shown.filter { $0.split(separator: " ")[1] == kind }.compactMap {
                Int($0.split(separator: " ")[0])
              }, "\(chart) \(newer) \(section)")
        }
        pairs += 1
      }
      // Each song's history gives the same movement at each date as show.
      for date in dates {
        let show = try json(
          chartArchive(["show", chart, date, "--db", archive, "--format", "json"]).output)
        for entry in try #require(show["entries"] as? [[String: Any]]) {
          let key = "\(entry["title"] as? String ?? "")|\(entry["artist"] as? String ?? "")"
          songsSeen[key, default: [:]][date] = entry["movement"] as? String
        }
      }
      for (key, movements) in songsSeen.sorted(by: { $0.key < $1.key }).prefix(12) {
        let parts = key.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let history = try json(
          chartArchive([
            "history", parts[0], "--artist", parts[1], "--chart", chart, "--db", archive,
            "--format", "json",
          ]).output)
        let recordings = try #require(history["recordings"] as? [[String: Any]])
        var given: [String: String] = [:]
        for recording in recordings {
          for charted in recording["charts"] as? [[String: Any]] ?? []
          where charted["chart"] as? String == chart {
            for entry in charted["entries"] as? [[String: Any]] ?? [] {
              given[entry["chart_date"] as? String ?? ""] = entry["movement"] as? String
            }
          }
        }
        #expect(given == movements, "\(key)")
      }
      songsSeen = [:]
    }
    #expect(pairs == 7)
  }
}
