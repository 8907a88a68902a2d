public import ChartRanking
public import ChartStorage
import Foundation

/// The import engine: stores snapshots inside one ``Archive/write(beforeCommit:_:)`` transaction,
/// deciding for each whether it is new, unchanged, a replacement or a conflict, which songs its
/// entries continue (``SongLinker``), and their figures (``FigureLedger``), and writing the rows
/// through the ``ArchiveWriter``. ``Archive/importing(beforeCommit:_:)`` hands one out.
///
/// Valid only inside the write it was handed to.
public final class SnapshotStore {
  let writer: ArchiveWriter
  let linker: SongLinker
  let ledger: FigureLedger
  /// Chart names by ID, for notes.
  private var chartNames: [ChartID: String] = [:]
  /// Chart frequencies by ID, when known, for the rhythm of their dates.
  private var frequencies: [ChartID: ChartFrequency?] = [:]
  /// Chart time zones by ID (IANA names), `nil` for UTC.
  private var timeZones: [ChartID: String?] = [:]
  /// Where the import is: what a savepoint saves at its start and restores whole when it is
  /// rolled back, so that nothing the undone file left behind misleads the files after it.
  var state = State()
  /// The previous snapshots that linking and deciding figures no longer need, to be freed by
  /// whoever takes them (see ``takeRetiredSnapshots()``).
  private var retired = RetiredSnapshots()
  /// How many snapshots this import linked again (for tests).
  private(set) var relinkedSnapshotCount = 0
  /// Whether ``finish()`` ran.
  private var finished = false

  /// Where the import is (see ``SnapshotStore/state``).
  struct State {
    /// Chart IDs by name, as looked up or created.
    var chartIDs: [String: ChartID] = [:]
    /// The snapshots stored by this import, by chart and chart time, with the source each came
    /// from: a second, different snapshot of the same chart date in one import is a conflict even
    /// when replacing.
    var storedHere: [StoredKey: String?] = [:]
    /// Per chart, the snapshot stored last with its songs and keys: the chart's next snapshot
    /// links to it without reading it back (an import of many charts interleaves them by date).
    var lastStored: [ChartID: (chartTime: Int64, snapshot: SongLinking.PreviousSnapshot)] = [:]
    /// Per chart whose stored snapshots come after one this import stored, the chart time after
    /// which they wait to be linked again (see ``SongLinker/relink(chart:after:before:)``). An
    /// import that stores a run of earlier snapshots (a chart's history imported after its recent
    /// weeks) links the later ones once, not once per snapshot it stores.
    var relinkWaiting: [ChartID: Int64] = [:]
    /// What storing found that the import should report, in the order found.
    var notes: [SnapshotNote] = []
    /// The charts this import created whose names are close to charts the archive held, with
    /// those names, until their first snapshot is stored and noted.
    var newChartsNamedLike: [ChartID: [String]] = [:]
  }

  /// A stored snapshot's chart and chart time.
  struct StoredKey: Hashable {
    var chart: ChartID
    var chartTime: Int64
  }

  init(writer: ArchiveWriter) {
    self.writer = writer
    linker = SongLinker(writer: writer)
    ledger = FigureLedger(writer: writer)
  }

  /// Queries that see what this import stored so far.
  public var reader: ArchiveReader { writer.reader }

  /// What storing has found so far that an import should report (an identical snapshot, dates off
  /// the chart's rhythm, corrected previous ranks …), handed over and forgotten.
  public func takeNotes() -> [SnapshotNote] {
    defer { state.notes = [] }
    return state.notes
  }

  /// The previous snapshots, with their entries' keys and texts, that the import kept for linking
  /// and deciding figures and needs no more (a chart's next snapshot was stored), handed over so
  /// that their memory is freed where the caller chooses: an import frees them on its reading
  /// thread, since releasing the texts of a few hundred entries costs time on the storing thread,
  /// its bottleneck.
  public func takeRetiredSnapshots() -> RetiredSnapshots {
    retired.decided += ledger.retired
    ledger.retired = []
    defer { retired = RetiredSnapshots() }
    return retired
  }

  /// Runs `body` in a savepoint of the import's transaction: what it stores is kept when it
  /// returns and undone when it throws, while the rest of the import goes on
  /// (<https://www.sqlite.org/lang_savepoint.html>). An import that skips invalid files stores
  /// each file in one.
  ///
  /// - Throws: what `body` throws (after undoing its writes), or ``ArchiveError/database(path:_:)``.
  @discardableResult
  public func inSavepoint<Result>(_ body: () throws -> Result) throws -> Result {
    let saved = (state, ledger.state)
    do {
      return try writer.inSavepoint(body)
    } catch {
      (state, ledger.state) = saved
      // What the lookups remember may come from what was undone.
      ledger.forgetHistories()
      throw error
    }
  }

  /// Settles the import before it commits: the snapshots that wait for it linked again, the figures
  /// that an earlier snapshot stored by this import changed decided again, and the notes of
  /// deciding them taken, so that every figure the import wrote is the one that will be committed.
  /// ``Archive/importing(beforeCommit:_:)`` runs it after its body unless the body did (an import
  /// that reads the figures back runs it first); it runs once.
  ///
  /// - Throws: ``ArchiveError``.
  public func finish() throws(ArchiveError) {
    guard !finished else { return }
    finished = true
    try ArchiveError.mappingImport(path: writer.path) {
      try relinkWaitingSnapshots(before: nil)
      try applyDecisions()
      for (chart, chartDate, note) in try ledger.settle() {
        try addNote(.figures(note), chart: chart, chartDate: chartDate)
      }
    }
  }

  // MARK: - Storing

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
  ///   - timeZone: the IANA time zone the import read the snapshot's dates and times in
  ///     (`--timezone`), `nil` when it gave none; recorded for a new chart, or for a stored chart
  ///     without a zone or snapshots. UTC's names (`UTC`, `GMT`) are no zone.
  ///   - replacing: whether a different stored snapshot of the same chart date is replaced.
  ///   - source: where the snapshot came from (a file path), kept for reference.
  /// - Returns: what was done.
  /// - Throws: ``ArchiveError/conflictingSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/conflictingSnapshotsInOneImport(chart:chartDate:otherSource:)``,
  ///   ``ArchiveError/frequencyConflict(chart:stored:given:)``,
  ///   ``ArchiveError/timeZoneConflict(chart:stored:given:)``,
  ///   ``ArchiveError/invalidChartName(_:)`` or ``ArchiveError/database(path:_:)``. The
  ///   conflicts and an invalid name are found before the snapshot's rows are written; after a
  ///   database error part of them can be written, so let it end the
  ///   ``Archive/importing(beforeCommit:_:)`` or ``inSavepoint(_:)`` it happened in, which undoes
  ///   it.
  @discardableResult
  public func store(
    _ snapshot: Snapshot, keys: [SongKeys]? = nil, frequency: ChartFrequency? = nil,
    timeZone: String? = nil, replacing: Bool = false, source: String? = nil
  ) throws(ArchiveError) -> ImportOutcome {
    precondition(keys == nil || keys?.count == snapshot.entries.count, "one key per entry")
    return try ArchiveError.mappingImport(path: writer.path) {
      let chart = try chart(named: snapshot.chart, frequency: frequency)
      try settleTimeZone(timeZone, ofChart: chart, named: snapshot.chart)
      if let similar = state.newChartsNamedLike.removeValue(forKey: chart) {
        try addNote(
          .newChartNamedLike(names: similar), chart: chart, chartDate: snapshot.chartDate)
      }
      // Stored snapshots before this one that wait to be linked again, of any chart, first:
      // linking looks songs up across the archive.
      try relinkWaitingSnapshots(before: snapshot.chartDate.secondsSince1970)
      guard
        let place = try place(snapshot, chart: chart, replacing: replacing, source: source)
      else { return .unchanged }
      try write(
        snapshot, keys: keys ?? snapshot.entries.map(SongKeys.init), chart: chart, at: place)
      return place.replacedSongs == nil ? .imported : .replaced
    }
  }

  /// Where a snapshot is stored: its row, new or replaced.
  struct Place {
    /// The snapshot's row.
    var id: SnapshotID
    /// The songs of the entries it replaced, `nil` for a new snapshot.
    var replacedSongs: Set<SongID>?
  }

  /// The snapshot's row: a new one, or the one of the same chart date it replaces; `nil` when an
  /// identical snapshot is stored (nothing to do).
  ///
  /// - Throws: ``ArchiveError/conflictingSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/conflictingSnapshotsInOneImport(chart:chartDate:otherSource:)``.
  private func place(_ snapshot: Snapshot, chart: ChartID, replacing: Bool, source: String?)
    throws -> Place?
  {
    let key = StoredKey(chart: chart, chartTime: snapshot.chartDate.secondsSince1970)
    guard let existing = try reader.snapshot(ofChart: chart, at: key.chartTime) else {
      let id = try writer.insertSnapshot(
        ofChart: chart, chartDate: snapshot.chartDate,
        publishesPreviousRank: snapshot.publishesPreviousRank, source: source)
      state.storedHere[key] = source
      return Place(id: id, replacedSongs: nil)
    }
    let stored = try reader.entries(of: existing.id)
    // The same instant written another way (2024-01-06 or 2024-01-06T00:00:00Z) is the same
    // chart date. Another file of this import with a different snapshot of that date conflicts
    // with this one, whichever comes first and whatever the archive held.
    if existing.publishesPreviousRank == snapshot.publishesPreviousRank,
      stored.map(\.entry) == snapshot.entries
    {
      state.storedHere[key] = source
      return nil
    }
    if let other = state.storedHere[key] {
      throw ArchiveError.conflictingSnapshotsInOneImport(
        chart: snapshot.chart, chartDate: snapshot.chartDate, otherSource: other)
    }
    guard replacing else {
      throw ArchiveError.conflictingSnapshot(chart: snapshot.chart, chartDate: snapshot.chartDate)
    }
    // The snapshot keeps its row and ID; its entries and their verdicts go. Its songs are deleted
    // once the new entries are linked, those that no entry continues.
    try writer.deleteEntries(of: existing.id)
    try writer.updateSnapshot(
      existing.id, chartDate: snapshot.chartDate,
      publishesPreviousRank: snapshot.publishesPreviousRank, source: source)
    state.storedHere[key] = source
    return Place(id: existing.id, replacedSongs: Set(stored.map(\.song)))
  }

  /// Links, decides and writes the entries of a snapshot whose row is in place.
  private func write(_ snapshot: Snapshot, keys: [SongKeys], chart: ChartID, at place: Place)
    throws
  {
    let chartTime = snapshot.chartDate.secondsSince1970
    // The chart's snapshots around this one.
    let previous = try reader.snapshot(ofChart: chart, before: chartTime)
    let hasLater = try reader.snapshot(ofChart: chart, after: chartTime) != nil
    let mayHaveLaterSongs = hasLater || place.replacedSongs != nil
    let lastStored = state.lastStored[chart]
    let songs = try linker.link(
      snapshot.entries, keys: keys, chart: chart, chartTime: chartTime,
      publishesPreviousRank: snapshot.publishesPreviousRank,
      previous: previous.map { previous in
        lastStored.flatMap { $0.chartTime == previous.chartDate.secondsSince1970 ? $0 : nil }
          .map { .kept($0.snapshot) } ?? .stored(previous.id)
      } ?? .none, hasLater: mayHaveLaterSongs)
    try noteJoinedByURLAlone(snapshot, chart: chart)
    let decided = try decideFigures(
      of: snapshot, id: place.id, songs: songs, chart: chart, previous: previous,
      hasLater: hasLater)
    try writer.insertEntries(snapshot.entries, of: place.id, songs: songs, figures: decided.figures)
    if mayHaveLaterSongs {
      ledger.forgetAppended(of: chart)
    } else {
      ledger.rememberAppended(place.id, songs: songs, chart: chart)
    }
    try writer.insertVerdicts(of: decided)
    try writer.setEntryCount(
      snapshot.entries.count, followsMissingSnapshot: decided.followsMissingSnapshot, of: place.id)
    try linker.deleteSongsWithoutEntries(place.replacedSongs ?? [])
    let replaced = state.lastStored.updateValue(
      (
        chartTime, SongLinking.PreviousSnapshot(entries: snapshot.entries, songs: songs, keys: keys)
      ),
      forKey: chart)
    if let replaced { retired.linked.append(replaced.snapshot) }
    // The chart's later snapshots, if any, are linked again once, before the import stores a
    // snapshot after them or when it ends (see `relinkWaitingSnapshots`).
    state.relinkWaiting[chart] = hasLater ? chartTime : nil
  }

  /// Notes the entries of the snapshot just linked that their song URL joined to a song of
  /// another title and credit.
  private func noteJoinedByURLAlone(_ snapshot: Snapshot, chart: ChartID) throws {
    for joined in linker.joinedByURLAlone {
      let entry = snapshot.entries[joined.index]
      try addNote(
        .songURLOfAnotherCredit(
          rank: entry.rank, title: entry.title, artist: entry.artist, url: entry.songURL ?? "",
          otherTitle: joined.title, otherArtist: joined.artist), chart: chart,
        chartDate: snapshot.chartDate)
    }
  }

  /// Decides the figures of a snapshot being stored (see ``FigureLedger``), with the notes of its
  /// rhythm and its repeated song URLs.
  private func decideFigures(
    of snapshot: Snapshot, id: SnapshotID, songs: [SongID], chart: ChartID,
    previous: StoredSnapshot?, hasLater: Bool
  ) throws -> DecidedSnapshot {
    try noteRhythm(of: snapshot, after: previous?.chartDate, chart: chart)
    if let repeated = snapshot.repeatedSongURLs.first {
      try addNote(
        .sameSongURLTwice(url: repeated.url, ranks: repeated.ranks), chart: chart,
        chartDate: snapshot.chartDate)
    }
    let audited = LinkedSnapshot(
      id: id, chartDate: snapshot.chartDate,
      publishesPreviousRank: snapshot.publishesPreviousRank, entries: snapshot.entries,
      songs: songs)
    let (decided, notes) = try ledger.decide(
      audited, chart: chart, newSongs: linker.newSongs, previous: previous, hasLater: hasLater,
      frequency: frequencies[chart])
    for (chart, chartDate, note) in notes {
      try addNote(.figures(note), chart: chart, chartDate: chartDate)
    }
    return decided
  }

  // MARK: - Charts

  /// The chart's ID, creating the chart when it is new; records its frequency when the chart has
  /// none yet.
  ///
  /// - Throws: ``ArchiveError/invalidChartName(_:)``, or
  ///   ``ArchiveError/frequencyConflict(chart:stored:given:)`` when the chart is stored with another
  ///   frequency than the one given.
  private func chart(named name: String, frequency: ChartFrequency?) throws -> ChartID {
    let id: ChartID
    if let known = state.chartIDs[name] {
      id = known
    } else {
      guard Snapshot.isValidChartName(name) else { throw ArchiveError.invalidChartName(name) }
      if let stored = try reader.chart(named: name) {
        id = stored.id
        frequencies[id] = .some(stored.frequency)
        timeZones[id] = .some(stored.timeZone)
      } else {
        let others = try reader.chartNames()
        id = try writer.insertChart(named: name, frequency: frequency)
        frequencies[id] = .some(frequency)
        timeZones[id] = .some(nil)
        let similar = Suggestions.closest(to: name, among: others)
        if !similar.isEmpty { state.newChartsNamedLike[id] = similar }
      }
      state.chartIDs[name] = id
    }
    guard let frequency else { return id }
    switch frequencies[id] ?? nil {
    case .some(let stored) where stored != frequency:
      throw ArchiveError.frequencyConflict(chart: name, stored: stored, given: frequency)
    case .some: break
    case .none:
      try writer.setFrequency(frequency, ofChart: id)
      frequencies[id] = .some(frequency)
    }
    return id
  }

  /// Records the time zone an import gave for a chart that has none and no snapshots (a new
  /// chart); refuses one that differs from the chart's.
  ///
  /// - Throws: ``ArchiveError/timeZoneConflict(chart:stored:given:)``.
  private func settleTimeZone(_ given: String?, ofChart chart: ChartID, named name: String) throws {
    guard let given, !Self.utcNames.contains(given) else { return }
    let stored = timeZones[chart] ?? nil
    if stored == given { return }
    if stored == nil, try reader.snapshot(ofChart: chart, after: Int64.min) == nil {
      try writer.setTimeZone(given, ofChart: chart)
      timeZones[chart] = .some(given)
      return
    }
    throw ArchiveError.timeZoneConflict(chart: name, stored: stored, given: given)
  }

  /// The names of UTC, which stand for no zone.
  static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"]

  /// The chart date of a snapshot whose date and time the file gave without a zone, read as UTC
  /// because the import gave none: the same local time in the chart's zone when the chart has one
  /// (a chart remembers its zone, so that its later imports need not give it), else the date as
  /// read.
  ///
  /// - Parameters:
  ///   - chartDate: the date as read, `YYYY-MM-DDTHH:MM:SSZ`.
  ///   - chart: the chart's name.
  /// - Throws: ``ArchiveError/database(path:_:)``; a `ChartDateError` when the local time is one
  ///   the zone's clocks skipped or showed twice.
  public func chartDate(ofLocalTime chartDate: ChartDate, chart: String) throws -> ChartDate {
    guard chartDate.hasTime, let zoneName = try reader.chart(named: chart)?.timeZone,
      let zone = TimeZone(identifier: zoneName)
    else { return chartDate }
    return try ChartDate(iso8601: String(chartDate.iso8601.dropLast()), timeZone: zone)
  }

  // MARK: - Notes

  /// Notes a chart date off the chart's rhythm: not one period after the chart's previous
  /// snapshot (see ``ChartFrequency/isOnRhythm(from:to:)``).
  private func noteRhythm(of snapshot: Snapshot, after previous: ChartDate?, chart: ChartID)
    throws
  {
    guard let previous, let frequency = frequencies[chart] ?? nil,
      !frequency.isOnRhythm(from: previous, to: snapshot.chartDate)
    else { return }
    try addNote(
      .offRhythm(previous: previous, frequency: frequency), chart: chart,
      chartDate: snapshot.chartDate)
  }

  private func addNote(_ kind: SnapshotNote.Kind, chart: ChartID, chartDate: ChartDate) throws {
    let name: String
    if let known = chartNames[chart] {
      name = known
    } else {
      name = try reader.name(ofChart: chart) ?? ""
      chartNames[chart] = name
    }
    state.notes.append(SnapshotNote(chart: name, chartDate: chartDate, kind: kind))
  }

  // MARK: - Linking again

  /// Links again the snapshots that wait for it (``State/relinkWaiting``), chart by chart: those
  /// before `chartTime`, or all of them when it is `nil` (the import's end).
  private func relinkWaitingSnapshots(before chartTime: Int64?) throws {
    for (chart, after) in state.relinkWaiting.sorted(by: { $0.key < $1.key }) {
      let end: Int64?
      if let chartTime {
        guard after < chartTime - 1 else { continue }
        end = chartTime
      } else {
        end = nil
      }
      relinkedSnapshotCount += try linker.relink(chart: chart, after: after, before: end)
      ledger.forgetAppended(of: chart)
      // Those from `chartTime` on still wait.
      state.relinkWaiting[chart] = chartTime.map { $0 - 1 }
    }
  }
}

extension ArchiveError {
  /// Runs the import engine's steps, letting archive errors through and turning any other into
  /// ``ArchiveError/database(path:_:)``.
  static func mappingImport<Result>(path: String, _ body: () throws -> Result)
    throws(ArchiveError) -> Result
  {
    do {
      return try body()
    } catch let error as ArchiveError {
      throw error
    } catch {
      throw .database(path: path, .other("\(error)"))
    }
  }
}
