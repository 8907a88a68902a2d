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
    try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    return file
  }
}

struct ArchiveTests {
  @Test func createsTheSchemaAtTheLatestVersion() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    #expect(try archive.storedSchemaVersion() == Archive.schemaVersion)
    #expect(Archive.schemaVersion == 7)
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
    try sqlite(file.path, "PRAGMA user_version = 8")
    #expect(throws: ArchiveError.newerSchema(path: file.path, version: 8, supported: 7)) {
      try Archive(path: file.path, access: .read)
    }
    #expect(
      ArchiveError.newerSchema(path: "a.sqlite", version: 7, supported: 1).description
        == "a.sqlite has schema version 7, written by a newer ChartArchive; this build knows"
        + " versions up to 1")
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
        path: file.path, version: 1, supported: 7, reason: "attempt to write a readonly database")
    ) {
      try Archive(path: file.path, access: .read)
    }
    let unchanged = try Database(path: file.path, mode: .readOnly)
    #expect(try Migrations.userVersion(unchanged) == 1)
    #expect(
      ArchiveError.upgradeNotWritable(
        path: "a.sqlite", version: 1, supported: 7, reason: "attempt to write a readonly database"
      ).description
        == "a.sqlite has schema version 1, and this build reads it after upgrading it to version"
        + " 7, which needs write access to the file and its folder: attempt to write a readonly"
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
      "it says schema version 7, but its table 'charts' was changed (by another program, or by a"
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
        reason: "it says schema version 7, but its view 'song_runs' is missing (by another"
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
        reason: "it says schema version 7, but its index 'entries_by_song' is missing (by another"
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
    try archive.write { try $0.store(snapshot("2024-01-13", [(1, "B", "Y"), (2, "C", "Z")])) }
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

  @Test func storesSnapshotsAndReadsThemBack() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let first = try snapshot(
      "2024-01-06", [(1, "A", "X"), (2, "B", "Y")], previousRanks: [2, nil])
    #expect(
      try archive.write { try $0.store(first, frequency: .weekly, source: "a.json") } == .imported)
    let charts = try archive.charts()
    #expect(charts.map(\.name) == ["c"])
    #expect(charts.map(\.frequency) == [.weekly])
    #expect(charts.map(\.snapshotCount) == [1])
    let stored = try archive.snapshot(of: "c", at: nil)
    #expect(stored.chartDate.iso8601 == "2024-01-06")
    #expect(stored.entryCount == 2)
    #expect(stored.publishesPreviousRank)
    #expect(stored.source == "a.json")
    #expect(try archive.entries(of: stored.id).map(\.entry) == first.entries)
  }

  @Test func eachEntryKeepsItsOwnValuesWhereTheEntryBeforeAtItsPositionHadOthers() throws {
    // The entry at position 0 of each snapshot goes through the same parameters of one INSERT:
    // a number, then NULL, then the same number, a text where NULL was, and NULL again.
    let weeks = [
      ChartEntry(
        rank: 1, title: "A", artist: "X", publishedPreviousRank: 3, publishedPeakPosition: 1,
        publishedWeeksOnChart: 4, imageURL: "https://i/a", songURL: nil, streams: 5,
        publishedRun: 2),
      ChartEntry(rank: 1, title: "B", artist: "Y"),
      ChartEntry(
        rank: 1, title: "A", artist: "X", publishedPreviousRank: 3, publishedPeakPosition: 1,
        publishedWeeksOnChart: 4, imageURL: nil, songURL: "https://s/a", streams: 0,
        publishedRun: 2),
      ChartEntry(rank: 2, title: "C", artist: "Z", publishedWeeksOnChart: 1),
    ]
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
      for (week, entry) in weeks.enumerated() {
        try batch.store(
          Snapshot(
            chart: "c", chartDate: try ChartDate(iso8601: "2024-01-0\(1 + week)"),
            publishesPreviousRank: false, entries: [entry]))
      }
    }
    let stored = try archive.database.rows(
      "SELECT rank, published_previous_rank, published_peak_position, published_weeks_on_chart,"
        + " image_url, song_url, streams, published_run FROM entries ORDER BY snapshot_id", [],
      { row in
        (0..<8).map { column in
          row.isNull(at: column) ? "NULL" : row.string(at: column)
        }.joined(separator: " ")
      })
    #expect(
      stored == [
        "1 3 1 4 https://i/a NULL 5 2", "1 NULL NULL NULL NULL NULL NULL NULL",
        "1 3 1 4 NULL https://s/a 0 2", "2 NULL NULL 1 NULL NULL NULL NULL",
      ])
  }

  @Test func songIDsAreGroupedInRunsOfConsecutiveIDs() {
    #expect(SongLinker.runs(of: [8, 1, 3, 2, 7, 10]) == [1...3, 7...8, 10...10])
    #expect(SongLinker.runs(of: []) == [])
    #expect(SongLinker.runs(of: [2, 1, 2, 4]) == [1...2, 4...4])
  }

  @Test func textIsStoredWholeEvenWithANULInside() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let entry = ChartEntry(
      rank: 1, title: "A", artist: "X", imageURL: "https://i.example.com/a\u{0}b",
      songURL: "https://m.example.com/a\u{0}b")
    let snapshot = try Snapshot(
      chart: "c", chartDate: ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: [entry])
    try archive.write { try $0.store(snapshot) }
    let stored = try archive.snapshot(of: "c", at: nil)
    #expect(try archive.entries(of: stored.id).map(\.entry) == [entry])
  }

  @Test func longTextsOfManyEntriesAreStoredWhole() throws {
    // 250 entries of 2,000-byte titles and artists: more text than one INSERT's arena holds at
    // first, in more than one INSERT, with empty texts and URLs among them.
    let archive = try Archive(path: ":memory:", access: .create)
    let entries = (1...250).map { rank in
      ChartEntry(
        rank: rank, title: rank == 7 ? "" : String(repeating: "é\(rank % 10)", count: 667),
        artist: String(repeating: "a", count: 2_000 - rank),
        imageURL: rank.isMultiple(of: 3) ? "https://i.example.com/\(rank)" : nil,
        songURL: rank == 200 ? "" : nil)
    }
    let snapshot = try Snapshot(
      chart: "c", chartDate: ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: entries)
    try archive.write { try $0.store(snapshot) }
    let stored = try archive.entries(of: try archive.snapshot(of: "c", at: nil).id)
    #expect(stored.map(\.entry) == entries)
    #expect(stored[0].entry.title.utf8.count == 2_001)
  }

  @Test func anIdenticalSnapshotIsUnchangedAndADifferentOneIsRefusedUnlessReplacing() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let original = try snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])
    let changed = try snapshot("2024-01-06", [(1, "B", "Y"), (2, "A", "X")])
    try archive.write { try $0.store(original) }
    #expect(try archive.write { try $0.store(original) } == .unchanged)
    #expect(throws: ArchiveError.conflictingSnapshot(chart: "c", chartDate: changed.chartDate)) {
      try archive.write { try $0.store(changed) }
    }
    #expect(
      try archive.entries(of: archive.snapshot(of: "c", at: nil).id).map(\.entry.title) == [
        "A", "B",
      ])
    #expect(try archive.write { try $0.store(changed, replacing: true) } == .replaced)
    #expect(try archive.snapshots(of: "c").count == 1)
    #expect(
      try archive.entries(of: archive.snapshot(of: "c", at: nil).id).map(\.entry.title) == [
        "B", "A",
      ])
    // The replaced snapshot's entries went with it (a batch deletes them itself: foreign keys,
    // and their cascade, are off while it writes).
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.rows("PRAGMA foreign_key_check", [], { $0.string(at: 0) }) == [])
  }

  @Test func aBatchChecksWhatItsRowsReferToBeforeItCommits() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    // A song deleted under the batch's entries: what a fault in linking could do.
    #expect(throws: Self.missingSong(3)) {
      try archive.write { batch in
        try batch.store(snapshot("2024-01-13", [(1, "C", "Z"), (2, "A", "X")]))
        try archive.database.run("DELETE FROM songs WHERE id = 3")
      }
    }
    // Nothing of that batch is kept, and enforcement is on again outside a batch.
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06"])
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.row("PRAGMA foreign_keys", [], { $0.int(at: 0) }) == 1)
    // A song deleted once no row refers to it is no failure.
    try archive.write { batch in
      try batch.store(snapshot("2024-01-13", [(1, "C", "Z"), (2, "A", "X")]))
      try archive.database.run("DELETE FROM entries WHERE song_id = 3")
      try archive.database.run("DELETE FROM songs WHERE id = 3")
    }
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 3)
    // A song missing inside a run of new songs (checked by runs of consecutive IDs) is found.
    #expect(throws: Self.missingSong(5)) {
      try archive.write { batch in
        try batch.store(snapshot("2024-01-20", [(1, "D", "Z"), (2, "E", "Z"), (3, "F", "Z")]))
        try archive.database.run("DELETE FROM songs WHERE id = 5")
      }
    }
  }

  /// The error of a batch whose entry refers to a song that is not in an in-memory archive.
  private static func missingSong(_ id: Int) -> ArchiveError {
    .database(
      path: ":memory:",
      DatabaseError(
        extendedResultCode: DatabaseError.constraintForeignKey,
        message:
          "FOREIGN KEY constraint failed: an entry refers to song \(id), which is not in the archive"
      ))
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

  @Test func aWriteThatThrowsStoresNothing() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try archive.write { batch in
        try batch.store(snapshot("2024-01-06", [(1, "A", "X")]))
        throw Stop()
      }
    }
    #expect(try archive.charts().isEmpty)
  }

  @Test func aSavepointUndoesItsFileAndTheBatchGoesOn() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    struct Invalid: Error {}
    try archive.write { batch in
      #expect(throws: Invalid.self) {
        try batch.inSavepoint {
          // A new chart and its snapshot, then the file turns out bad.
          try batch.store(snapshot("2024-01-06", [(1, "A", "X")], chart: "gone"))
          throw Invalid()
        }
      }
      try batch.inSavepoint {
        try batch.store(snapshot("2024-01-06", [(1, "B", "Y")], chart: "kept"))
      }
      // The undone chart can be created again in the same batch.
      try batch.store(snapshot("2024-01-13", [(1, "C", "Z")], chart: "gone"))
    }
    #expect(try archive.charts().map(\.name) == ["gone", "kept"])
    #expect(try archive.snapshots(of: "gone").map(\.chartDate.iso8601) == ["2024-01-13"])
  }

  /// 150 entries of chart `c` whose 51st breaks a CHECK constraint (previous rank 0): found as the
  /// first INSERT statement is bound, after the snapshot's row and songs are written.
  func snapshotFailingMidStatement(_ date: String) throws -> Snapshot {
    var previousRanks = [Int?](repeating: nil, count: 150)
    previousRanks[50] = 0
    return try snapshot(
      date, (1...150).map { ($0, "T\($0)", "A") }, previousRanks: previousRanks)
  }

  /// Whether `error` is SQLite's refusal of that entry.
  static func isFailedCheck(_ error: (any Error)?) -> Bool {
    guard case .database(":memory:", let failure) = error as? ArchiveError else { return false }
    return failure.extendedResultCode == 275  // SQLITE_CONSTRAINT_CHECK
      && failure.message == "CHECK constraint failed: published_previous_rank >= 1"
  }

  @Test func anEntryThatBreaksAConstraintUndoesTheWholeWrite() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    let failing = try snapshotFailingMidStatement("2024-01-20")
    #expect {
      try archive.write { batch in
        try batch.store(snapshot("2024-01-13", [(1, "B", "Y")]))
        try batch.store(failing)
      }
    } throws: {
      Self.isFailedCheck($0)
    }
    // Neither the snapshot before it nor the 50 rows its statement wrote (INSERT OR FAIL keeps
    // them until the transaction is rolled back).
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06"])
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 1)
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 1)
  }

  @Test(arguments: [
    (ChartEntry(rank: 0, title: "T", artist: "A"), "rank >= 1"),
    (
      ChartEntry(rank: 1, title: "T", artist: "A", publishedPeakPosition: 0),
      "published_peak_position >= 1"
    ),
    (
      ChartEntry(rank: 1, title: "T", artist: "A", publishedWeeksOnChart: 0),
      "published_weeks_on_chart >= 1"
    ),
    (ChartEntry(rank: 1, title: "T", artist: "A", streams: -1), "streams >= 0"),
    (ChartEntry(rank: 1, title: "T", artist: "A", publishedRun: 0), "published_run >= 1"),
  ])
  func eachCheckedColumnIsNamedAsSQLiteNamesIt(entry: ChartEntry, constraint: String) throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let chartDate = try ChartDate(iso8601: "2024-01-06")
    #expect {
      try archive.write { batch in
        try batch.store(
          Snapshot(chart: "c", chartDate: chartDate, publishesPreviousRank: false, entries: [entry])
        )
      }
    } throws: { error in
      guard case .database(_, let failure) = error as? ArchiveError else { return false }
      return failure.extendedResultCode == 275
        && failure.message == "CHECK constraint failed: \(constraint)"
    }
    #expect(try archive.database.row("SELECT count(*) FROM snapshots", [], { $0.int(at: 0) }) == 0)
  }

  @Test func songsOfOneNewIdentityInOneSnapshotAreNumberedRecordings() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
      try batch.store(
        snapshot("2024-01-06", [(1, "Same", "X"), (2, "Same", "X"), (3, "Other", "Y")]))
      try batch.store(
        snapshot("2024-01-13", [(1, "Other", "Y"), (2, "Same", "X"), (3, "Same", "X")]))
      // Linked to nothing stored: a third recording.
      try batch.store(
        snapshot("2024-01-20", [(1, "Same", "X"), (2, "Same", "X"), (3, "Same", "X")]))
    }
    let recordings = try archive.database.rows(
      "SELECT identity, recording FROM songs ORDER BY id", [],
      { "\($0.string(at: 0)) \($0.int(at: 1))" })
    #expect(
      recordings == [
        "song:same\u{1F}x 1", "song:same\u{1F}x 2", "song:other\u{1F}y 1", "song:same\u{1F}x 3",
      ])
  }

  @Test func aSnapshotWithVerdictsIsReplaced() throws {
    // Weeks on chart 5 in the archive's first week: a verdict (a source gap) on that figure.
    let archive = try Archive(path: ":memory:", access: .create)
    let chartDate = try ChartDate(iso8601: "2024-01-06")
    func week(_ title: String) -> Snapshot {
      Snapshot(
        chart: "c", chartDate: chartDate, publishesPreviousRank: false,
        entries: [ChartEntry(rank: 1, title: title, artist: "A", publishedWeeksOnChart: 5)])
    }
    try archive.write { try $0.store(week("T")) }
    #expect(try archive.database.row("SELECT count(*) FROM verdicts", [], { $0.int(at: 0) }) == 1)
    let outcome = try archive.write { try $0.store(week("T2"), replacing: true) }
    #expect(outcome == .replaced)
    #expect(
      try archive.database.rows(
        "SELECT e.title, v.figure FROM entries e JOIN verdicts v"
          + " USING (snapshot_id, position)", [], { "\($0.string(at: 0)) \($0.int(at: 1))" })
        == ["T2 2"])
  }

  @Test func aSongIDTakenAgainInAnUndoneFileIsSearchableOnce() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write {
      try $0.store(snapshot("2024-01-06", [(1, "Keeper", "K"), (2, "Zeta", "Z")]))
    }
    try archive.write { batch in
      try batch.inSavepoint {
        try batch.store(snapshot("2024-02-03", [(1, "Keeper", "K")]), replacing: true)
      }
      #expect(throws: ArchiveError.self) {
        try batch.inSavepoint {
          // Zeta (song 2) goes with the week it was on; Omega takes its ID; then a conflict
          // undoes the file, Zeta with its row in the full-text index included.
          try batch.store(snapshot("2024-01-06", [(1, "Keeper", "K")]), replacing: true)
          try batch.store(snapshot("2024-01-13", [(1, "Keeper", "K"), (2, "Omega", "O")]))
          try batch.store(snapshot("2024-02-03", [(1, "Omega", "O")]), replacing: true)
        }
      }
    }
    #expect(
      try archive.database.rows(
        "SELECT song_id, title FROM song_search ORDER BY song_id", [],
        { "\($0.int(at: 0)) \($0.string(at: 1))" }) == ["1 Keeper", "2 Zeta"])
  }

  @Test func sqlitesOwnChecksAreBackOnAfterAWrite() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    #expect(throws: DatabaseError.self) {
      try archive.database.run("UPDATE entries SET rank = 0")
    }
    #expect(try archive.database.row("SELECT rank FROM entries", [], { $0.int(at: 0) }) == 1)
  }

  @Test func anEntryThatBreaksAConstraintInASavepointUndoesOnlyItsFile() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let failing = try snapshotFailingMidStatement("2024-01-13")
    var failure: (any Error)?
    try archive.write { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X")]))
      do {
        try batch.inSavepoint { try batch.store(failing) }
      } catch {
        failure = error
      }
      // The transaction is still open: the batch goes on and commits.
      try batch.inSavepoint { try batch.store(snapshot("2024-01-20", [(1, "B", "Y")])) }
    }
    #expect(Self.isFailedCheck(failure))
    #expect(
      try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06", "2024-01-20"])
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 2)
  }

  @Test func aBatchRetiresAChartsPreviousSnapshotWhenItStoresTheNext() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    var retired: [SongLinking.PreviousSnapshot] = []
    try archive.write { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")]))
      try batch.store(snapshot("2024-01-06", [(1, "C", "Z")], chart: "other"))
      #expect(batch.takeRetiredSnapshots().linked.isEmpty)
      try batch.store(snapshot("2024-01-13", [(1, "B", "Y"), (2, "D", "W")]))
      retired = batch.takeRetiredSnapshots().linked
      #expect(batch.takeRetiredSnapshots().isEmpty)
    }
    // Chart c's first week, once its second is stored; the other chart's only week stays.
    #expect(retired.count == 1)
    #expect(retired.first?.ranks == [1, 2])
    #expect(retired.first?.songs.map(\.rawValue) == [1, 2])
    #expect(retired.first?.keys.map(\.foldedTitle) == ["a", "b"])
  }

  @Test func songIdentityFoldsTitleAndArtistButKeepsBothEntriesOfOneSnapshot() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
      try batch.store(snapshot("2024-01-06", [(1, "Blinding Lights", "The Weeknd")]))
      try batch.store(
        snapshot(
          "2024-01-13",
          [
            (1, "blinding  lights", "THE WEEKND"), (2, "Unchained Melody", "X"),
            (3, "Unchained Melody", "X"),
          ]))
    }
    let week = try archive.snapshot(of: "c", at: nil)
    let entries = try archive.entries(of: week.id)
    #expect(entries.count == 3)
    // Two entries of one snapshot are never one song: two recordings.
    #expect(entries[1].song != entries[2].song)
    let before = try #require(try archive.snapshot(before: week))
    let previous = try archive.entries(of: before.id)
    #expect(previous[0].song == entries[0].song)
    // Entries keep the text as published.
    #expect(entries[0].entry.title == "blinding  lights")
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
    try archive.write { batch in
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

  @Test func aSnapshotImportedOutOfOrderRelinksTheLaterOnes() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    // Weeks 1 and 3 first: "Hit" by "Ann, Bo" in week 3 is a new song (its previous rank, 2,
    // is not on week 1).
    try archive.write { batch in
      try batch.store(snapshot("2024-01-06", [(1, "Hit", "Ann")], previousRanks: [nil]))
      try batch.store(snapshot("2024-01-20", [(1, "Hit", "Ann, Bo")], previousRanks: [2]))
    }
    let third = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-20"))
    let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
    #expect(try archive.entries(of: third.id)[0].song != archive.entries(of: first.id)[0].song)
    #expect(try archive.songs(matching: "hit").count == 2)
    // Week 2 arrives: its previous rank joins week 1's song, and week 3 then joins it too.
    try archive.write { batch in
      try batch.store(
        snapshot(
          "2024-01-13", [(1, "Other", "Z"), (2, "Hit", "Ann & Bo")], previousRanks: [nil, 1]))
    }
    let song = try archive.entries(of: first.id)[0].song
    #expect(try archive.entries(of: third.id)[0].song == song)
    #expect(try archive.songs(matching: "hit").map(\.entryCount) == [3])
    #expect(
      try archive.history(of: song)[0].history.creditChanges.map(\.to) == ["Ann & Bo", "Ann, Bo"])
  }

  /// A snapshot of chart "c" that publishes previous ranks.
  private func week(_ date: String, _ entries: [ChartEntry]) throws -> Snapshot {
    Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
      entries: entries)
  }

  /// New archives holding `later` and then `earlier`, stored in one write (`separately` false)
  /// and in two.
  private func storedLaterWeekFirst(_ later: Snapshot, _ earlier: Snapshot) throws -> [(
    separately: Bool, archive: Archive
  )] {
    try [false, true].map { separately in
      let archive = try Archive(path: ":memory:", access: .create)
      if separately {
        try archive.write { try $0.store(later) }
        try archive.write { try $0.store(earlier) }
      } else {
        try archive.write { batch in
          try batch.store(later)
          try batch.store(earlier)
        }
      }
      return (separately, archive)
    }
  }

  @Test func anEarlierWeekImportedAfterTheLaterOneKeepsTheLaterOnesSongs() throws {
    // "Debut" enters in the earlier week (weeks on chart 1); "Late" enters in the later week only.
    // The later week stored first made both songs; the earlier week, linked after it, took
    // neither (a first week took no song this chart had, even one only after it), so that
    // linking the later week again replaced both with new recordings: new IDs, and recording 2
    // with no first.
    let earlier = try week(
      "2024-01-06",
      [ChartEntry(rank: 1, title: "Debut", artist: "X", publishedWeeksOnChart: 1)])
    let later = try week(
      "2024-01-13",
      [
        ChartEntry(
          rank: 1, title: "Debut", artist: "X", publishedPreviousRank: 1, publishedWeeksOnChart: 2),
        ChartEntry(rank: 2, title: "Late", artist: "Y", publishedWeeksOnChart: 1),
      ])
    for (separately, archive) in try storedLaterWeekFirst(later, earlier) {
      let songs = try archive.database.rows(
        "SELECT id, recording, title FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
      #expect(songs == ["1 1 Debut", "2 1 Late"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.entries(of: second.id).map(\.song.rawValue) == [1, 2])
      #expect(
        try archive.placements(of: second).map(\.figures.weeksOnChart) == [2, 1])
    }
  }

  @Test func anEarlierWeekUnderAnotherCreditKeepsTheSongOfTheLaterWeek() throws {
    // "Tune" by Nat "King" Cole, last week 1, continues "Tune" by Nat King Cole of the week before,
    // its debut. The later week stored first made song 1; the earlier week, stored after it, made
    // a song of its own (a debut continues no song the chart had before it), which the later week
    // then joined by its previous rank: song 1 deleted, the song known by ID 2.
    func week(_ date: String, _ entry: ChartEntry) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: [entry])
    }
    let earlier = try week(
      "2024-01-06",
      ChartEntry(rank: 1, title: "Tune", artist: "Nat King Cole", publishedWeeksOnChart: 1))
    let later = try week(
      "2024-01-13",
      ChartEntry(
        rank: 1, title: "Tune", artist: "Nat \"King\" Cole", publishedPreviousRank: 1,
        publishedWeeksOnChart: 2))
    for (separately, archive) in try storedLaterWeekFirst(later, earlier) {
      let songs = try archive.database.rows(
        "SELECT id, recording, artist FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
      #expect(songs == ["1 1 Nat \"King\" Cole"], "separately: \(separately)")
      let credits = try archive.database.rows(
        "SELECT song_id, artist FROM song_credits", [], { "\($0.int64(at: 0)) \($0.string(at: 1))" }
      )
      #expect(credits == ["1 Nat King Cole"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2])
    }
  }

  @Test func aReplacedWeekWithACreditChangedKeepsTheSongOfTheNextWeek() throws {
    // The earlier of two weeks replaced with its entry's credit written another way: the entry
    // made a new song, which the next week joined by its previous rank, song 1 deleted.
    func week(_ date: String, _ entry: ChartEntry) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: [entry])
    }
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
      try batch.store(
        week(
          "2024-01-06",
          ChartEntry(rank: 1, title: "Tune", artist: "Ann & Bo", publishedWeeksOnChart: 1)))
      try batch.store(
        week(
          "2024-01-13",
          ChartEntry(
            rank: 1, title: "Tune", artist: "Ann & Bo", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2)))
    }
    let outcome = try archive.write { batch in
      try batch.store(
        week(
          "2024-01-06",
          ChartEntry(rank: 1, title: "Tune", artist: "Ann And Bo", publishedWeeksOnChart: 1)),
        replacing: true)
    }
    #expect(outcome == .replaced)
    let songs = try archive.database.rows(
      "SELECT id, artist FROM songs ORDER BY id", [], { "\($0.int64(at: 0)) \($0.string(at: 1))" })
    #expect(songs == ["1 Ann & Bo"])
    let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
    #expect(try archive.placements(of: second).map(\.song.rawValue) == [1])
    #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2])
  }

  @Test func aRepeatedWeekOrAMissingOneShiftsNoRanksOfTheWeekBefore() throws {
    // The next snapshot's previous ranks were read as saying this week's ranks were shifted: from
    // a copy of this week saved under the next date (its previous ranks are this week's own), or
    // from the week after a missing one (theirs are the missing week's). The week's peaks were
    // then worse than its ranks: Filler Song at 1 with peak 2.
    func week(_ date: String, _ songs: [(String, Int?, Int)]) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: songs.enumerated().map { index, song in
          ChartEntry(
            rank: index + 1, title: song.0, artist: "X", publishedPreviousRank: song.1,
            publishedWeeksOnChart: song.2)
        })
    }
    let first = try week("2020-01-04", [("Amber", nil, 1), ("Filler", nil, 1), ("Kite", nil, 1)])
    let second = [("Filler", 2, 2), ("Kite", 3, 2), ("Amber", 1, 2)]
    let repeated = try Archive(path: ":memory:", access: .create)
    try repeated.write { batch in
      for snapshot in [first, try week("2020-01-11", second), try week("2020-01-18", second)] {
        try batch.store(snapshot, frequency: .weekly)
      }
    }
    let middle = try repeated.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-11"))
    #expect(try repeated.placements(of: middle).map(\.figures.peakPosition) == [1, 2, 1])
    let missing = try Archive(path: ":memory:", access: .create)
    try missing.write { batch in
      try batch.store(first, frequency: .weekly)
      try batch.store(
        week("2020-01-18", [("Filler", 3, 3), ("Amber", 2, 3), ("Kite", 1, 3)]),
        frequency: .weekly)
    }
    let before = try missing.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
    #expect(try missing.placements(of: before).map(\.figures.peakPosition) == [1, 2, 3])
  }

  @Test func aReentryUnderACreditTakenWithinTheRunJoinsIt() throws {
    // "Otto Brandt" becomes "Otto Brand" within the run (joined by the previous rank), and the
    // song re-enters as "Otto Brand". In date order the re-entry found no song by its identity
    // (the song's is its first credit's) nor by its lead artist ("ottobrandt"): a new song, run 1
    // and partial. Stored newest first, the song was made with the later credit and the run
    // joined: the split depended on the import order.
    let weeks = [
      try week(
        "2020-01-04",
        [ChartEntry(rank: 1, title: "Glass River", artist: "Otto Brandt", publishedWeeksOnChart: 1)]
      ),
      try week(
        "2020-01-11",
        [
          ChartEntry(
            rank: 1, title: "Glass River", artist: "Otto Brand", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2)
        ]),
      try week(
        "2020-01-18",
        [ChartEntry(rank: 1, title: "Filler", artist: "Z", publishedWeeksOnChart: 1)]),
      try week(
        "2020-01-25",
        [
          ChartEntry(rank: 1, title: "Glass River", artist: "Otto Brand", publishedWeeksOnChart: 3),
          ChartEntry(
            rank: 2, title: "Filler", artist: "Z", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2),
        ]),
    ]
    for order in [[0, 1, 2, 3], [3, 2, 1, 0]] {
      let archive = try Archive(path: ":memory:", access: .create)
      for index in order { try archive.write { try $0.store(weeks[index]) } }
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let last = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-25"))
      let reentry = try archive.placements(of: last)[0]
      #expect(reentry.song == (try archive.entries(of: first.id)[0].song), "\(order)")
      #expect(reentry.figures.movement == .reentry, "\(order)")
      #expect(reentry.figures.run == 2, "\(order)")
      #expect(reentry.figures.weeksOnChart == 3, "\(order)")
      #expect(!reentry.figures.isPartialRun, "\(order)")
      #expect(try archive.songs(matching: "glass river").count == 1, "\(order)")
    }
  }

  @Test func anEarlierWeekKeepsTheIDsOfTwoRecordingsTheLaterWeekMade() throws {
    // An original in its second week at 1 and a remake with its title and artist debuting at 2.
    // The later week stored first made song 1 (the original) and song 2 (the remake); the
    // earlier week's debut of the original, stored after it, took the latest recording of the
    // two, so that song 1 then named the remake and song 2 the original.
    let earlier = try week(
      "2020-01-04",
      [ChartEntry(rank: 1, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1)])
    let later = try week(
      "2020-01-11",
      [
        ChartEntry(
          rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
          publishedWeeksOnChart: 2),
        ChartEntry(rank: 2, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1),
      ])
    for (separately, archive) in try storedLaterWeekFirst(later, earlier) {
      let songs = try archive.database.rows(
        "SELECT id, recording FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1))" })
      #expect(songs == ["1 1", "2 2"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-11"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.song.rawValue) == [1, 2])
      #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2, 1])
    }
  }

  @Test func twoRecordingsOnTheChartsFirstSnapshotEachSayWhatTheArchiveLacks() throws {
    // The original in its second week (last week 1) beside a remake debuting, on the first
    // snapshot the archive holds of the chart: the original's weeks on chart were the archive's
    // (1, then 2) as if the two recordings explained the source's 2, not the source's 2 and 3.
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
      try batch.store(
        week(
          "2020-01-11",
          [
            ChartEntry(
              rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
              publishedWeeksOnChart: 2),
            ChartEntry(rank: 2, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1),
          ]))
      try batch.store(
        week(
          "2020-01-18",
          [
            ChartEntry(
              rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
              publishedWeeksOnChart: 3),
            ChartEntry(
              rank: 2, title: "Tide", artist: "Corvins", publishedPreviousRank: 2,
              publishedWeeksOnChart: 2),
          ]))
    }
    for (date, weeks) in [("2020-01-11", [2, 1]), ("2020-01-18", [3, 2])] {
      let placements = try archive.placements(
        of: archive.snapshot(of: "c", at: ChartDate(iso8601: date)))
      #expect(placements.map(\.figures.weeksOnChart) == weeks, "\(date)")
      #expect(placements.map(\.figures.isPartialRun) == [true, false], "\(date)")
    }
  }

  @Test func aReentryUnderAnotherCreditJoinsItsSongWhateverTheImportOrder() throws {
    // "Song" by A back after a week away (weeks on chart 2, no previous rank) is the re-entry of
    // "Song (Remix)" by A Featuring B. Stored first, it made a song of its own, and linked again
    // after the earlier weeks it found that song by its identity before looking for the run it
    // re-enters: run 1 of its own, partial, instead of run 2.
    let weeks = [
      try week(
        "2020-01-04",
        [
          ChartEntry(
            rank: 1, title: "Song (Remix)", artist: "A Featuring B", publishedWeeksOnChart: 1),
          ChartEntry(rank: 2, title: "F", artist: "Z", publishedWeeksOnChart: 1),
        ]),
      try week(
        "2020-01-11",
        [
          ChartEntry(
            rank: 1, title: "F", artist: "Z", publishedPreviousRank: 2, publishedWeeksOnChart: 2)
        ]
      ),
      try week(
        "2020-01-18",
        [
          ChartEntry(rank: 1, title: "Song", artist: "A", publishedWeeksOnChart: 2),
          ChartEntry(
            rank: 2, title: "F", artist: "Z", publishedPreviousRank: 1, publishedWeeksOnChart: 3),
        ]),
    ]
    for order in [[0, 1, 2], [2, 0, 1], [2, 1, 0]] {
      let archive = try Archive(path: ":memory:", access: .create)
      for index in order { try archive.write { try $0.store(weeks[index]) } }
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let last = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-18"))
      let reentry = try archive.placements(of: last)[0]
      #expect(reentry.song == (try archive.entries(of: first.id)[0].song), "\(order)")
      #expect(reentry.figures.run == 2, "\(order)")
      #expect(reentry.figures.movement == .reentry, "\(order)")
      #expect(!reentry.figures.isPartialRun, "\(order)")
    }
  }

  @Test func aReplacedSnapshotsDebutKeepsItsSong() throws {
    // The chart's latest week replaced, another entry's title corrected: the debut took a new
    // song (ID 3, recording 2) and its song 2 was deleted.
    func week(_ title: String) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: true,
        entries: [
          ChartEntry(rank: 1, title: title, artist: "X", publishedWeeksOnChart: 3),
          ChartEntry(rank: 2, title: "Debut", artist: "Y", publishedWeeksOnChart: 1),
        ])
    }
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { try $0.store(week("Typo")) }
    #expect(try archive.write { try $0.store(week("Title"), replacing: true) } == .replaced)
    let songs = try archive.database.rows(
      "SELECT id, recording, title FROM songs ORDER BY id", [],
      { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
    #expect(songs == ["2 1 Debut", "3 1 Title"])
  }

  @Test func aBatchOfEarlierSnapshotsRelinksTheLaterOnesOnceAsSeparateBatchesWould() throws {
    let later = [
      try snapshot(
        "2024-01-27", [(1, "Hit", "Ann, Bo"), (2, "Tune", "Cy")], previousRanks: [2, 1]),
      try snapshot(
        "2024-02-03", [(1, "Hit", "Ann, Bo"), (2, "Tune", "Cy")], previousRanks: [1, 2]),
      try snapshot(
        "2024-02-10", [(1, "Tune", "Cy"), (2, "Hit", "Ann, Bo")], previousRanks: [2, 1]),
    ]
    let earlier = [
      try snapshot("2024-01-06", [(1, "Hit", "Ann")], previousRanks: [nil]),
      try snapshot("2024-01-13", [(1, "Tune", "Cy"), (2, "Hit", "Ann")], previousRanks: [nil, 1]),
      try snapshot(
        "2024-01-20", [(1, "Tune", "Cy"), (2, "Hit", "Ann & Bo")], previousRanks: [1, 2]),
    ]
    // Each entry's song, numbered by first appearance in chart-date order.
    func songsByDate(_ archive: Archive) throws -> [[Int]] {
      var numbers: [SongID: Int] = [:]
      return try archive.snapshots(of: "c").map { summary in
        try archive.entries(of: summary.id).map { entry in
          if numbers[entry.song] == nil { numbers[entry.song] = numbers.count }
          return numbers[entry.song]!
        }
      }
    }
    let together = try Archive(path: ":memory:", access: .create)
    try together.write { batch in for snapshot in later { try batch.store(snapshot) } }
    let batch = try together.write { batch in
      for snapshot in earlier { try batch.store(snapshot) }
      return batch
    }
    // The three later snapshots once each, at the end: not three times each.
    #expect(batch.relinkedSnapshotCount == 3)
    let apart = try Archive(path: ":memory:", access: .create)
    try apart.write { batch in for snapshot in later { try batch.store(snapshot) } }
    for snapshot in earlier { try apart.write { try $0.store(snapshot) } }
    // "Hit" is one song through its credit changes, and so is "Tune".
    #expect(try songsByDate(together) == [[0], [1, 0], [1, 0], [0, 1], [0, 1], [1, 0]])
    #expect(try songsByDate(apart) == songsByDate(together))
    #expect(try together.songs(matching: "hit").map(\.entryCount) == [6])
    #expect(try together.check().allSatisfy(\.passed))
  }

  @Test func findsSongsAndTheirHistory() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.write { batch in
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
    try archive.write { batch in
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

struct TiedEntriesTests {
  @Test func anEntryThatFollowsTheSecondOfATieKeepsItsCreditAsItWas() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    // Songs B and C tie at 2; the next week B and C name 2 as their previous rank.
    try archive.write { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y"), (2, "C", "Z")]))
      try batch.store(
        snapshot(
          "2024-01-13", [(1, "C", "Z"), (2, "B", "Y"), (3, "A", "X")], previousRanks: [2, 2, 1]))
    }
    // Each is its own song, under the credit it had: no credit change is recorded for C (the
    // second entry of the tie), which was compared with B's credit before.
    #expect(
      try archive.database.rows("SELECT song_id, title FROM song_credits") { $0.string(at: 1) }
        == [])
    let placements = try archive.read { reader in
      try reader.placements(of: try reader.snapshot(of: "c", at: nil))
    }
    #expect(placements.map(\.movement) == [.up(1), .unchanged, .down(2)])
    #expect(Set(placements.map(\.song)).count == 3)
  }
}

struct ArchiveCheckTests {
  @Test func aSoundArchivePassesEveryCheck() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    let checks = try archive.check()
    #expect(
      checks.map(\.name) == [
        "SQLite integrity", "foreign keys", "ranks positive and in order per snapshot",
        "snapshots dated, ordered and not empty", "every entry's song present",
        "numbers within CHECK constraints",
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
    #expect(constraints.count == 20)
    for constraint in constraints {
      let quoted = "THEN '" + constraint.replacingOccurrences(of: "'", with: "''") + "'"
      #expect(ArchiveReader.brokenChecks.contains(quoted), "\(constraint)")
    }
  }

  @Test func aNumberBeyondACheckConstraintIsFound() throws {
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      try archive.write { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    }
    // Written by another program with SQLite's checks off.
    try sqlite(
      file.path,
      "PRAGMA ignore_check_constraints = ON; UPDATE entries SET streams = -5 WHERE position = 0;"
        + " UPDATE entries SET peak_position = 0 WHERE position = 1;"
        + " UPDATE songs SET recording = 0 WHERE id = 2")
    let checks = try Archive(path: file.path, access: .read).check()
    #expect(checks.filter { !$0.passed }.map(\.name) == ["numbers within CHECK constraints"])
    #expect(
      checks.last?.problems == [
        "c 2024-01-06 entry 1: streams >= 0", "c 2024-01-06 entry 2: peak_position >= 1",
        "song 2: recording >= 1",
      ])
  }

  @Test func aTieIsNoBrokenInvariant() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    try archive.write {
      try $0.store(
        snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y"), (2, "C", "Z"), (4, "D", "W")]))
    }
    #expect(try archive.check().allSatisfy { $0.passed })
  }

  @Test func brokenInvariantsAreFound() throws {
    let file = try TemporaryArchive.holdingOneWeek()
    // What no import writes: ranks out of order, a date that is not one, a snapshot with no entry.
    try sqlite(
      file.path,
      """
      UPDATE entries SET rank = 5 WHERE position = 0;
      UPDATE snapshots SET chart_date = '2024-02-30';
      INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank, imported_at)
        VALUES (1, '2024-01-13', 1705104000, 0, '');
      """)
    let checks = try Archive(path: file.path, access: .read).check()
    #expect(checks.map(\.passed) == [true, true, false, false, true, true])
    #expect(
      checks[2].problems == [
        "c 2024-02-30: entry 2 has rank 2, below the rank 5 of the entry before it"
      ])
    #expect(
      checks[3].problems == [
        "c '2024-02-30': not an ISO 8601 chart date", "c 2024-01-13: no entries",
      ])
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
  func history(of song: SongID) throws -> [ChartHistory] { try read { try $0.history(of: song) } }
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
