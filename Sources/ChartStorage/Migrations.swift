import ChartRanking

/// One schema change: a SQL file from the top-level `Migrations/` folder, embedded in the binary.
struct Migration: Sendable {
  /// The schema version the migration brings the archive to (the file's number).
  let version: Int
  /// The file's name without `.sql`, such as `0001_initial_schema`.
  let name: String
  /// The SQL text.
  let sql: String
  /// What fills the new tables and columns of an archive that holds data, after the SQL, in the
  /// same transaction: what the SQL cannot compute (folded text, decided figures, which the
  /// upgrade given to the opening decides).
  let fill: (@Sendable (Database, ArchiveUpgrade?) throws -> Void)?

  init(
    _ name: String, _ bytes: [UInt8],
    fill: (@Sendable (Database, ArchiveUpgrade?) throws -> Void)? = nil
  ) {
    self.name = name
    self.version = Int(name.prefix(while: \.isNumber)) ?? 0
    self.sql = String(decoding: bytes, as: UTF8.self)
    self.fill = fill
  }
}

/// The archive's migrations in the order they apply. A new file in `Migrations/` is added here too
/// (SwiftPM's `.embedInCode` names it `_NNN_name_sql`: the first digit becomes `_`); a test checks
/// that this list and the folder agree.
enum Migrations {
  static let all: [Migration] = [
    Migration("0001_initial_schema", PackageResources._001_initial_schema_sql),
    Migration(
      "0002_decided_figures", PackageResources._002_decided_figures_sql,
      fill: { database, _ in try fillCountsAndCredits(database) }),
    Migration("0003_views_and_search", PackageResources._003_views_and_search_sql),
    Migration("0004_published_runs", PackageResources._004_published_runs_sql),
    Migration("0005_search_filled_by_import", PackageResources._005_search_filled_by_import_sql),
    Migration(
      "0006_search_without_column_sizes", PackageResources._006_search_without_column_sizes_sql),
    Migration(
      "0007_weeks_at_peak_as_weeks_on_chart",
      PackageResources._007_weeks_at_peak_as_weeks_on_chart_sql),
    Migration("0008_published_trends", PackageResources._008_published_trends_sql),
    Migration(
      "0009_match_keys", PackageResources._009_match_keys_sql,
      fill: { database, _ in try recomputeMatchKeys(database) }),
    Migration("0010_decisions", PackageResources._010_decisions_sql),
    Migration("0011_isrc", PackageResources._011_isrc_sql),
    Migration("0012_joined_by_hand", PackageResources._012_joined_by_hand_sql),
    Migration("0013_records", PackageResources._013_records_sql),
    Migration(
      "0014_artists", PackageResources._014_artists_sql,
      fill: { database, _ in
        let index = ArtistIndex(database: database)
        try index.rebuild()
      }),
    Migration("0015_archive_version", PackageResources._015_archive_version_sql),
    Migration(
      "0016_chart_zones_and_yearly_charts",
      PackageResources._016_chart_zones_and_yearly_charts_sql),
    Migration(
      "0017_artist_totals", PackageResources._017_artist_totals_sql,
      fill: { database, _ in
        let version =
          try database.row("SELECT version FROM archive_version", []) { $0.int64(at: 0) } ?? 0
        let totals = ArtistTotals(database: database, path: database.path)
        for chart in try database.rows("SELECT id FROM charts ORDER BY id", [], { $0.int64(at: 0) })
        {
          try totals.addUp(chart: chart, version: version)
        }
      }),
    Migration("0018_snapshots_by_size", PackageResources._018_snapshots_by_size_sql),
  ]

  /// Computes the keys songs are matched by again, in the forms this build gives them
  /// (``SongKeys``), for every song and every credit a song took since its first: what version 9
  /// changes. A song's identity is its song URL's (compared as ``SongIdentity/comparableURL(_:)``
  /// gives it) or its title's and credit's; songs whose identities are now equal are numbered
  /// recordings 1, 2 … in the order they were stored. A credit whose keys are now its song's own is
  /// dropped, as an import would not have recorded it (and with it from the search index).
  static func recomputeMatchKeys(_ database: Database) throws {
    let songs = try database.rows(
      "SELECT id, identity, title, artist FROM songs ORDER BY id", []
    ) { ($0.int64(at: 0), $0.string(at: 1), $0.string(at: 2), $0.string(at: 3)) }
    // Identities first made unique by the song's ID, so that no two rows meet on the way.
    try database.execute("UPDATE songs SET identity = 'upgrading:' || id")
    var recordings: [String: Int] = [:]
    var ownKeys: [Int64: SongKeys] = [:]
    for (id, identity, title, artist) in songs {
      let url = identity.hasPrefix("url:") ? String(identity.dropFirst(4)) : nil
      let keys = SongKeys(ChartEntry(rank: 1, title: title, artist: artist, songURL: url))
      ownKeys[id] = keys
      let recording = (recordings[keys.identity.key] ?? 0) + 1
      recordings[keys.identity.key] = recording
      try database.run(
        "UPDATE songs SET identity = ?, recording = ?, title_key = ?, artist_key = ?,"
          + " base_title_key = ?, primary_artist_key = ? WHERE id = ?", keys.identity.key,
        recording, keys.foldedTitle, keys.foldedArtist, keys.baseTitle, keys.primaryArtist, id)
    }
    let credits = try database.rows("SELECT song_id, title, artist FROM song_credits", []) {
      ($0.int64(at: 0), $0.string(at: 1), $0.string(at: 2))
    }
    try database.execute("DELETE FROM song_credits")
    for (song, title, artist) in credits {
      let own = ownKeys[song]
      // A credit's forms depend on a song URL only through its presence (a lowercase "(with B)"
      // is a featured artist in a streaming service's title): any text stands for the song's.
      let url = own.flatMap { $0.identity.isSongURL ? "url" : nil }
      let keys = SongKeys(ChartEntry(rank: 1, title: title, artist: artist, songURL: url))
      if keys.foldedTitle == own?.foldedTitle, keys.foldedArtist == own?.foldedArtist { continue }
      try database.run(
        "INSERT OR IGNORE INTO song_credits (song_id, title, artist, title_key, artist_key,"
          + " base_title_key, primary_artist_key) VALUES (?, ?, ?, ?, ?, ?, ?)", song, title,
        artist, keys.foldedTitle, keys.foldedArtist, keys.baseTitle, keys.primaryArtist)
      // Deleting the credit took it out of the search index (a trigger): it goes back in.
      if database.changes > 0 {
        try database.run(
          "INSERT INTO song_search (title, artist, song_id) VALUES (?, ?, ?)", title, artist, song)
      }
    }
  }

  /// Fills what version 2 adds to an archive of version 1 but its figures: each snapshot's entry
  /// count, and the titles and credits each song charted under besides its first. The figures are
  /// decided after the last migration (``decideUndecidedFigures(_:upgrade:)``), which reads every
  /// column of the entries as this build writes them.
  static func fillCountsAndCredits(_ database: Database) throws {
    try database.execute(
      "UPDATE snapshots SET entry_count = (SELECT count(*) FROM entries WHERE snapshot_id = snapshots.id)"
    )
    let credits = try database.rows(
      "SELECT DISTINCT e.song_id, e.title, e.artist, g.title_key, g.artist_key FROM entries e"
        + " JOIN songs g ON g.id = e.song_id"
    ) { ($0.int64(at: 0), $0.string(at: 1), $0.string(at: 2), $0.string(at: 3), $0.string(at: 4)) }
    for (song, title, artist, titleKey, artistKey) in credits {
      let keys = SongKeys(ChartEntry(rank: 1, title: title, artist: artist))
      // The song's first credit is in the songs table.
      if keys.foldedTitle == titleKey, keys.foldedArtist == artistKey { continue }
      try database.run(
        "INSERT OR IGNORE INTO song_credits (song_id, title, artist, title_key, artist_key,"
          + " base_title_key, primary_artist_key) VALUES (?, ?, ?, ?, ?, ?, ?)", song, title,
        artist, keys.foldedTitle, keys.foldedArtist, keys.baseTitle, keys.primaryArtist)
    }
  }

  /// Has the figures of every chart that has an entry without them (an archive of version 1,
  /// brought up to date) decided by the upgrade, chart by chart from its first snapshot; an
  /// archive whose figures were decided is left as it is.
  ///
  /// - Precondition: an archive with such a chart is opened with an upgrade.
  static func decideUndecidedFigures(_ database: Database, upgrade: ArchiveUpgrade?) throws {
    let charts = try database.rows(
      "SELECT id FROM charts c WHERE EXISTS (SELECT 1 FROM snapshots s CROSS JOIN entries e"
        + " ON e.snapshot_id = s.id WHERE s.chart_id = c.id AND e.run IS NULL) ORDER BY id", [],
      { ChartID($0.int64(at: 0)) })
    guard !charts.isEmpty else { return }
    guard let upgrade else {
      preconditionFailure(
        "the archive \(database.path) holds entries without figures: open it with an upgrade"
          + " that decides them (ArchiveUpgrade.decidingFigures)")
    }
    let writer = ArchiveWriter(database: database, path: database.path)
    for chart in charts { try upgrade.decideFigures(chart, writer) }
    try writer.finish()
  }

  /// The schema version this build writes: the last migration's.
  static var latestVersion: Int { all.last?.version ?? 0 }

  /// Brings a database up to ``latestVersion``, one migration per transaction, recording each in
  /// `PRAGMA user_version` (<https://www.sqlite.org/pragma.html#pragma_user_version>) inside the
  /// same transaction. `upgrade` decides what SQL cannot (see ``ArchiveUpgrade``).
  ///
  /// - Throws: ``ArchiveError/newerSchema(path:version:supported:)`` when the database was written
  ///   by a newer version; ``ArchiveError/notAnArchive(path:reason:)`` when it has tables but no
  ///   schema version (another program's database); ``DatabaseError`` when a migration fails (that
  ///   migration is rolled back).
  static func migrate(_ database: Database, upgrade: ArchiveUpgrade? = nil) throws {
    let current = try userVersion(database)
    guard current <= latestVersion else {
      throw ArchiveError.newerSchema(
        path: database.path, version: current, supported: latestVersion)
    }
    // A migration that rebuilds a table (16's `charts`) drops it: with foreign keys on, that
    // would delete the rows that refer to it. They are turned off around each migration (the
    // setting changes only outside a transaction) and checked before its commit
    // (<https://www.sqlite.org/lang_altertable.html>, "Making Other Kinds Of Table Schema Changes").
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
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
        if let fill = migration.fill { try fill(database, upgrade) }
        // Figures are decided by the last migration, which reads every column of the entries as
        // this build writes them (an earlier one would lack the columns later ones add).
        if migration.version == latestVersion {
          try decideUndecidedFigures(database, upgrade: upgrade)
        }
        let broken = try database.rows("PRAGMA foreign_key_check", []) { $0.string(at: 0) }
        if let table = broken.first {
          throw DatabaseError.other(
            "migration \(migration.name) left rows of \(table) that refer to no row")
        }
        try database.execute("PRAGMA user_version = \(migration.version)")
      }
    }
  }

  /// The tables, indexes, views and triggers of an archive at ``latestVersion`` as SQLite records
  /// them (`sqlite_schema`: type, name and the SQL that made them), each with the migration that
  /// last made or changed it: the migrations applied to an empty database in memory. That takes
  /// milliseconds (the full-text tables, the views), so every opening compares with
  /// ``expectedObjects``, a copy kept in the source that a test checks against this.
  ///
  /// - Throws: ``DatabaseError`` when a migration fails.
  static func executedSchema() throws(DatabaseError) -> [SchemaObject] {
    let database = try Database(path: ":memory:", mode: .create)
    var objects: [SchemaObject] = []
    for migration in all {
      try database.execute(migration.sql)
      // Each object with the migration that last made or changed it.
      let now = try schema(of: database)
      objects = now.map { object in
        objects.first { $0.type == object.type && $0.name == object.name && $0.sql == object.sql }
          ?? SchemaObject(
            type: object.type, name: object.name, sql: object.sql, migration: migration.name)
      }
    }
    return objects
  }

  /// One table, index, view or trigger of a schema, and for ChartArchive's own, the migration
  /// that made it as it is.
  struct SchemaObject: Equatable {
    var type: String
    var name: String
    var sql: String
    var migration = ""
  }

  static func schema(of database: Database) throws(DatabaseError) -> [SchemaObject] {
    try database.rows(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type, name"
    ) { SchemaObject(type: $0.string(at: 0), name: $0.string(at: 1), sql: $0.string(at: 2)) }
  }

  /// Checks that an archive at ``latestVersion`` has the tables, indexes, views and triggers its
  /// version stands for, each as its migrations made it: a file made by a development build of
  /// ChartArchive (whose migrations were not yet final), or whose objects another program changed
  /// or dropped, would otherwise fail later with SQL errors. What SQL tools add beside them is
  /// left alone: `ANALYZE`'s statistics, a user's own tables, views, indexes and triggers,
  /// full-text tables.
  ///
  /// - Throws: ``ArchiveError/notAnArchive(path:reason:)`` naming the first of ChartArchive's
  ///   objects that is missing or differs, and how to recover; ``DatabaseError`` when the schema
  ///   cannot be read.
  static func verifySchema(_ database: Database) throws {
    let expected = expectedObjects
    let stored = Dictionary(
      try schema(of: database).map { ("\($0.type) \($0.name)", $0.sql) }, uniquingKeysWith: { $1 })
    for object in expected where stored["\(object.type) \(object.name)"] != object.sql {
      let what = stored["\(object.type) \(object.name)"] == nil ? "is missing" : "was changed"
      // A table holds data; a view, index or trigger can be made again from its SQL.
      let recovery =
        object.type == "table"
        ? "restore the file from a copy"
        : "make it again with its statement in Migrations/\(object.migration).sql of"
          + " ChartArchive's source (dropping the changed one first), or restore the file from a"
          + " copy"
      throw ArchiveError.notAnArchive(
        path: database.path,
        reason: "it says schema version \(latestVersion), but its \(object.type) '\(object.name)'"
          + " \(what) (by another program, or by a development build of ChartArchive): \(recovery)")
    }
  }

  /// ChartArchive's own objects, as `type name`, the name in lower case (SQLite's names ignore
  /// the case of ASCII letters): an index and a trigger have names of their own, so a user's
  /// trigger may bear the name of one of the archive's tables.
  static let ownObjects = Set(expectedObjects.map { "\($0.type) \($0.name.lowercased())" })

  /// The names of ChartArchive's own tables and views, in lower case.
  static let ownTables = Set(
    expectedObjects.filter { $0.type == "table" || $0.type == "view" }.map { $0.name.lowercased() })

  static func userVersion(_ database: Database) throws(DatabaseError) -> Int {
    try database.row("PRAGMA user_version") { $0.int(at: 0) } ?? 0
  }
}
