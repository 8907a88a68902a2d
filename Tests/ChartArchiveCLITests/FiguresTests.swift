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

/// Figures from the command line, end to end: a corrected previous rank as the import warns of it
/// and `show` marks it, and a repeated week as `history` and the SQL views count it. The rules
/// themselves are ChartRankingTests' (figures, songs linked in a snapshot) and ChartImportTests'
/// (what an import notes, songs linked against the archive).
struct FiguresEndToEndTests {
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

  /// What SQL tools read agrees with `history`: a week saved twice, under a mid-week date and
  /// its own, counts once at peak in the `song_runs` view as it does in the history (the rule
  /// itself: ChartRankingTests' `aWeeklyFileSavedUnderAMidWeekDateCountsNoWeekTwice`).
  @Test func aWeekSavedTwiceCountsOnceAtPeakInTheViewsAndTheHistory() throws {
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
    // One week at number one for B, as weeks on chart count them: history and the SQL view alike.
    let history = try chartArchive(["history", "B", "--db", archive])
    #expect(history.output.contains("Peak position:  1 (1 week at peak)\nWeeks on chart: 2\n"))
    #expect(
      try rows(archive, "SELECT title, weeks_at_peak, weeks_on_chart FROM song_runs ORDER BY title")
        == ["A|1|2", "B|1|2"])
  }
}

/// `history` picks out one song among several of one title, and says which it could not choose
/// between.
struct SongChoiceTests {
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
        + "2,Hello,Queen Bee,1,2024-01-06,2,2\r\n3,Hello,Max & Queen Bee,1,2024-01-06,3,2\r\n")
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

/// What `report` says at a chart's edge: its first snapshot.
struct ArchiveEdgeTests {
  @Test func aChartsFirstSnapshotHasUnknownDropOuts() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "c/2024-05-01.json",
      #"{"chart": "c", "chart_date": "2024-05-01", "frequency": "daily", "#
        + #""entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#)
    #expect(try chartArchive(["import", file, "--db", archive]).status == 0)
    let table = try chartArchive(["report", "c", "--db", archive])
    #expect(
      table.output.hasSuffix(
        "\n\nDrop-outs: unknown (the archive holds no snapshot before this one)\n"))
    let report = try json(
      chartArchive(["report", "c", "--db", archive, "--format", "json"]).output)
    #expect(report["drop_outs"] is NSNull)
  }
}
