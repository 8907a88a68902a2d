import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// A snapshot of chart `c` with entries given as (rank, title, artist).
func snapshot(
  _ date: String, _ entries: [(Int, String, String)], chart: String = "c",
  previousRanks: [Int?]? = nil
) throws -> Snapshot {
  Snapshot(
    chart: chart, chartDate: try ChartDate(iso8601: date),
    publishesPreviousRank: previousRanks != nil,
    entries: entries.enumerated().map { index, entry in
      ChartEntry(
        rank: entry.0, title: entry.1, artist: entry.2,
        publishedPreviousRank: previousRanks?[index] ?? nil)
    })
}

/// A fresh archive file in a temporary folder, removed with the folder when the test ends.
final class TemporaryArchive {
  let folder: URL
  let path: String

  init() {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chart-archive-tests-\(UUID().uuidString)")
    path = folder.appendingPathComponent("archive.sqlite").path
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// An archive file holding one snapshot of chart `c`: A by X at 1 and B by Y at 2, 2024-01-06.
  static func holdingOneWeek() throws -> TemporaryArchive {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    return file
  }
}

struct ArchiveTests {
  @Test func createsTheSchemaAtTheLatestVersion() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    #expect(try archive.storedSchemaVersion() == Archive.schemaVersion)
    #expect(Archive.schemaVersion == 18)
  }

  @Test func queriesDoNotCreateAnArchive() {
    let file = TemporaryArchive()
    #expect(throws: ArchiveError.notFound(path: file.path)) {
      try Archive(path: file.path, access: .read)
    }
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test func refusesAnArchiveFromANewerVersion() throws {
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      _ = archive
    }
    try sqlite(file.path, "PRAGMA user_version = 19")
    #expect(throws: ArchiveError.newerSchema(path: file.path, version: 19, supported: 18)) {
      try Archive(path: file.path, access: .read)
    }
    #expect(
      ArchiveError.newerSchema(path: "a.sqlite", version: 7, supported: 1).description
        == "a.sqlite has schema version 7, written by a newer ChartArchive; this build knows"
        + " versions up to 1")
  }

  @Test func theFileHeaderShowsAnArchiveOfThisVersionInWriteAheadLogMode() throws {
    let file = TemporaryArchive()
    #expect(!ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    do { _ = try Archive(path: file.path, access: .create) }
    #expect(ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    try sqlite(file.path, "PRAGMA user_version = 19")
    #expect(!ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    try sqlite(file.path, "PRAGMA user_version = 17")
    #expect(!ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    try sqlite(file.path, "PRAGMA user_version = 18")
    #expect(ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    try sqlite(file.path, "PRAGMA journal_mode = DELETE")
    #expect(!ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    let text = TemporaryArchive()
    try FileManager.default.createDirectory(at: text.folder, withIntermediateDirectories: true)
    try Data(String(repeating: "SQLite format 3 but text\n", count: 8).utf8).write(
      to: URL(fileURLWithPath: text.path))
    #expect(!ArchiveOpening.headerShowsCurrentArchive(path: text.path))
  }

  /// A newer version committed to the archive's log, which a reader keeps from being copied into
  /// the file, is not in the file's header: opening the archive for writing still refuses it, and
  /// writes nothing.
  @Test func refusesANewerVersionStillInTheLogWhenOpeningForWriting() throws {
    let file = TemporaryArchive()
    do { _ = try Archive(path: file.path, access: .create) }
    let reader = try Database(path: file.path, mode: .readOnly)
    try reader.execute("BEGIN")
    #expect(try reader.row("SELECT count(*) FROM snapshots") { $0.int(at: 0) } == 0)
    let newer = try Database(path: file.path, mode: .readWrite)
    try newer.execute("PRAGMA user_version = 19")
    try newer.close()
    #expect(ArchiveOpening.headerShowsCurrentArchive(path: file.path))
    #expect(throws: ArchiveError.newerSchema(path: file.path, version: 19, supported: 18)) {
      try Archive(path: file.path, access: .write)
    }
    try reader.execute("COMMIT")
    #expect(try reader.row("PRAGMA user_version") { $0.int(at: 0) } == 19)
  }

  @Test(
    .enabled(
      if: ReadOnlyFile.canBeMade,
      "no file can be made read-only here (root without chattr's immutable attribute): skipped"))
  func anOlderArchiveThatCannotBeWrittenIsRefusedSayingWhatItsUpgradeNeeds() throws {
    // It was refused with SQLite's words about `PRAGMA journal_mode = WAL`.
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: file.path, mode: .create)
      try database.execute(Migrations.all[0].sql + "PRAGMA user_version = 1;")
    }
    try #require(ReadOnlyFile.make(file.path))
    defer { ReadOnlyFile.undo(file.path) }
    #expect(
      throws: ArchiveError.upgradeNotWritable(
        path: file.path, version: 1, supported: 18, reason: "attempt to write a readonly database")
    ) {
      try Archive(path: file.path, access: .read)
    }
    let unchanged = try Database(path: file.path, mode: .readOnly)
    #expect(try Migrations.userVersion(unchanged) == 1)
    #expect(
      ArchiveError.upgradeNotWritable(
        path: "a.sqlite", version: 1, supported: 8, reason: "attempt to write a readonly database"
      ).description
        == "a.sqlite has schema version 1, and this build reads it after upgrading it to version"
        + " 8, which needs write access to the file and its folder: attempt to write a readonly"
        + " database")
  }

  @Test(
    .enabled(
      if: ReadOnlyFile.canBeMade,
      "no folder can be made read-only here (root without chattr's immutable attribute): skipped"))
  func anArchiveInAFolderThatCannotBeWrittenIsRead() throws {
    // SQLite could not make the `-shm` file of its write-ahead log beside it: "unable to open
    // database file" for every query.
    let file = try TemporaryArchive.holdingOneWeek()
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.folder.path) == ["archive.sqlite"])
    try #require(ReadOnlyFile.make(file.folder.path, folder: true))
    defer { ReadOnlyFile.undo(file.folder.path, folder: true) }
    let archive = try Archive(path: file.path, access: .read)
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06"])
    #expect(
      try archive.read { try $0.placements(of: try $0.snapshot(of: "c", at: nil)) }.map(
        \.entry.title) == ["A", "B"])
    #expect(try archive.check().allSatisfy(\.passed))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.folder.path) == ["archive.sqlite"])
  }

  @Test func theImmutableURIEscapesWhatAURIReads() {
    #expect(
      Database.immutableURI("/a b/%?#.sqlite") == "file:/a b/%25%3F%23.sqlite?immutable=1")
    #expect(Database.immutableURI("a.sqlite") == "file:a.sqlite?immutable=1")
  }

  @Test func refusesAnArchiveWhoseOwnObjectsAreNotThoseOfItsVersionSayingHowToRecover() throws {
    // A table of the archive's changed by another program.
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      _ = archive
    }
    try sqlite(file.path, "ALTER TABLE charts ADD COLUMN color TEXT")
    let reason =
      "it says schema version 18, but its table 'charts' was changed (by another program, or by a"
      + " development build of ChartArchive): restore the file from a copy"
    #expect(throws: ArchiveError.notAnArchive(path: file.path, reason: reason)) {
      try Archive(path: file.path, access: .read)
    }
    #expect(throws: ArchiveError.notAnArchive(path: file.path, reason: reason)) {
      try Archive(path: file.path, access: .create)
    }
    // A view dropped, and an index: made again from their migrations' statements.
    let other = TemporaryArchive()
    do {
      let archive = try Archive(path: other.path, access: .create)
      _ = archive
    }
    try sqlite(other.path, "DROP VIEW song_runs")
    #expect(
      throws: ArchiveError.notAnArchive(
        path: other.path,
        reason: "it says schema version 18, but its view 'song_runs' is missing (by another"
          + " program, or by a development build of ChartArchive): make it again with its"
          + " statement in Migrations/0007_weeks_at_peak_as_weeks_on_chart.sql of ChartArchive's"
          + " source (dropping the changed one first), or restore the file from a copy")
    ) {
      try Archive(path: other.path, access: .read)
    }
    try sqlite(other.path, "DROP INDEX entries_by_song")
    #expect(
      throws: ArchiveError.notAnArchive(
        path: other.path,
        reason: "it says schema version 18, but its index 'entries_by_song' is missing (by another"
          + " program, or by a development build of ChartArchive): make it again with its"
          + " statement in Migrations/0001_initial_schema.sql of ChartArchive's source (dropping"
          + " the changed one first), or restore the file from a copy")
    ) {
      try Archive(path: other.path, access: .read)
    }
  }

  @Test func toleratesWhatSQLToolsAddBesideItsOwnObjects() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    try sqlite(
      file.path,
      """
      ANALYZE;
      CREATE TABLE notes (text TEXT);
      CREATE VIEW top_entries AS SELECT * FROM chart_entries WHERE rank <= 10;
      CREATE INDEX entries_by_title ON entries (title);
      CREATE VIRTUAL TABLE songs_fts USING fts5 (title, artist, content = [songs], content_rowid = [id]);
      INSERT INTO songs_fts (songs_fts) VALUES ('rebuild');
      PRAGMA optimize;
      VACUUM;
      """)
    let archive = try Archive(path: file.path, access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-13", [(1, "B", "Y"), (2, "C", "Z")])) }
    #expect(try archive.read { try $0.snapshots(of: "c").count } == 2)
    #expect(
      try archive.read { try $0.userObjectsOnArchiveTables() } == [
        UserSchemaObject(type: "index", name: "entries_by_title", table: "entries")
      ])
  }

  @Test func refusesFilesThatAreNotArchives() throws {
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    try Data("not a database, just some text that is long enough".utf8).write(
      to: URL(fileURLWithPath: file.path))
    #expect(throws: ArchiveError.notAnArchive(path: file.path, reason: "not an SQLite database")) {
      try Archive(path: file.path, access: .read)
    }
    let other = file.folder.appendingPathComponent("other.sqlite").path
    try sqlite(other, "CREATE TABLE t (x)")
    #expect(
      throws: ArchiveError.notAnArchive(
        path: other, reason: "an SQLite database with other tables (schema version 0)")
    ) { try Archive(path: other, access: .read) }
  }

  @Test func anotherProgramsDatabaseIsRefusedForWritingAndLeftByteForByte() throws {
    // A database in rollback-journal mode, as most programs keep theirs, reached through a link.
    let file = TemporaryArchive()
    let other = file.folder.appendingPathComponent("other.sqlite").path
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: other, mode: .createAlone)
      try database.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep')")
      try database.close()
    }
    let link = file.folder.appendingPathComponent("link.sqlite").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: other)
    let before = try Data(contentsOf: URL(fileURLWithPath: other))
    for path in [other, link] {
      #expect(
        throws: ArchiveError.notAnArchive(
          path: path, reason: "an SQLite database with other tables (schema version 0)")
      ) { try Archive(path: path, access: .create) }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.folder.path).sorted()
        == ["link.sqlite", "other.sqlite"])
  }

  @Test func aFileThatIsNotARegularFileIsRefusedBeforeItIsOpened() throws {
    for access in [Archive.Access.read, .write, .create] {
      #expect(
        throws: ArchiveError.notAnArchive(
          path: "/dev/null", reason: "it is not a regular file (a device, a pipe or a socket)")
      ) { try Archive(path: "/dev/null", access: access) }
    }
    #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
    #expect(!FileManager.default.fileExists(atPath: "/dev/null-wal"))
  }

  @Test func songIDsAreGroupedInRunsOfConsecutiveIDs() {
    #expect(References.runs(of: [8, 1, 3, 2, 7, 10]) == [1...3, 7...8, 10...10])
    #expect(References.runs(of: []) == [])
    #expect(References.runs(of: [2, 1, 2, 4]) == [1...2, 4...4])
  }

  @Test func referencesKeepEachIDOnceAndForgetAnUndoneSavepoint() {
    var references = References()
    for id: Int64 in [5, 1, 5, 1 << 24, -2, 1 << 24, 70] { references.insert(id) }
    #expect(references.members == [5, 1, 1 << 24, -2, 70])
    references.removeMembers(after: 2)
    #expect(references.members == [5, 1])
    for id: Int64 in [70, 1 << 24, -2, 5] { references.insert(id) }
    #expect(references.members == [5, 1, 70, 1 << 24, -2])
  }

  @Test func aLockedArchiveSaysSoAndNamesIt() {
    let error = ArchiveError.database(
      path: "a.sqlite", DatabaseError(extendedResultCode: 5, message: "database is locked"))
    #expect(error.isLocked)
    #expect(
      error.description
        == "the archive a.sqlite is in use by another process (waited 10 s); try again")
    let other = ArchiveError.database(
      path: "a.sqlite",
      DatabaseError(extendedResultCode: 14, message: "unable to open database file"))
    #expect(!other.isLocked)
    #expect(
      other.description
        == "cannot use the archive a.sqlite: SQLite error 14: unable to open database file")
  }

  @Test func placementsReportAndDiffUseTheArchive() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "X"), (3, "C", "X")]))
      try batch.store(snapshot("2024-01-13", [(1, "B", "X"), (2, "D", "X"), (3, "A", "X")]))
      try batch.store(snapshot("2024-01-20", [(1, "C", "X"), (2, "B", "X"), (3, "E", "X")]))
    }
    let last = try archive.snapshot(of: "c", at: nil)
    let placements = try archive.placements(of: last)
    #expect(placements.map(\.entry.title) == ["C", "B", "E"])
    #expect(placements.map(\.movement) == [.reentry, .down(1), .debut])
    #expect(placements.map(\.peakPosition) == [1, 1, 3])
    #expect(placements.map(\.weeksOnChart) == [2, 3, 1])

    let (report, previous) = try archive.report(on: last, limit: 10)
    #expect(previous?.chartDate.iso8601 == "2024-01-13")
    #expect(report.dropOuts?.map(\.entry.title) == ["D", "A"])
    #expect(report.reentries.map(\.entry.title) == ["C"])
    #expect(report.debuts.map(\.entry.title) == ["E"])

    let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
    let diff = try archive.diff(from: first, to: last)
    #expect(diff.moves.map(\.movement) == [.up(2), .unchanged])
    #expect(diff.arrivals.map(\.entry.entry.title) == ["E"])
    #expect(diff.dropOuts.map(\.entry.title) == ["A"])
    // Week to week, the archive is asked about the arrivals only: C was on the first week.
    let middle = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
    let weekly = try archive.diff(from: middle, to: last)
    #expect(weekly.arrivals.map(\.entry.entry.title) == ["C", "E"])
    #expect(weekly.arrivals.map(\.movement) == [.reentry, .debut])
  }

  @Test func findsSongsAndTheirHistory() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(
        snapshot("2024-01-06", [(1, "Flowers", "Miley Cyrus"), (2, "Flowers", "Other")]))
      try batch.store(
        snapshot("2024-01-13", [(4, "Flowers", "Miley Cyrus"), (5, "Wild Flowers", "Z")]))
      try batch.store(snapshot("2024-01-06", [(9, "Flowers", "Miley Cyrus")], chart: "d"))
    }
    #expect(try archive.songs(matching: "flowers").map(\.artist) == ["Miley Cyrus", "Other", "Z"])
    #expect(try archive.songs(matching: "flowers", chart: "d").map(\.artist) == ["Miley Cyrus"])
    #expect(throws: ArchiveError.noSuchChart("e", charts: ["c", "d"])) {
      try archive.songs(matching: "x", chart: "e")
    }
    #expect(
      try archive.songs(matching: "FLOWERS", artist: "miley").map(\.artist) == ["Miley Cyrus"])
    #expect(try archive.songs(matching: "cyrus").map(\.title) == ["Flowers"])
    #expect(try archive.songs(matching: "nothing like it").isEmpty)
    // Case and accents do not matter; the words begin words; nothing typed is query syntax.
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-20", [(1, "Café de Flore", "Élodie & Beyoncé")]))
    }
    #expect(try archive.songs(matching: "cafe").map(\.title) == ["Café de Flore"])
    #expect(
      try archive.songs(matching: "", artist: "beyonce elod").map(\.title) == ["Café de Flore"])
    #expect(try archive.songs(matching: "de flo").map(\.title) == ["Café de Flore"])
    #expect(try archive.songs(matching: #"" * ( ) : flore"#).map(\.title) == ["Café de Flore"])
    #expect(try archive.songs(matching: #"" * ( ) :"#).isEmpty)
    let suggestion = try archive.read { try $0.suggestion(forSearch: "wyld flowres") }
    #expect(suggestion?.query == "wild flowers")
    #expect(suggestion?.songs.map(\.artist) == ["Z"])
    let song = try #require(try archive.songs(matching: "flowers", artist: "Miley").first)
    #expect(song.entryCount == 3)
    #expect(song.bestRank == 1)
    let histories = try archive.history(of: song.id)
    #expect(histories.map(\.chart) == ["c", "d"])
    #expect(histories[0].history.placements.map(\.movement) == [.debut, .down(3)])
    #expect(histories[1].history.weeksOnChart == 1)
  }
}

/// Runs SQL on a database file through a connection of its own.
func sqlite(_ path: String, _ sql: String) throws {
  try FileManager.default.createDirectory(
    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
  let database = try Database(path: path, mode: .create)
  try database.execute(sql)
}

struct ArchiveCheckTests {
  @Test func aSoundArchivePassesEveryCheck() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    let checks = try archive.check()
    #expect(
      checks.map(\.kind) == [
        .integrity, .foreignKeys, .ranks, .snapshots, .songs, .checkConstraints, .artistTotals,
      ])
    #expect(checks.allSatisfy { $0.passed })
  }

  /// Every CHECK constraint of the schema's tables, as the migrations wrote it, is one that
  /// `check` tests (`THEN 'constraint'` in its query): a migration that adds one adds it there.
  @Test func checkTestsEveryCheckConstraintOfTheSchema() throws {
    var constraints: [String] = []
    for object in Migrations.expectedObjects where object.type == "table" {
      var rest = object.sql[...]
      while let start = rest.range(of: "CHECK (") {
        // The expression up to its closing parenthesis.
        var depth = 1
        var end = start.upperBound
        while depth > 0 {
          if rest[end] == "(" { depth += 1 }
          if rest[end] == ")" { depth -= 1 }
          end = rest.index(after: end)
        }
        constraints.append(String(rest[start.upperBound..<rest.index(before: end)]))
        rest = rest[end...]
      }
    }
    #expect(constraints.count == 26)
    for constraint in constraints {
      let quoted = "THEN '" + constraint.replacingOccurrences(of: "'", with: "''") + "'"
      #expect(ArchiveReader.brokenChecks.contains(quoted), "\(constraint)")
    }
  }

  @Test func aNumberBeyondACheckConstraintIsFound() throws {
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      try archive.importing {
        try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y"), (3, "C", "Z")]))
      }
    }
    // Written by another program with SQLite's checks off: an ISRC in lowercase among them.
    try sqlite(
      file.path,
      "PRAGMA ignore_check_constraints = ON; UPDATE entries SET streams = -5 WHERE position = 0;"
        + " UPDATE entries SET peak_position = 0 WHERE position = 1;"
        + " UPDATE entries SET isrc = 'usrc17607839' WHERE position = 2;"
        + " UPDATE songs SET recording = 0 WHERE id = 2")
    let checks = try Archive(path: file.path, access: .read).check()
    #expect(checks.filter { !$0.passed }.map(\.kind) == [.checkConstraints])
    #expect(
      checks.first { $0.kind == .checkConstraints }?.findings == [
        .brokenConstraint(
          row: .entry(chart: "c", chartDate: "2024-01-06", position: 1), constraint: "streams >= 0"),
        .brokenConstraint(
          row: .entry(chart: "c", chartDate: "2024-01-06", position: 2),
          constraint: "peak_position >= 1"),
        .brokenConstraint(
          row: .entry(chart: "c", chartDate: "2024-01-06", position: 3),
          constraint:
            "isrc GLOB '[A-Z][A-Z][A-Z0-9][A-Z0-9][A-Z0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'"),
        .brokenConstraint(row: .song(2), constraint: "recording >= 1"),
      ])
  }

  @Test func aTieIsNoBrokenInvariant() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    try archive.importing {
      try $0.store(
        snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y"), (2, "C", "Z"), (4, "D", "W")]))
    }
    #expect(try archive.check().allSatisfy { $0.passed })
  }

  @Test func brokenInvariantsAreFound() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    // What no import writes: ranks out of order, a date that is not one, a snapshot whose two
    // entries are gone (one stored with none, a chart of no entries, is no finding).
    try sqlite(
      file.path,
      """
      UPDATE entries SET rank = 5 WHERE position = 0;
      UPDATE snapshots SET chart_date = '2024-02-30';
      INSERT INTO snapshots
        (chart_id, chart_date, chart_time, publishes_previous_rank, imported_at, entry_count)
        VALUES (1, '2024-01-13', 1705104000, 0, '', 2);
      INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank, imported_at)
        VALUES (1, '2024-01-20', 1705708800, 0, '');
      """)
    let checks = try Archive(path: file.path, access: .read).check()
    #expect(checks.map(\.passed) == [true, true, false, false, true, true, false])
    #expect(
      checks[2].findings == [
        .rankOutOfOrder(
          chart: "c", chartDate: "2024-02-30", position: 2, rank: 2, previousRank: 5)
      ])
    #expect(
      checks[3].findings == [
        .invalidChartDate(chart: "c", text: "2024-02-30"),
        .emptySnapshot(chart: "c", chartDate: "2024-01-13"),
      ])
    // X's number 1 is gone, and the totals kept for it were not added up again: nothing moved
    // `archive_version` on.
    let week = ArtistTotal(total: 1, firstDate: "2024-02-30", lastDate: "2024-02-30")
    #expect(
      checks[6].findings == [
        .artistTotalDisagrees(
          chart: "c", artist: "X", figure: .numberOnes, kept: week, counted: nil),
        .artistTotalDisagrees(
          chart: "c", artist: "X", figure: .weeksAtNumberOne, kept: week, counted: nil),
      ])
  }

  @Test func keptArtistTotalsThatDisagreeWithTheEntriesAreFound() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    // Another program's write: one total changed, one deleted, one added.
    try sqlite(
      file.path,
      """
      UPDATE artist_totals SET total = 3
        WHERE figure = 2 AND artist_id = (SELECT id FROM artists WHERE name = 'Y');
      DELETE FROM artist_totals
        WHERE figure = 1 AND artist_id = (SELECT id FROM artists WHERE name = 'X');
      INSERT INTO artist_totals
        SELECT chart_id, artist_id, 0, 2, first_snapshot_id, last_snapshot_id FROM artist_totals
        WHERE figure = 2 AND artist_id = (SELECT id FROM artists WHERE name = 'Y');
      """)
    let checks = try Archive(path: file.path, access: .read).check()
    #expect(checks.filter { !$0.passed }.map(\.kind) == [.artistTotals])
    let week = { (total: Int) in
      ArtistTotal(total: total, firstDate: "2024-01-06", lastDate: "2024-01-06")
    }
    #expect(
      checks.last?.findings == [
        .artistTotalDisagrees(
          chart: "c", artist: "X", figure: .topTens, kept: nil, counted: week(1)),
        .artistTotalDisagrees(
          chart: "c", artist: "Y", figure: .numberOnes, kept: week(2), counted: nil),
        .artistTotalDisagrees(
          chart: "c", artist: "Y", figure: .entries, kept: week(3), counted: week(1)),
      ])
    // Totals kept for an earlier version of the archive are not read, so not checked.
    try sqlite(file.path, "UPDATE archive_version SET version = version + 1")
    #expect(try Archive(path: file.path, access: .read).check().allSatisfy(\.passed))
  }
}

/// Each query in a read of its own, so that tests read as the queries they check.
extension Archive {
  func charts() throws -> [ChartSummary] { try read { try $0.charts() } }
  func snapshots(of chart: String) throws -> [SnapshotSummary] {
    try read { try $0.snapshots(of: chart) }
  }
  func snapshot(of chart: String, at date: ChartDate?) throws -> SnapshotSummary {
    try read { try $0.snapshot(of: chart, at: date) }
  }
  func snapshot(before snapshot: SnapshotSummary) throws -> SnapshotSummary? {
    try read { try $0.snapshot(before: snapshot) }
  }
  func entries(of snapshot: SnapshotID) throws -> [ArchivedEntry] {
    try read { try $0.entries(of: snapshot) }
  }
  func placements(of snapshot: SnapshotSummary) throws -> [Placement] {
    try read { try $0.placements(of: snapshot) }
  }
  func report(on snapshot: SnapshotSummary, limit: Int) throws -> (
    report: RankChangeReport, previous: SnapshotSummary?
  ) {
    try read { try $0.report(on: snapshot, limit: limit) }
  }
  func diff(from older: SnapshotSummary, to newer: SnapshotSummary) throws -> SnapshotDiff {
    try read { try $0.diff(from: older, to: newer) }
  }
  func songs(matching query: String, artist: String? = nil, chart: String? = nil) throws
    -> [SongSummary]
  {
    try read { try $0.songs(matching: query, artist: artist, chart: chart) }
  }
  func history(of song: SongID) throws -> [SongHistoryOnChart] {
    try read { try $0.history(of: song) }
  }
  func check() throws -> [ArchiveCheck] { try read { try $0.check() } }
  /// The writing connection, for tests that change the archive under a batch (one thread).
  var database: Database { withWritingDatabase { $0 } }
}

/// Makes a file read-only for this process: by its mode, or for root, whom modes do not stop, by
/// the immutable attribute (`chattr +i`, which needs `CAP_LINUX_IMMUTABLE`).
enum ReadOnlyFile {
  /// Whether a file can be made read-only here, tried on a file of its own.
  static let canBeMade: Bool = {
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent(
      "chart-archive-read-only-\(getpid())"
    ).path
    guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
    defer {
      undo(probe)
      try? FileManager.default.removeItem(atPath: probe)
    }
    return make(probe)
  }()

  /// Makes the file or `folder` at `path` read-only; returns whether it is.
  static func make(_ path: String, folder: Bool = false) -> Bool {
    chmod(path, folder ? 0o555 : 0o444)
    if access(path, W_OK) != 0 { return true }
    return run("/usr/bin/chattr", "+i", path) && access(path, W_OK) != 0
  }

  /// Makes the file or `folder` at `path` writable again.
  static func undo(_ path: String, folder: Bool = false) {
    _ = run("/usr/bin/chattr", "-i", path)
    chmod(path, folder ? 0o755 : 0o644)
  }

  private static func run(_ tool: String, _ arguments: String...) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }
}
