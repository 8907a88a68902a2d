import ChartRanking

/// The result of one check of an archive.
public struct ArchiveCheck: Hashable, Sendable {
  /// What was checked, as a short phrase.
  public var name: String
  /// What is wrong, one line per problem; empty when the check passed.
  public var problems: [String]

  /// Whether the check passed.
  public var passed: Bool { problems.isEmpty }
}

extension Archive {
  /// Opens the archive at `path` for reading and checks it (see ``ArchiveReader/check()``). A
  /// file so damaged that its schema cannot be read (`SQLITE_CORRUPT`, `SQLITE_NOTADB` once it
  /// is known to be a database) fails the first check, with SQLite's words, and no other runs.
  ///
  /// - Returns: one result per check, in ``ArchiveReader/check()``'s order.
  /// - Throws: what ``Archive/init(path:access:maximumReaders:)`` throws for a file that is no
  ///   archive, or not there; ``ArchiveError/database(path:_:)`` when a check cannot run for
  ///   another reason.
  public static func check(path: String) throws(ArchiveError) -> [ArchiveCheck] {
    do {
      let archive = try Archive(path: path, access: .read)
      return try ArchiveError.mapping(path: path) { try archive.read { try $0.check() } }
    } catch .database(_, let failure) where failure.isDamage {
      return [
        ArchiveCheck(
          name: "SQLite integrity", problems: ["the schema cannot be read: \(failure.message)"])
      ]
    }
  }
}

extension ArchiveReader {
  /// The most problems one check lists.
  static let problemLimit = 20

  /// Checks the archive: SQLite's integrity and foreign-key checks, then the archive's own
  /// invariants.
  ///
  /// - `PRAGMA integrity_check` (<https://www.sqlite.org/pragma.html#pragma_integrity_check>);
  /// - `PRAGMA foreign_key_check` (<https://www.sqlite.org/pragma.html#pragma_foreign_key_check>);
  /// - ranks are 1 or more and in order within each snapshot: an entry's rank is never below the
  ///   rank of the entry before it (a tie, two entries at one rank, is stored only where the source
  ///   marked it or the import allowed it, and its entries are next to each other);
  /// - each snapshot has entries, and its chart date is valid ISO 8601 and agrees with the
  ///   instant that orders it;
  /// - every entry's song exists;
  /// - every row keeps the schema's CHECK constraints (Migrations/): `PRAGMA integrity_check`
  ///   tests them only on a connection that can write, and this one reads, while an import writes
  ///   with SQLite's own tests of them off and tests them itself (see ``Archive/write(_:)``).
  ///
  /// A check that SQLite cannot finish because the file is damaged (`SQLITE_CORRUPT`,
  /// `SQLITE_NOTADB`) fails with SQLite's words, and the others still run.
  ///
  /// - Returns: one result per check, in that order; at most ``problemLimit`` problems each.
  /// - Throws: ``ArchiveError/database(path:_:)`` when a check cannot run for another reason (an
  ///   I/O error, the archive locked).
  public func check() throws(ArchiveError) -> [ArchiveCheck] {
    let limit = Self.problemLimit
    return try reading {
      var checks: [ArchiveCheck] = []
      /// Appends the check `name` whose problems `problems` finds.
      func check(_ name: String, _ problems: () throws -> [String]) throws {
        do {
          checks.append(ArchiveCheck(name: name, problems: try problems()))
        } catch let error as DatabaseError where error.isDamage {
          checks.append(
            ArchiveCheck(name: name, problems: ["could not be checked: \(error.message)"]))
        }
      }
      try check("SQLite integrity") {
        // The damage SQLite lists before it meets a page it cannot go on from, then its words.
        let statement = try database.statement("PRAGMA integrity_check(\(limit))")
        defer { statement.reset() }
        var integrity: [String] = []
        do {
          // A row may hold several lines, after SQLite's heading of the database they are in.
          while try statement.step() {
            integrity += statement.string(at: 0).split(separator: "\n").map(String.init).filter {
              !$0.hasPrefix("*** in database ")
            }
          }
        } catch let error as DatabaseError where error.isDamage {
          integrity.append("could not be checked further: \(error.message)")
        }
        return integrity == ["ok"] ? [] : integrity
      }
      try check("foreign keys") {
        try database.rows("PRAGMA foreign_key_check") {
          "\($0.string(at: 0)) row \($0.int64(at: 1)) refers to a missing \($0.string(at: 2)) row"
        }.prefix(limit).map { $0 }
      }
      try check("ranks positive and in order per snapshot") {
        try database.rows(
          """
          SELECT c.name, s.chart_date, e.position, e.rank, p.rank FROM entries e
            JOIN entries p ON p.snapshot_id = e.snapshot_id AND p.position = e.position - 1
            JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
          WHERE e.rank < p.rank LIMIT ?
          """, [limit]
        ) {
          "\($0.string(at: 0)) \($0.string(at: 1)): entry \($0.int(at: 2) + 1) has rank"
            + " \($0.int(at: 3)), below the rank \($0.int(at: 4)) of the entry before it"
        }
          + (try database.rows(
            """
            SELECT c.name, s.chart_date, e.rank FROM entries e
              JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
            WHERE e.rank < 1 LIMIT ?
            """, [limit]
          ) { "\($0.string(at: 0)) \($0.string(at: 1)): rank \($0.int(at: 2)) is below 1" })
      }
      try check("snapshots dated, ordered and not empty") {
        var dates: [String] = []
        let snapshots = try database.rows(
          """
          SELECT c.name, s.chart_date, s.chart_time,
            (SELECT count(*) FROM entries WHERE snapshot_id = s.id)
          FROM snapshots s JOIN charts c ON c.id = s.chart_id ORDER BY c.name, s.chart_time
          """
        ) { ($0.string(at: 0), $0.string(at: 1), $0.int64(at: 2), $0.int(at: 3)) }
        for (chart, text, time, count) in snapshots where dates.count < limit {
          if count == 0 { dates.append("\(chart) \(text): no entries") }
          guard let date = try? ChartDate(iso8601: text) else {
            dates.append("\(chart) '\(text)': not an ISO 8601 chart date")
            continue
          }
          if date.secondsSince1970 != time || date.iso8601 != text {
            dates.append(
              "\(chart) \(text): stored as the instant \(time), which is \(date.secondsSince1970)")
          }
        }
        return dates
      }
      try check("every entry's song present") {
        try database.rows(
          """
          SELECT s.chart_date, e.rank, e.song_id FROM entries e
            JOIN snapshots s ON s.id = e.snapshot_id
          WHERE NOT EXISTS (SELECT 1 FROM songs WHERE id = e.song_id) LIMIT ?
          """, [limit]
        ) { "\($0.string(at: 0)) rank \($0.int(at: 1)): song \($0.int64(at: 2)) is missing" }
      }
      try check("numbers within CHECK constraints") {
        try database.rows(Self.brokenChecks, [limit]) {
          "\($0.string(at: 0)): \($0.string(at: 1))"
        }
      }
      return checks
    }
  }
}

extension ArchiveReader {
  /// The rows that break a CHECK constraint of the schema, each with the first constraint it
  /// breaks in SQLite's words (`rank >= 1`), at most `?1` of them; rows whose numbers are
  /// within them all are left out (a NULL constraint).
  static let brokenChecks = """
    SELECT place, broken FROM (
      SELECT c.name || ' ' || s.chart_date || ' entry ' || (e.position + 1) AS place,
        CASE
          WHEN e.position < 0 THEN 'position >= 0'
          WHEN e.rank < 1 THEN 'rank >= 1'
          WHEN e.published_previous_rank < 1 THEN 'published_previous_rank >= 1'
          WHEN e.published_peak_position < 1 THEN 'published_peak_position >= 1'
          WHEN e.published_weeks_on_chart < 1 THEN 'published_weeks_on_chart >= 1'
          WHEN e.streams < 0 THEN 'streams >= 0'
          WHEN e.previous_rank < 1 THEN 'previous_rank >= 1'
          WHEN e.peak_position < 1 THEN 'peak_position >= 1'
          WHEN e.weeks_on_chart < 1 THEN 'weeks_on_chart >= 1'
          WHEN e.run < 1 THEN 'run >= 1'
          WHEN NOT (e.figure_flags BETWEEN 0 AND 15 AND e.figure_flags & 3 != 3)
            THEN 'figure_flags BETWEEN 0 AND 15 AND figure_flags & 3 != 3'
          WHEN e.published_run < 1 THEN 'published_run >= 1'
        END AS broken
      FROM entries e JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
      UNION ALL
      SELECT 'snapshot ' || id, CASE
          WHEN publishes_previous_rank NOT IN (0, 1) THEN 'publishes_previous_rank IN (0, 1)'
          WHEN entry_count < 0 THEN 'entry_count >= 0'
          WHEN follows_missing_snapshot NOT IN (0, 1) THEN 'follows_missing_snapshot IN (0, 1)'
        END
      FROM snapshots
      UNION ALL
      SELECT 'song ' || id, CASE WHEN recording < 1 THEN 'recording >= 1' END FROM songs
      UNION ALL
      SELECT 'chart ' || id, CASE
          WHEN length(name) <= 0 THEN 'length(name) > 0'
          WHEN frequency NOT IN ('hourly', 'daily', 'weekly', 'monthly', 'all-time')
            THEN 'frequency IN (''hourly'', ''daily'', ''weekly'', ''monthly'', ''all-time'')'
        END
      FROM charts
      UNION ALL
      SELECT 'verdict of snapshot ' || snapshot_id || ' entry ' || (position + 1), CASE
          WHEN figure NOT IN (0, 1, 2, 3) THEN 'figure IN (0, 1, 2, 3)'
          WHEN cause NOT BETWEEN 0 AND 5 THEN 'cause BETWEEN 0 AND 5'
        END
      FROM verdicts
    ) WHERE broken IS NOT NULL LIMIT ?1
    """
}

/// A table index or trigger that is not ChartArchive's, on one of ChartArchive's tables: a user's
/// own, or one that an SQL tool added. ChartArchive tolerates them, but one may change what its
/// writes do (a trigger that fails, a unique index).
public struct UserSchemaObject: Hashable, Sendable {
  /// `index` or `trigger`.
  public var type: String
  /// Its name.
  public var name: String
  /// The ChartArchive table it is on.
  public var table: String

  /// An object of the given type and name, on a table.
  public init(type: String, name: String, table: String) {
    self.type = type
    self.name = name
    self.table = table
  }
}

extension ArchiveReader {
  /// The indexes and triggers on ChartArchive's tables that its migrations did not make (see
  /// ``UserSchemaObject``), by table and name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func userObjectsOnArchiveTables() throws(ArchiveError) -> [UserSchemaObject] {
    let own: Set<String>
    do { own = try Migrations.ownObjectNames() } catch {
      throw .database(path: path, error as? DatabaseError ?? .other("\(error)"))
    }
    return try reading {
      try database.rows(
        "SELECT type, name, tbl_name FROM sqlite_schema WHERE type IN ('index', 'trigger')"
          + " AND sql IS NOT NULL ORDER BY tbl_name, name"
      ) {
        UserSchemaObject(type: $0.string(at: 0), name: $0.string(at: 1), table: $0.string(at: 2))
      }
    }.filter { !own.contains($0.name) && own.contains($0.table) }
  }
}
