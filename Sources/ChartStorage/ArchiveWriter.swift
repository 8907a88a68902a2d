import ChartRanking
import Foundation

/// The writing side of one ``Archive/write(beforeCommit:_:)`` transaction: the archive's row
/// operations, one method per SQL statement, and the queries an import asks of the rows it is
/// writing. What to store (whether a snapshot is new, which song an entry continues, what its
/// figures are) is the caller's to decide: ChartImport's import engine is the writer's one caller
/// in the product.
///
/// In the spirit of GRDB's `DatabaseWriter.write`, which hands its closure a `Database`: valid
/// only inside the write it was handed to, on that thread; not `Sendable`.
///
/// The writer keeps the archive consistent where SQLite's own checks are off while a write runs
/// (see ``Archive/write(beforeCommit:_:)``): each entry's row is tested against the schema's CHECK
/// constraints before it is written, and the songs, snapshots and charts its rows refer to are
/// checked once, before the commit. It also adds the songs and credits it inserted to the
/// full-text index `song_search` before the commit (migration 0005: no trigger does it).
///
/// - Throws: every method throws ``ArchiveError/database(path:_:)`` when SQLite fails; a failed
///   method may have written part of its rows, so let the error end the write or the savepoint
///   (``inSavepoint(_:)``) it happened in, which undoes them.
public final class ArchiveWriter {
  let database: Database
  /// The archive's path, as errors name it.
  public let path: String
  /// When the write began (ISO 8601, UTC, to the second: `2026-12-03T17:40:06Z`): each snapshot
  /// it stores or replaces records it.
  /// (A clock outside the years 0001 to 9999 writes the Unix epoch.)
  let importedAt =
    ChartDate.timestamp(secondsSince1970: Int64(time(nil))) ?? "1970-01-01T00:00:00Z"
  /// The connection's count of changed rows when the write began: a write that changes none
  /// leaves the archive's version as it was.
  let changesBefore: Int
  /// The statements that insert entries, a few at a time.
  let inserter: EntryInserter
  /// The texts of the song being inserted, bound in place.
  let songTexts = TextArena(capacity: 4_096)
  /// The statement that inserts a song, prepared at the first new song.
  var songInsert: Statement?
  /// What the write's rows refer to and which songs and credits it added: restored whole when a
  /// savepoint is rolled back.
  var written = Written()
  /// The entries this write stored on each chart it created, while it only appended to it
  /// (``ChartEntryLog``), by chart ID: its artist totals are added up from them.
  var entryLogs: [Int64: ChartEntryLog] = [:]
  /// The chart of each snapshot a log holds, by snapshot ID (a log that ended leaves its own).
  var loggedSnapshots: [Int64: Int64] = [:]
  /// Whether a trigger of the user's is on the archive's tables: it may change rows the writer does
  /// not see, so the write then logs no entries and adds up every chart's artist totals again.
  /// Asked once, at the first chart created or when the write keeps the totals.
  private var userTriggers: Bool?
  /// How many charts' artist totals the last ``finish()`` added up from their logs (for tests).
  private(set) var chartsAddedUpFromTheirLogs = 0

  /// The row IDs the write's rows refer to, and the songs and credits it added to the archive
  /// (for the full-text index).
  struct Written {
    /// The songs and snapshots of the entries written, and the charts of the snapshots.
    var referencedSongs = References()
    var referencedSnapshots = References()
    var referencedCharts = References()
    /// Every song inserted and every credit added; some may have been deleted since.
    var createdSongs: Set<Int64> = []
    var addedCredits: Set<CreditKey> = []
    /// The own credit of every song inserted, by its ID, as ``ArtistIndex`` reads it: kept, so
    /// that the artists of the songs are decided without reading them back.
    var createdCredits: [Int64: CreditRow] = [:]
    /// Whether the write deleted a song or a credit, or restored one (a correction, a re-linking):
    /// every song's artists are then decided again (``ArtistIndex/rebuild()``).
    var songsOrCreditsRemoved = false
    /// What the write changed of the charts' artist totals (``ArtistTotals``).
    var totals = ArtistTotals.Changes()

    /// ``addedCredits`` by song, then title and artist key. A set's order changes from one
    /// process to the next (Swift seeds its hashing per process), and the full-text index numbers
    /// its rows in the order they come: taken in this order, one import of the same files makes
    /// the same archive.
    var addedCreditsInOrder: [CreditKey] {
      addedCredits.sorted {
        ($0.song, $0.titleKey, $0.artistKey) < ($1.song, $1.titleKey, $1.artistKey)
      }
    }
  }

  /// A credit's row in `song_credits`: its song and folded title and artist.
  struct CreditKey: Hashable {
    var song: Int64
    var titleKey: String
    var artistKey: String
  }

  init(database: Database, path: String) {
    self.database = database
    self.path = path
    inserter = EntryInserter(database: database)
    changesBefore = database.totalChanges
  }

  /// Queries that see what this write stored so far.
  public var reader: ArchiveReader { ArchiveReader(database: database, path: path) }

  /// Runs SQLite calls, turning their errors into ``ArchiveError/database(path:_:)``.
  @inline(__always)
  func writing<Result>(_ body: () throws(DatabaseError) -> Result) throws(ArchiveError) -> Result {
    do {
      return try body()
    } catch {
      throw .database(path: path, error)
    }
  }

  /// Runs `body` in a savepoint of the write's transaction: what it stores is kept when it
  /// returns and undone when it throws, while the rest of the write goes on
  /// (<https://www.sqlite.org/lang_savepoint.html>). An import that skips invalid files stores
  /// each file in one.
  ///
  /// - Throws: what `body` throws (after undoing its writes), or ``ArchiveError/database(path:_:)``.
  @discardableResult
  public func inSavepoint<Result>(_ body: () throws -> Result) throws -> Result {
    try writing { () throws(DatabaseError) in try database.execute("SAVEPOINT file") }
    // A song the undone rows created may have taken the ID of one they deleted, which the
    // rollback brings back with its row in the full-text index.
    let saved = written
    do {
      let result = try body()
      try writing { () throws(DatabaseError) in try database.execute("RELEASE file") }
      return result
    } catch {
      try? database.execute("ROLLBACK TO file")
      try? database.execute("RELEASE file")
      written = saved
      // Rows the logs hold are undone: the charts' totals are added up from their rows.
      entryLogs = [:]
      loggedSnapshots = [:]
      throw error
    }
  }

  /// What the write does after its body, before it commits: what its rows refer to checked, and
  /// the artists of its new songs and credits decided (``ArtistIndex``), and its new songs and
  /// credits added to the full-text index.
  ///
  /// - Throws: ``DatabaseError``.
  func finish() throws(DatabaseError) {
    try checkReferences()
    // The credits of a first import are split on another thread while the full-text index fills.
    let credits = written.addedCreditsInOrder
    let artists = try decideArtists(addedCredits: credits)
    try addToSearchIndex(addedCredits: credits)
    if let changed = try artists?.endUpdate() {
      written.totals.songsCreditedOtherwise.formUnion(changed)
    }
    // The version first: a trigger of the user's on it (an "after each write" hook) may change
    // rows, which the totals then count.
    try advanceVersion()
    try keepArtistTotals()
  }

  /// Keeps the charts' artist totals (``ArtistTotals``) through what the write changed, when it
  /// changed a row, once the version moved on: those it did not change move on with it.
  private func keepArtistTotals() throws(DatabaseError) {
    defer {
      written.totals = ArtistTotals.Changes()
      entryLogs = [:]
      loggedSnapshots = [:]
    }
    guard database.totalChanges != changesBefore else { return }
    // A trigger may have changed any chart's rows: none of them can be carried on by the append.
    if try hasUserTriggers() { written.totals.everyChart = true }
    let version =
      try database.row("SELECT version FROM archive_version", []) { $0.int64(at: 0) } ?? 1
    chartsAddedUpFromTheirLogs = try ArtistTotals(database: database, path: path).keep(
      written.totals, from: version - 1, logs: entryLogs)
  }

  /// Whether a trigger of the user's is on the archive's tables: it may change rows the writer
  /// does not see. Asked once a write.
  ///
  /// - Throws: ``DatabaseError``.
  func hasUserTriggers() throws(DatabaseError) -> Bool {
    if let userTriggers { return userTriggers }
    let found: Bool
    do {
      found = try reader.userObjectsOnArchiveTables().contains { $0.type == "trigger" }
    } catch {
      if case .database(_, let failure) = error { throw failure }
      throw .other("\(error)")
    }
    userTriggers = found
    return found
  }

  /// Ends the chart's entry log (``ChartEntryLog``): the write did more to the chart than the log
  /// follows.
  func endLog(ofChart chart: Int64) {
    entryLogs[chart] = nil
  }

  /// Notes that rows of a snapshot changed otherwise than by an append, so that its chart's
  /// artist totals are added up again (``ArtistTotals``).
  func noteRewritten(_ snapshot: SnapshotID) throws(ArchiveError) {
    guard written.totals.rewrittenSnapshots.insert(snapshot.rawValue).inserted else { return }
    let chart = try writing { () throws(DatabaseError) in
      try database.row("SELECT chart_id FROM snapshots WHERE id = ?", [snapshot.rawValue]) {
        $0.int64(at: 0)
      }
    }
    if let chart { written.totals.rewrittenCharts.insert(chart) }
  }

  /// Moves the archive's version on when the write changed a row (table `archive_version`,
  /// migration 15): one more, and a time in seconds past the version before's even when the
  /// change comes within the same second, so that two states never share a time.
  private func advanceVersion() throws(DatabaseError) {
    guard database.totalChanges != changesBefore else { return }
    try database.run(
      "UPDATE archive_version SET version = version + 1, updated = max(updated + 1, ?)",
      Int(Date.now.timeIntervalSince1970))
  }

  // MARK: - Artists

  /// Decides the artists of the songs and credits this write added, and of the songs the archive
  /// rule decides otherwise now (``ArtistIndex/update(created:credited:)``); every song's again
  /// when the write removed a song or a credit. Begun before the new songs are in the full-text
  /// index, which finds the songs charted before. `addedCredits` are the write's, in
  /// ``Written/addedCreditsInOrder``'s order.
  ///
  /// - Returns: the index whose ``ArtistIndex/endUpdate()`` stores the artists, after the
  ///   full-text index is filled; `nil` when every song's artists were decided again.
  /// - Throws: ``DatabaseError``.
  private func decideArtists(addedCredits: [CreditKey]) throws(DatabaseError) -> ArtistIndex? {
    // The new songs' credits are read into the index's rows (or the archive's, in a rebuild): let
    // go before the full-text index fills, when a first import's memory peaks (the rows, their
    // split on another thread, SQLite's cache).
    defer { written.createdCredits = [:] }
    let index = ArtistIndex(database: database)
    if written.songsOrCreditsRemoved {
      try index.rebuild()
      written.totals.everyChart = true
      written.songsOrCreditsRemoved = false
      return nil
    }
    var credited: [(song: Int64, artist: String)] = []
    for credit in addedCredits {
      guard
        let artist = try database.row(
          "SELECT artist FROM song_credits WHERE song_id = ? AND title_key = ? AND artist_key = ?",
          [credit.song, credit.titleKey, credit.artistKey], { $0.string(at: 0) })
      else { continue }
      credited.append((credit.song, artist))
    }
    try index.beginUpdate(
      created: written.createdSongs, credited: credited, known: written.createdCredits)
    return index
  }

  // MARK: - The full-text index

  /// Adds the songs and credits this write added that are still there to the full-text index
  /// `song_search` (migration 0005: no trigger does it), once each; `addedCredits` in
  /// ``Written/addedCreditsInOrder``'s order, which numbers the index's rows alike in every run.
  ///
  /// - Throws: ``DatabaseError``.
  private func addToSearchIndex(addedCredits: [CreditKey]) throws(DatabaseError) {
    // New songs take the row IDs after the largest one (https://www.sqlite.org/autoinc.html), so
    // the IDs a write creates follow one another: a statement per run of them, which reads the
    // songs by row ID (a first import has one run).
    for run in References.runs(of: written.createdSongs) {
      try database.run(
        "INSERT INTO song_search (title, artist, song_id) SELECT title, artist, id FROM songs"
          + " WHERE id BETWEEN ? AND ?", run.lowerBound, run.upperBound)
    }
    for credit in addedCredits {
      try database.run(
        "INSERT INTO song_search (title, artist, song_id) SELECT title, artist, song_id"
          + " FROM song_credits WHERE song_id = ? AND title_key = ? AND artist_key = ?",
        credit.song, credit.titleKey, credit.artistKey)
    }
    written.createdSongs = []
    written.addedCredits = []
  }

  // MARK: - References

  /// Checks that every song, snapshot and chart that this write's rows refer to is in the
  /// archive, as foreign-key enforcement would have at each row (see ``References``). An ID that
  /// is gone (a song deleted when its last entry moved to another) is a failure only when a row
  /// still refers to it.
  ///
  /// - Throws: ``DatabaseError`` with `SQLITE_CONSTRAINT_FOREIGNKEY`, naming the missing row.
  func checkReferences() throws(DatabaseError) {
    let checks = [
      (written.referencedSongs, "songs", "entries", "song_id", "an entry", "song"),
      (written.referencedSnapshots, "snapshots", "entries", "snapshot_id", "an entry", "snapshot"),
      (written.referencedCharts, "charts", "snapshots", "chart_id", "a snapshot", "chart"),
    ]
    for (references, table, referrer, column, row, noun) in checks {
      // By runs of consecutive IDs (the songs a write creates are one run): a run whose rows are
      // all there is counted along the table's row IDs, not looked up ID by ID.
      let count = try database.statement("SELECT count(*) FROM \(table) WHERE id BETWEEN ? AND ?")
      let exists = try database.statement("SELECT 1 FROM \(table) WHERE id = ?")
      for run in References.runs(of: references.members) {
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
}
