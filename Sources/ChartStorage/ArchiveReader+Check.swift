import ChartRanking

extension Archive {
  /// Opens the archive at `path` for reading and checks it (see ``ArchiveReader/check()``). A
  /// file so damaged that its schema cannot be read (`SQLITE_CORRUPT`, `SQLITE_NOTADB` once it
  /// is known to be a database) fails the first check, with SQLite's words, and no other runs.
  ///
  /// - Parameter upgrade: what bringing an archive of an older schema up to date needs (see
  ///   ``Archive/init(path:access:maximumReaders:upgrade:)``).
  /// - Returns: one result per check, in ``ArchiveReader/check()``'s order.
  /// - Throws: what ``Archive/init(path:access:maximumReaders:)`` throws for a file that is no
  ///   archive, or not there; ``ArchiveError/database(path:_:)`` when a check cannot run for
  ///   another reason.
  public static func check(path: String, upgrade: ArchiveUpgrade?) throws(ArchiveError)
    -> [ArchiveCheck]
  {
    do {
      let archive = try Archive(path: path, access: .read, upgrade: upgrade)
      return try ArchiveError.mapping(path: path) { try archive.read { try $0.check() } }
    } catch .database(_, let failure) where failure.isDamage {
      return [
        ArchiveCheck(kind: .integrity, findings: [.schemaUnreadable(message: failure.message)])
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
  /// - each snapshot has the entries its import stored (a snapshot with none is damage when its
  ///   `entry_count` says it had some; one stored with none, a chart of no entries its source
  ///   published, is not: docs/formats.md, "A chart of no entries"), and its chart date is valid
  ///   ISO 8601 and agrees with the instant that orders it;
  /// - every entry's song exists;
  /// - every row keeps the schema's CHECK constraints (Migrations/): `PRAGMA integrity_check`
  ///   tests them only on a connection that can write, and this one reads, while an import writes
  ///   with SQLite's own tests of them off and tests them itself (see
  ///   ``Archive/write(beforeCommit:_:)``);
  /// - the artist totals kept for the leaderboards (`artist_totals`) of each chart whose totals
  ///   hold for the archive as it is are those one scan of the chart's entries counts, as a
  ///   leaderboard over a span counts them (a write by another program that changed entries
  ///   without moving `archive_version` on leaves them wrong; docs/schema.md).
  ///
  /// A check that SQLite cannot finish because the file is damaged (`SQLITE_CORRUPT`,
  /// `SQLITE_NOTADB`) fails with SQLite's words, and the others still run.
  ///
  /// - Returns: one result per check, in that order; at most ``problemLimit`` problems each.
  /// - Throws: ``ArchiveError/database(path:_:)`` when a check cannot run for another reason (an
  ///   I/O error, the archive locked).
  public func check() throws(ArchiveError) -> [ArchiveCheck] {
    try reading {
      [
        try run(.integrity) { try integrity() },
        try run(.foreignKeys) { try missingReferences() },
        try run(.ranks) { try ranksOutOfOrder() },
        try run(.snapshots) { try snapshotsWithoutDates() },
        try run(.songs) { try missingSongs() },
        try run(.checkConstraints) { try brokenConstraints() },
        try run(.artistTotals) { try disagreeingArtistTotals() },
      ]
    }
  }

  /// One check: its findings, or SQLite's words when the file is too damaged to check.
  private func run(_ kind: ArchiveCheck.Kind, _ findings: () throws -> [ArchiveFinding]) throws
    -> ArchiveCheck
  {
    do {
      return ArchiveCheck(kind: kind, findings: try findings())
    } catch let error as DatabaseError where error.isDamage {
      return ArchiveCheck(kind: kind, findings: [.notChecked(message: error.message)])
    }
  }

  /// SQLite's integrity check: the damage SQLite lists before it meets a page it cannot go on
  /// from, then its words.
  private func integrity() throws -> [ArchiveFinding] {
    let statement = try database.statement("PRAGMA integrity_check(\(Self.problemLimit))")
    defer { statement.reset() }
    var lines: [String] = []
    var findings: [ArchiveFinding] = []
    do {
      // A row may hold several lines, after SQLite's heading of the database they are in.
      while try statement.step() {
        lines += statement.string(at: 0).split(separator: "\n").map(String.init).filter {
          !$0.hasPrefix("*** in database ")
        }
      }
    } catch {
      guard error.isDamage else { throw error }
      findings.append(.notCheckedFurther(message: error.message))
    }
    if lines == ["ok"], findings.isEmpty { return [] }
    return lines.map(ArchiveFinding.integrity) + findings
  }

  private func missingReferences() throws -> [ArchiveFinding] {
    try database.rows("PRAGMA foreign_key_check") {
      ArchiveFinding.missingReference(
        table: $0.string(at: 0), rowID: $0.int64(at: 1), parent: $0.string(at: 2))
    }.prefix(Self.problemLimit).map { $0 }
  }

  private func ranksOutOfOrder() throws -> [ArchiveFinding] {
    try database.rows(
      """
      SELECT c.name, s.chart_date, e.position, e.rank, p.rank FROM entries e
        JOIN entries p ON p.snapshot_id = e.snapshot_id AND p.position = e.position - 1
        JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
      WHERE e.rank < p.rank LIMIT ?
      """, [Self.problemLimit]
    ) {
      .rankOutOfOrder(
        chart: $0.string(at: 0), chartDate: $0.string(at: 1), position: $0.int(at: 2) + 1,
        rank: $0.int(at: 3), previousRank: $0.int(at: 4))
    }
      + (try database.rows(
        """
        SELECT c.name, s.chart_date, e.rank FROM entries e
          JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
        WHERE e.rank < 1 LIMIT ?
        """, [Self.problemLimit]
      ) { .rankBelowOne(chart: $0.string(at: 0), chartDate: $0.string(at: 1), rank: $0.int(at: 2)) })
  }

  private func snapshotsWithoutDates() throws -> [ArchiveFinding] {
    var findings: [ArchiveFinding] = []
    let snapshots = try database.rows(
      """
      SELECT c.name, s.chart_date, s.chart_time,
        (SELECT count(*) FROM entries WHERE snapshot_id = s.id), s.entry_count
      FROM snapshots s JOIN charts c ON c.id = s.chart_id ORDER BY c.name, s.chart_time
      """
    ) { ($0.string(at: 0), $0.string(at: 1), $0.int64(at: 2), $0.int(at: 3), $0.int(at: 4)) }
    for (chart, text, time, count, stored) in snapshots where findings.count < Self.problemLimit {
      // A snapshot stored with no entries is a chart of none, as its source published it.
      if count == 0, stored > 0 { findings.append(.emptySnapshot(chart: chart, chartDate: text)) }
      guard let date = try? ChartDate(iso8601: text) else {
        findings.append(.invalidChartDate(chart: chart, text: text))
        continue
      }
      if date.secondsSince1970 != time || date.iso8601 != text {
        findings.append(
          .instantDisagrees(
            chart: chart, chartDate: text, stored: time, dated: date.secondsSince1970))
      }
    }
    return findings
  }

  private func missingSongs() throws -> [ArchiveFinding] {
    try database.rows(
      """
      SELECT s.chart_date, e.rank, e.song_id FROM entries e
        JOIN snapshots s ON s.id = e.snapshot_id
      WHERE NOT EXISTS (SELECT 1 FROM songs WHERE id = e.song_id) LIMIT ?
      """, [Self.problemLimit]
    ) { .missingSong(chartDate: $0.string(at: 0), rank: $0.int(at: 1), song: $0.int64(at: 2)) }
  }

  /// The kept artist totals that differ from one scan of their chart's entries: for each chart
  /// whose totals hold for the archive as it is, each figure's whole leaderboard as readers get
  /// it from the totals (``keptArtistRows(_:chartID:limit:)``) against the same leaderboard added
  /// up from the entries (``artistRows(_:chartID:from:to:limit:scores:)``); by chart, then artist
  /// and figure.
  private func disagreeingArtistTotals() throws -> [ArchiveFinding] {
    let charts = try database.rows("SELECT id, name FROM charts ORDER BY name") {
      ($0.int64(at: 0), $0.string(at: 1))
    }
    var findings: [ArchiveFinding] = []
    for (chart, name) in charts where findings.count < Self.problemLimit {
      var scores: ArtistScores?
      var wrong: [(artist: String, figure: Int, finding: ArchiveFinding)] = []
      for (index, figure) in ArtistLeaderboard.Figure.allCases.enumerated() {
        guard let keptRows = try keptArtistRows(figure, chartID: chart, limit: .max) else { break }
        // Read once for the five figures; a span of every instant is always added up.
        if scores == nil { scores = try artistScores(chart: chart, instants: (.min, .max)) }
        let kept = Self.totals(keptRows)
        let counted = Self.totals(
          try artistRows(figure, chartID: chart, from: nil, to: nil, limit: .max, scores: &scores))
        for artist in Set(kept.keys).union(counted.keys)
        where kept[artist]?.total != counted[artist]?.total {
          let artistName = (kept[artist] ?? counted[artist])!.name
          wrong.append(
            (
              artistName, index,
              .artistTotalDisagrees(
                chart: name, artist: artistName, figure: figure, kept: kept[artist]?.total,
                counted: counted[artist]?.total)
            ))
        }
      }
      wrong.sort { ($0.artist, $0.figure) < ($1.artist, $1.figure) }
      findings += wrong.prefix(Self.problemLimit - findings.count).map(\.finding)
    }
    return findings
  }

  /// A leaderboard's totals, by artist.
  private static func totals(_ rows: [ArtistLeaderboard.Row]) -> [ArtistID: (
    name: String, total: ArtistTotal
  )] {
    var totals: [ArtistID: (name: String, total: ArtistTotal)] = [:]
    for row in rows {
      totals[row.artist.id] = (
        row.artist.name,
        ArtistTotal(
          total: row.figure, firstDate: row.firstDate.iso8601, lastDate: row.lastDate.iso8601)
      )
    }
    return totals
  }

  private func brokenConstraints() throws -> [ArchiveFinding] {
    try database.rows(Self.brokenChecks, [Self.problemLimit]) { row in
      let place: ArchiveRow =
        switch row.string(at: 0) {
        case "entry":
          .entry(chart: row.string(at: 1), chartDate: row.string(at: 2), position: row.int(at: 4))
        case "snapshot": .snapshot(row.int64(at: 3))
        case "song": .song(row.int64(at: 3))
        case "chart": .chart(row.int64(at: 3))
        case "decision": .decision(row.int64(at: 3))
        default: .verdict(snapshot: row.int64(at: 3), position: row.int(at: 4))
        }
      return .brokenConstraint(row: place, constraint: row.string(at: 5))
    }
  }
}

extension ArchiveReader {
  /// The rows that break a CHECK constraint of the schema, each with the first constraint it
  /// breaks in SQLite's words (`rank >= 1`), at most `?1` of them; rows whose numbers are
  /// within them all are left out (a NULL constraint).
  static let brokenChecks = """
    SELECT kind, chart, chart_date, id, position, broken FROM (
      SELECT 'entry' AS kind, c.name AS chart, s.chart_date, e.snapshot_id AS id,
        e.position + 1 AS position,
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
          WHEN NOT (\(FigureFlags.checkConstraint(of: "e")))
            THEN '\(FigureFlags.checkConstraint)'
          WHEN e.published_run < 1 THEN 'published_run >= 1'
          WHEN NOT instr(e.published_trend, ': ') > 1 THEN 'instr(published_trend, '': '') > 1'
          WHEN NOT e.isrc GLOB '[A-Z][A-Z][A-Z0-9][A-Z0-9][A-Z0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'
            THEN 'isrc GLOB ''[A-Z][A-Z][A-Z0-9][A-Z0-9][A-Z0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'''
        END AS broken
      FROM entries e JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
      UNION ALL
      SELECT 'snapshot', NULL, NULL, id, NULL, CASE
          WHEN publishes_previous_rank NOT IN (0, 1) THEN 'publishes_previous_rank IN (0, 1)'
          WHEN entry_count < 0 THEN 'entry_count >= 0'
          WHEN follows_missing_snapshot NOT IN (0, 1) THEN 'follows_missing_snapshot IN (0, 1)'
        END
      FROM snapshots
      UNION ALL
      SELECT 'song', NULL, NULL, id, NULL, CASE WHEN recording < 1 THEN 'recording >= 1' END
      FROM songs
      UNION ALL
      SELECT 'song', NULL, NULL, song_id, NULL, CASE WHEN role NOT IN (0, 1) THEN 'role IN (0, 1)' END
      FROM song_artists
      UNION ALL
      SELECT 'chart', NULL, NULL, id, NULL, CASE
          WHEN length(name) <= 0 THEN 'length(name) > 0'
          WHEN frequency NOT IN ('hourly', 'daily', 'weekly', 'monthly', 'yearly', 'all-time')
            THEN 'frequency IN (''hourly'', ''daily'', ''weekly'', ''monthly'', ''yearly'', ''all-time'')'
        END
      FROM charts
      UNION ALL
      SELECT 'verdict', NULL, NULL, snapshot_id, position + 1, CASE
          WHEN figure NOT IN (0, 1, 2, 3, 4) THEN 'figure IN (0, 1, 2, 3, 4)'
          WHEN cause NOT BETWEEN 0 AND 6 THEN 'cause BETWEEN 0 AND 6'
        END
      FROM verdicts
      UNION ALL
      SELECT 'decision', NULL, NULL, number, NULL, CASE
          WHEN kind NOT IN ('merge', 'split', 'rename', 'delete')
            THEN 'kind IN (''merge'', ''split'', ''rename'', ''delete'')'
        END
      FROM decisions
      UNION ALL
      SELECT 'decision', NULL, NULL, decision, NULL, CASE WHEN song < 0 THEN 'song >= 0' END
      FROM decision_entries
      UNION ALL
      SELECT 'decision', NULL, NULL, decision, NULL, CASE
          WHEN kind NOT BETWEEN 0 AND 3 THEN 'kind BETWEEN 0 AND 3'
        END
      FROM decision_undo
    ) WHERE broken IS NOT NULL LIMIT ?1
    """
}
