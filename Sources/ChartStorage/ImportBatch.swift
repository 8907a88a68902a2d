public import ChartRanking
import Foundation

/// Snapshots an import batch no longer needs, whose memory the taker frees (see
/// ``ImportBatch/takeRetiredSnapshots()``).
public struct RetiredSnapshots: Sendable {
  /// Previous snapshots as song linking kept them.
  public var linked: [SongLinking.PreviousSnapshot] = []
  /// Snapshots with their decided figures, as deciding the next one kept them.
  public var decided: [DecidedSnapshot] = []

  /// None.
  public init() {}

  /// Whether there is none.
  public var isEmpty: Bool { linked.isEmpty && decided.isEmpty }
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
///
/// Valid only inside the write it was handed to.
public final class ImportBatch {
  private let database: Database
  private let path: String
  private let importedAt = Date.now.formatted(.iso8601)
  private let inserter: EntryInserter
  private let linker: SongLinker
  private let figures: FigureStore
  /// Each chart's snapshots as deciding figures asks about them, kept for the batch.
  private var histories: [Int64: ArchiveHistory] = [:]
  /// Chart names by ID, for notes.
  private var chartNames: [Int64: String] = [:]
  /// Chart frequencies by ID, when known, for the rhythm of their dates.
  private var frequencies: [Int64: ChartFrequency?] = [:]

  /// Where the batch is: what a savepoint saves at its start and restores whole when it is
  /// rolled back, so that nothing the undone file left behind misleads the files after it.
  struct State {
    /// Chart IDs by name, as looked up or created.
    var chartIDs: [String: Int64] = [:]
    /// The snapshots stored by this batch, by chart ID and chart time, with the source each came
    /// from: a second, different snapshot of the same chart date in one batch is a conflict even
    /// when replacing.
    var storedHere: [StoredKey: String?] = [:]
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
    /// Per chart, its last snapshot stored by this batch, decided before its next one was known,
    /// and the one before it: the chart's next snapshot decides the last again, as its next.
    var ledgers: [Int64: Ledger] = [:]
    /// Per chart, the earliest chart time from which its snapshots are decided again before the
    /// batch commits: a snapshot stored before later ones (out of order, or replaced) changes
    /// their figures.
    var redecideFrom: [Int64: Int64] = [:]
    /// What storing found that the import should report, in the order found.
    var notes: [SnapshotNote] = []
    /// The charts this batch created whose names are close to charts the archive held, with
    /// those names, until their first snapshot is stored and noted.
    var newChartsNamedLike: [Int64: [String]] = [:]
  }

  /// A chart's last snapshot decided without its next one, and the one before it.
  struct Ledger {
    var last: DecidedSnapshot
    var beforeLast: DecidedSnapshot?
  }

  /// A stored snapshot's chart and chart time.
  struct StoredKey: Hashable {
    var chartID: Int64
    var chartTime: Int64
  }

  private var state = State()
  /// The previous snapshots that linking and deciding figures no longer need, to be freed by
  /// whoever takes them (see ``takeRetiredSnapshots()``).
  private var retired = RetiredSnapshots()
  /// How many snapshots this batch linked again (for tests).
  private(set) var relinkedSnapshotCount = 0

  init(database: Database, path: String) {
    self.database = database
    self.path = path
    inserter = EntryInserter(database: database)
    linker = SongLinker(database: database)
    figures = FigureStore(database: database)
  }

  /// What storing has found so far that an import should report (an identical snapshot, dates off
  /// the chart's rhythm, corrected previous ranks …), handed over and forgotten.
  public func takeNotes() -> [SnapshotNote] {
    defer { state.notes = [] }
    return state.notes
  }

  /// Queries that see what this batch stored so far.
  public var reader: ArchiveReader { ArchiveReader(database: database, path: path) }

  /// The previous snapshots, with their entries' keys and texts, that the batch kept for linking
  /// and deciding figures and needs no more (a chart's next snapshot was stored), handed over so
  /// that their memory is freed where the caller chooses: an import frees them on its reading
  /// thread, since releasing the texts of a few hundred entries costs time on the storing thread,
  /// its bottleneck.
  public func takeRetiredSnapshots() -> RetiredSnapshots {
    defer { retired = RetiredSnapshots() }
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
    let savedSearchRows = linker.searchRowsToAdd
    do {
      let result = try body()
      try database.execute("RELEASE file")
      return result
    } catch {
      try? database.execute("ROLLBACK TO file")
      try? database.execute("RELEASE file")
      state = saved
      // A song the undone file created may have taken the ID of one it deleted, which the
      // rollback brought back with its row in the full-text index.
      linker.searchRowsToAdd = savedSearchRows
      // What the lookups remember may come from what was undone.
      histories = [:]
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
  ///   ``ArchiveError/conflictingSnapshotsInOneImport(chart:chartDate:otherSource:)``,
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
    if let similar = state.newChartsNamedLike.removeValue(forKey: chartID) {
      try addNote(
        .newChartNamedLike(names: similar), chartID: chartID, chartDate: snapshot.chartDate)
    }
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
        state.storedHere[key] = source
        return .unchanged
      }
      if let other = state.storedHere[key] {
        throw ArchiveError.conflictingSnapshotsInOneImport(
          chart: snapshot.chart, chartDate: snapshot.chartDate, otherSource: other)
      }
      guard replacing else {
        throw ArchiveError.conflictingSnapshot(chart: snapshot.chart, chartDate: snapshot.chartDate)
      }
      // The snapshot keeps its row and ID; its entries and their verdicts go (explicitly: foreign
      // keys, and so `ON DELETE CASCADE`, are off in a batch). Its songs are deleted once the new
      // entries are linked, those that no entry continues.
      snapshotID = existing.0
      try database.run("DELETE FROM entries WHERE snapshot_id = ?", snapshotID)
      try database.run("DELETE FROM verdicts WHERE snapshot_id = ?", snapshotID)
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
    state.storedHere[key] = source
    let keys = keys ?? snapshot.entries.map(SongKeys.init)
    // The chart's snapshots around this one.
    let previous = try database.row(
      "SELECT id, chart_date, chart_time FROM snapshots WHERE chart_id = ? AND chart_time < ?"
        + " ORDER BY chart_time DESC LIMIT 1", [chartID, chartTime],
      {
        (
          id: $0.int64(at: 0),
          chartDate: ChartDate(trustedISO8601: $0.string(at: 1), secondsSince1970: $0.int64(at: 2))
        )
      })
    let hasLater =
      try database.row(
        "SELECT 1 FROM snapshots WHERE chart_id = ? AND chart_time > ? LIMIT 1",
        [chartID, chartTime], { _ in true }) != nil
    let songs = try linker.songs(
      of: snapshot.entries, keys: keys, publishesPreviousRank: snapshot.publishesPreviousRank,
      chartID: chartID, chartTime: chartTime,
      previousSnapshot: .some(previous.map { ($0.id, $0.chartDate.secondsSince1970) }),
      lastStored: state.lastStored[chartID], hasLater: hasLater || outcome == .replaced)
    for song in songs { state.referencedSongs.insert(song) }
    for joined in linker.joinedByURLAlone {
      let entry = snapshot.entries[joined.index]
      try addNote(
        .songURLOfAnotherCredit(
          rank: entry.rank, title: entry.title, artist: entry.artist, url: entry.songURL ?? "",
          otherTitle: joined.title, otherArtist: joined.artist), chartID: chartID,
        chartDate: snapshot.chartDate)
    }
    let decided = try decideFigures(
      of: snapshot, id: snapshotID, songs: songs, newSongs: linker.newSongs, chartID: chartID,
      previous: previous, hasLater: hasLater)
    try inserter.insert(
      snapshot.entries, snapshot: snapshotID, songs: songs, figures: decided.figures)
    if hasLater || outcome == .replaced {
      histories[chartID]?.forgetAppended()
    } else {
      histories[chartID]?.rememberAppended(snapshotID, songs: songs)
    }
    try figures.insertVerdicts(of: decided)
    try database.run(
      "UPDATE snapshots SET entry_count = ?, follows_missing_snapshot = ? WHERE id = ?",
      snapshot.entries.count, decided.followsMissingSnapshot, snapshotID)
    try linker.deleteSongsWithoutEntries(replacedSongs)
    let replaced = state.lastStored.updateValue(
      (
        chartTime,
        SongLinking.PreviousSnapshot(
          entries: snapshot.entries, songs: songs.map(SongID.init), keys: keys)
      ), forKey: chartID)
    if let replaced { retired.linked.append(replaced.snapshot) }
    // The chart's later snapshots, if any, are linked again once, before the batch stores a
    // snapshot after them or when it ends (see `relinkWaiting`).
    if hasLater {
      state.relinkWaiting[chartID] = chartTime
    } else {
      state.relinkWaiting[chartID] = nil
    }
    return outcome
  }

  /// The chart's row ID, creating the chart when it is new; records its frequency when the chart
  /// has none yet.
  ///
  /// - Throws: ``ArchiveError/invalidChartName(_:)``, or
  ///   ``ArchiveError/frequencyConflict(chart:stored:given:)`` when the chart is stored with another
  ///   frequency than the one given.
  private func chartID(named name: String, frequency: ChartFrequency?) throws -> Int64 {
    let id: Int64
    if let known = state.chartIDs[name] {
      id = known
    } else {
      guard Snapshot.isValidChartName(name) else { throw ArchiveError.invalidChartName(name) }
      if let (stored, storedFrequency) = try database.row(
        "SELECT id, frequency FROM charts WHERE name = ?", [name],
        { ($0.int64(at: 0), $0.optionalString(at: 1).flatMap(ChartFrequency.init)) })
      {
        id = stored
        frequencies[id] = .some(storedFrequency)
      } else {
        let others = try database.rows("SELECT name FROM charts", [], { $0.string(at: 0) })
        try database.run(
          "INSERT INTO charts (name, frequency) VALUES (?, ?)", name, frequency?.rawValue)
        id = database.lastInsertedRowID
        frequencies[id] = .some(frequency)
        let similar = Suggestions.closest(to: name, among: others)
        if !similar.isEmpty { state.newChartsNamedLike[id] = similar }
      }
      state.chartIDs[name] = id
    }
    if let frequency {
      switch frequencies[id] ?? nil {
      case .some(let stored) where stored != frequency:
        throw ArchiveError.frequencyConflict(chart: name, stored: stored, given: frequency)
      case .some: break
      case .none:
        try database.run(
          "UPDATE charts SET frequency = ? WHERE id = ? AND frequency IS NULL", frequency.rawValue,
          id)
        frequencies[id] = .some(frequency)
      }
    }
    return id
  }

  /// What the write does after its body, before it commits: every snapshot's figures settled
  /// (see ``settleFigures()``), what the batch's rows refer to checked, and its new songs and
  /// credits added to the full-text index.
  ///
  /// - Throws: ``DatabaseError``.
  func finish() throws {
    try settleFigures()
    try checkReferences()
    try linker.addToSearchIndex()
  }

  /// Links again the snapshots that wait for it and decides again the figures of those that an
  /// earlier snapshot stored by this batch changed, so that every figure the batch wrote is the
  /// one that will be committed. The write does it before it commits; an import calls it before it
  /// reads the figures back.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func settleFigures() throws(ArchiveError) {
    try ArchiveError.mapping(path: path) {
      try relinkWaitingSnapshots(before: nil)
      for (chartID, chartTime) in state.redecideFrom.sorted(by: { $0.key < $1.key }) {
        for (chartDate, note) in try figures.redecide(chart: chartID, from: chartTime) {
          try addNote(.figures(note), chartID: chartID, chartDate: chartDate)
        }
        state.ledgers[chartID] = nil
        histories[chartID] = nil
      }
      state.redecideFrom = [:]
      // The last snapshots decided without their next: what they say stands.
      for (chartID, ledger) in state.ledgers.sorted(by: { $0.key < $1.key }) {
        for note in ledger.last.notes {
          try addNote(.figures(note), chartID: chartID, chartDate: ledger.last.snapshot.chartDate)
        }
        state.ledgers[chartID]?.last.notes = []
      }
    }
  }

  // MARK: - Figures

  /// Decides the figures of a snapshot being stored (see ``ChartFigures``). When it is its chart's
  /// latest, its previous snapshot is decided again with it as next, and the changes written;
  /// otherwise the chart's snapshots from it on are decided again when the batch settles.
  private func decideFigures(
    of snapshot: Snapshot, id: Int64, songs: [Int64], newSongs: [Int64], chartID: Int64,
    previous: (id: Int64, chartDate: ChartDate)?, hasLater: Bool
  ) throws -> DecidedSnapshot {
    let chartTime = snapshot.chartDate.secondsSince1970
    let audited = AuditedSnapshot(
      id: SnapshotID(id), chartDate: snapshot.chartDate,
      publishesPreviousRank: snapshot.publishesPreviousRank,
      entries: snapshot.entries, songs: songs.map(SongID.init))
    let history = histories[chartID] ?? ArchiveHistory(database: database, chartID: chartID)
    histories[chartID] = history
    // The chart's frequency as this batch knows it (a file of the batch may have given it since
    // the history read it).
    if let frequency = frequencies[chartID] { history.frequency = frequency }
    // Songs linking just created have no standing to look up.
    history.newSongs = SongLinking.SongSet(capacity: newSongs.count)
    for song in newSongs { history.newSongs.insert(SongID(song)) }
    let previousID = previous?.id
    try noteRhythm(of: snapshot, after: previous?.chartDate, chartID: chartID)
    if let repeated = snapshot.repeatedSongURLs.first {
      try addNote(
        .sameSongURLTwice(url: repeated.url, ranks: repeated.ranks), chartID: chartID,
        chartDate: snapshot.chartDate)
    }
    guard !hasLater else {
      // Not the chart's latest: decided again from its previous snapshot on, once the batch
      // settles.
      let from = state.redecideFrom[chartID].map { min($0, chartTime) } ?? chartTime
      state.redecideFrom[chartID] = from
      state.ledgers[chartID] = nil
      let decided = ChartFigures.decide(audited, previous: nil, next: nil, lookup: history)
      try history.checked()
      return decided
    }
    var decidedPrevious: DecidedSnapshot?
    if let previousID {
      if let ledger = state.ledgers[chartID], ledger.last.snapshot.id.rawValue == previousID {
        // Its figures stand unless this one tells more about it.
        var redecided = ledger.last
        if ChartFigures.mustDecideAgain(ledger.last, next: audited, frequency: history.frequency) {
          redecided = ChartFigures.decide(
            ledger.last.snapshot, previous: ledger.beforeLast, next: audited, lookup: history)
          try figures.update(redecided, storedAs: ledger.last.figures)
        }
        decidedPrevious = redecided
        for note in redecided.notes {
          try addNote(.figures(note), chartID: chartID, chartDate: ledger.last.snapshot.chartDate)
        }
      } else if let stored = try figures.stored(previousID) {
        var beforeLast: DecidedSnapshot?
        if let twoBackID = try figures.snapshot(
          ofChart: chartID, before: stored.snapshot.chartDate.secondsSince1970),
          let twoBack = try figures.stored(twoBackID)
        {
          beforeLast = FigureStore.decided(
            twoBack, next: stored.snapshot, frequency: history.frequency)
        }
        let redecided = ChartFigures.decide(
          stored.snapshot, previous: beforeLast, next: audited, lookup: history)
        decidedPrevious = redecided
        try figures.update(redecided, storedAs: stored.figures)
      }
    }
    let decided = ChartFigures.decide(
      audited, previous: decidedPrevious, next: nil, lookup: history)
    try history.checked()
    if let done = state.ledgers.updateValue(
      Ledger(last: decided, beforeLast: decidedPrevious), forKey: chartID)?.beforeLast
    {
      retired.decided.append(done)
    }
    return decided
  }

  /// Notes a chart date off the chart's rhythm: not one period after the chart's previous
  /// snapshot (see ``ChartFrequency/isOnRhythm(from:to:)``).
  private func noteRhythm(of snapshot: Snapshot, after previous: ChartDate?, chartID: Int64)
    throws
  {
    guard let previous, let frequency = frequencies[chartID] ?? nil,
      !frequency.isOnRhythm(from: previous, to: snapshot.chartDate)
    else { return }
    try addNote(
      .offRhythm(previous: previous, frequency: frequency), chartID: chartID,
      chartDate: snapshot.chartDate)
  }

  private func addNote(_ kind: SnapshotNote.Kind, chartID: Int64, chartDate: ChartDate) throws {
    let chart: String
    if let name = chartNames[chartID] {
      chart = name
    } else {
      chart =
        try database.row("SELECT name FROM charts WHERE id = ?", [chartID], { $0.string(at: 0) })
        ?? ""
      chartNames[chartID] = chart
    }
    state.notes.append(SnapshotNote(chart: chart, chartDate: chartDate, kind: kind))
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
      // By runs of consecutive IDs (the songs a batch creates are one run): a run whose rows are
      // all there is counted along the table's row IDs, not looked up ID by ID.
      let count = try database.statement("SELECT count(*) FROM \(table) WHERE id BETWEEN ? AND ?")
      let exists = try database.statement("SELECT 1 FROM \(table) WHERE id = ?")
      for run in SongLinker.runs(of: references.members) {
        count.bind([run.lowerBound, run.upperBound])
        defer { count.reset() }
        guard try count.step(), count.int64(at: 0) != Int64(run.count) else { continue }
        try checkEach(
          run, exists: exists, referrer: referrer, column: column, row: row, noun: noun)
      }
    }
  }

  /// ``checkReferences()`` of each ID of a run in which some row is missing.
  private func checkEach(
    _ run: ClosedRange<Int64>, exists: Statement, referrer: String, column: String, row: String,
    noun: String
  ) throws(DatabaseError) {
    for id in run {
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
      histories[chartID]?.forgetAppended()
      relinkedSnapshotCount += relinked.snapshots
      for song in relinked.songs { state.referencedSongs.insert(song) }
      // Those from `chartTime` on still wait.
      state.relinkWaiting[chartID] = chartTime.map { $0 - 1 }
    }
  }
}
