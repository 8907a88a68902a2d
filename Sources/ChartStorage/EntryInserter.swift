import ChartRanking

/// Writes a snapshot's entries with one `INSERT` statement for up to ``rowsPerInsert`` of them
/// (``rowsPerFirstInsert`` for a write's first snapshot): SQLite runs a statement's setup and its
/// end once per statement, not once per entry. Their texts
/// are bound in place from one arena (``TextArena``), which the reset after each statement
/// releases; a number or NULL is bound only when it differs from the one its parameter holds
/// (``BoundParameters``).
final class EntryInserter {
  private let database: Database
  /// The statements by the number of rows they insert, prepared once per write and kept here
  /// rather than in the connection's cache, which would hash their long SQL for every snapshot.
  private var statements: [Int: BoundParameters] = [:]
  private let texts = TextArena()

  /// How many entries one INSERT statement stores at most.
  static let rowsPerInsert = 100

  /// How many entries one INSERT statement stores at most for the first snapshot of a write:
  /// preparing the statement for 100 rows (2,000 parameters) takes SQLite about 0.8 ms, most of a
  /// write that stores one snapshot, and pays for itself only from a write's second snapshot on.
  static let rowsPerFirstInsert = 10

  /// Whether a snapshot's entries were inserted in this write.
  private var insertedASnapshot = false

  /// The columns of one entry's row.
  private static let columnCount = 20

  init(database: Database) { self.database = database }

  /// Inserts the entries of a snapshot.
  ///
  /// - Parameters:
  ///   - entries: the entries, in rank order; each one's position is its index.
  ///   - snapshot: the snapshot's row ID.
  ///   - songs: each entry's song ID, same order.
  ///   - figures: each entry's decided figures, same order (their verdicts are written apart).
  /// - Throws: ``DatabaseError``; the rows of the failing statement before the failure stay until
  ///   the transaction or savepoint is rolled back (see ``statement(count:)``).
  func insert(
    _ entries: [ChartEntry], snapshot: Int64, songs: [SongID], figures: [EntryFigures]
  ) throws(DatabaseError) {
    let rowsPerInsert = insertedASnapshot ? Self.rowsPerInsert : Self.rowsPerFirstInsert
    insertedASnapshot = true
    try entries.withUnsafeBufferPointer { entries throws(DatabaseError) in
      var start = 0
      while start < entries.count {
        let count = min(rowsPerInsert, entries.count - start)
        let insert = try statement(count: count)
        texts.clear()
        for row in 0..<count {
          let position = start + row
          try Self.check(
            rank: entries[position].rank,
            publishedPreviousRank: entries[position].publishedPreviousRank,
            publishedPeakPosition: entries[position].publishedPeakPosition,
            publishedWeeksOnChart: entries[position].publishedWeeksOnChart,
            streams: entries[position].streams, publishedRun: entries[position].publishedRun,
            figures: figures[position])
          let base = Int32(row * Self.columnCount)
          insert.bind(snapshot, at: base + 1)
          insert.bind(Int64(position), at: base + 2)
          insert.bind(Int64(entries[position].rank), at: base + 3)
          insert.bind(songs[position].rawValue, at: base + 4)
          insert.bind(entries[position].publishedPreviousRank, at: base + 5)
          insert.bind(entries[position].publishedPeakPosition, at: base + 6)
          insert.bind(entries[position].publishedWeeksOnChart, at: base + 7)
          insert.bind(borrowedText: texts.append(entries[position].title), at: base + 8)
          insert.bind(borrowedText: texts.append(entries[position].artist), at: base + 9)
          insert.bind(borrowedText: entries[position].imageURL.map(texts.append), at: base + 10)
          insert.bind(borrowedText: entries[position].songURL.map(texts.append), at: base + 11)
          insert.bind(entries[position].streams, at: base + 12)
          let decided = figures[position]
          insert.bind(decided.previousRank, at: base + 13)
          insert.bind(Int64(decided.peakPosition), at: base + 14)
          insert.bind(Int64(decided.weeksOnChart), at: base + 15)
          insert.bind(Int64(decided.run), at: base + 16)
          insert.bind(Int64(FigureFlags(decided).rawValue), at: base + 17)
          insert.bind(entries[position].publishedRun, at: base + 18)
          insert.bind(
            borrowedText: entries[position].publishedTrend.map {
              texts.append($0.notation)
            },
            at: base + 19)
          insert.bind(
            borrowedText: entries[position].isrc.map { texts.append($0.code) }, at: base + 20)
        }
        // Reset even after a failure, before the arena is reused: a statement that ran may hold
        // on to the texts bound in place until it is reset. Every parameter is bound again before
        // it runs again.
        defer { insert.statement.resetKeepingBindings() }
        try insert.statement.run()
        start += count
      }
    }
  }

  /// Tests an entry's row against the CHECK constraints of `entries` (Migrations/0001, 0002 and
  /// 0004; the published trend's of 0008 holds for every ``PublishedTrend/notation``, the ISRC's of
  /// 0010 for every ``ISRC/code``), which SQLite does not while a write runs (see
  /// ``Archive/write(beforeCommit:_:)``). Its position is an index (never below 0) and its
  /// `figure_flags` come from ``FigureFlags`` (always in range).
  ///
  /// - Throws: ``DatabaseError`` `SQLITE_CONSTRAINT_CHECK` naming the first constraint broken, as
  ///   SQLite names it.
  static func check(_ entry: ChartEntry, _ figures: EntryFigures) throws(DatabaseError) {
    try check(
      rank: entry.rank, publishedPreviousRank: entry.publishedPreviousRank,
      publishedPeakPosition: entry.publishedPeakPosition,
      publishedWeeksOnChart: entry.publishedWeeksOnChart, streams: entry.streams,
      publishedRun: entry.publishedRun, figures: figures)
  }

  /// ``check(_:_:)`` of an entry's numbers, taken one by one: the loop that binds a statement's
  /// rows reads them in place, without copying each entry (and retaining its texts).
  @inline(__always)
  static func check(
    rank: Int, publishedPreviousRank: Int?, publishedPeakPosition: Int?,
    publishedWeeksOnChart: Int?, streams: Int?, publishedRun: Int?, figures: EntryFigures
  ) throws(DatabaseError) {
    if rank < 1 { throw .checkFailure("rank >= 1") }
    if let value = publishedPreviousRank, value < 1 {
      throw .checkFailure("published_previous_rank >= 1")
    }
    if let value = publishedPeakPosition, value < 1 {
      throw .checkFailure("published_peak_position >= 1")
    }
    if let value = publishedWeeksOnChart, value < 1 {
      throw .checkFailure("published_weeks_on_chart >= 1")
    }
    if let value = streams, value < 0 { throw .checkFailure("streams >= 0") }
    if let value = figures.previousRank, value < 1 { throw .checkFailure("previous_rank >= 1") }
    if figures.peakPosition < 1 { throw .checkFailure("peak_position >= 1") }
    if figures.weeksOnChart < 1 { throw .checkFailure("weeks_on_chart >= 1") }
    if figures.run < 1 { throw .checkFailure("run >= 1") }
    if let value = publishedRun, value < 1 { throw .checkFailure("published_run >= 1") }
  }

  /// The statement that inserts `count` entries (1 through ``rowsPerInsert``).
  ///
  /// It is `INSERT OR FAIL`: a row that breaks a constraint stops the statement and leaves the
  /// rows before it in, where the default (`ABORT`) takes them out again
  /// (<https://www.sqlite.org/lang_conflict.html>). To do that, SQLite keeps a statement journal,
  /// a copy of every page the statement changes that was there before it
  /// (<https://www.sqlite.org/tempfiles.html#statement_journals>): the leaves of the index of
  /// entries by song, one per entry in a large archive. A failed store ends the transaction or
  /// savepoint it ran in (as ``ArchiveWriter`` asks), which takes the rows out.
  private func statement(count: Int) throws(DatabaseError) -> BoundParameters {
    if let statement = statements[count] { return statement }
    let statement = try Statement(
      database: database,
      sql:
        "INSERT OR FAIL INTO entries (snapshot_id, position, rank, song_id,"
        + " published_previous_rank, published_peak_position, published_weeks_on_chart, title,"
        + " artist, image_url, song_url, streams, previous_rank, peak_position, weeks_on_chart,"
        + " run, figure_flags, published_run, published_trend, isrc) VALUES "
        + Array(
          repeating: "(" + Array(repeating: "?", count: Self.columnCount).joined(separator: ", ")
            + ")", count: count
        ).joined(separator: ", "))
    let bound = BoundParameters(statement, count: count * Self.columnCount)
    statements[count] = bound
    return bound
  }
}
