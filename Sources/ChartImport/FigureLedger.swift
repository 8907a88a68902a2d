import ChartRanking
import ChartStorage

/// Decides the figures of the snapshots an import stores (see ``ChartFigures``) and writes them:
/// each snapshot when it is stored, its chart's previous snapshot again when the new one tells
/// more about it, and a chart's snapshots from an earlier one on when the import stored one
/// before later ones (``settle()``).
///
/// Per chart, it keeps a ledger of the last snapshot decided without its next and the one before
/// it. When the next arrives, ``ChartFigures/mustDecideAgain(_:next:frequency:)`` says whether
/// the last must be decided again (its ranks shifted, a peak's cause only the next can tell);
/// most are not.
final class FigureLedger {
  let writer: ArchiveWriter
  /// Each chart's snapshots as deciding figures asks about them, kept for the import.
  private var histories: [ChartID: StoredChartHistory] = [:]
  /// What the ledger holds: what a savepoint saves and restores whole.
  var state = State()
  /// Snapshots with their decided figures the ledger needs no more, to be freed by whoever takes
  /// them.
  var retired: [DecidedSnapshot] = []

  /// The ledger's entries.
  struct State {
    /// Per chart, its last snapshot decided by this import before its next one was known, and
    /// the one before it: the chart's next snapshot decides the last again, as its next.
    var last: [ChartID: Ledger] = [:]
    /// Per chart, the earliest chart time from which its snapshots are decided again before the
    /// import commits: a snapshot stored before later ones (out of order, or replaced) changes
    /// their figures.
    var redecideFrom: [ChartID: Int64] = [:]
  }

  /// A chart's last snapshot decided without its next one, and the one before it.
  struct Ledger {
    var last: DecidedSnapshot
    var beforeLast: DecidedSnapshot?
  }

  /// A note of deciding figures, with the snapshot it is about.
  typealias Note = (chart: ChartID, chartDate: ChartDate, note: ChartFigures.Note)

  init(writer: ArchiveWriter) { self.writer = writer }

  /// The chart's history as this import knows it.
  ///
  /// - Parameter frequency: the chart's frequency as the import knows it, when it does (a file of
  ///   the import may have given it since the history read it).
  func history(of chart: ChartID, frequency: ChartFrequency??) -> StoredChartHistory {
    let history = histories[chart] ?? StoredChartHistory(reader: writer.reader, chart: chart)
    histories[chart] = history
    if let frequency { history.frequency = frequency }
    return history
  }

  /// Forgets what the histories remember (a savepoint rolled back: it may come from what was
  /// undone).
  func forgetHistories() { histories = [:] }

  /// Remembers the songs of a snapshot stored after the chart's others (see
  /// ``StoredChartHistory/rememberAppended(_:songs:)``).
  func rememberAppended(_ snapshot: SnapshotID, songs: [SongID], chart: ChartID) {
    histories[chart]?.rememberAppended(snapshot, songs: songs)
  }

  /// Forgets where the chart's songs last charted: its entries changed otherwise than by a
  /// snapshot stored after its others (see ``StoredChartHistory/forgetAppended()``).
  func forgetAppended(of chart: ChartID) { histories[chart]?.forgetAppended() }

  /// Decides the figures of a snapshot being stored. When it is its chart's latest, its previous
  /// snapshot is decided again with it as next, and the changes written; otherwise the chart's
  /// snapshots from it on are decided again when the import settles (``settle()``).
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot with its songs.
  ///   - chart: its chart.
  ///   - newSongs: the songs linking just created for it: they have no standing to look up.
  ///   - previous: the chart's snapshot before it, if any.
  ///   - hasLater: whether the chart has snapshots after it.
  ///   - frequency: the chart's frequency as the import knows it.
  /// - Returns: its figures, and the notes of deciding its previous snapshot again.
  /// - Throws: ``ArchiveError``.
  func decide(
    _ snapshot: LinkedSnapshot, chart: ChartID, newSongs: [SongID], previous: StoredSnapshot?,
    hasLater: Bool, frequency: ChartFrequency??
  ) throws -> (decided: DecidedSnapshot, notes: [Note]) {
    let history = history(of: chart, frequency: frequency)
    history.newSongs = SongLinking.SongSet(capacity: newSongs.count)
    for song in newSongs { history.newSongs.insert(song) }
    guard !hasLater else {
      // Not the chart's latest: decided again from its previous snapshot on, once the import
      // settles.
      let chartTime = snapshot.chartDate.secondsSince1970
      state.redecideFrom[chart] = state.redecideFrom[chart].map { min($0, chartTime) } ?? chartTime
      state.last[chart] = nil
      let decided = ChartFigures.decide(snapshot, previous: nil, next: nil, lookup: history)
      try history.checked()
      return (decided, [])
    }
    let (decidedPrevious, notes) = try decideAgain(
      previous, chart: chart, next: snapshot, history: history)
    let decided = ChartFigures.decide(
      snapshot, previous: decidedPrevious, next: nil, lookup: history)
    try history.checked()
    if let done = state.last.updateValue(
      Ledger(last: decided, beforeLast: decidedPrevious), forKey: chart)?.beforeLast
    {
      retired.append(done)
    }
    return (decided, notes)
  }

  /// A chart's previous snapshot decided again with its next one known, its changes written: from
  /// the ledger when it holds it, or from the archive; either way, its figures stand unless the
  /// next one tells more about it (``ChartFigures/mustDecideAgain(_:next:frequency:)``).
  private func decideAgain(
    _ previous: StoredSnapshot?, chart: ChartID, next: LinkedSnapshot,
    history: StoredChartHistory
  ) throws -> (DecidedSnapshot?, [Note]) {
    guard let previous else { return (nil, []) }
    if let ledger = state.last[chart], ledger.last.snapshot.id == previous.id {
      var redecided = ledger.last
      if ChartFigures.mustDecideAgain(ledger.last, next: next, frequency: history.frequency) {
        redecided = ChartFigures.decide(
          ledger.last.snapshot, previous: ledger.beforeLast, next: next, lookup: history)
        try write(redecided, storedAs: ledger.last.figures)
      }
      let date = ledger.last.snapshot.chartDate
      return (redecided, redecided.notes.map { (chart, date, $0) })
    }
    let reader = writer.reader
    guard let stored = try reader.storedFigures(of: previous.id) else { return (nil, []) }
    // Stored when it was the chart's latest, decided without a next one, as the ledger's last is:
    // its figures stand unless the next one tells more about it, as in an import of several weeks
    // (a one-week import so reads one snapshot's figures, not two, and decides nothing again).
    let asStored = Self.decided(stored, next: nil, frequency: history.frequency)
    if !ChartFigures.mustDecideAgain(asStored, next: next, frequency: history.frequency) {
      return (asStored, [])
    }
    var beforeLast: DecidedSnapshot?
    if let twoBack = try reader.snapshot(
      ofChart: chart, before: stored.snapshot.chartDate.secondsSince1970),
      let twoBackFigures = try reader.storedFigures(of: twoBack.id)
    {
      beforeLast = Self.decided(
        twoBackFigures, next: stored.snapshot, frequency: history.frequency)
    }
    let redecided = ChartFigures.decide(
      stored.snapshot, previous: beforeLast, next: next, lookup: history)
    try write(redecided, storedAs: stored.figures)
    return (redecided, [])
  }

  /// Decides again the figures of the charts a snapshot stored before later ones changed, and
  /// hands over the notes of the last snapshots decided without their next (what they say
  /// stands), so that every figure the import wrote is the one that will be committed.
  ///
  /// - Returns: the notes, chart by chart.
  /// - Throws: ``ArchiveError``.
  func settle() throws -> [Note] {
    var notes: [Note] = []
    for (chart, chartTime) in state.redecideFrom.sorted(by: { $0.key < $1.key }) {
      notes += try Self.redecide(chart: chart, from: chartTime, writer: writer)
      state.last[chart] = nil
      histories[chart] = nil
    }
    state.redecideFrom = [:]
    for (chart, ledger) in state.last.sorted(by: { $0.key < $1.key }) {
      notes += ledger.last.notes.map { (chart, ledger.last.snapshot.chartDate, $0) }
      state.last[chart]?.last.notes = []
    }
    return notes
  }

  /// A stored snapshot as deciding its next one needs it: its figures as stored and its ranks as
  /// the source meant them, given its next snapshot.
  static func decided(_ stored: StoredFigures, next: LinkedSnapshot?, frequency: ChartFrequency?)
    -> DecidedSnapshot
  {
    DecidedSnapshot(
      snapshot: stored.snapshot, figures: stored.figures,
      trueRanks: ChartFigures.trueRanks(of: stored.snapshot, next: next, frequency: frequency),
      followsMissingSnapshot: stored.followsMissingSnapshot, notes: [])
  }

  // MARK: - Writing

  /// Writes the figures of a stored snapshot whose entries are in the archive: the entries whose
  /// figures changed, the snapshot's verdicts when they did, and its entry count and flag.
  ///
  /// - Parameters:
  ///   - decided: the snapshot's figures as decided now.
  ///   - stored: its figures as stored, `nil` to write them all.
  static func write(
    _ decided: DecidedSnapshot, storedAs stored: [EntryFigures]?, with writer: ArchiveWriter
  )
    throws(ArchiveError)
  {
    let id = decided.snapshot.id
    var verdictsChanged = stored == nil
    for (position, figures) in decided.figures.enumerated() {
      let old = stored.flatMap { position < $0.count ? $0[position] : nil }
      if let old, old == figures { continue }
      try writer.updateFigures(
        figures, of: decided.snapshot.entries[position], at: position, in: id)
      if old.map({ !sameVerdicts($0, figures) }) ?? true { verdictsChanged = true }
    }
    if verdictsChanged {
      try writer.deleteVerdicts(of: id)
      try writer.insertVerdicts(of: decided)
    }
    try writer.setEntryCount(
      decided.snapshot.entries.count, followsMissingSnapshot: decided.followsMissingSnapshot,
      of: id)
  }

  private func write(_ decided: DecidedSnapshot, storedAs stored: [EntryFigures]?)
    throws(ArchiveError)
  {
    try Self.write(decided, storedAs: stored, with: writer)
  }

  private static func sameVerdicts(_ lhs: EntryFigures, _ rhs: EntryFigures) -> Bool {
    AuditFigure.allCases.allSatisfy { lhs.verdict(on: $0) == rhs.verdict(on: $0) }
  }

  // MARK: - Deciding again

  /// Decides a chart's snapshots again from the one before `chartTime` (which depends on the one
  /// after it) to the last, in chart-date order, and writes what changed.
  ///
  /// - Returns: the notes of the snapshots decided again.
  /// - Throws: ``ArchiveError``.
  @discardableResult
  static func redecide(chart: ChartID, from chartTime: Int64, writer: ArchiveWriter) throws
    -> [Note]
  {
    let reader = writer.reader
    let lookup = StoredChartHistory(reader: reader, chart: chart)
    let start = try reader.snapshot(ofChart: chart, before: chartTime)?.chartDate.secondsSince1970
    let pending = try reader.snapshots(ofChart: chart, from: start ?? chartTime, before: .max)
    guard let first = pending.first, var current = try reader.storedFigures(of: first.id) else {
      return []
    }
    var previous: DecidedSnapshot?
    if let before = try reader.snapshot(
      ofChart: chart, before: current.snapshot.chartDate.secondsSince1970),
      let stored = try reader.storedFigures(of: before.id)
    {
      previous = decided(stored, next: current.snapshot, frequency: lookup.frequency)
    }
    var notes: [Note] = []
    for index in pending.indices {
      let next =
        index + 1 < pending.count ? try reader.storedFigures(of: pending[index + 1].id) : nil
      let decided = ChartFigures.decide(
        current.snapshot, previous: previous, next: next?.snapshot, lookup: lookup)
      try lookup.checked()
      try write(decided, storedAs: current.figures, with: writer)
      notes += decided.notes.map { (chart, current.snapshot.chartDate, $0) }
      previous = decided
      guard let next else { break }
      current = next
    }
    return notes
  }
}
