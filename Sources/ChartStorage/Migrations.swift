/// One schema change: a SQL file from the top-level `Migrations/` folder, embedded in the binary.
struct Migration: Sendable {
  /// The schema version the migration brings the archive to (the file's number).
  let version: Int
  /// The file's name without `.sql`, such as `0001_initial_schema`.
  let name: String
  /// The SQL text.
  let sql: String

  init(_ name: String, _ bytes: [UInt8]) {
    self.name = name
    self.version = Int(name.prefix(while: \.isNumber)) ?? 0
    self.sql = String(decoding: bytes, as: UTF8.self)
  }
}

/// The archive's migrations in the order they apply. A new file in `Migrations/` is added here too
/// (SwiftPM's `.embedInCode` names it `_NNN_name_sql`: the first digit becomes `_`); a test checks
/// that this list and the folder agree.
enum Migrations {
  static let all: [Migration] = [
    Migration("0001_initial_schema", PackageResources._001_initial_schema_sql)
  ]

  /// The schema version this build writes: the last migration's.
  static var latestVersion: Int { all.last?.version ?? 0 }

  /// Brings a database up to ``latestVersion``, one migration per transaction, recording each in
  /// `PRAGMA user_version` (<https://www.sqlite.org/pragma.html#pragma_user_version>) inside the
  /// same transaction.
  ///
  /// - Throws: ``ArchiveError/newerSchema(path:version:supported:)`` when the database was written
  ///   by a newer version; ``ArchiveError/notAnArchive(path:reason:)`` when it has tables but no
  ///   schema version (another program's database); ``DatabaseError`` when a migration fails (that
  ///   migration is rolled back).
  static func migrate(_ database: Database) throws {
    let current = try userVersion(database)
    guard current <= latestVersion else {
      throw ArchiveError.newerSchema(
        path: database.path, version: current, supported: latestVersion)
    }
    for migration in all where migration.version > current {
      try database.inTransaction {
        // Another process may have migrated while this one waited for the write lock.
        let version = try userVersion(database)
        guard version < migration.version else { return }
        if version == 0,
          try database.row("SELECT count(*) FROM sqlite_schema", [], { $0.int(at: 0) }) ?? 0 > 0
        {
          throw ArchiveError.notAnArchive(
            path: database.path, reason: "an SQLite database with other tables (schema version 0)")
        }
        try database.execute(migration.sql)
        try database.execute("PRAGMA user_version = \(migration.version)")
      }
    }
  }

  static func userVersion(_ database: Database) throws(DatabaseError) -> Int {
    try database.row("PRAGMA user_version") { $0.int(at: 0) } ?? 0
  }
}
