public import ChartRanking
import Foundation

/// A chart archive: one SQLite file holding charts, their snapshots, songs and entries.
///
/// Opening an archive applies the schema migrations it lacks (see `Migrations/`); an archive
/// written by a newer ChartArchive is refused. Writes happen in ``write(_:)``, one transaction for
/// all that the closure stores, so an import is all or nothing. Readers on other connections see
/// whole transactions only (write-ahead logging).
///
/// ```swift
/// let archive = try Archive(path: "archive.sqlite", createIfMissing: true)
/// let outcome = try archive.write { try $0.store(snapshot) }
/// ```
public final class Archive {
  let database: Database
  /// The archive file's path, as given.
  public let path: String

  /// The schema version this build reads and writes.
  public static var schemaVersion: Int { Migrations.latestVersion }

  /// Opens an archive.
  ///
  /// A writing archive is created when missing (with its parent folders) and its schema is
  /// migrated. A reading archive is opened read-only, so that a query never changes the file (and
  /// works on a read-only file); only an archive with an older schema is opened for writing, to
  /// migrate it.
  ///
  /// - Parameters:
  ///   - path: the SQLite file's path, or `:memory:` for a private in-memory archive.
  ///   - createIfMissing: `true` to open for writing and create a missing file (imports); `false`
  ///     to open an existing archive for reading (queries).
  /// - Throws: ``ArchiveError/notFound(path:)``, ``ArchiveError/notAnArchive(path:reason:)`` (also
  ///   for an archive whose tables are not those of its schema version),
  ///   ``ArchiveError/newerSchema(path:version:supported:)`` or ``ArchiveError/database(path:_:)``.
  public init(path: String, createIfMissing: Bool) throws(ArchiveError) {
    self.path = path
    let manager = FileManager.default
    if path != ":memory:" {
      var isDirectory: ObjCBool = false
      if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
        if isDirectory.boolValue { throw .notAnArchive(path: path, reason: "it is a directory") }
        let size = (try? manager.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if !createIfMissing, size == 0 { throw .notAnArchive(path: path, reason: "it is empty") }
      } else if createIfMissing {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? manager.createDirectory(at: parent, withIntermediateDirectories: true)
      } else {
        throw .notFound(path: path)
      }
    }
    do {
      if createIfMissing || path == ":memory:" {
        database = try Database(path: path, mode: .create)
        try Migrations.migrate(database)
      } else {
        let reader = try Database(path: path, mode: .readOnly)
        let version = try Migrations.userVersion(reader)
        if version == 0 {
          let tables = try reader.row("SELECT count(*) FROM sqlite_schema") { $0.int(at: 0) } ?? 0
          throw ArchiveError.notAnArchive(
            path: path,
            reason: tables > 0
              ? "an SQLite database with other tables (schema version 0)" : "it is empty")
        }
        if version < Migrations.latestVersion {
          database = try Database(path: path, mode: .readWrite)
          try Migrations.migrate(database)
        } else {
          try Migrations.migrate(reader)  // refuses a newer schema; applies nothing
          database = reader
        }
      }
      try Migrations.verifySchema(database)
    } catch let error as ArchiveError {
      throw error
    } catch let error as DatabaseError {
      if error.resultCode == 26 {  // SQLITE_NOTADB
        throw .notAnArchive(path: path, reason: "not an SQLite database")
      }
      throw .database(path: path, error)
    } catch {
      throw .database(path: path, DatabaseError(extendedResultCode: 1, message: "\(error)"))
    }
  }

  /// An archive on a connection that is open already, whose schema is migrated by the caller.
  ///
  /// - Parameters:
  ///   - database: the connection.
  ///   - path: the archive's path as messages name it.
  init(database: Database, path: String) {
    self.database = database
    self.path = path
  }

  /// The schema version stored in the file (`PRAGMA user_version`).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func storedSchemaVersion() throws(ArchiveError) -> Int {
    do { return try Migrations.userVersion(database) } catch { throw .database(path: path, error) }
  }

  /// Runs `body` in one write transaction: everything it stores is committed when it returns and
  /// nothing is when it throws.
  ///
  /// - Parameter body: receives the ``ImportBatch`` to store snapshots with.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws, or ``ArchiveError/database(path:_:)`` when the transaction cannot
  ///   begin or commit (`SQLITE_BUSY` after the busy timeout, a full disk).
  ///
  /// Foreign keys are not enforced row by row while `body` runs: the batch checks the songs,
  /// snapshots and charts its rows refer to once, before the commit, and throws SQLite's
  /// `SQLITE_CONSTRAINT_FOREIGNKEY` error (787) when one is missing (see ``References``).
  @discardableResult
  public func write<Result>(_ body: (ImportBatch) throws -> Result) throws -> Result {
    let batch = ImportBatch(database: database, path: path)
    do {
      // The setting can change only outside a transaction
      // (<https://www.sqlite.org/pragma.html#pragma_foreign_keys>).
      try database.execute("PRAGMA foreign_keys = OFF")
      defer { try? database.execute("PRAGMA foreign_keys = ON") }
      return try database.inTransaction {
        let result = try body(batch)
        try batch.relinkWaitingSnapshots(before: nil)
        try batch.checkReferences()
        return result
      }
    } catch let error as DatabaseError {
      throw ArchiveError.database(path: path, error)
    }
  }
}

/// What storing a snapshot did.
public enum ImportOutcome: String, Hashable, Sendable {
  /// The snapshot was new and is now stored.
  case imported
  /// An identical snapshot was already stored; nothing changed.
  case unchanged
  /// A different snapshot of the same chart and chart date was replaced.
  case replaced
}

/// Stores snapshots inside one ``Archive/write(_:)`` transaction.
public final class ImportBatch {
  private let database: Database
  private let path: String
  private var chartIDs: [String: Int64] = [:]
  /// The snapshots stored by this batch, by chart ID and chart time: a second, different snapshot
  /// of the same chart date in one batch is a conflict even when replacing.
  private var storedHere: Set<StoredKey> = []
  /// The keys that `storedHere` gained, in order: a rolled-back savepoint removes its own.
  private var storedHereLog: [StoredKey] = []
  private struct StoredKey: Hashable {
    var chartID: Int64
    var chartTime: Int64
  }
  /// Per chart, the snapshot stored last with its songs and keys: the chart's next snapshot links
  /// to it without reading it back (an import of many charts interleaves them by date).
  private var lastStored: [Int64: (chartTime: Int64, snapshot: SongLinking.PreviousSnapshot)] = [:]
  private let importedAt = Date.now.formatted(.iso8601)
  private var entryInserts: [Int: Statement] = [:]
  private let texts = TextArena()
  /// The songs and snapshots of the entries this batch wrote, and the charts of its snapshots.
  private var referencedSongs = References()
  private var referencedSnapshots = References()
  private var referencedCharts = References()
  /// Per chart whose stored snapshots come after one this batch stored, the chart time after which
  /// they wait to be linked again (see ``relinkSnapshots(ofChart:after:before:)``). A batch that
  /// stores a run of earlier snapshots (a chart's history imported after its recent weeks) links
  /// the later ones once, not once per snapshot it stores.
  private var relinkWaiting: [Int64: Int64] = [:]
  /// How many snapshots this batch linked again (for tests).
  private(set) var relinkedSnapshotCount = 0
  /// Where the batch hands a chart's previous snapshot, with its entries' keys, once it stores the
  /// chart's next one; `nil` frees it here. An import hands it to its reading thread: releasing
  /// the texts of a few hundred keys costs time on the storing thread, the import's bottleneck.
  public var retire: ((consuming SongLinking.PreviousSnapshot) -> Void)?

  init(database: Database, path: String) {
    self.database = database
    self.path = path
  }

  /// Runs `body` in a savepoint of the batch's transaction: what it stores is kept when it returns
  /// and undone when it throws, while the rest of the batch goes on
  /// (<https://www.sqlite.org/lang_savepoint.html>). An import that skips invalid files stores each
  /// file in one.
  ///
  /// - Throws: what `body` throws (after undoing its writes), or ``ArchiveError/database(path:_:)``.
  @discardableResult
  public func inSavepoint<Result>(_ body: () throws -> Result) throws -> Result {
    do {
      try database.execute("SAVEPOINT file")
    } catch {
      throw ArchiveError.database(path: path, error)
    }
    let referenceCounts = (
      referencedSongs.members.count, referencedSnapshots.members.count,
      referencedCharts.members.count
    )
    let waiting = relinkWaiting
    let storedCount = storedHereLog.count
    do {
      let result = try body()
      try database.execute("RELEASE file")
      return result
    } catch {
      try? database.execute("ROLLBACK TO file")
      try? database.execute("RELEASE file")
      // What the savepoint created is gone: forget it.
      chartIDs = [:]
      lastStored = [:]
      // The snapshots stored before the savepoint stay in conflict with other files' snapshots.
      for key in storedHereLog[storedCount...] { storedHere.remove(key) }
      storedHereLog.removeSubrange(storedCount...)
      referencedSongs.removeMembers(after: referenceCounts.0)
      referencedSnapshots.removeMembers(after: referenceCounts.1)
      referencedCharts.removeMembers(after: referenceCounts.2)
      relinkWaiting = waiting
      throw error
    }
  }

  /// Stores one snapshot.
  ///
  /// A snapshot of the same chart and chart date that is already stored with the same entries
  /// leaves the archive as it is (``ImportOutcome/unchanged``); one with different entries is
  /// refused unless `replacing` is true.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot; its entries in rank order.
  ///   - keys: the ``SongKeys`` of the snapshot's entries, same order, when already computed (an
  ///     import computes them on another thread while it stores the previous file); `nil` to
  ///     compute them here.
  ///   - frequency: how often the chart is published, when known; recorded for a new chart, or for
  ///     a stored chart that had none.
  ///   - replacing: whether a different stored snapshot of the same chart date is replaced.
  ///   - source: where the snapshot came from (a file path), kept for reference.
  /// - Returns: what was done.
  /// - Throws: ``ArchiveError/conflictingSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/conflictingSnapshotsInOneImport(chart:chartDate:)``,
  ///   ``ArchiveError/invalidChartName(_:)`` or ``ArchiveError/database(path:_:)``. The
  ///   conflicts and an invalid name are found before the snapshot's rows are written; after a
  ///   database error part of them can be written, so let it end the ``Archive/write(_:)`` or
  ///   ``inSavepoint(_:)`` it happened in, which undoes it.
  @discardableResult
  public func store(
    _ snapshot: Snapshot, keys: [SongKeys]? = nil, frequency: ChartFrequency? = nil,
    replacing: Bool = false, source: String? = nil
  ) throws(ArchiveError) -> ImportOutcome {
    precondition(keys == nil || keys?.count == snapshot.entries.count, "one key per entry")
    do {
      let chartID = try chartID(named: snapshot.chart, frequency: frequency)
      // Stored snapshots before this one that wait to be linked again, of any chart, first:
      // linking looks songs up across the archive.
      try relinkWaitingSnapshots(before: snapshot.chartDate.secondsSince1970)
      var outcome = ImportOutcome.imported
      if let existing = try database.row(
        "SELECT id, chart_date, publishes_previous_rank FROM snapshots"
          + " WHERE chart_id = ? AND chart_time = ?",
        [chartID, snapshot.chartDate.secondsSince1970],
        { ($0.int64(at: 0), $0.string(at: 1), $0.bool(at: 2)) })
      {
        let stored = try Archive.entries(of: SnapshotID(existing.0), in: database)
        // The same instant written another way (2024-01-06 or 2024-01-06T00:00:00Z) is the same
        // chart date.
        let key = StoredKey(chartID: chartID, chartTime: snapshot.chartDate.secondsSince1970)
        if existing.2 == snapshot.publishesPreviousRank, stored.map(\.entry) == snapshot.entries {
          // Another file of this import with a different snapshot of that date conflicts with
          // this one, whichever comes first and whatever the archive held.
          noteStoredHere(key)
          return .unchanged
        }
        if storedHere.contains(key) {
          throw ArchiveError.conflictingSnapshotsInOneImport(
            chart: snapshot.chart, chartDate: snapshot.chartDate)
        }
        guard replacing else {
          throw ArchiveError.conflictingSnapshot(
            chart: snapshot.chart, chartDate: snapshot.chartDate)
        }
        // Its entries explicitly: foreign keys, and so `ON DELETE CASCADE`, are off in a batch.
        try database.run("DELETE FROM entries WHERE snapshot_id = ?", existing.0)
        try database.run("DELETE FROM snapshots WHERE id = ?", existing.0)
        // Songs that only the replaced snapshot had are gone with it.
        let replacedSongs = Set(stored.map(\.song.rawValue))
        for song in replacedSongs {
          try database.run(
            "DELETE FROM songs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entries WHERE song_id = ?)",
            song, song)
        }
        outcome = .replaced
      }
      try database.run(
        "INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank, source,"
          + " imported_at) VALUES (?, ?, ?, ?, ?, ?)",
        chartID, snapshot.chartDate.iso8601, snapshot.chartDate.secondsSince1970,
        snapshot.publishesPreviousRank, source, importedAt)
      let snapshotID = database.lastInsertedRowID
      referencedCharts.insert(chartID)
      referencedSnapshots.insert(snapshotID)
      noteStoredHere(StoredKey(chartID: chartID, chartTime: snapshot.chartDate.secondsSince1970))
      let keys = keys ?? snapshot.entries.map(SongKeys.init)
      let songs = try linkSongs(
        of: snapshot.entries, keys: keys, publishesPreviousRank: snapshot.publishesPreviousRank,
        chartID: chartID, chartTime: snapshot.chartDate.secondsSince1970)
      // Entries go in with one statement for up to `rowsPerInsert` of them: SQLite runs the
      // statement's setup and its end once per statement, not once per entry. Their texts are
      // bound in place from one arena, which the reset after each statement releases.
      try snapshot.entries.withUnsafeBufferPointer { entries throws(DatabaseError) in
        var start = 0
        while start < entries.count {
          let count = min(Self.rowsPerInsert, entries.count - start)
          let insert = try entryInsert(count: count)
          var textBytes = 0
          for entry in entries[start..<start + count] {
            textBytes +=
              entry.title.utf8.count + entry.artist.utf8.count
              + (entry.imageURL?.utf8.count ?? 0) + (entry.songURL?.utf8.count ?? 0)
          }
          texts.clear(reserving: textBytes)
          for row in 0..<count {
            let position = start + row
            let base = Int32(row * 12)
            insert.bind(snapshotID, at: base + 1)
            insert.bind(position, at: base + 2)
            insert.bind(entries[position].rank, at: base + 3)
            insert.bind(songs[position], at: base + 4)
            insert.bind(entries[position].publishedPreviousRank, at: base + 5)
            insert.bind(entries[position].publishedPeakPosition, at: base + 6)
            insert.bind(entries[position].publishedWeeksOnChart, at: base + 7)
            insert.bind(borrowedText: texts.append(entries[position].title), at: base + 8)
            insert.bind(borrowedText: texts.append(entries[position].artist), at: base + 9)
            insert.bind(borrowedText: entries[position].imageURL.map(texts.append), at: base + 10)
            insert.bind(borrowedText: entries[position].songURL.map(texts.append), at: base + 11)
            insert.bind(entries[position].streams, at: base + 12)
          }
          // Reset even after a failure, before the arena is reused: a statement that ran may
          // hold on to the texts bound in place until it is reset. Every parameter is bound again
          // before it runs again.
          defer { insert.resetKeepingBindings() }
          try insert.run()
          start += count
        }
      }
      let replaced = lastStored.updateValue(
        (
          snapshot.chartDate.secondsSince1970,
          SongLinking.PreviousSnapshot(
            ranks: snapshot.entries.map(\.rank), songs: songs.map(SongID.init), keys: keys)
        ), forKey: chartID)
      if let replaced, let retire { retire(replaced.snapshot) }
      // The chart's later snapshots, if any, are linked again once, before the batch stores a
      // snapshot after them or when it ends (see `relinkWaiting`).
      if try database.row(
        "SELECT 1 FROM snapshots WHERE chart_id = ? AND chart_time > ? LIMIT 1",
        [chartID, snapshot.chartDate.secondsSince1970], { _ in true }) != nil
      {
        relinkWaiting[chartID] = snapshot.chartDate.secondsSince1970
      } else {
        relinkWaiting[chartID] = nil
      }
      return outcome
    } catch let error as ArchiveError {
      throw error
    } catch let error as DatabaseError {
      throw .database(path: path, error)
    } catch {
      throw .database(path: path, DatabaseError(extendedResultCode: 1, message: "\(error)"))
    }
  }

  private func noteStoredHere(_ key: StoredKey) {
    if storedHere.insert(key).inserted { storedHereLog.append(key) }
  }

  /// How many entries one INSERT statement stores at most.
  static let rowsPerInsert = 100

  /// The statement that inserts `count` entries (1 through ``rowsPerInsert``), prepared once per
  /// batch and kept here rather than in the connection's cache, which would hash its long SQL for
  /// every snapshot.
  ///
  /// It is `INSERT OR FAIL`: a row that breaks a constraint stops the statement and leaves the
  /// rows before it in, where the default (`ABORT`) takes them out again
  /// (<https://www.sqlite.org/lang_conflict.html>). To do that, SQLite keeps a statement journal,
  /// a copy of every page the statement changes that was there before it
  /// (<https://www.sqlite.org/tempfiles.html#statement_journals>): the leaves of the index of
  /// entries by song, one per entry in a large archive. A failed `store` ends the transaction or
  /// savepoint it ran in (as its documentation asks), which takes the rows out.
  private func entryInsert(count: Int) throws(DatabaseError) -> Statement {
    if let statement = entryInserts[count] { return statement }
    let statement = try Statement(
      database: database,
      sql:
        "INSERT OR FAIL INTO entries (snapshot_id, position, rank, song_id, previous_rank,"
        + " peak_position, weeks_on_chart, title, artist, image_url, song_url, streams) VALUES "
        + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: count)
        .joined(separator: ", "))
    entryInserts[count] = statement
    return statement
  }

  private func chartID(named name: String, frequency: ChartFrequency?) throws -> Int64 {
    if let id = chartIDs[name] { return id }
    guard Snapshot.isValidChartName(name) else { throw ArchiveError.invalidChartName(name) }
    let id: Int64
    if let stored = try database.row(
      "SELECT id FROM charts WHERE name = ?", [name], { $0.int64(at: 0) })
    {
      id = stored
      if let frequency {
        try database.run(
          "UPDATE charts SET frequency = ? WHERE id = ? AND frequency IS NULL", frequency.rawValue,
          id)
      }
    } else {
      try database.run(
        "INSERT INTO charts (name, frequency) VALUES (?, ?)", name, frequency?.rawValue)
      id = database.lastInsertedRowID
    }
    chartIDs[name] = id
    return id
  }

  // MARK: - Song identity

  /// The songs of a snapshot's entries (see ``SongLinking``), creating the new ones.
  ///
  /// - Parameters:
  ///   - entries: the snapshot's entries, in rank order.
  ///   - publishesPreviousRank: whether the previous ranks are the source's.
  ///   - chartID: the chart.
  ///   - chartTime: the snapshot's chart time; the previous snapshot is the last one before it.
  /// - Returns: one song ID per entry.
  private func linkSongs(
    of entries: [ChartEntry], keys: [SongKeys], publishesPreviousRank: Bool, chartID: Int64,
    chartTime: Int64
  ) throws -> [Int64] {
    // The previous snapshot: the one this batch stored last when it is that one, else read back.
    var previous = SongLinking.PreviousSnapshot.none
    if let (id, time) = try database.row(
      "SELECT id, chart_time FROM snapshots WHERE chart_id = ? AND chart_time < ?"
        + " ORDER BY chart_time DESC LIMIT 1", [chartID, chartTime],
      { ($0.int64(at: 0), $0.int64(at: 1)) })
    {
      if let last = lastStored[chartID], last.chartTime == time {
        previous = last.snapshot
      } else {
        previous = SongLinking.PreviousSnapshot(
          try Archive.entries(of: SnapshotID(id), in: database))
      }
    }
    let links = try SongLinking.link(
      entries, keys: keys, publishesPreviousRank: publishesPreviousRank, previous: previous,
      songsWithIdentity: { identity in
        // Most identities have one song or none: only several recordings need the order, whose
        // subquery reads every entry of each.
        let songs = try database.rows(
          "SELECT id FROM songs WHERE identity = ? ORDER BY recording DESC", [identity.key]
        ) { SongID($0.int64(at: 0)) }
        guard songs.count > 1 else { return songs }
        return try database.rows(
          """
          SELECT g.id FROM songs g WHERE g.identity = ?
          ORDER BY (SELECT max(s.chart_time) FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.song_id = g.id AND s.chart_time < ?2) DESC, g.recording DESC
          """, [identity.key, chartTime]
        ) { SongID($0.int64(at: 0)) }
      },
      songsWithTitle: { baseTitle, primaryArtist in
        try database.rows(
          """
          SELECT g.id FROM songs g
            CROSS JOIN entries e ON e.song_id = g.id CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE g.base_title_key = ? AND g.primary_artist_key = ? AND s.chart_id = ?
            AND s.chart_time < ?
          GROUP BY g.id ORDER BY max(s.chart_time) DESC
          """, [baseTitle, primaryArtist, chartID, chartTime]
        ) { SongID($0.int64(at: 0)) }
      })
    var songs: [Int64] = []
    songs.reserveCapacity(entries.count)
    var insertSong: Statement?
    defer { for song in songs { referencedSongs.insert(song) } }
    for (index, link) in links.enumerated() {
      if let song = link.song {
        songs.append(song.rawValue)
        continue
      }
      let insert =
        try insertSong
        ?? database.statement(
          "INSERT INTO songs (identity, recording, title, artist, title_key, artist_key,"
            + " base_title_key, primary_artist_key) VALUES (?1,"
            + " (SELECT coalesce(max(recording), 0) + 1 FROM songs WHERE identity = ?1),"
            + " ?2, ?3, ?4, ?5, ?6, ?7)")
      insertSong = insert
      insert.bind(keys[index].identity.key, at: 1)
      insert.bind(entries[index].title, at: 2)
      insert.bind(entries[index].artist, at: 3)
      insert.bind(keys[index].foldedTitle, at: 4)
      insert.bind(keys[index].foldedArtist, at: 5)
      insert.bind(keys[index].baseTitle, at: 6)
      insert.bind(keys[index].primaryArtist, at: 7)
      try insert.run()
      songs.append(database.lastInsertedRowID)
      insert.reset()
    }
    return songs
  }

  /// Checks that every song, snapshot and chart that this batch's rows refer to is in the archive,
  /// as foreign-key enforcement would have at each row (see ``References``). An ID that is gone
  /// (a song deleted when its last entry moved to another) is a failure only when a row still
  /// refers to it.
  ///
  /// - Throws: ``DatabaseError`` with `SQLITE_CONSTRAINT_FOREIGNKEY` (787), naming the missing row.
  func checkReferences() throws(DatabaseError) {
    let checks = [
      (referencedSongs, "songs", "entries", "song_id", "an entry", "song"),
      (referencedSnapshots, "snapshots", "entries", "snapshot_id", "an entry", "snapshot"),
      (referencedCharts, "charts", "snapshots", "chart_id", "a snapshot", "chart"),
    ]
    for (references, table, referrer, column, row, noun) in checks {
      let exists = try database.statement("SELECT 1 FROM \(table) WHERE id = ?")
      for id in references.members {
        exists.bind(id, at: 1)
        defer { exists.reset() }
        guard try !exists.step() else { continue }
        guard
          try database.row(
            "SELECT 1 FROM \(referrer) WHERE \(column) = ? LIMIT 1", [id], { _ in true }) != nil
        else { continue }
        throw DatabaseError(
          extendedResultCode: 787,
          message: "FOREIGN KEY constraint failed: \(row) refers to \(noun) \(id), which is not in"
            + " the archive")
      }
    }
  }

  /// Links again the snapshots that wait for it (``relinkWaiting``), chart by chart: those before
  /// `chartTime`, or all of them when it is `nil` (the batch's end).
  func relinkWaitingSnapshots(before chartTime: Int64?) throws {
    for (chartID, after) in relinkWaiting.sorted(by: { $0.key < $1.key }) {
      if let chartTime {
        guard after < chartTime - 1 else { continue }
        try relinkSnapshots(ofChart: chartID, after: after, before: chartTime)
        // Those from `chartTime` on still wait.
        relinkWaiting[chartID] = chartTime - 1
      } else {
        try relinkSnapshots(ofChart: chartID, after: after, before: nil)
        relinkWaiting[chartID] = nil
      }
    }
  }

  /// Links the songs of a chart's snapshots after a chart time (and before another, if given)
  /// again, in chart-date order: a snapshot stored before others of its chart (an import out of
  /// order, a replacement) can change which songs the later ones continue. Songs left without
  /// entries are deleted.
  private func relinkSnapshots(ofChart chartID: Int64, after chartTime: Int64, before end: Int64?)
    throws
  {
    let later = try database.rows(
      "SELECT id, chart_time, publishes_previous_rank FROM snapshots"
        + " WHERE chart_id = ? AND chart_time > ? AND chart_time < ? ORDER BY chart_time",
      [chartID, chartTime, end ?? .max]
    ) { ($0.int64(at: 0), $0.int64(at: 1), $0.bool(at: 2)) }
    guard !later.isEmpty else { return }
    relinkedSnapshotCount += later.count
    var touched: Set<Int64> = []
    for (snapshotID, time, publishes) in later {
      let stored = try Archive.entries(of: SnapshotID(snapshotID), in: database)
      let songs = try linkSongs(
        of: stored.map(\.entry), keys: stored.map { SongKeys($0.entry) },
        publishesPreviousRank: publishes, chartID: chartID, chartTime: time)
      for (position, (old, new)) in zip(stored.map(\.song.rawValue), songs).enumerated()
      where old != new {
        try database.run(
          "UPDATE entries SET song_id = ? WHERE snapshot_id = ? AND position = ?", new, snapshotID,
          position)
        touched.insert(old)
      }
    }
    for song in touched {
      try database.run(
        "DELETE FROM songs WHERE id = ? AND NOT EXISTS (SELECT 1 FROM entries WHERE song_id = ?)",
        song, song)
    }
  }
}
