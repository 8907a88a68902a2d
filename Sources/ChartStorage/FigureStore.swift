import ChartRanking

/// Reads and writes the figures decided for entries (see ``ChartFigures``): the columns of
/// `entries` from `previous_rank` on, the `verdicts` table and each snapshot's entry count and
/// `follows_missing_snapshot`, and decides a chart's snapshots again after a change.
struct FigureStore {
  let database: Database

  // MARK: - Codes

  /// An entry's `figure_flags`: the code of its previous rank's source (0 published, 1 derived,
  /// 2 corrected), plus 4 for a partial run, plus 8 when the song charted before (the entry is not
  /// a debut): the decided movement is then read back from the previous rank and this bit alone.
  static func flags(_ figures: EntryFigures) -> Int {
    let source =
      switch figures.previousRankSource {
      case .published: 0
      case .derived: 1
      case .corrected: 2
      }
    return source + (figures.isPartialRun ? 4 : 0) + (figures.movement == .debut ? 0 : 8)
  }

  static func previousRankSource(flags: Int) -> PreviousRankSource {
    switch flags & 3 {
    case 0: .published
    case 2: .corrected
    default: .derived
    }
  }

  /// The codes of ``AuditFigure`` in `verdicts.figure`.
  static func code(_ figure: AuditFigure) -> Int {
    switch figure {
    case .previousRank: 0
    case .peakPosition: 1
    case .weeksOnChart: 2
    case .run: 3
    }
  }

  /// The figures by their codes in `verdicts.figure`.
  static let figures: [AuditFigure] = [.previousRank, .peakPosition, .weeksOnChart, .run]

  /// The codes of ``DisagreementCause`` in `verdicts.cause`, in its order.
  static func code(_ cause: DisagreementCause) -> Int {
    DisagreementCause.allCases.firstIndex(of: cause)!
  }

  static func cause(code: Int) -> DisagreementCause {
    DisagreementCause.allCases.indices.contains(code)
      ? DisagreementCause.allCases[code] : .unexplained
  }

  // MARK: - Reading

  /// The columns of an entry's figures, read by ``figures(_:from:entry:verdicts:)``.
  static let figureColumns =
    "e.previous_rank, e.peak_position, e.weeks_on_chart, e.run, e.figure_flags"

  /// The figures of an entry read from ``figureColumns`` at column `offset`, with the entry (for
  /// its rank) and its verdicts: the movement is the decided one, from the previous rank and
  /// whether the song charted before (see ``flags(_:)``).
  static func figures(
    _ row: Statement, from offset: Int32, entry: ChartEntry, verdicts: [AuditFigure: FigureVerdict]
  ) -> EntryFigures {
    let previousRank = row.optionalInt(at: offset)
    let weeks = row.optionalInt(at: offset + 2) ?? 1
    let flags = row.int(at: offset + 4)
    return EntryFigures(
      previousRank: previousRank, previousRankSource: previousRankSource(flags: flags),
      movement: Movement(
        rank: entry.rank, previousRank: previousRank, wasOnChartBefore: flags & 8 != 0),
      peakPosition: row.optionalInt(at: offset + 1) ?? entry.rank, weeksOnChart: weeks,
      run: row.optionalInt(at: offset + 3) ?? 1, isPartialRun: flags & 4 != 0,
      previousRankVerdict: verdicts[.previousRank], peakPositionVerdict: verdicts[.peakPosition],
      weeksOnChartVerdict: verdicts[.weeksOnChart], runVerdict: verdicts[.run])
  }

  /// The verdicts of a snapshot's entries, by position.
  func verdicts(of snapshot: Int64) throws(DatabaseError) -> [Int: [AuditFigure: FigureVerdict]] {
    var verdicts: [Int: [AuditFigure: FigureVerdict]] = [:]
    for (position, figure, derived, cause) in try database.rows(
      "SELECT position, figure, derived, cause FROM verdicts WHERE snapshot_id = ?", [snapshot],
      { ($0.int(at: 0), $0.int(at: 1), $0.optionalInt(at: 2), $0.int(at: 3)) })
    {
      verdicts[position, default: [:]][Self.figures[figure]] = FigureVerdict(
        derived: derived, cause: Self.cause(code: cause))
    }
    return verdicts
  }

  /// A stored snapshot with its entries, songs and figures.
  struct Stored {
    var id: Int64
    var snapshot: AuditedSnapshot
    var figures: [EntryFigures]
    var followsMissingSnapshot: Bool
  }

  /// The stored snapshot with this row ID.
  func stored(_ id: Int64) throws(DatabaseError) -> Stored? {
    guard
      let (date, time, publishes, follows) = try database.row(
        "SELECT chart_date, chart_time, publishes_previous_rank, follows_missing_snapshot"
          + " FROM snapshots WHERE id = ?", [id],
        { ($0.string(at: 0), $0.int64(at: 1), $0.bool(at: 2), $0.bool(at: 3)) })
    else { return nil }
    let verdicts = try verdicts(of: id)
    var entries: [ArchivedEntry] = []
    var figures: [EntryFigures] = []
    let statement = try database.statement(
      "SELECT e.song_id, \(ArchiveReader.entryColumns), \(Self.figureColumns)"
        + " FROM entries e WHERE e.snapshot_id = ? ORDER BY e.position")
    statement.bind(id, at: 1)
    defer { statement.reset() }
    while try statement.step() {
      let entry = ArchiveReader.readEntry(statement, from: 1)
      entries.append(ArchivedEntry(entry: entry, song: SongID(statement.int64(at: 0))))
      figures.append(
        Self.figures(
          statement, from: 1 + ArchiveReader.entryColumnCount, entry: entry,
          verdicts: verdicts[figures.count] ?? [:]))
    }
    return Stored(
      id: id,
      snapshot: AuditedSnapshot(
        id: SnapshotID(id),
        chartDate: ChartDate(trustedISO8601: date, secondsSince1970: time),
        publishesPreviousRank: publishes, entries: entries),
      figures: figures, followsMissingSnapshot: follows)
  }

  /// The row ID of a chart's snapshot just before (or after) a chart time, or `nil`.
  func snapshot(ofChart chartID: Int64, before chartTime: Int64) throws(DatabaseError) -> Int64? {
    try database.row(
      "SELECT id FROM snapshots WHERE chart_id = ? AND chart_time < ? ORDER BY chart_time DESC"
        + " LIMIT 1", [chartID, chartTime], { $0.int64(at: 0) })
  }

  func snapshot(ofChart chartID: Int64, after chartTime: Int64) throws(DatabaseError) -> Int64? {
    try database.row(
      "SELECT id FROM snapshots WHERE chart_id = ? AND chart_time > ? ORDER BY chart_time LIMIT 1",
      [chartID, chartTime], { $0.int64(at: 0) })
  }

  /// A stored snapshot as deciding its next one needs it: its figures as stored and its ranks as
  /// the source meant them, given its next snapshot.
  static func decided(_ stored: Stored, next: AuditedSnapshot?, frequency: ChartFrequency?)
    -> DecidedSnapshot
  {
    DecidedSnapshot(
      snapshot: stored.snapshot, figures: stored.figures,
      trueRanks: ChartFigures.trueRanks(of: stored.snapshot, next: next, frequency: frequency),
      followsMissingSnapshot: stored.followsMissingSnapshot, notes: [])
  }

  // MARK: - Writing

  /// Writes the figures of a stored snapshot whose entries are in the archive: the entries whose
  /// figures changed, the snapshot's verdicts when they did, and its flags.
  ///
  /// - Parameters:
  ///   - decided: the snapshot's figures as decided now.
  ///   - stored: its figures as stored, `nil` to write them all.
  func update(_ decided: DecidedSnapshot, storedAs stored: [EntryFigures]?) throws(DatabaseError) {
    let id = decided.snapshot.id.rawValue
    var verdictsChanged = stored == nil
    for (position, figures) in decided.figures.enumerated() {
      let old = stored.flatMap { position < $0.count ? $0[position] : nil }
      if let old, old == figures { continue }
      try EntryInserter.check(decided.snapshot.entries[position], figures)
      try database.run(
        "UPDATE entries SET previous_rank = ?, peak_position = ?, weeks_on_chart = ?, run = ?,"
          + " figure_flags = ? WHERE snapshot_id = ? AND position = ?", figures.previousRank,
        figures.peakPosition, figures.weeksOnChart, figures.run, Self.flags(figures), id,
        position)
      if old.map({ !Self.sameVerdicts($0, figures) }) ?? true { verdictsChanged = true }
    }
    if verdictsChanged {
      try database.run("DELETE FROM verdicts WHERE snapshot_id = ?", id)
      try insertVerdicts(of: decided)
    }
    try database.run(
      "UPDATE snapshots SET entry_count = ?, follows_missing_snapshot = ? WHERE id = ?",
      decided.snapshot.entries.count, decided.followsMissingSnapshot, id)
  }

  private static func sameVerdicts(_ lhs: EntryFigures, _ rhs: EntryFigures) -> Bool {
    AuditFigure.allCases.allSatisfy { lhs.verdict(on: $0) == rhs.verdict(on: $0) }
  }

  /// Inserts the verdicts of a snapshot's entries.
  func insertVerdicts(of decided: DecidedSnapshot) throws(DatabaseError) {
    for position in decided.figures.indices where decided.figures[position].hasVerdicts {
      for figure in Self.figures {
        guard let verdict = decided.figures[position].verdict(on: figure) else { continue }
        try database.run(
          "INSERT INTO verdicts (snapshot_id, position, figure, derived, cause)"
            + " VALUES (?, ?, ?, ?, ?)", decided.snapshot.id.rawValue, position, Self.code(figure),
          verdict.derived, Self.code(verdict.cause))
      }
    }
  }

  // MARK: - Deciding again

  /// Decides a chart's snapshots again from the one before `chartTime` (which depends on the one
  /// after it) to the last, in chart-date order, and writes what changed.
  ///
  /// - Returns: the notes of the snapshots decided again.
  /// - Throws: ``DatabaseError``.
  @discardableResult
  func redecide(chart chartID: Int64, from chartTime: Int64) throws(DatabaseError) -> [(
    ChartDate, ChartFigures.Note
  )] {
    let lookup = ArchiveHistory(database: database, chartID: chartID)
    let startTime =
      try database.row(
        "SELECT chart_time FROM snapshots WHERE chart_id = ? AND chart_time < ?"
          + " ORDER BY chart_time DESC LIMIT 1", [chartID, chartTime], { $0.int64(at: 0) })
      ?? chartTime
    let pending = try database.rows(
      "SELECT id FROM snapshots WHERE chart_id = ? AND chart_time >= ? ORDER BY chart_time",
      [chartID, startTime], { $0.int64(at: 0) })
    guard let first = pending.first, var current = try stored(first) else { return [] }
    var previous: DecidedSnapshot?
    if let before = try snapshot(
      ofChart: chartID, before: current.snapshot.chartDate.secondsSince1970),
      let stored = try stored(before)
    {
      previous = Self.decided(stored, next: current.snapshot, frequency: lookup.frequency)
    }
    var notes: [(ChartDate, ChartFigures.Note)] = []
    for index in pending.indices {
      let next = index + 1 < pending.count ? try stored(pending[index + 1]) : nil
      let decided = ChartFigures.decide(
        current.snapshot, previous: previous, next: next?.snapshot, lookup: lookup)
      try lookup.checked()
      try update(decided, storedAs: current.figures)
      notes += decided.notes.map { (current.snapshot.chartDate, $0) }
      previous = decided
      guard let next else { break }
      current = next
    }
    return notes
  }
}

/// A chart's snapshots in the archive, answering what deciding a snapshot asks of the earlier ones
/// (see ``ChartHistoryLookup``).
///
/// The lookup protocol does not throw, so a failed query answers as if the archive held nothing
/// and keeps its error in ``error``: whoever decides with this lookup throws it afterwards
/// (``checked()``), so that no figure decided from a failed query is stored.
final class ArchiveHistory: ChartHistoryLookup {
  let database: Database
  let chartID: Int64
  /// The first error a query met, if any.
  private(set) var error: DatabaseError?
  /// Where each song's last entry on the chart is, for the songs of the snapshots an import
  /// appended after the chart's latest one (see ``rememberAppended(_:songs:)``): a
  /// re-entry's standing is then read by its key, not searched among all the song's entries.
  /// At most ``lastEntriesLimit`` songs: when it is full, it starts again (older songs are then
  /// searched), so that an import of many charts keeps a few hundred kilobytes per chart.
  private var lastEntries = SongMap<(snapshot: Int64, position: Int32)>()
  /// How many songs ``lastEntries`` holds at most.
  static let lastEntriesLimit = 4_096
  /// The largest snapshot before a chart time, remembered: an import asks for later and later
  /// times.
  private var largest: (before: Int64, count: Int)?
  /// The first snapshot that follows a missing one, found before a chart time (or none before
  /// it), remembered for the same reason.
  private var firstMissing: (before: Int64, found: FlaggedSnapshot?)?
  /// Songs that have no entry before the snapshot being decided: just created by linking.
  var newSongs = SongLinking.SongSet(capacity: 0)

  init(database: Database, chartID: Int64) {
    self.database = database
    self.chartID = chartID
  }

  /// The chart's frequency as stored, read once (`nil` when it has none, or the query failed:
  /// its error is kept in ``error``).
  lazy var frequency: ChartFrequency? = answer(nil) { () throws(DatabaseError) -> ChartFrequency? in
    try database.row(
      "SELECT frequency FROM charts WHERE id = ?", [chartID],
      { $0.optionalString(at: 0).flatMap(ChartFrequency.init(rawValue:)) }) ?? nil
  }

  /// Throws the error a query met, if any, and forgets it.
  ///
  /// - Throws: ``DatabaseError``.
  /// The answer of a query, or `fallback` when it fails (its error kept in ``error``).
  private func answer<Answer>(_ fallback: Answer, _ query: () throws(DatabaseError) -> Answer)
    -> Answer
  {
    do {
      return try query()
    } catch {
      self.error = self.error ?? error
      return fallback
    }
  }

  func checked() throws(DatabaseError) {
    if let error {
      self.error = nil
      throw error
    }
  }

  /// Remembers where the entries of a snapshot just stored after the chart's latest one are:
  /// each one is its song's last entry on the chart. Call ``forgetAppended()`` when the chart's
  /// entries change any other way (a snapshot stored before the chart's latest, a replacement, a
  /// relinking, a rollback).
  func rememberAppended(_ snapshot: Int64, songs: [Int64]) {
    if lastEntries.count + songs.count > Self.lastEntriesLimit { lastEntries.removeAll() }
    // In reverse, so that a song's first position wins.
    for position in songs.indices.reversed() {
      lastEntries[SongID(songs[position])] = (snapshot, Int32(position))
    }
  }

  /// Forgets where the last entries are (see ``rememberAppended(_:songs:)``).
  func forgetAppended() { lastEntries.removeAll() }

  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding? {
    if newSongs.contains(song) { return nil }
    return answer(nil) { () throws(DatabaseError) -> SongStanding? in
      // The entry: remembered (when it is before the date), or found in the index of entries by
      // song alone (it holds the snapshot and position).
      if let known = lastEntries[song],
        let standing = try entryStanding(snapshot: known.snapshot, position: Int(known.position)),
        standing.chartDate < chartDate
      {
        return standing
      }
      guard
        let (snapshot, position) = try database.row(
          "SELECT e.snapshot_id, e.position FROM entries e INDEXED BY entries_by_song"
            + " CROSS JOIN snapshots s ON s.id = e.snapshot_id"
            + " WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ?"
            + " ORDER BY s.chart_time DESC, e.position LIMIT 1",
          [song.rawValue, chartID, chartDate.secondsSince1970], { ($0.int64(at: 0), $0.int(at: 1)) }
        )
      else { return nil }
      return try entryStanding(snapshot: snapshot, position: position)
    }
  }

  /// An entry as a standing: with its snapshot's chart date and its verdicts.
  private func entryStanding(snapshot: Int64, position: Int) throws(DatabaseError) -> SongStanding?
  {
    // One row per verdict (most entries have none).
    var standing: SongStanding?
    let statement = try database.statement(
      "SELECT s.chart_date, s.chart_time, v.figure, v.derived, v.cause,"
        + " \(ArchiveReader.entryColumns), \(FigureStore.figureColumns)"
        + " FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
        + " LEFT JOIN verdicts v ON v.snapshot_id = e.snapshot_id AND v.position = e.position"
        + " WHERE e.snapshot_id = ? AND e.position = ?")
    statement.bind([snapshot, position])
    defer { statement.reset() }
    while try statement.step() {
      if standing == nil {
        let entry = ArchiveReader.readEntry(statement, from: 5)
        standing = SongStanding(
          chartDate: ChartDate(
            trustedISO8601: statement.string(at: 0), secondsSince1970: statement.int64(at: 1)),
          entry: entry,
          figures: FigureStore.figures(
            statement, from: 5 + ArchiveReader.entryColumnCount, entry: entry, verdicts: [:]))
      }
      guard let figure = statement.optionalInt(at: 2) else { continue }
      let verdict = FigureVerdict(
        derived: statement.optionalInt(at: 3), cause: FigureStore.cause(code: statement.int(at: 4)))
      standing?.figures.setVerdict(verdict, on: FigureStore.figures[figure])
    }
    return standing
  }

  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  {
    // The first one following a missing snapshot, asked for every song new to the chart.
    if start == nil, chartSize == 0 {
      let time = end.secondsSince1970
      if let firstMissing, let found = firstMissing.found {
        return found.chartDate.secondsSince1970 < time ? [found] : []
      }
      if let firstMissing, time <= firstMissing.before { return [] }
      let found = queryFlagged(
        from: firstMissing.map { ChartDate(trustedISO8601: "", secondsSince1970: $0.before) },
        before: end, chartSize: 0
      ).first
      firstMissing = (max(time, firstMissing?.before ?? .min), found)
      return found.map { [$0] } ?? []
    }
    return queryFlagged(from: start, before: end, chartSize: chartSize)
  }

  private func queryFlagged(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  {
    // Only those following a missing snapshot (a partial index) when no size is asked about.
    let sql =
      chartSize > 0
      ? "SELECT chart_date, chart_time, follows_missing_snapshot, entry_count FROM snapshots"
        + " WHERE chart_id = ?1 AND chart_time >= ?2 AND chart_time < ?3"
        + " AND (follows_missing_snapshot = 1 OR entry_count < ?4) ORDER BY chart_time"
      : "SELECT chart_date, chart_time, follows_missing_snapshot, entry_count FROM snapshots"
        + " WHERE chart_id = ?1 AND chart_time >= ?2 AND chart_time < ?3"
        + " AND follows_missing_snapshot = 1 ORDER BY chart_time"
    let arguments: [any StatementArgument] =
      [chartID, start?.secondsSince1970 ?? .min, end.secondsSince1970]
      + (chartSize > 0 ? [chartSize] : [])
    return
      answer([]) { () throws(DatabaseError) in
        try database.rows(sql, arguments) { row in
          FlaggedSnapshot(
            chartDate: ChartDate(
              trustedISO8601: row.string(at: 0), secondsSince1970: row.int64(at: 1)),
            followsMissingSnapshot: row.bool(at: 2), entryCount: row.int(at: 3))
        }
      }
  }

  func largestSnapshot(before chartDate: ChartDate) -> Int {
    let time = chartDate.secondsSince1970
    let query =
      "SELECT max(entry_count) FROM snapshots WHERE chart_id = ? AND chart_time >= ?"
      + " AND chart_time < ?"
    if let largest, largest.before <= time {
      // Only the snapshots since the last answer.
      let more: Int? = answer(nil) { () throws(DatabaseError) in
        try database.row(query, [chartID, largest.before, time]) { $0.optionalInt(at: 0) } ?? nil
      }
      self.largest = (time, max(largest.count, more ?? 0))
    } else {
      let count: Int? = answer(nil) { () throws(DatabaseError) in
        try database.row(query, [chartID, Int64.min, time]) { $0.optionalInt(at: 0) } ?? nil
      }
      largest = (time, count ?? 0)
    }
    return largest?.count ?? 0
  }

  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID> {
    let candidates: [Int64]
    if let credit = identity.foldedCredit {
      candidates =
        answer([]) { () throws(DatabaseError) in
          try database.rows(
            "SELECT id FROM songs WHERE title_key = ?1 AND artist_key = ?2 UNION"
              + " SELECT song_id FROM song_credits WHERE title_key = ?1 AND artist_key = ?2",
            [credit.title, credit.artist]
          ) { $0.int64(at: 0) }
        }
    } else if identity.isSongURL {
      candidates =
        answer([]) { () throws(DatabaseError) in
          try database.rows("SELECT id FROM songs WHERE identity = ?", [identity.key]) {
            $0.int64(at: 0)
          }
        }
    } else {
      return []
    }
    return onChart(candidates, before: chartDate)
  }

  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID> {
    let parts = key.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return [] }
    let candidates =
      answer([]) { () throws(DatabaseError) in
        try database.rows(
          "SELECT id FROM songs WHERE base_title_key = ?1 AND primary_artist_key = ?2 UNION"
            + " SELECT song_id FROM song_credits WHERE base_title_key = ?1"
            + " AND primary_artist_key = ?2", [String(parts[0]), String(parts[1])]
        ) { $0.int64(at: 0) }
      }
    return onChart(candidates, before: chartDate)
  }

  /// Those of `songs` with an entry on the chart before a chart date.
  private func onChart(_ songs: [Int64], before chartDate: ChartDate) -> Set<SongID> {
    var found: Set<SongID> = []
    for song in songs {
      let charted =
        answer(nil) { () throws(DatabaseError) in
          try database.row(
            "SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
              + " WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ? LIMIT 1",
            [song, chartID, chartDate.secondsSince1970], { _ in true })
        }
      if charted != nil { found.insert(SongID(song)) }
    }
    return found
  }

  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int> {
    Set(
      answer([]) { () throws(DatabaseError) in
        try database.rows(
          "SELECT e.published_previous_rank FROM entries e CROSS JOIN snapshots s"
            + " ON s.id = e.snapshot_id WHERE e.song_id = ? AND s.chart_id = ? AND s.chart_time < ?"
            + " AND s.follows_missing_snapshot = 1 AND e.published_previous_rank IS NOT NULL",
          [song.rawValue, chartID, chartDate.secondsSince1970], { $0.int(at: 0) })
      })
  }
}
