public import ChartRanking
import Foundation

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
///
/// Valid only inside the write it was handed to.
public final class ImportBatch {
  private let database: Database
  private let path: String
  private let importedAt = Date.now.formatted(.iso8601)
  private let inserter: EntryInserter
  private let linker: SongLinker

  /// Where the batch is: what a savepoint saves at its start and restores whole when it is
  /// rolled back, so that nothing the undone file left behind misleads the files after it.
  struct State {
    /// Chart IDs by name, as looked up or created.
    var chartIDs: [String: Int64] = [:]
    /// The snapshots stored by this batch, by chart ID and chart time: a second, different
    /// snapshot of the same chart date in one batch is a conflict even when replacing.
    var storedHere: Set<StoredKey> = []
    /// Per chart, the snapshot stored last with its songs and keys: the chart's next snapshot
    /// links to it without reading it back (an import of many charts interleaves them by date).
    var lastStored: [Int64: (chartTime: Int64, snapshot: SongLinking.PreviousSnapshot)] = [:]
    /// The songs and snapshots of the entries this batch wrote, and the charts of its snapshots.
    var referencedSongs = References()
    var referencedSnapshots = References()
    var referencedCharts = References()
    /// Per chart whose stored snapshots come after one this batch stored, the chart time after
    /// which they wait to be linked again (see ``SongLinker/relink(chart:after:before:)``). A batch
    /// that stores a run of earlier snapshots (a chart's history imported after its recent weeks)
    /// links the later ones once, not once per snapshot it stores.
    var relinkWaiting: [Int64: Int64] = [:]
  }

  /// A stored snapshot's chart and chart time.
  struct StoredKey: Hashable {
    var chartID: Int64
    var chartTime: Int64
  }

  private var state = State()
  /// The previous snapshots that linking no longer needs, to be freed by whoever takes them (see
  /// ``takeRetiredSnapshots()``).
  private var retired: [SongLinking.PreviousSnapshot] = []
  /// How many snapshots this batch linked again (for tests).
  private(set) var relinkedSnapshotCount = 0

  init(database: Database, path: String) {
    self.database = database
    self.path = path
    inserter = EntryInserter(database: database)
    linker = SongLinker(database: database)
  }

  /// Queries that see what this batch stored so far.
  public var reader: ArchiveReader { ArchiveReader(database: database, path: path) }

  /// The previous snapshots, with their entries' keys, that the batch kept for linking and needs
  /// no more (a chart's next snapshot was stored), handed over so that their memory is freed where
  /// the caller chooses: an import frees them on its reading thread, since releasing the texts of
  /// a few hundred keys costs time on the storing thread, its bottleneck.
  public func takeRetiredSnapshots() -> [SongLinking.PreviousSnapshot] {
    defer { retired = [] }
    return retired
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
    let saved = state
    do {
      let result = try body()
      try database.execute("RELEASE file")
      return result
    } catch {
      try? database.execute("ROLLBACK TO file")
      try? database.execute("RELEASE file")
      state = saved
      throw error
    }
  }

  /// Stores one snapshot.
  ///
  /// A snapshot of the same chart and chart date that is already stored with the same entries
  /// leaves the archive as it is (``ImportOutcome/unchanged``); one with different entries is
  /// refused unless `replacing` is true. A replaced snapshot keeps its ``SnapshotID``, and its
  /// songs keep theirs when the new entries continue them.
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
    return try ArchiveError.mapping(path: path) {
      try storing(snapshot, keys: keys, frequency: frequency, replacing: replacing, source: source)
    }
  }

  private func storing(
    _ snapshot: Snapshot, keys: [SongKeys]?, frequency: ChartFrequency?, replacing: Bool,
    source: String?
  ) throws -> ImportOutcome {
    let chartID = try chartID(named: snapshot.chart, frequency: frequency)
    let chartTime = snapshot.chartDate.secondsSince1970
    let key = StoredKey(chartID: chartID, chartTime: chartTime)
    // Stored snapshots before this one that wait to be linked again, of any chart, first:
    // linking looks songs up across the archive.
    try relinkWaitingSnapshots(before: chartTime)
    var outcome = ImportOutcome.imported
    var snapshotID: Int64
    var replacedSongs: Set<Int64> = []
    if let existing = try database.row(
      "SELECT id, publishes_previous_rank FROM snapshots WHERE chart_id = ? AND chart_time = ?",
      [chartID, chartTime], { ($0.int64(at: 0), $0.bool(at: 1)) })
    {
      let stored = try ArchiveReader.entries(of: SnapshotID(existing.0), in: database)
      // The same instant written another way (2024-01-06 or 2024-01-06T00:00:00Z) is the same
      // chart date.
      if existing.1 == snapshot.publishesPreviousRank, stored.map(\.entry) == snapshot.entries {
        // Another file of this import with a different snapshot of that date conflicts with
        // this one, whichever comes first and whatever the archive held.
        state.storedHere.insert(key)
        return .unchanged
      }
      if state.storedHere.contains(key) {
        throw ArchiveError.conflictingSnapshotsInOneImport(
          chart: snapshot.chart, chartDate: snapshot.chartDate)
      }
      guard replacing else {
        throw ArchiveError.conflictingSnapshot(chart: snapshot.chart, chartDate: snapshot.chartDate)
      }
      // The snapshot keeps its row and ID; its entries go (explicitly: foreign keys, and so
      // `ON DELETE CASCADE`, are off in a batch). Its songs are deleted once the new entries are
      // linked, those that no entry continues.
      snapshotID = existing.0
      try database.run("DELETE FROM entries WHERE snapshot_id = ?", snapshotID)
      try database.run(
        "UPDATE snapshots SET chart_date = ?, publishes_previous_rank = ?, source = ?,"
          + " imported_at = ? WHERE id = ?", snapshot.chartDate.iso8601,
        snapshot.publishesPreviousRank, source, importedAt, snapshotID)
      replacedSongs = Set(stored.map(\.song.rawValue))
      outcome = .replaced
    } else {
      try database.run(
        "INSERT INTO snapshots (chart_id, chart_date, chart_time, publishes_previous_rank, source,"
          + " imported_at) VALUES (?, ?, ?, ?, ?, ?)",
        chartID, snapshot.chartDate.iso8601, chartTime, snapshot.publishesPreviousRank, source,
        importedAt)
      snapshotID = database.lastInsertedRowID
    }
    state.referencedCharts.insert(chartID)
    state.referencedSnapshots.insert(snapshotID)
    state.storedHere.insert(key)
    let keys = keys ?? snapshot.entries.map(SongKeys.init)
    let songs = try linker.songs(
      of: snapshot.entries, keys: keys, publishesPreviousRank: snapshot.publishesPreviousRank,
      chartID: chartID, chartTime: chartTime, lastStored: state.lastStored[chartID])
    for song in songs { state.referencedSongs.insert(song) }
    try inserter.insert(snapshot.entries, snapshot: snapshotID, songs: songs)
    try linker.deleteSongsWithoutEntries(replacedSongs)
    let replaced = state.lastStored.updateValue(
      (
        chartTime,
        SongLinking.PreviousSnapshot(
          ranks: snapshot.entries.map(\.rank), songs: songs.map(SongID.init), keys: keys)
      ), forKey: chartID)
    if let replaced { retired.append(replaced.snapshot) }
    // The chart's later snapshots, if any, are linked again once, before the batch stores a
    // snapshot after them or when it ends (see `relinkWaiting`).
    if try database.row(
      "SELECT 1 FROM snapshots WHERE chart_id = ? AND chart_time > ? LIMIT 1",
      [chartID, chartTime], { _ in true }) != nil
    {
      state.relinkWaiting[chartID] = chartTime
    } else {
      state.relinkWaiting[chartID] = nil
    }
    return outcome
  }

  private func chartID(named name: String, frequency: ChartFrequency?) throws -> Int64 {
    if let id = state.chartIDs[name] { return id }
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
    state.chartIDs[name] = id
    return id
  }

  /// What the write does after its body, before it commits: the snapshots still waiting are linked
  /// again, and what the batch's rows refer to is checked.
  ///
  /// - Throws: ``DatabaseError``.
  func finish() throws {
    try relinkWaitingSnapshots(before: nil)
    try checkReferences()
  }

  /// Checks that every song, snapshot and chart that this batch's rows refer to is in the archive,
  /// as foreign-key enforcement would have at each row (see ``References``). An ID that is gone
  /// (a song deleted when its last entry moved to another) is a failure only when a row still
  /// refers to it.
  ///
  /// - Throws: ``DatabaseError`` with `SQLITE_CONSTRAINT_FOREIGNKEY`, naming the missing row.
  func checkReferences() throws(DatabaseError) {
    let checks = [
      (state.referencedSongs, "songs", "entries", "song_id", "an entry", "song"),
      (state.referencedSnapshots, "snapshots", "entries", "snapshot_id", "an entry", "snapshot"),
      (state.referencedCharts, "charts", "snapshots", "chart_id", "a snapshot", "chart"),
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
        throw DatabaseError.foreignKeyFailure(
          "\(row) refers to \(noun) \(id), which is not in the archive")
      }
    }
  }

  /// Links again the snapshots that wait for it (``State/relinkWaiting``), chart by chart: those
  /// before `chartTime`, or all of them when it is `nil` (the batch's end).
  private func relinkWaitingSnapshots(before chartTime: Int64?) throws {
    for (chartID, after) in state.relinkWaiting.sorted(by: { $0.key < $1.key }) {
      let end: Int64?
      if let chartTime {
        guard after < chartTime - 1 else { continue }
        end = chartTime
      } else {
        end = nil
      }
      let relinked = try linker.relink(chart: chartID, after: after, before: end)
      relinkedSnapshotCount += relinked.snapshots
      for song in relinked.songs { state.referencedSongs.insert(song) }
      // Those from `chartTime` on still wait.
      state.relinkWaiting[chartID] = chartTime.map { $0 - 1 }
    }
  }
}
