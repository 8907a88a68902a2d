import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

struct MigrationTests {
  /// The package's top-level folder, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test func theEmbeddedListMatchesTheMigrationsFolder() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: Self.packageRoot.appendingPathComponent("Migrations").path
    ).filter { $0.hasSuffix(".sql") }.sorted()
    #expect(Migrations.all.map { $0.name + ".sql" } == files)
    #expect(Migrations.all.map(\.version) == files.map { Int($0.prefix(4))! })
    #expect(Migrations.all.map(\.version) == Migrations.all.map(\.version).sorted())
    for migration in Migrations.all {
      let text = try String(
        contentsOf: Self.packageRoot.appendingPathComponent("Migrations/\(migration.name).sql"),
        encoding: .utf8)
      #expect(migration.sql == text)
    }
  }

  @Test func eachMigrationRunsOnceAndRecordsItsVersion() throws {
    let database = try Database(path: ":memory:", mode: .create)
    try Migrations.migrate(database)
    try Migrations.migrate(database)
    #expect(try Migrations.userVersion(database) == Migrations.latestVersion)
    let tables = try database.rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
    ) { $0.string(at: 0) }
    #expect(
      tables == [
        "archive_version", "artist_totals", "artist_totals_kept", "artists", "charts",
        "decision_entries",
        "decision_undo", "decisions",
        "entries", "snapshots", "song_artists", "song_credits", "song_search", "song_search_config",
        "song_search_content", "song_search_data", "song_search_idx", "song_search_terms", "songs",
        "verdicts", "whole_credits",
      ])
  }

  @Test func anArchiveOfVersionOneGetsItsFiguresDecided() throws {
    // What version 1 stored for four weeks: the song at 5, then 2 (published previous rank 5),
    // then off, then back at 9 with weeks on chart 3 (as the source counts), under a new credit.
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: file.path, mode: .create)
      try database.execute(Migrations.all[0].sql)
      try database.execute(
        """
        PRAGMA user_version = 1;
        INSERT INTO charts (id, name, frequency) VALUES (1, 'c', 'weekly');
        INSERT INTO snapshots (id, chart_id, chart_date, chart_time, publishes_previous_rank,
          imported_at) VALUES (1, 1, '2024-01-06', 1704499200, 1, ''),
          (2, 1, '2024-01-13', 1705104000, 1, ''), (3, 1, '2024-01-20', 1705708800, 1, ''),
          (4, 1, '2024-01-27', 1706313600, 1, '');
        INSERT INTO songs (id, identity, title, artist, title_key, artist_key, base_title_key,
          primary_artist_key) VALUES (1, 'song:hit' || char(31) || 'ann', 'Hit', 'Ann', 'hit',
          'ann', 'hit', 'ann'), (2, 'song:other' || char(31) || 'bo', 'Other', 'Bo', 'other',
          'bo', 'other', 'bo');
        INSERT INTO entries (snapshot_id, position, rank, song_id, previous_rank, peak_position,
          weeks_on_chart, title, artist) VALUES (1, 0, 5, 1, NULL, 5, 1, 'Hit', 'Ann'),
          (2, 0, 1, 2, NULL, 1, 1, 'Other', 'Bo'), (2, 1, 2, 1, 5, 2, 2, 'Hit', 'Ann'),
          (3, 0, 1, 2, 1, 1, 2, 'Other', 'Bo'), (4, 0, 1, 2, 1, 1, 3, 'Other', 'Bo'),
          (4, 1, 9, 1, NULL, 2, 3, 'Hit', 'Ann & Cy');
        """)
    }
    let archive = try Archive(path: file.path, access: .write, upgrade: .decidingFigures)
    #expect(try archive.storedSchemaVersion() == 18)
    let history = try #require(try archive.history(of: SongID(1)).first?.history)
    #expect(history.placements.map(\.movement) == [.debut, .up(3), .reentry])
    #expect(history.placements.map(\.previousRank) == [nil, 5, nil])
    #expect(history.placements.map(\.weeksOnChart) == [1, 2, 3])
    #expect(history.placements.map(\.figures.run) == [1, 1, 2])
    #expect(history.placements.map(\.entry.publishedWeeksOnChart) == [1, 2, 3])
    // The credits a song charted under besides its first, and each snapshot's entry count.
    #expect(
      try archive.database.rows("SELECT song_id, artist_key FROM song_credits") {
        "\($0.int(at: 0)) \($0.string(at: 1))"
      } == ["1 ann, cy"])
    #expect(try archive.snapshots(of: "c").map(\.entryCount) == [1, 2, 1, 2])
    // The full-text index, made again by migration 6: each song and credit once, found by a word
    // of its credit.
    #expect(
      try archive.database.rows("SELECT song_id, artist FROM song_search ORDER BY rowid") {
        "\($0.int(at: 0)) \($0.string(at: 1))"
      } == ["1 Ann", "2 Bo", "1 Ann & Cy"])
    #expect(try archive.songs(matching: "cy").map(\.id.rawValue) == [1])
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func anArchiveOfVersionEightGetsTheKeysSongsAreMatchedBy() throws {
    // Version 8 kept "Björk Lind" and "Bjork Lind" apart, and a remaster as a credit of its own.
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: file.path, mode: .create)
      for migration in Migrations.all.prefix(8) { try database.execute(migration.sql) }
      try database.execute(
        """
        PRAGMA user_version = 8;
        INSERT INTO songs (id, identity, recording, title, artist, title_key, artist_key,
          base_title_key, primary_artist_key) VALUES
          (1, 'song:bright fog' || char(31) || 'björk lind', 1, 'Bright Fog', 'Björk Lind',
            'bright fog', 'björk lind', 'brightfog', 'björklind'),
          (2, 'song:bright fog' || char(31) || 'bjork lind', 1, 'Bright Fog', 'Bjork Lind',
            'bright fog', 'bjork lind', 'brightfog', 'bjorklind');
        INSERT INTO song_credits (song_id, title, artist, title_key, artist_key, base_title_key,
          primary_artist_key) VALUES
          (1, 'Bright Fog - Remastered 2009', 'Björk Lind', 'bright fog - remastered 2009',
            'björk lind', 'brightfogremastered2009', 'björklind'),
          (2, 'Bright Fog', 'Bjork Lind Featuring Sol', 'bright fog', 'bjork lind featuring sol',
            'brightfog', 'bjorklind');
        INSERT INTO song_search (title, artist, song_id) VALUES ('Bright Fog', 'Björk Lind', 1),
          ('Bright Fog', 'Bjork Lind', 2), ('Bright Fog - Remastered 2009', 'Björk Lind', 1),
          ('Bright Fog', 'Bjork Lind Featuring Sol', 2);
        """)
    }
    let archive = try Archive(path: file.path, access: .write, upgrade: .decidingFigures)
    #expect(try archive.storedSchemaVersion() == 18)
    #expect(
      try archive.database.rows(
        "SELECT id, replace(identity, char(31), '|'), recording, artist_key FROM songs ORDER BY id"
      ) { "\($0.int(at: 0)) \($0.string(at: 1)) \($0.int(at: 2)) \($0.string(at: 3))" } == [
        "1 song:bright fog|bjork lind 1 bjork lind", "2 song:bright fog|bjork lind 2 bjork lind",
      ])
    // The remaster is the song's own credit now; the featured credit stays, keyed by its artists.
    #expect(
      try archive.database.rows("SELECT song_id, artist_key FROM song_credits") {
        "\($0.int(at: 0)) \($0.string(at: 1))"
      } == ["2 bjork lind, sol"])
    #expect(
      try archive.database.rows("SELECT song_id, artist FROM song_search ORDER BY song_id, rowid") {
        "\($0.int(at: 0)) \($0.string(at: 1))"
      } == ["1 Björk Lind", "2 Bjork Lind", "2 Bjork Lind Featuring Sol"])
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func anArchiveOfVersionTenKeepsItsVerdictsAndTakesCauseSix() throws {
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: file.path, mode: .create)
      for migration in Migrations.all.prefix(10) { try database.execute(migration.sql) }
      try database.execute(
        """
        PRAGMA user_version = 10;
        INSERT INTO charts (id, name) VALUES (1, 'c');
        INSERT INTO snapshots (id, chart_id, chart_date, chart_time, source, imported_at,
          publishes_previous_rank, entry_count) VALUES
          (1, 1, '2024-01-06', 1704499200, 'a.json', '2024-01-07T00:00:00Z', 1, 2);
        INSERT INTO verdicts (snapshot_id, position, figure, derived, cause) VALUES
          (1, 0, 1, 3, 3), (1, 1, 0, NULL, 5), (1, 1, 2, 4, 0);
        """)
      #expect(throws: DatabaseError.self) {
        try database.execute("INSERT INTO verdicts VALUES (1, 0, 2, 1, 6)")
      }
    }
    let archive = try Archive(path: file.path, access: .write)
    #expect(try archive.storedSchemaVersion() == 18)
    let verdicts = "SELECT snapshot_id, position, figure, derived, cause FROM verdicts"
    let read: (Statement) -> String = { row in
      (0..<5).map { row.optionalString(at: Int32($0)) ?? "-" }.joined(separator: " ")
    }
    #expect(
      try archive.database.rows(verdicts, [], read) == ["1 0 1 3 3", "1 1 0 - 5", "1 1 2 4 0"])
    try archive.database.execute("INSERT INTO verdicts VALUES (1, 0, 2, 1, 6)")
    #expect(try archive.database.rows(verdicts + " WHERE cause = 6", [], read) == ["1 0 2 1 6"])
    #expect(throws: DatabaseError.self) {
      try archive.database.execute("INSERT INTO verdicts VALUES (1, 0, 3, 1, 7)")
    }
  }

  @Test func anArchiveOfVersionFifteenKeepsItsChartsAndSnapshotsAndTakesZonesAndYearly() throws {
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    do {
      let database = try Database(path: file.path, mode: .create)
      for migration in Migrations.all.prefix(15) { try database.execute(migration.sql) }
      try database.execute(
        """
        PRAGMA user_version = 15;
        INSERT INTO charts (id, name, frequency) VALUES (1, 'hot-100', 'weekly'), (2, 'app', NULL);
        INSERT INTO snapshots (id, chart_id, chart_date, chart_time, source, imported_at,
          publishes_previous_rank, entry_count) VALUES
          (1, 1, '2024-01-06', 1704499200, 'a.json', '2024-01-07T00:00:00Z', 0, 1),
          (2, 1, '2024-01-13', 1705104000, 'b.json', '2024-01-14T00:00:00Z', 0, 1),
          (3, 2, '2024-01-13', 1705104000, 'c.json', '2024-01-14T00:00:00Z', 0, 1);
        INSERT INTO songs (id, identity, title, artist, title_key, artist_key, base_title_key,
          primary_artist_key) VALUES (1, 'song:hit' || char(31) || 'ann', 'Hit', 'Ann', 'hit',
          'ann', 'hit', 'ann');
        INSERT INTO entries (snapshot_id, position, rank, song_id, previous_rank, peak_position,
          weeks_on_chart, run, title, artist) VALUES (1, 0, 3, 1, NULL, 3, 1, 1, 'Hit', 'Ann'),
          (2, 0, 1, 1, 3, 1, 2, 1, 'Hit', 'Ann'), (3, 0, 1, 1, NULL, 1, 1, 1, 'Hit', 'Ann');
        """)
      #expect(throws: DatabaseError.self) {
        try database.execute("UPDATE charts SET frequency = 'yearly' WHERE id = 2")
      }
    }
    let archive = try Archive(path: file.path, access: .write)
    #expect(try archive.storedSchemaVersion() == 18)
    #expect(
      try archive.database.rows(
        "SELECT id, name, coalesce(frequency, '-'), coalesce(time_zone, '-') FROM charts"
      ) { "\($0.int(at: 0)) \($0.string(at: 1)) \($0.string(at: 2)) \($0.string(at: 3))" } == [
        "1 hot-100 weekly -", "2 app - -",
      ])
    #expect(
      try archive.snapshots(of: "hot-100").map(\.chartDate.iso8601) == ["2024-01-06", "2024-01-13"])
    #expect(try archive.snapshots(of: "app").map(\.entryCount) == [1])
    // The views that name the chart table read the rebuilt one.
    #expect(
      try archive.database.rows("SELECT chart, rank FROM chart_entries ORDER BY chart, chart_date")
      {
        "\($0.string(at: 0)) \($0.int(at: 1))"
      } == ["app 1", "hot-100 3", "hot-100 1"])
    // Foreign keys are on again, and hold.
    #expect(try archive.database.row("PRAGMA foreign_keys") { $0.int(at: 0) } == 1)
    #expect(try archive.database.rows("PRAGMA foreign_key_check") { $0.string(at: 0) } == [])
    try archive.database.execute(
      "UPDATE charts SET frequency = 'yearly', time_zone = 'Asia/Seoul' WHERE id = 2")
    #expect(try archive.check().filter { !$0.passed }.map { "\($0.kind) \($0.findings)" } == [])
  }

  @Test func connectionsEnforceForeignKeysAndUseWriteAheadLogging() throws {
    let file = TemporaryArchive()
    try FileManager.default.createDirectory(at: file.folder, withIntermediateDirectories: true)
    let database = try Database(path: file.path, mode: .create)
    #expect(try database.row("PRAGMA foreign_keys") { $0.int(at: 0) } == 1)
    #expect(try database.row("PRAGMA journal_mode") { $0.string(at: 0) } == "wal")
    try Migrations.migrate(database)
    #expect(throws: DatabaseError.self) {
      try database.execute(
        "INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank,"
          + " imported_at) VALUES (99, '2024-01-06', 0, 0, '')")
    }
  }

  @Test func databaseErrorsSayWhatAndWhere() throws {
    let database = try Database(path: ":memory:", mode: .create)
    do {
      try database.execute("SELECT * FROM nowhere")
      Issue.record("expected an error")
    } catch {
      #expect(
        error.description
          == "SQLite error 1: no such table: nowhere - while executing `SELECT * FROM nowhere`")
    }
  }

  @Test func aLongStatementIsQuotedInPart() {
    let placeholders = Array(repeating: "(?, ?, ?)", count: 100).joined(separator: ", ")
    let error = DatabaseError(
      extendedResultCode: 13, message: "database or disk is full",
      sql: "INSERT INTO entries (snapshot_id, position, rank) VALUES " + placeholders)
    #expect(
      error.description
        == "SQLite error 13: database or disk is full - while executing `INSERT INTO entries"
        + " (snapshot_id, position, rank) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?,"
        + " ?), (?, ?, ? …`")
  }
}

/// The schema every opening compares an archive with is the one the migrations make.
struct ExpectedSchemaTests {
  /// The source of `Sources/ChartStorage/ExpectedSchema.swift` for a schema.
  static func source(of objects: [Migrations.SchemaObject]) -> String {
    var text = """
      // What the migrations make (Migrations.executedSchema()), kept in the source so that opening an
      // archive need not apply them all in memory first. Written by the test
      // ExpectedSchemaTests.theCopyIsWhatTheMigrationsMake when run with
      // CHART_ARCHIVE_WRITE_EXPECTED_SCHEMA=1 after a new migration; never edited by hand.

      extension Migrations {
        /// ChartArchive's own objects at ``latestVersion``, in `sqlite_schema`'s words, ordered by
        /// type and name, each with the migration that last made or changed it.
        static let expectedObjects: [SchemaObject] = [

      """
    for object in objects {
      let sql = object.sql.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "        " + $0 }.joined(separator: "\n")
      text += """
            SchemaObject(
              type: "\(object.type)", name: "\(object.name)",
              sql: #\"\"\"

        """
      text += sql + "\n        \"\"\"#, migration: \"\(object.migration)\"),\n"
    }
    text += "  ]\n}\n"
    return text
  }

  @Test func theCopyIsWhatTheMigrationsMake() throws {
    let executed = try Migrations.executedSchema()
    if ProcessInfo.processInfo.environment["CHART_ARCHIVE_WRITE_EXPECTED_SCHEMA"] == "1" {
      let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ChartStorage/ExpectedSchema.swift")
      try Self.source(of: executed).write(to: file, atomically: true, encoding: .utf8)
    }
    #expect(
      Migrations.expectedObjects == executed,
      "run: CHART_ARCHIVE_WRITE_EXPECTED_SCHEMA=1 swift test --filter ExpectedSchemaTests")
    #expect(executed.count > 20)
  }
}
