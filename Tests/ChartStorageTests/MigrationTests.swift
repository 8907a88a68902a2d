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
    #expect(Migrations.all.map(\.version) == Array(1...files.count))
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
    #expect(tables == ["charts", "entries", "snapshots", "songs"])
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
