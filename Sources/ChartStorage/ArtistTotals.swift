import ChartRanking

/// Each chart's artist leaderboards over its whole history, kept in `artist_totals` (migration
/// 17) as the archive changes: what `records` and the records API read for a chart without a span,
/// instead of every entry of the chart (``ArchiveReader/artistScores(chart:instants:)``).
///
/// A write keeps them before it commits (``ArchiveWriter/finish()``), chart by chart:
/// - a chart the write only appended snapshots to, after its latest, has those snapshots added to
///   its totals (``addAppended(chart:after:version:)``): the new snapshot of a one-week import;
/// - a chart whose rows changed otherwise (a snapshot stored before others or replaced, entries
///   linked to other songs or their figures decided again, a snapshot deleted), every chart when
///   songs' artists changed (a correction by hand, a name that charts whole for the first time)
///   or when a user's trigger is on the archive's tables (it may change any chart's rows), and a
///   chart without totals for the archive's version, are added up again from all their entries
///   (``addUp(chart:version:)``), by the same scan a reader makes for a span;
/// - any other chart's totals hold still, and move on to the new version.
///
/// `artist_totals_kept` says for which version of the archive (`archive_version`) a chart's
/// totals hold: a reader uses them only then, so an archive changed by other means falls back to
/// the scan.
struct ArtistTotals {
  let database: Database
  let path: String

  /// What a write changed, as the totals need to know it.
  struct Changes {
    /// The earliest chart time (seconds since 1970) of the snapshots inserted, by chart ID.
    var insertedSince: [Int64: Int64] = [:]
    /// The snapshots whose rows changed otherwise (replaced or deleted, an entry's song or
    /// figures), and their charts.
    var rewrittenSnapshots: Set<Int64> = []
    var rewrittenCharts: Set<Int64> = []
    /// The songs that charted before the write and are credited to other artists now.
    var songsCreditedOtherwise: Set<Int64> = []
    /// Whether every song's artists were decided again (a rebuild).
    var everyChart = false
  }

  /// The code of a figure in `artist_totals.figure`.
  static func code(_ figure: ArtistLeaderboard.Figure) -> Int {
    switch figure {
    case .numberOnes: 0
    case .topTens: 1
    case .entries: 2
    case .weeksAtNumberOne: 3
    case .entriesAtOnce: 4
    }
  }

  /// Keeps every chart's totals through a write that changed the archive from `version` to
  /// `version + 1`.
  ///
  /// - Parameter logs: the entries of the charts the write created (``ChartEntryLog``), by chart
  ///   ID: such a chart is added up from its log.
  /// - Returns: how many charts were added up from their logs.
  /// - Throws: ``DatabaseError``.
  @discardableResult
  func keep(_ changes: Changes, from version: Int64, logs: [Int64: ChartEntryLog] = [:])
    throws(DatabaseError) -> Int
  {
    var fromLogs = 0
    let kept = Dictionary(
      try database.rows("SELECT chart_id, version, through_time FROM artist_totals_kept") {
        ($0.int64(at: 0), (version: $0.int64(at: 1), through: $0.optionalInt64(at: 2)))
      }, uniquingKeysWith: { first, _ in first })
    var again = changes.rewrittenCharts
    for song in changes.songsCreditedOtherwise {
      again.formUnion(
        try database.rows(
          // The song's entries first (CROSS JOIN keeps the order), not every snapshot.
          "SELECT DISTINCT s.chart_id FROM entries e CROSS JOIN snapshots s"
            + " ON s.id = e.snapshot_id WHERE e.song_id = ?", [song]
        ) { $0.int64(at: 0) })
    }
    let charts = try database.rows("SELECT id FROM charts ORDER BY id") { $0.int64(at: 0) }
    for chart in charts {
      let state = kept[chart].flatMap { $0.version == version ? $0 : nil }
      var addsUp = changes.everyChart || again.contains(chart)
      if !addsUp, let since = changes.insertedSince[chart] {
        if let state, since > state.through ?? Int64.min {
          try addAppended(chart: chart, after: state.through, version: version)
        } else {
          addsUp = true
        }
      }
      if addsUp {
        try addUp(chart: chart, version: version, log: logs[chart])
        if logs[chart] != nil { fromLogs += 1 }
      }
      // Any other chart's totals hold still, or, out of date already, are left to the readers'
      // scan until the chart changes.
    }
    try database.run(
      "UPDATE artist_totals_kept SET version = ?1 + 1 WHERE version = ?1", version)
    return fromLogs
  }

  /// Adds up a chart's totals again from all its entries, as of `version`: those of its `log`
  /// when it has one (every entry of the chart), else its rows.
  ///
  /// - Throws: ``DatabaseError``.
  func addUp(chart: Int64, version: Int64, log: ChartEntryLog? = nil) throws(DatabaseError) {
    let reader = ArchiveReader(database: database, path: path)
    let scores: ArchiveReader.ArtistScores
    if let log {
      scores = try reader.artistScores(of: log)
    } else {
      scores = try reader.artistScores(chart: chart, instants: (Int64.min, Int64.max))
    }
    try database.run("DELETE FROM artist_totals WHERE chart_id = ?", chart)
    var rows: [Row] = []
    for (figure, byArtist) in scores.scores {
      for (artist, score) in byArtist where score.figure > 0 {
        rows.append(
          Row(
            artist: artist, figure: Self.code(figure), total: score.figure,
            first: scores.snapshots[score.first], last: scores.snapshots[score.last]))
      }
    }
    try insert(rows, chart: chart)
    try markKept(chart: chart, version: version, through: scores.dates.last?.secondsSince1970)
  }

  /// One row of `artist_totals`.
  struct Row {
    var artist: Int64
    var figure: Int
    var total: Int
    var first: Int64
    var last: Int64
  }

  /// How many rows one statement inserts, but for the last few.
  private static let rowsPerInsert = 100

  /// Inserts or replaces a chart's rows, ``rowsPerInsert`` at a time, in the order of the table's
  /// primary key (artist, then figure): each row goes after the one before in the table's B-tree,
  /// where rows in the order of a dictionary land all over it, and one import of the same files
  /// writes them alike in every run.
  private func insert(_ rows: [Row], chart: Int64) throws(DatabaseError) {
    let rows = rows.sorted { ($0.artist, $0.figure) < ($1.artist, $1.figure) }
    var start = 0
    while start < rows.count {
      let count = rows.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
      let insert = try database.statement(
        "INSERT OR REPLACE INTO artist_totals (chart_id, artist_id, figure, total,"
          + " first_snapshot_id, last_snapshot_id) VALUES "
          + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", "))
      defer { insert.reset() }
      for (offset, row) in rows[start..<start + count].enumerated() {
        let base = Int32(offset * 6)
        insert.bind(chart, at: base + 1)
        insert.bind(row.artist, at: base + 2)
        insert.bind(row.figure, at: base + 3)
        insert.bind(row.total, at: base + 4)
        insert.bind(row.first, at: base + 5)
        insert.bind(row.last, at: base + 6)
      }
      try insert.run()
      start += count
    }
  }

  /// Records that a chart's totals hold for `version`, through the snapshot at `through`.
  private func markKept(chart: Int64, version: Int64, through: Int64?) throws(DatabaseError) {
    try database.run(
      "INSERT OR REPLACE INTO artist_totals_kept (chart_id, version, through_time)"
        + " VALUES (?, ?, ?)", chart, version, through)
  }

  /// Adds the snapshots of a chart after `through` (its totals' last, `nil` for none) to its
  /// totals, in chart order, as the scan would count them after those before: each song's entries
  /// on the chart up to `through` tell whether it was counted already (on the chart, in the top 10,
  /// at number 1, and its weeks at number 1 counted).
  ///
  /// - Throws: ``DatabaseError``.
  func addAppended(chart: Int64, after through: Int64?, version: Int64) throws(DatabaseError) {
    let snapshots = try database.rows(
      "SELECT id, chart_time FROM snapshots WHERE chart_id = ? AND chart_time > ?"
        + " ORDER BY chart_time", [chart, through ?? Int64.min]
    ) { (id: $0.int64(at: 0), time: $0.int64(at: 1)) }
    var entries: [[AppendedEntry]] = []
    for snapshot in snapshots {
      entries.append(
        try database.rows(
          "SELECT song_id, rank, weeks_on_chart FROM entries WHERE snapshot_id = ?", [snapshot.id]
        ) { AppendedEntry(song: $0.int64(at: 0), rank: $0.int(at: 1), weeks: $0.int64(at: 2)) })
    }
    var (counting, artistsOf) = try counted(
      songsOf: entries.joined(), chart: chart, through: through ?? Int64.min)
    let stored = try storedTotals(of: Set(artistsOf.values.joined()), chart: chart)
    counting.totals = stored
    for (snapshot, entries) in zip(snapshots, entries) {
      counting.count(entries, on: snapshot.id, artistsOf: artistsOf)
    }
    try write(counting.totals, over: stored, chart: chart)
    try markKept(chart: chart, version: version, through: snapshots.last?.time ?? through)
  }

  /// What the songs of appended entries did on the chart up to `through` (a chart time), as
  /// ``Counting`` needs it, and each song's artists (none for a song without artists).
  ///
  /// A song that never reaches the top 10 in the appended entries counts for no figure but
  /// entries, which asks only whether it charted before: it did when it is on the last snapshot
  /// counted (most are), else one row of it is read, not all.
  private func counted(
    songsOf entries: some Sequence<AppendedEntry>, chart: Int64, through: Int64
  ) throws(DatabaseError) -> (Counting, artistsOf: [Int64: [Int64]]) {
    var bestAppended: [Int64: Int] = [:]
    for entry in entries {
      bestAppended[entry.song] = min(bestAppended[entry.song] ?? entry.rank, entry.rank)
    }
    var counting = Counting()
    var artistsOf: [Int64: [Int64]] = [:]
    // The songs of the last snapshot counted charted before, without a search each: most of an
    // appended week's songs.
    let lastCounted = Set(
      try database.rows(
        "SELECT e.song_id FROM snapshots s CROSS JOIN entries e ON e.snapshot_id = s.id"
          + " WHERE s.chart_id = ?1 AND s.chart_time = ?2", [chart, through]
      ) { $0.int64(at: 0) })
    for (song, best) in bestAppended {
      let artists = try database.rows(
        "SELECT artist_id FROM song_artists WHERE song_id = ?", [song]
      ) { $0.int64(at: 0) }
      guard !artists.isEmpty else { continue }
      artistsOf[song] = artists
      if best > ArtistLeaderboard.Figure.lowestTopTenRank {
        if lastCounted.contains(song) {
          counting.bestRank[song] = Counting.outsideTopTen
        } else if try database.row(
          // The song's entries first (CROSS JOIN keeps the order), not every snapshot.
          "SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id"
            + " WHERE e.song_id = ?1 AND s.chart_id = ?2 AND s.chart_time <= ?3 LIMIT 1",
          [song, chart, through], { _ in true }) != nil
        {
          counting.bestRank[song] = Counting.outsideTopTen
        }
        continue
      }
      for (rank, weeks) in try database.rows(
        "SELECT e.rank, e.weeks_on_chart FROM entries e CROSS JOIN snapshots s"
          + " ON s.id = e.snapshot_id"
          + " WHERE e.song_id = ?1 AND s.chart_id = ?2 AND s.chart_time <= ?3",
        [song, chart, through], { ($0.int(at: 0), $0.int64(at: 1)) })
      {
        counting.bestRank[song] = min(counting.bestRank[song] ?? rank, rank)
        if rank == 1 { counting.weeksCounted.insert([song, weeks]) }
      }
    }
    return (counting, artistsOf)
  }

  /// The artists' stored totals on the chart, by figure code.
  private func storedTotals(of artists: Set<Int64>, chart: Int64) throws(DatabaseError)
    -> [Int64: [Total?]]
  {
    var stored: [Int64: [Total?]] = [:]
    for artist in artists {
      var slots = Counting.empty
      for row in try database.rows(
        "SELECT figure, total, first_snapshot_id, last_snapshot_id FROM artist_totals"
          + " WHERE chart_id = ? AND artist_id = ?", [chart, artist],
        {
          (
            figure: $0.int(at: 0),
            total: Total(total: $0.int(at: 1), first: $0.int64(at: 2), last: $0.int64(at: 3))
          )
        }) where slots.indices.contains(row.figure)
      {
        slots[row.figure] = row.total
      }
      stored[artist] = slots
    }
    return stored
  }

  /// Writes the totals that differ from those stored, in place: a row whose total holds (most
  /// do: an artist's last snapshot moved on) leaves the leaderboard index as it was.
  private func write(
    _ totals: [Int64: [Total?]], over stored: [Int64: [Total?]], chart: Int64
  ) throws(DatabaseError) {
    var added: [Row] = []
    for (artist, slots) in totals {
      for (figure, slot) in slots.enumerated() {
        guard let slot, slot.total > 0 else { continue }
        switch stored[artist]?[figure] {
        case slot: continue
        case let old? where old.total == slot.total && old.first == slot.first:
          try database.run(
            "UPDATE artist_totals SET last_snapshot_id = ?4"
              + " WHERE chart_id = ?1 AND artist_id = ?2 AND figure = ?3",
            chart, artist, figure, slot.last)
        case .some:
          try database.run(
            "UPDATE artist_totals SET total = ?4, first_snapshot_id = ?5, last_snapshot_id = ?6"
              + " WHERE chart_id = ?1 AND artist_id = ?2 AND figure = ?3",
            chart, artist, figure, slot.total, slot.first, slot.last)
        case nil:
          added.append(
            Row(
              artist: artist, figure: figure, total: slot.total, first: slot.first,
              last: slot.last))
        }
      }
    }
    try insert(added, chart: chart)
  }

  /// An entry of an appended snapshot, as the totals count it.
  struct AppendedEntry {
    var song: Int64
    var rank: Int
    var weeks: Int64
  }

  /// One artist's total of one figure: the total, and the first and last snapshot counted.
  struct Total: Equatable {
    var total: Int
    var first: Int64
    var last: Int64
  }

  /// The totals of the artists of appended snapshots, and what their songs did before, as the
  /// scan in chart order counts them (``ArchiveReader/artistScores(chart:instants:)``).
  struct Counting {
    /// Each song's best rank on the chart so far; none for a song not on it yet, and
    /// ``outsideTopTen`` for one that charted before and ranks outside the top 10 in all the
    /// snapshots counted, whose best rank no figure needs.
    var bestRank: [Int64: Int] = [:]
    /// The best rank of a song that charted before and is not counted in the top 10: below every
    /// rank.
    static let outsideTopTen = Int.max
    /// The weeks at number 1 counted so far: (song, weeks on chart).
    var weeksCounted: Set<[Int64]> = []
    /// Each artist's totals, by figure code; `nil` for none yet.
    var totals: [Int64: [Total?]] = [:]

    static let empty = [Total?](repeating: nil, count: 5)

    /// Counts a snapshot's entries.
    mutating func count(
      _ entries: [AppendedEntry], on snapshot: Int64, artistsOf: [Int64: [Int64]]
    ) {
      var atOnce: [Int64: Int] = [:]
      for entry in entries {
        guard let artists = artistsOf[entry.song] else { continue }
        let before = bestRank[entry.song]
        bestRank[entry.song] = min(before ?? entry.rank, entry.rank)
        for (figure, bound) in [
          (ArtistLeaderboard.Figure.entries, Int.max),
          (.topTens, ArtistLeaderboard.Figure.lowestTopTenRank), (.numberOnes, 1),
        ] where entry.rank <= bound {
          for artist in artists {
            see(artist, code(figure), on: snapshot, newSong: before.map { $0 > bound } ?? true)
          }
        }
        for artist in artists { atOnce[artist, default: 0] += 1 }
        guard entry.rank <= 1 else { continue }
        let isNewWeek = weeksCounted.insert([entry.song, entry.weeks]).inserted
        let weeks = code(.weeksAtNumberOne)
        for artist in artists {
          var slot =
            totals[artist, default: Self.empty][weeks]
            ?? Total(total: 0, first: snapshot, last: snapshot)
          if isNewWeek {
            if slot.total == 0 || slot.last != snapshot { slot.total += 1 }
            slot.last = snapshot
          }
          totals[artist, default: Self.empty][weeks] = slot
        }
      }
      let most = code(.entriesAtOnce)
      for (artist, count) in atOnce {
        let slot = totals[artist, default: Self.empty][most]
        if count > slot?.total ?? 0 {
          totals[artist, default: Self.empty][most] = Total(
            total: count, first: snapshot, last: snapshot)
        } else if count == slot?.total {
          totals[artist, default: Self.empty][most]?.last = snapshot
        }
      }
    }

    /// A song of the artist counts for a figure on a snapshot: one more song when it is new to
    /// the figure, and the artist's last snapshot of it.
    private mutating func see(_ artist: Int64, _ figure: Int, on snapshot: Int64, newSong: Bool) {
      var slot =
        totals[artist, default: Self.empty][figure]
        ?? Total(total: 0, first: snapshot, last: snapshot)
      if newSong { slot.total += 1 }
      slot.last = snapshot
      totals[artist, default: Self.empty][figure] = slot
    }

    private func code(_ figure: ArtistLeaderboard.Figure) -> Int { ArtistTotals.code(figure) }
  }
}
