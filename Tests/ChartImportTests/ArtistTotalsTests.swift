import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// The artist leaderboards kept at each write (`artist_totals`, ``ArtistTotals``) are what a scan
/// of every entry gives, after every kind of write: snapshots appended one at a time, one stored
/// before the others, one replaced or deleted, songs joined and split by hand, and artists decided
/// again when a name charts on its own for the first time.
struct ArtistTotalsTests {
  /// Weeks of a chart of three, each with an edge the totals count: a featured artist's number
  /// one, a week that repeats the one before, two of one artist's songs tied at number one, a
  /// re-entry at number one higher than the song ever was, a debut at number one, an act kept whole
  /// (Tam & Reed) until one of its names charts alone (Tam, the last week).
  static let weeks: [(String, [(Int, String, String)])] = [
    ("2024-01-06", [(1, "One", "Ana"), (2, "Two", "Cy"), (3, "Three", "Cy")]),
    (
      "2024-01-13", [(1, "Four", "Bo Featuring Ana"), (2, "One", "Ana"), (3, "Glow", "Tam & Reed")]
    ),
    (
      "2024-01-20", [(1, "Four", "Bo Featuring Ana"), (2, "One", "Ana"), (3, "Glow", "Tam & Reed")]
    ),
    ("2024-01-27", [(1, "Five", "Ana"), (1, "Six", "Ana"), (3, "Two", "Cy")]),
    ("2024-02-03", [(1, "Three", "Cy"), (2, "Seven", "Dee Featuring Cy"), (3, "Eight", "Eve")]),
    ("2024-02-10", [(1, "Nine", "Fay"), (2, "Three", "Cy"), (3, "Seven", "Dee Featuring Cy")]),
    ("2024-02-17", [(1, "Solo", "Tam"), (2, "Nine", "Fay"), (3, "Glow", "Tam & Reed")]),
  ]

  /// Each kept leaderboard of chart `c` (every row: `rank name figure first…last`), which must be
  /// kept for the archive's version, and the same leaderboards from a scan of the entries (a span
  /// from 1900 on, which the totals never answer).
  static func keptAndScanned(_ archive: Archive, chart name: String = "c") throws -> (
    kept: [[String]], scanned: [[String]]
  ) {
    func lines(_ rows: [ArtistLeaderboard.Row]) -> [String] {
      rows.map { "\($0.rank) \($0.artist.name) \($0.figure) \($0.firstDate)…\($0.lastDate)" }
    }
    return try archive.read { reader in
      // Every row kept, not only each leaderboard's top 100, is what the check counts.
      #expect(try reader.check().first { $0.kind == .artistTotals }?.findings == [])
      let chart = try reader.chartID(name)
      var kept: [[String]] = []
      var scanned: [[String]] = []
      for figure in ArtistLeaderboard.Figure.allCases {
        let rows = try reader.keptArtistRows(figure, chartID: chart, limit: 100)
        kept.append(try lines(#require(rows, "\(figure) is not kept")))
        scanned.append(
          lines(
            try reader.artistLeaderboard(
              figure, chart: name, from: try ChartDate(iso8601: "1900-01-01"), limit: 100
            ).rows))
      }
      return (kept, scanned)
    }
  }

  /// Imports weeks, each in a write of its own.
  static func importEach(
    _ weeks: ArraySlice<(String, [(Int, String, String)])>, into archive: Archive
  )
    throws
  {
    for (date, entries) in weeks {
      try archive.importing { try $0.store(try snapshot(date, entries)) }
    }
  }

  @Test func snapshotsAppendedOneAtATimeAreCountedAsTheScanCountsThem() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    for index in Self.weeks.indices.dropLast() {
      try Self.importEach(Self.weeks[index...index], into: archive)
      let (kept, scanned) = try Self.keptAndScanned(archive)
      #expect(kept == scanned, "after \(Self.weeks[index].0)")
    }
    let kept = try Self.keptAndScanned(archive).kept
    let figures = Dictionary(
      uniqueKeysWithValues: zip(ArtistLeaderboard.Figure.allCases, kept))
    // Ana: One, Four (featured) two weeks, Five and Six tied at number 1 one week.
    #expect(
      figures[.weeksAtNumberOne] == [
        "1 Ana 4 2024-01-06…2024-01-27", "2 Bo 2 2024-01-13…2024-01-20",
        "3 Cy 1 2024-02-03…2024-02-03", "3 Fay 1 2024-02-10…2024-02-10",
      ])
    #expect(
      figures[.numberOnes] == [
        "1 Ana 4 2024-01-06…2024-01-27", "2 Bo 1 2024-01-13…2024-01-20",
        "2 Cy 1 2024-02-03…2024-02-03", "2 Fay 1 2024-02-10…2024-02-10",
      ])
    #expect(
      figures[.entriesAtOnce] == [
        "1 Ana 2 2024-01-13…2024-01-27", "1 Cy 2 2024-01-06…2024-02-10",
        "3 Bo 1 2024-01-13…2024-01-20", "3 Dee 1 2024-02-03…2024-02-10",
        "3 Eve 1 2024-02-03…2024-02-03", "3 Fay 1 2024-02-10…2024-02-10",
        "3 Tam & Reed 1 2024-01-13…2024-01-20",
      ])
  }

  /// Weeks of a chart of 12 where songs move in and out of the top 10: a song that charted before
  /// and stays outside the top 10 counts for entries alone, which asks only whether it charted
  /// before; one that rises into the top 10 or to number one counts by its best rank before.
  @Test func songsOutsideTheTopTenAreCountedAsTheScanCountsThem() throws {
    /// Twelve entries: fillers by one artist, but for the places given.
    func week(_ places: [Int: (String, String)]) -> [(Int, String, String)] {
      (1...12).map { rank in
        let (title, artist) = places[rank] ?? ("Filler \(rank)", "Fil")
        return (rank, title, artist)
      }
    }
    let weeks: [(String, [(Int, String, String)])] = [
      ("2024-03-02", week([1: ("Up", "Ana"), 11: ("Low", "Bo"), 12: ("Slow", "Cy")])),
      // Low rises from 11 to 1; Up falls from 1 to 11; Deep debuts at 12.
      ("2024-03-09", week([1: ("Low", "Bo"), 11: ("Up", "Ana"), 12: ("Deep", "Dee")])),
      // Slow comes back at 5, higher than it was; Up and Low stay outside the top 10.
      ("2024-03-16", week([5: ("Slow", "Cy"), 11: ("Low", "Bo"), 12: ("Up", "Ana")])),
      // Deep comes back at 12, Up at 11: entries they had already.
      ("2024-03-23", week([11: ("Up", "Ana"), 12: ("Deep", "Dee")])),
    ]
    let archive = try Archive(path: ":memory:", access: .create)
    for index in weeks.indices {
      try Self.importEach(weeks[index...index], into: archive)
      let (kept, scanned) = try Self.keptAndScanned(archive)
      #expect(kept == scanned, "after \(weeks[index].0)")
    }
    let kept = try Self.keptAndScanned(archive).kept
    let figures = Dictionary(uniqueKeysWithValues: zip(ArtistLeaderboard.Figure.allCases, kept))
    #expect(
      figures[.entries] == [
        "1 Fil 10 2024-03-02…2024-03-23", "2 Ana 1 2024-03-02…2024-03-23",
        "2 Bo 1 2024-03-02…2024-03-16", "2 Cy 1 2024-03-02…2024-03-16",
        "2 Dee 1 2024-03-09…2024-03-23",
      ])
    #expect(
      figures[.topTens] == [
        "1 Fil 10 2024-03-02…2024-03-23", "2 Ana 1 2024-03-02…2024-03-02",
        "2 Bo 1 2024-03-09…2024-03-09", "2 Cy 1 2024-03-16…2024-03-16",
      ])
    #expect(
      figures[.numberOnes] == [
        "1 Ana 1 2024-03-02…2024-03-02", "1 Bo 1 2024-03-09…2024-03-09",
        "1 Fil 1 2024-03-16…2024-03-23",
      ])
  }

  @Test func everyOtherWriteAddsTheChartUpAgain() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try Self.importEach(Self.weeks[1...], into: archive)
    var (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    // Tam charts alone: the act is two artists now, on every week.
    #expect(!kept.joined().contains { $0.contains("Tam & Reed") })
    #expect(kept[2].contains("3 Tam 2 2024-01-13…2024-02-17"))

    // A week before the others.
    try Self.importEach(Self.weeks[0...0], into: archive)
    (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[0].first == "1 Ana 4 2024-01-06…2024-01-27")

    // A week replaced: Nine by another artist.
    try archive.importing {
      try $0.store(
        try snapshot("2024-02-10", [(1, "Nine", "Gus"), (2, "Three", "Cy"), (3, "Two", "Cy")]),
        replacing: true)
    }
    (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[4].contains("1 Cy 2 2024-01-06…2024-02-10"))

    // Songs joined by hand, then undone.
    let before = kept
    let one = try archive.read { try $0.songs(matching: "One") }[0].id
    let five = try archive.read { try $0.songs(matching: "Five") }[0].id
    try archive.correct(.merge([one, five]))
    (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[0].first == "1 Ana 3 2024-01-06…2024-01-27")
    try archive.undoDecision(1)
    (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept == before)

    // The latest week deleted.
    try archive.correct(
      .deleteSnapshot(chart: "c", chartDate: try ChartDate(iso8601: "2024-02-17")))
    (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(!kept.joined().contains { $0.contains("2024-02-17") })
  }

  /// A name that charts alone for the first time on one chart splits an act on another: the other
  /// chart, where the act's song is, is added up again.
  @Test func artistsDecidedAgainAddUpTheChartsOfTheirSongs() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing {
      try $0.store(
        try snapshot("2024-01-06", [(1, "Glow", "Tam & Reed"), (2, "Dim", "Ola")], chart: "d"))
      try $0.store(try snapshot("2024-01-06", [(1, "One", "Ana")]))
    }
    #expect(
      try Self.keptAndScanned(archive, chart: "d").kept[2] == [
        "1 Ola 1 2024-01-06…2024-01-06", "1 Tam & Reed 1 2024-01-06…2024-01-06",
      ])
    try archive.importing { try $0.store(try snapshot("2024-01-13", [(1, "Solo", "Tam")])) }
    let (kept, scanned) = try Self.keptAndScanned(archive, chart: "d")
    #expect(kept == scanned)
    #expect(
      kept[2] == [
        "1 Ola 1 2024-01-06…2024-01-06", "1 Reed 1 2024-01-06…2024-01-06",
        "1 Tam 1 2024-01-06…2024-01-06",
      ])
    #expect(
      try Self.keptAndScanned(archive).kept[2] == [
        "1 Ana 1 2024-01-06…2024-01-06", "1 Tam 1 2024-01-13…2024-01-13",
      ])
  }

  /// An archive of schema version 16 that holds snapshots has its totals added up by the upgrade
  /// (and its snapshots indexed by size, version 18).
  @Test func theMigrationAddsUpEveryChart() throws {
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      try Self.importEach(Self.weeks[...], into: archive)
      try archive.write { writer in
        try writer.database.execute(
          "DROP INDEX snapshots_by_size; DROP TABLE artist_totals; DROP TABLE artist_totals_kept;"
            + " PRAGMA user_version = 16")
      }
    }
    let archive = try Archive(path: file.path, access: .write)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[1].count == 8)
  }

  /// Totals kept for another version of the archive (one changed by other means) are not read:
  /// the leaderboards come from the entries.
  @Test func totalsOfAnotherVersionAreLeftToTheScan() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try Self.importEach(Self.weeks[...], into: archive)
    let whole = try archive.read { try $0.artistLeaderboard(.entries, chart: "c") }
    try archive.write { writer in
      try writer.database.execute("UPDATE artist_totals SET total = 99")
      try writer.database.execute("UPDATE artist_totals_kept SET version = version - 1")
    }
    #expect(try archive.read { try $0.artistLeaderboard(.entries, chart: "c") } == whole)
    #expect(whole.rows.first?.figure == 4)
  }

  // MARK: - Added up from the write's own entries

  /// The writer of an import, kept to ask it afterwards how it added the totals up.
  static func importing(into archive: Archive, _ body: (SnapshotStore) throws -> Void) throws
    -> ArchiveWriter
  {
    var writer: ArchiveWriter?
    try archive.importing { store in
      writer = store.writer
      try body(store)
    }
    return try #require(writer)
  }

  /// A chart the write creates is added up from the entries it stored (``ChartEntryLog``), to the
  /// totals a scan of its rows gives.
  @Test func aChartCreatedByTheWriteIsAddedUpFromTheEntriesItStored() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let writer = try Self.importing(into: archive) { store in
      for (date, entries) in Self.weeks { try store.store(try snapshot(date, entries)) }
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 1)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[0].first == "1 Ana 4 2024-01-06…2024-01-27")
    #expect(kept[3].first == "1 Ana 4 2024-01-06…2024-01-27")
  }

  /// A snapshot stored before the chart's latest ends the log: the chart is added up from its
  /// rows.
  @Test func aSnapshotStoredBeforeTheLatestEndsTheLog() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let writer = try Self.importing(into: archive) { store in
      for (date, entries) in Self.weeks.reversed() {
        try store.store(try snapshot(date, entries))
      }
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 0)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[0].first == "1 Ana 4 2024-01-06…2024-01-27")
  }

  /// A file undone in its savepoint ends every log: the rows it held are gone.
  @Test func aSavepointRolledBackEndsTheLogs() throws {
    struct Undo: Error {}
    let archive = try Archive(path: ":memory:", access: .create)
    let writer = try Self.importing(into: archive) { store in
      for (date, entries) in Self.weeks.dropLast() {
        try store.store(try snapshot(date, entries))
      }
      #expect(throws: Undo.self) {
        try store.inSavepoint {
          try store.store(try snapshot(Self.weeks.last!.0, Self.weeks.last!.1))
          throw Undo()
        }
      }
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 0)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(!kept.joined().contains { $0.contains("2024-02-17") })
  }

  /// The log follows an entry tied to another song and figures decided again, as the write
  /// changes their rows: a week at number 1 made a repeat of the week before (the same weeks on
  /// chart), which counts no new week, and an entry tied to another song of the artist.
  @Test func theLogFollowsSongsLinkedAgainAndFiguresDecidedAgain() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let writer = try Self.importing(into: archive) { store in
      for (date, entries) in Self.weeks.prefix(3) {
        try store.store(try snapshot(date, entries))
      }
      try store.finish()
      let chart = try #require(try store.reader.chart(named: "c")).id
      let repeated = try #require(
        try store.reader.snapshot(
          ofChart: chart, at: try ChartDate(iso8601: "2024-01-20").secondsSince1970))
      let entries = try store.reader.entries(of: repeated.id)
      // "Four" at number 1 with the weeks on chart of the week before.
      try store.writer.updateFigures(
        EntryFigures(
          previousRank: 1, previousRankSource: .derived, movement: .unchanged, peakPosition: 1,
          weeksOnChart: 1, run: 1),
        of: entries[0].entry, at: 0, in: repeated.id)
      // "Glow" at number 3 tied to "One".
      try store.writer.setSong(entries[1].song, ofEntryAt: 2, in: repeated.id)
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 1)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[3] == ["1 Ana 2 2024-01-06…2024-01-13", "2 Bo 1 2024-01-13…2024-01-13"])
    #expect(kept[4].first == "1 Ana 3 2024-01-20…2024-01-20")
  }

  /// The body of a trigger on `snapshots` that keeps each chart's latest two snapshots.
  static let keepTwoBody = """
    BEGIN
      DELETE FROM entries WHERE snapshot_id IN (SELECT id FROM snapshots
        WHERE chart_id = new.chart_id ORDER BY chart_time DESC LIMIT -1 OFFSET 2);
      DELETE FROM snapshots WHERE id IN (SELECT id FROM snapshots
        WHERE chart_id = new.chart_id ORDER BY chart_time DESC LIMIT -1 OFFSET 2);
    END
    """

  /// An archive with a trigger of the user's that keeps each chart's latest two snapshots.
  static func archiveKeepingTwoSnapshots() throws -> Archive {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { writer in
      try writer.database.execute(
        "CREATE TRIGGER keep_two AFTER INSERT ON snapshots " + keepTwoBody)
    }
    return archive
  }

  /// The entries leaderboard of the latest two weeks, all that the trigger keeps.
  static let entriesOfTheLatestTwoWeeks = [
    "1 Cy 2 2024-02-10…2024-02-10", "1 Tam 2 2024-02-17…2024-02-17",
    "3 Dee 1 2024-02-10…2024-02-10", "3 Fay 1 2024-02-10…2024-02-17",
    "3 Reed 1 2024-02-17…2024-02-17",
  ]

  /// A trigger of the user's on the archive's tables may change rows behind the writer (user
  /// triggers stay and run): this one keeps each chart's latest two snapshots. The write logs no
  /// entries, and its chart is added up from its rows.
  @Test func aUserTriggerOnTheArchivesTablesKeepsTheWriteFromLogging() throws {
    let archive = try Self.archiveKeepingTwoSnapshots()
    let writer = try Self.importing(into: archive) { store in
      for (date, entries) in Self.weeks { try store.store(try snapshot(date, entries)) }
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 0)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(
      kept[2] == Self.entriesOfTheLatestTwoWeeks)
  }

  /// The same trigger with one week imported per write: each write appends a week to a chart whose
  /// older weeks the trigger deleted, so the totals are added up again from the rows, not carried
  /// on with the appended week.
  @Test func aUserTriggerOnTheArchivesTablesKeepsAWriteFromAppendingToTheTotals() throws {
    let archive = try Self.archiveKeepingTwoSnapshots()
    for index in Self.weeks.indices {
      try Self.importEach(Self.weeks[index...index], into: archive)
      let (kept, scanned) = try Self.keptAndScanned(archive)
      #expect(kept == scanned, "after \(Self.weeks[index].0)")
    }
    #expect(
      try Self.keptAndScanned(archive).kept[2] == Self.entriesOfTheLatestTwoWeeks)
  }

  /// Triggers of the user's, each with the charts it is tried on (one week of each per write).
  static let usersTriggers: [(sql: String, charts: [String])] = [
    // Another chart's rows than the one being imported, before the insert.
    (
      """
      CREATE TRIGGER other BEFORE INSERT ON snapshots BEGIN
        DELETE FROM entries WHERE rank = 2 AND snapshot_id IN
          (SELECT id FROM snapshots WHERE chart_id <> new.chart_id);
      END
      """, ["c", "d"]
    ),
    // An entry kept from being stored.
    (
      "CREATE TRIGGER no_third BEFORE INSERT ON entries WHEN new.rank = 3"
        + " BEGIN SELECT RAISE(IGNORE); END", ["c"]
    ),
    // On songs, changing entries.
    (
      "CREATE TRIGGER on_songs AFTER INSERT ON songs BEGIN DELETE FROM entries WHERE rank = 3; END",
      ["c"]
    ),
    // The table named in capitals, as SQL allows: `sqlite_schema` keeps them.
    ("CREATE TRIGGER keep_two AFTER INSERT ON SNAPSHOTS " + keepTwoBody, ["c"]),
    // A trigger named as one of the archive's indexes (triggers have names of their own).
    ("CREATE TRIGGER entries_by_song AFTER INSERT ON snapshots " + keepTwoBody, ["c"]),
    // On the row every write changes once: an "after each write" hook.
    (
      "CREATE TRIGGER top_two AFTER UPDATE ON archive_version"
        + " BEGIN DELETE FROM entries WHERE rank > 2; END", ["c"]
    ),
  ]

  /// Whatever a user's trigger does to the rows, the totals kept after each write are those a scan
  /// counts. The last three failed before: a table named in capitals and a trigger named as an
  /// index were not seen, and the version's trigger ran after the totals were kept.
  @Test(arguments: usersTriggers.indices)
  func aUsersTriggerLeavesTheTotalsThoseAScanCounts(index: Int) throws {
    let (sql, charts) = Self.usersTriggers[index]
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { try $0.database.execute(sql) }
    for (date, entries) in Self.weeks {
      for chart in charts {
        try archive.importing { try $0.store(try snapshot(date, entries, chart: chart)) }
        let (kept, scanned) = try Self.keptAndScanned(archive, chart: chart)
        #expect(kept == scanned, "\(sql.prefix(40)): \(chart) after \(date)")
      }
    }
  }

  /// A temporary trigger of the writing connection is one too (`sqlite_temp_schema`).
  @Test func aTemporaryTriggerLeavesTheTotalsThoseAScanCounts() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write {
      try $0.database.execute(
        "CREATE TEMP TRIGGER keep_two AFTER INSERT ON main.snapshots " + Self.keepTwoBody)
    }
    for index in Self.weeks.indices {
      try Self.importEach(Self.weeks[index...index], into: archive)
      let (kept, scanned) = try Self.keptAndScanned(archive)
      #expect(kept == scanned, "after \(Self.weeks[index].0)")
    }
  }

  /// A chart created after a snapshot was stored under its ID (the writer checks references only
  /// before the commit) is not logged: its log would miss that snapshot.
  @Test func aChartWhoseIDASnapshotHoldsAlreadyIsNotLogged() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let figures = EntryFigures(
      previousRank: nil, previousRankSource: .derived, movement: .debut, peakPosition: 1,
      weeksOnChart: 1, run: 1)
    let writer = try Self.importing(into: archive) { store in
      var chart = ChartID(1)
      for (date, title, artist) in [("2024-01-06", "S", "Ana"), ("2024-01-13", "T", "Bo")] {
        if date == "2024-01-13" {
          chart = try store.writer.insertChart(named: "c", frequency: nil)
          #expect(chart == ChartID(1))
        }
        let id = try store.writer.insertSnapshot(
          ofChart: chart, chartDate: try ChartDate(iso8601: date), publishesPreviousRank: false,
          source: nil)
        let entry = ChartEntry(rank: 1, title: title, artist: artist)
        let song = try store.writer.insertSong(chartedAs: entry, keys: SongKeys(entry))
        try store.writer.insertEntries([entry], of: id, songs: [song], figures: [figures])
      }
    }
    #expect(writer.chartsAddedUpFromTheirLogs == 0)
    let (kept, scanned) = try Self.keptAndScanned(archive)
    #expect(kept == scanned)
    #expect(kept[0] == ["1 Ana 1 2024-01-06…2024-01-06", "1 Bo 1 2024-01-13…2024-01-13"])
  }
}
