public import ChartRanking

/// A chart as stored: its name, frequency and the span of its snapshots.
public struct ChartSummary: Hashable, Sendable {
  /// The chart's name.
  public var name: String
  /// How often it is published, when known.
  public var frequency: ChartFrequency?
  /// How many snapshots are stored.
  public var snapshotCount: Int
  /// The earliest chart date, `nil` when there is no snapshot.
  public var firstChartDate: ChartDate?
  /// The latest chart date, `nil` when there is no snapshot.
  public var lastChartDate: ChartDate?
}

/// A snapshot as stored, without its entries.
public struct SnapshotSummary: Hashable, Sendable {
  /// The archive's number for the snapshot.
  public var id: SnapshotID
  /// The chart's name.
  public var chart: String
  /// The chart date.
  public var chartDate: ChartDate
  /// How many entries it holds.
  public var entryCount: Int
  /// Whether its source publishes previous ranks.
  public var publishesPreviousRank: Bool
  /// The file it was imported from, as given, when known.
  public var source: String?
  /// How often the chart is published, when known.
  public var frequency: ChartFrequency?
}

/// A song as stored, for choosing among the matches of a search.
public struct SongSummary: Hashable, Sendable {
  /// The archive's number for the song.
  public var id: SongID
  /// The title as first imported.
  public var title: String
  /// The artist credit as first imported.
  public var artist: String
  /// The song's identity (see ``SongIdentity``) as first imported.
  public var identity: SongIdentity
  /// 1 for the first song with its identity, 2 for a second recording with the same title and
  /// artist, and so on.
  public var recording: Int
  /// The chart date of its first entry on any chart.
  public var firstChartDate: ChartDate
  /// Its best rank on any chart, 1-based.
  public var bestRank: Int
  /// How many entries it has on all charts.
  public var entryCount: Int
}

/// Which snapshot of a chart a query means.
public enum SnapshotDate: Hashable, Sendable {
  /// The snapshot of this chart date.
  case on(ChartDate)
  /// The chart's latest snapshot.
  case latest
  /// The snapshot before the chart's latest.
  case previous

  /// `latest` or `previous`, the words that stand for a date wherever one is asked for.
  public init?(keyword: String) {
    switch keyword {
    case "latest": self = .latest
    case "previous": self = .previous
    default: return nil
    }
  }
}

/// A snapshot as `show` presents it: the snapshot, the chart's snapshot before it and every
/// entry with its figures.
public struct ChartSnapshot: Sendable {
  /// The snapshot.
  public var summary: SnapshotSummary
  /// The chart's snapshot before it, `nil` for the chart's first.
  public var previous: SnapshotSummary?
  /// Its entries with their previous rank, movement, peak position and weeks on chart, in rank
  /// order.
  public var placements: [Placement]
}

/// One recording of a song, with its history on each chart it was on.
public struct SongRecording: Sendable {
  /// The song.
  public var song: SongSummary
  /// Its history per chart, by chart name.
  public var histories: [ChartHistory]
}

/// What a search for one song found.
public enum SongSearch: Sendable {
  /// One song, or the recordings of one title and artist (a reissue and a remake), which are
  /// shown together, oldest first.
  case found([SongSummary])
  /// Several songs match and none is the one meant: the matches, best first.
  case several([SongSummary])
  /// Nothing matches.
  case none
}

/// A song's history on one chart.
public struct ChartHistory: Sendable {
  /// The chart's name.
  public var chart: String
  /// How often the chart is published, when known (a daily chart counts days, not weeks).
  public var frequency: ChartFrequency?
  /// Every entry of the song on the chart with its figures.
  public var history: SongHistory
}

extension ArchiveReader {
  /// An entry's columns as published, from the table aliased `e`: read by ``readEntry(_:from:)``.
  static let entryColumns =
    "e.rank, e.title, e.artist, e.published_previous_rank, e.published_peak_position,"
    + " e.published_weeks_on_chart, e.image_url, e.song_url, e.streams, e.published_run"

  /// How many columns ``entryColumns`` has.
  static let entryColumnCount: Int32 = 10

  /// Reads an entry from ``entryColumns`` at column `offset`.
  static func readEntry(_ row: Statement, from offset: Int32) -> ChartEntry {
    ChartEntry(
      rank: row.int(at: offset), title: row.string(at: offset + 1),
      artist: row.string(at: offset + 2), publishedPreviousRank: row.optionalInt(at: offset + 3),
      publishedPeakPosition: row.optionalInt(at: offset + 4),
      publishedWeeksOnChart: row.optionalInt(at: offset + 5),
      imageURL: row.optionalString(at: offset + 6), songURL: row.optionalString(at: offset + 7),
      streams: row.optionalInt(at: offset + 8), publishedRun: row.optionalInt(at: offset + 9))
  }
}

/// A song's columns, from the table aliased `g`, read by `readSong`.
private let songColumns = """
  g.id, g.title, g.artist, g.identity, g.recording,
    (SELECT s.chart_date FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
      WHERE e.song_id = g.id ORDER BY s.chart_time LIMIT 1),
    (SELECT min(s.chart_time) FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
      WHERE e.song_id = g.id),
    (SELECT min(rank) FROM entries WHERE song_id = g.id),
    (SELECT count(*) FROM entries WHERE song_id = g.id) AS n
  """

private func readSong(_ row: Statement) -> SongSummary {
  SongSummary(
    id: SongID(row.int64(at: 0)), title: row.string(at: 1), artist: row.string(at: 2),
    identity: SongIdentity(key: row.string(at: 3)), recording: row.int(at: 4),
    firstChartDate: ChartDate(
      trustedISO8601: row.string(at: 5), secondsSince1970: row.int64(at: 6)),
    bestRank: row.int(at: 7), entryCount: row.int(at: 8))
}

private let snapshotColumns = """
  s.id, c.name, s.chart_date, s.chart_time, s.entry_count, s.publishes_previous_rank, s.source,
  c.frequency
  """

private func readSnapshot(_ row: Statement) -> SnapshotSummary {
  SnapshotSummary(
    id: SnapshotID(row.int64(at: 0)), chart: row.string(at: 1),
    chartDate: ChartDate(trustedISO8601: row.string(at: 2), secondsSince1970: row.int64(at: 3)),
    entryCount: row.int(at: 4), publishesPreviousRank: row.bool(at: 5),
    source: row.optionalString(at: 6),
    frequency: row.optionalString(at: 7).flatMap(ChartFrequency.init))
}

extension ArchiveReader {
  // MARK: - Charts and snapshots

  /// When the archive last stored a snapshot: the latest `imported_at` (ISO 8601, UTC), or `nil`
  /// for an empty archive. A client compares it to decide whether to fetch again.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func lastImportTime() throws(ArchiveError) -> ChartDate? {
    let text = try reading {
      try database.row("SELECT max(imported_at) FROM snapshots") { $0.optionalString(at: 0) } ?? nil
    }
    return text.flatMap { try? ChartDate(iso8601: $0) }
  }

  /// Every chart, by name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func charts() throws(ArchiveError) -> [ChartSummary] {
    try reading {
      try database.rows(
        """
        SELECT c.name, c.frequency, count(s.id),
          (SELECT chart_date FROM snapshots WHERE chart_id = c.id ORDER BY chart_time LIMIT 1),
          min(s.chart_time),
          (SELECT chart_date FROM snapshots WHERE chart_id = c.id ORDER BY chart_time DESC LIMIT 1),
          max(s.chart_time)
        FROM charts c LEFT JOIN snapshots s ON s.chart_id = c.id GROUP BY c.id ORDER BY c.name
        """
      ) { row in
        ChartSummary(
          name: row.string(at: 0),
          frequency: row.optionalString(at: 1).flatMap(ChartFrequency.init),
          snapshotCount: row.int(at: 2),
          firstChartDate: row.optionalString(at: 3).map {
            ChartDate(trustedISO8601: $0, secondsSince1970: row.int64(at: 4))
          },
          lastChartDate: row.optionalString(at: 5).map {
            ChartDate(trustedISO8601: $0, secondsSince1970: row.int64(at: 6))
          })
      }
    }
  }

  /// Every snapshot of a chart, by chart date.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func snapshots(of chart: String) throws(ArchiveError) -> [SnapshotSummary] {
    let chartID = try self.chartID(chart)
    return try reading {
      try database.rows(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE s.chart_id = ? ORDER BY s.chart_time", [chartID], readSnapshot)
    }
  }

  /// The snapshot of a chart at a chart date, or its latest one.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - chartDate: the chart date; `nil` for the latest snapshot.
  /// - Throws: as ``snapshot(of:at:)-(_,SnapshotDate)``.
  public func snapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> SnapshotSummary
  {
    try snapshot(of: chart, at: chartDate.map(SnapshotDate.on) ?? .latest)
  }

  /// A snapshot of a chart: of a chart date, the latest, or the one before the latest.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)``;
  ///   ``ArchiveError/noSuchSnapshot(chart:chartDate:before:after:)`` with the chart dates nearest
  ///   the one asked for; ``ArchiveError/notEnoughSnapshots(chart:needed:stored:)`` when the chart
  ///   has too few for `latest` or `previous`; or ``ArchiveError/database(path:_:)``.
  public func snapshot(of chart: String, at when: SnapshotDate) throws(ArchiveError)
    -> SnapshotSummary
  {
    let chartID = try self.chartID(chart)
    let select = "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
    switch when {
    case .on(let chartDate):
      if let found = try reading({
        try database.row(
          select + " WHERE s.chart_id = ? AND s.chart_time = ?",
          [chartID, chartDate.secondsSince1970], readSnapshot)
      }) {
        return found
      }
      // The chart dates around the one asked for.
      let time = chartDate.secondsSince1970
      throw .noSuchSnapshot(
        chart: chart, chartDate: chartDate,
        before: try snapshot(ofChart: ChartID(chartID), before: time)?.chartDate,
        after: try snapshot(ofChart: ChartID(chartID), after: time)?.chartDate)
    case .latest, .previous:
      let skipped = when == .latest ? 0 : 1
      let found = try reading {
        try database.row(
          select + " WHERE s.chart_id = ? ORDER BY s.chart_time DESC LIMIT 1 OFFSET ?",
          [chartID, skipped], readSnapshot)
      }
      if let found { return found }
      let stored = try reading {
        try database.row("SELECT count(*) FROM snapshots WHERE chart_id = ?", [chartID]) {
          $0.int(at: 0)
        } ?? 0
      }
      throw .notEnoughSnapshots(chart: chart, needed: skipped + 1, stored: stored)
    }
  }

  /// The snapshot of a chart at a chart date (its latest when `nil`), the one before it and its
  /// entries' figures: what `show` presents.
  ///
  /// - Throws: as ``snapshot(of:at:)``.
  public func chartSnapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> ChartSnapshot
  {
    try chartSnapshot(of: chart, at: chartDate.map(SnapshotDate.on) ?? .latest)
  }

  /// A snapshot (see ``snapshot(of:at:)-(_,SnapshotDate)``), the one before it and its entries'
  /// figures: what `show` presents.
  ///
  /// - Throws: as ``snapshot(of:at:)-(_,SnapshotDate)``.
  public func chartSnapshot(of chart: String, at when: SnapshotDate) throws(ArchiveError)
    -> ChartSnapshot
  {
    let summary = try snapshot(of: chart, at: when)
    return ChartSnapshot(
      summary: summary, previous: try snapshot(before: summary),
      placements: try placements(of: summary))
  }

  /// The two snapshots a diff compares, older first: with no date, the chart's last two; with one,
  /// the snapshot of that date and the one before it; with two, those (in either order).
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - first: a chart date, or `nil`.
  ///   - second: another chart date, or `nil` (only when `first` is given).
  /// - Throws: ``ArchiveError/noSuchChart(_:)``, ``ArchiveError/noSuchSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/noEarlierSnapshot(chart:chartDate:)`` when the one date given is the
  ///   chart's first, ``ArchiveError/notEnoughSnapshots(chart:needed:stored:)`` when the chart
  ///   has one snapshot, ``ArchiveError/sameSnapshot(chart:chartDate:)`` when the two dates name
  ///   one snapshot (`latest` and its date), or ``ArchiveError/database(path:_:)``.
  public func snapshotsToCompare(of chart: String, _ first: SnapshotDate?, _ second: SnapshotDate?)
    throws(ArchiveError) -> (older: SnapshotSummary, newer: SnapshotSummary)
  {
    if let first, let second {
      let one = try snapshot(of: chart, at: first)
      let other = try snapshot(of: chart, at: second)
      guard one.id != other.id else { throw .sameSnapshot(chart: chart, chartDate: one.chartDate) }
      return one.chartDate < other.chartDate ? (one, other) : (other, one)
    }
    let newer = try snapshot(of: chart, at: first ?? .latest)
    guard let older = try snapshot(before: newer) else {
      if first != nil { throw .noEarlierSnapshot(chart: chart, chartDate: newer.chartDate) }
      throw .notEnoughSnapshots(chart: chart, needed: 2, stored: 1)
    }
    return (older, newer)
  }

  /// The snapshot just before another of the same chart, or `nil` when it is the first.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(before snapshot: SnapshotSummary) throws(ArchiveError) -> SnapshotSummary? {
    guard let chart = try chart(named: snapshot.chart),
      let previous = try self.snapshot(
        ofChart: chart.id, before: snapshot.chartDate.secondsSince1970)
    else { return nil }
    return try summary(of: previous.id)
  }

  /// The snapshot just after another of the same chart, or `nil` when it is the latest.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func snapshot(after snapshot: SnapshotSummary) throws(ArchiveError) -> SnapshotSummary? {
    guard let chart = try chart(named: snapshot.chart),
      let next = try self.snapshot(ofChart: chart.id, after: snapshot.chartDate.secondsSince1970)
    else { return nil }
    return try summary(of: next.id)
  }

  /// The summary of a snapshot, or `nil` when there is none with this ID.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  func summary(of snapshot: SnapshotID) throws(ArchiveError) -> SnapshotSummary? {
    try reading {
      try database.row(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE s.id = ?", [snapshot.rawValue], readSnapshot)
    }
  }

  /// The entries of a snapshot with their songs, in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entries(of snapshot: SnapshotID) throws(ArchiveError) -> [ArchivedEntry] {
    try reading { try Self.entries(of: snapshot, in: database) }
  }

  /// Whether the source of any of these snapshots numbered the runs of its songs (an entry has
  /// a published run): an export then writes them.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func publishesRuns(_ snapshots: [SnapshotID]) throws(ArchiveError) -> Bool {
    try reading {
      for snapshot in snapshots {
        let found = try database.row(
          "SELECT 1 FROM entries WHERE snapshot_id = ? AND published_run IS NOT NULL LIMIT 1",
          [snapshot.rawValue], { _ in true })
        if found != nil { return true }
      }
      return false
    }
  }

  static func entries(of snapshot: SnapshotID, in database: Database) throws(DatabaseError)
    -> [ArchivedEntry]
  {
    try database.rows(
      "SELECT e.song_id, \(entryColumns) FROM entries e WHERE e.snapshot_id = ?"
        + " ORDER BY e.position", [snapshot.rawValue]
    ) { ArchivedEntry(entry: readEntry($0, from: 1), song: SongID($0.int64(at: 0))) }
  }

  // MARK: - Figures

  /// The entries of a snapshot with the figures decided for them when it was stored (previous
  /// rank, movement, peak position, weeks on chart, run; see ``ChartFigures``), in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func placements(of snapshot: SnapshotSummary) throws(ArchiveError) -> [Placement] {
    try reading {
      let verdicts = try verdicts(of: snapshot.id)
      var placements: [Placement] = []
      placements.reserveCapacity(snapshot.entryCount)
      let statement = try database.statement(
        "SELECT e.song_id, \(Self.entryColumns), \(FigureColumns.sql) FROM entries e"
          + " WHERE e.snapshot_id = ? ORDER BY e.position")
      statement.bind(snapshot.id.rawValue, at: 1)
      defer { statement.reset() }
      while try statement.step() {
        let entry = Self.readEntry(statement, from: 1)
        placements.append(
          Placement(
            snapshot: snapshot.id, chartDate: snapshot.chartDate, entry: entry,
            song: SongID(statement.int64(at: 0)),
            figures: FigureColumns.read(
              statement, from: 1 + Self.entryColumnCount, entry: entry,
              verdicts: verdicts[placements.count] ?? [:])))
      }
      return placements
    }
  }

  /// The rank-change report of a snapshot against the chart's previous snapshot.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot to report on.
  ///   - limit: how many climbers and fallers to list.
  /// - Returns: the report and the previous snapshot (`nil` for the chart's first, when every
  ///   entry is a debut and the drop-outs are unknown).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func report(on snapshot: SnapshotSummary, limit: Int) throws(ArchiveError)
    -> (report: RankChangeReport, previous: SnapshotSummary?)
  {
    let placements = try placements(of: snapshot)
    let previous = try self.snapshot(before: snapshot)
    var dropOuts: [ArchivedEntry]?
    if let previous {
      dropOuts =
        RankPairing(
          newer: placements.map { ArchivedEntry(entry: $0.entry, song: $0.song) },
          older: try entries(of: previous.id)
        ).unpaired
    }
    return (RankChangeReport(placements: placements, dropOuts: dropOuts, limit: limit), previous)
  }

  /// The diff of two snapshots of one chart (see ``SnapshotDiff``): for consecutive snapshots,
  /// the movements decided for the newer one's entries, the same as `show` gives.
  ///
  /// - Parameters:
  ///   - older: the older snapshot.
  ///   - newer: the newer snapshot.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func diff(from older: SnapshotSummary, to newer: SnapshotSummary) throws(ArchiveError)
    -> SnapshotDiff
  {
    let olderEntries = try entries(of: older.id)
    if try snapshot(before: newer)?.id == older.id {
      return SnapshotDiff(previous: olderEntries, placements: try placements(of: newer))
    }
    let newerEntries = try entries(of: newer.id)
    // Only arrivals (entries the older snapshot has no entry of their song for) need to be looked
    // up: a few, not every entry.
    let olderRanks = RankPairing(newer: newerEntries, older: olderEntries).olderRanks
    let arrivals = zip(newerEntries, olderRanks).filter { $0.1 == nil }.map(\.0)
    var charted: Set<SongID> = []
    try reading {
      for arrival in arrivals {
        // On the chart by the older date: an entry then, or one up to the newer date whose run
        // the archive holds only in part (figure_flags bit 4: the source counts weeks from before
        // the archive's first of the song, as `show` marks it a re-entry).
        let found = try database.row(
          """
          SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE e.song_id = ?1
            AND (s.chart_time <= ?3 OR s.chart_time <= ?4 AND \(FigureFlags.isPartialRunSQL("e")))
            AND s.chart_id = (SELECT chart_id FROM snapshots WHERE id = ?2)
          LIMIT 1
          """,
          [
            arrival.song.rawValue, older.id.rawValue, older.chartDate.secondsSince1970,
            newer.chartDate.secondsSince1970,
          ], { _ in true })
        if found != nil { charted.insert(arrival.song) }
      }
    }
    return SnapshotDiff(older: olderEntries, newer: newerEntries, songsChartedByOlder: charted)
  }

  // MARK: - Songs

  /// Songs matching a search, best matches first.
  ///
  /// Every title and credit each song charted under is searched through the full-text index
  /// `song_search` (<https://www.sqlite.org/fts5.html>), which ignores case and accents ("cafe"
  /// finds "Café", "beyonce" finds "Beyoncé"): a song matches when each word of the query begins a
  /// word of one of its titles or credits (`night sky` finds "밤하늘 (Night Sky)", `christmas`
  /// finds "Christmastime"), and each word of `artist` begins a word of that title's credit. A
  /// song also matches when its folded title or credit (see ``SongIdentity/fold(_:)``) contains
  /// the folded query, for what the index has no word for ("🔥"). Songs with a title that equals
  /// the query (folded) come first.
  ///
  /// - Parameters:
  ///   - query: a title, an artist, or part of either; may be empty when `artist` is given.
  ///   - artist: part of the artist credit, or `nil`.
  ///   - chart: only songs that were on this chart, or `nil` for any chart.
  ///   - exactTitle: only songs whose title equals the query (an index lookup, not a search).
  /// - Returns: matching songs: exact titles first, then by number of entries (most first), then
  ///   title and artist.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func songs(
    matching query: String, artist: String? = nil, chart: String? = nil, exactTitle: Bool = false
  ) throws(ArchiveError) -> [SongSummary] {
    let title = SongIdentity.fold(query)
    let chartID = try chart.map { name throws(ArchiveError) in try self.chartID(name) }
    let onChart =
      chartID == nil
      ? ""
      : " AND EXISTS (SELECT 1 FROM entries e JOIN snapshots s ON s.id = e.snapshot_id"
        + " WHERE e.song_id = g.id AND s.chart_id = ?3)"
    let words = Self.searchTerms(exactTitle ? nil : query, artist: artist)
    let contains = "%" + escapeLike(title) + "%"
    let artistContains = "%" + escapeLike(SongIdentity.fold(artist ?? "")) + "%"
    // A query longer than a LIKE pattern may be is longer than any title or credit (10,000
    // characters): nothing matches, where SQLite would fail ("LIKE or GLOB pattern too complex").
    guard contains.utf8.count <= Self.longestLikePattern,
      artistContains.utf8.count <= Self.longestLikePattern
    else { return [] }
    // The exact title by its index; else the full-text index, and the folded text containing
    // the query (what has no word for the index: "🔥"). The artist's words, when given, in the
    // credit of the same title.
    let matching =
      words.isEmpty ? "" : "SELECT song_id FROM song_search WHERE song_search MATCH ?2 UNION "
    let condition =
      exactTitle
      ? "g.id IN (SELECT id FROM songs WHERE title_key = ?1"
        + " UNION SELECT song_id FROM song_credits WHERE title_key = ?1)"
        + (words.isEmpty
          ? "" : " AND g.id IN (SELECT song_id FROM song_search WHERE song_search MATCH ?2)")
      : "g.id IN (\(matching)SELECT id FROM songs WHERE \(Self.containsCondition)"
        + " UNION SELECT song_id FROM song_credits WHERE \(Self.containsCondition))"
    return try reading {
      try database.rows(
        """
        SELECT \(songColumns), g.title_key = ?1 OR EXISTS (SELECT 1 FROM song_credits c
            WHERE c.song_id = g.id AND c.title_key = ?1) AS exact
        FROM songs g
        WHERE \(condition) AND EXISTS (SELECT 1 FROM entries WHERE song_id = g.id)\(onChart)
        ORDER BY exact DESC, n DESC, g.title, g.artist, g.recording
        """, [title, words] + (chartID.map { [$0] } ?? [-1]) + [contains, artistContains],
        readSong)
    }
  }

  /// The longest LIKE pattern SQLite takes, in bytes
  /// (<https://www.sqlite.org/limits.html#max_like_pattern_length>).
  static let longestLikePattern = 50_000

  /// Folded text containing the query (`?4`) in a title, a credit or both, and the artist (`?5`)
  /// in the credit: for what the full-text index has no word for.
  private static let containsCondition = """
    (title_key LIKE ?4 ESCAPE '\\' OR artist_key LIKE ?4 ESCAPE '\\'
      OR (title_key || ' ' || artist_key) LIKE ?4 ESCAPE '\\') AND artist_key LIKE ?5 ESCAPE '\\'
    """

  /// What a search that found nothing may have meant: its words corrected to the closest words of
  /// the archive's titles and credits (see ``Suggestions/correction(of:among:)``), "blindng
  /// lights" to "blinding lights", and the songs the corrected search finds.
  ///
  /// - Parameters: as ``songs(matching:artist:chart:exactTitle:)``.
  /// - Returns: the corrected query and artist and their songs, best first; `nil` when no word
  ///   could be corrected or the corrected search finds nothing.
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` or ``ArchiveError/database(path:_:)``.
  public func suggestion(forSearch query: String, artist: String? = nil, chart: String? = nil)
    throws(ArchiveError) -> (query: String, artist: String?, songs: [SongSummary])?
  {
    let terms = try reading {
      try database.rows("SELECT term, doc FROM song_search_terms") {
        (term: $0.string(at: 0), rows: $0.int(at: 1))
      }
    }
    var changed = false
    func corrected(_ text: String) -> String {
      text.split(whereSeparator: \.isWhitespace).map { word in
        guard let fixed = Suggestions.correction(of: String(word), among: terms) else {
          return String(word)
        }
        changed = true
        return fixed
      }.joined(separator: " ")
    }
    let fixedQuery = corrected(query)
    let fixedArtist = artist.map(corrected)
    guard changed else { return nil }
    let songs = try songs(matching: fixedQuery, artist: fixedArtist, chart: chart)
    return songs.isEmpty ? nil : (fixedQuery, fixedArtist, songs)
  }

  /// A full-text query (<https://www.sqlite.org/fts5.html#full_text_query_syntax>) for a search:
  /// each word of `query` as a prefix in the title or the credit, each word of `artist` as a prefix
  /// in the credit; words quoted, so that no character of the user's is syntax. Words without a
  /// letter or digit are left out (the index has none); empty when none is left.
  static func searchTerms(_ query: String?, artist: String?) -> String {
    func terms(_ text: String?, column: String?) -> [String] {
      // Control characters separate words too: FTS5 reads a NUL as the end of the query.
      (text ?? "").split(whereSeparator: { $0.isWhitespace || $0.isControl })
        .filter { $0.contains { $0.isLetter || $0.isNumber } }
        .map { word in
          (column.map { "\($0) : " } ?? "") + "\"" + word.replacing("\"", with: "\"\"") + "\"*"
        }
    }
    return (terms(query, column: nil) + terms(artist, column: "artist")).joined(separator: " AND ")
  }

  /// A song by its ID, or `nil` when there is none (or it has no entry any more).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func song(_ id: SongID) throws(ArchiveError) -> SongSummary? {
    try reading {
      try database.row(
        """
        SELECT \(songColumns) FROM songs g
        WHERE g.id = ? AND EXISTS (SELECT 1 FROM entries WHERE song_id = g.id)
        """, [id.rawValue], readSong)
    }
  }

  /// The song a search means: the songs titled exactly as the query (an index lookup) when they
  /// are one song (or recordings of one title and artist), else among all that match (see
  /// ``songs(matching:artist:chart:exactTitle:)``) those titled as the query, else all, when they
  /// are one song. When an artist is given, the songs credited to exactly that artist win over
  /// those whose credit only contains it.
  ///
  /// - Parameters: as ``songs(matching:artist:chart:exactTitle:)``.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func song(matching query: String, artist: String? = nil, chart: String? = nil)
    throws(ArchiveError) -> SongSearch
  {
    var songs = try self.songs(matching: query, artist: artist, chart: chart, exactTitle: true)
    if Set(songs.map(\.identity)).count != 1 {
      songs = try self.songs(matching: query, artist: artist, chart: chart)
    }
    // A credit that is the artist asked for wins over credits that contain it ("Queen Bee", not
    // "Max & Queen Bee").
    // Each found song is looked up by its key (no index has credits by artist: a scan of every
    // song and credit cost a search with --artist 1,400 page reads of the Hot 100's archive).
    if let artist {
      let folded = SongIdentity.fold(artist)
      let credited = try reading {
        var credited: [SongSummary] = []
        for song in songs {
          let found = try database.row(
            "SELECT 1 FROM songs WHERE id = ?1 AND artist_key = ?2 UNION ALL"
              + " SELECT 1 FROM song_credits WHERE song_id = ?1 AND artist_key = ?2 LIMIT 1",
            [song.id.rawValue, folded], { _ in true })
          if found != nil { credited.append(song) }
        }
        return credited
      }
      if !credited.isEmpty { songs = credited }
    }
    let folded = SongIdentity.fold(query)
    let exact = songs.filter { SongIdentity.fold($0.title) == folded }
    if let chosen = [exact, songs].first(where: {
      !$0.isEmpty && Set($0.map(\.identity)).count == 1
    }) {
      return .found(chosen.sorted { $0.firstChartDate < $1.firstChartDate })
    }
    return songs.isEmpty ? .none : .several(songs)
  }

  /// The histories of songs (see ``history(of:)``), each on every chart or on one.
  ///
  /// - Parameters:
  ///   - songs: the songs.
  ///   - chart: only this chart's history, or `nil` for every chart's.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func recordings(of songs: [SongSummary], onChart chart: String? = nil)
    throws(ArchiveError) -> [SongRecording]
  {
    var recordings: [SongRecording] = []
    for song in songs {
      var histories = try history(of: song.id)
      if let chart { histories = histories.filter { $0.chart == chart } }
      recordings.append(SongRecording(song: song, histories: histories))
    }
    return recordings
  }

  /// A song's history on every chart it was on, by chart name: each entry with its figures.
  ///
  /// The query joins in the order entries (by the `entries_by_song` index) → snapshots → charts,
  /// written with CROSS JOIN: SQLite's planner keeps that order
  /// (<https://www.sqlite.org/optoverview.html#crossjoin>), where it would otherwise walk a whole
  /// chart's snapshots.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func history(of song: SongID) throws(ArchiveError) -> [ChartHistory] {
    let rows = try reading {
      let statement = try database.statement(
        """
        SELECT c.name, c.frequency, s.id, s.chart_date, s.chart_time, e.position,
          \(Self.entryColumns), \(FigureColumns.sql)
        FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
          CROSS JOIN charts c ON c.id = s.chart_id
        WHERE e.song_id = ? ORDER BY c.name, s.chart_time, e.position
        """)
      statement.bind(song.rawValue, at: 1)
      defer { statement.reset() }
      var rows: [(chart: String, frequency: String?, placement: Placement, position: Int)] = []
      let offset: Int32 = 6
      while try statement.step() {
        let entry = Self.readEntry(statement, from: offset)
        rows.append(
          (
            statement.string(at: 0), statement.optionalString(at: 1),
            Placement(
              snapshot: SnapshotID(statement.int64(at: 2)),
              chartDate: ChartDate(
                trustedISO8601: statement.string(at: 3), secondsSince1970: statement.int64(at: 4)),
              entry: entry, song: song,
              figures: FigureColumns.read(
                statement, from: offset + Self.entryColumnCount, entry: entry, verdicts: [:])),
            statement.int(at: 5)
          ))
      }
      statement.reset()
      // The verdicts of the few entries that have any.
      for index in rows.indices {
        let verdicts = try self.verdicts(of: rows[index].placement.snapshot)[
          rows[index].position]
        guard let verdicts else { continue }
        let entry = rows[index].placement.entry
        let figures = rows[index].placement.figures
        rows[index].placement.figures = EntryFigures(
          previousRank: figures.previousRank, previousRankSource: figures.previousRankSource,
          movement: Movement(
            rank: entry.rank, previousRank: figures.previousRank,
            wasOnChartBefore: (verdicts[.weeksOnChart]?.derived ?? figures.weeksOnChart) > 1
              || entry.saysChartedBefore),
          peakPosition: figures.peakPosition, weeksOnChart: figures.weeksOnChart, run: figures.run,
          isPartialRun: figures.isPartialRun, previousRankVerdict: verdicts[.previousRank],
          peakPositionVerdict: verdicts[.peakPosition],
          weeksOnChartVerdict: verdicts[.weeksOnChart],
          runVerdict: verdicts[.run])
      }
      return rows
    }
    var histories: [ChartHistory] = []
    var start = rows.startIndex
    while start < rows.endIndex {
      let chart = rows[start].chart
      var end = start
      while end < rows.endIndex, rows[end].chart == chart { end += 1 }
      histories.append(
        ChartHistory(
          chart: chart, frequency: rows[start].frequency.flatMap(ChartFrequency.init),
          history: SongHistory(placements: rows[start..<end].map(\.placement))))
      start = end
    }
    return histories
  }

  // MARK: - Audit

  /// The audit of a chart from the verdicts stored with its entries (see ``ChartAudit``): the
  /// agreement per figure and every disagreement, of the snapshots from `from` to `to`.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - from: the first chart date audited, or `nil` for the first snapshot.
  ///   - to: the last chart date audited, or `nil` for the last snapshot.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func audit(of chart: String, from: ChartDate? = nil, to: ChartDate? = nil)
    throws(ArchiveError) -> ChartAudit
  {
    let chartID = try self.chartID(chart)
    let range: [any StatementArgument] = [
      chartID, from?.secondsSince1970 ?? .min, to?.secondsSince1970 ?? .max,
    ]
    return try reading {
      let counts =
        try database.row(
          """
          SELECT sum(s.publishes_previous_rank AND \(FigureFlags.previousRankNotDerivedSQL("e"))),
            count(e.published_peak_position), count(e.published_weeks_on_chart),
            count(e.published_run)
          FROM snapshots s CROSS JOIN entries e ON e.snapshot_id = s.id
          WHERE s.chart_id = ? AND s.chart_time BETWEEN ? AND ?
          """, range, { [$0.int(at: 0), $0.int(at: 1), $0.int(at: 2), $0.int(at: 3)] })
        ?? [0, 0, 0, 0]
      let disagreements = try database.rows(
        """
        SELECT s.chart_date, s.chart_time, v.figure, v.derived, v.cause, \(Self.entryColumns)
        FROM snapshots s CROSS JOIN verdicts v ON v.snapshot_id = s.id
          CROSS JOIN entries e ON e.snapshot_id = v.snapshot_id AND e.position = v.position
        WHERE s.chart_id = ? AND s.chart_time BETWEEN ? AND ?
          -- A peak, weeks or run the source did not publish, given from earlier ones where the
          -- archive lacks the start of the run, was compared with nothing.
          AND CASE v.figure WHEN 1 THEN e.published_peak_position IS NOT NULL
            WHEN 2 THEN e.published_weeks_on_chart IS NOT NULL
            WHEN 3 THEN e.published_run IS NOT NULL ELSE 1 END
        ORDER BY s.chart_time, e.position, v.figure
        """, range
      ) { row in
        let entry = Self.readEntry(row, from: 5)
        let figure = VerdictCodes.figures[row.int(at: 2)]
        let published: Int? =
          switch figure {
          case .previousRank: entry.publishedPreviousRank
          case .peakPosition: entry.publishedPeakPosition
          case .weeksOnChart: entry.publishedWeeksOnChart
          case .run: entry.publishedRun
          }
        return Disagreement(
          chartDate: ChartDate(
            trustedISO8601: row.string(at: 0), secondsSince1970: row.int64(at: 1)),
          entry: entry, figure: figure, published: published, derived: row.optionalInt(at: 3),
          cause: VerdictCodes.cause(code: row.int(at: 4)))
      }
      var wrong: [AuditFigure: Int] = [:]
      for disagreement in disagreements { wrong[disagreement.figure, default: 0] += 1 }
      return ChartAudit(
        agreements: zip(AuditFigure.allCases, counts).map { figure, compared in
          FigureAgreement(
            figure: figure, compared: compared, agreeing: compared - (wrong[figure] ?? 0))
        }, disagreements: disagreements)
    }
  }

  /// Every snapshot of a chart with its entries and their songs, in chart-date order, as the
  /// source published them: what ``ChartFigures/decideAll(_:)`` reads.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func auditedSnapshots(of chart: String) throws(ArchiveError) -> [AuditedSnapshot] {
    let chartID = try self.chartID(chart)
    return try reading {
      var snapshots: [AuditedSnapshot] = []
      let statement = try database.statement(
        """
        SELECT s.id, s.chart_date, s.chart_time, s.publishes_previous_rank, e.song_id,
          \(Self.entryColumns)
        FROM snapshots s JOIN entries e ON e.snapshot_id = s.id
        WHERE s.chart_id = ? ORDER BY s.chart_time, e.position
        """)
      statement.bind(chartID, at: 1)
      defer { statement.reset() }
      while try statement.step() {
        let id = SnapshotID(statement.int64(at: 0))
        if snapshots.last?.id != id {
          snapshots.append(
            AuditedSnapshot(
              id: id,
              chartDate: ChartDate(
                trustedISO8601: statement.string(at: 1), secondsSince1970: statement.int64(at: 2)),
              publishesPreviousRank: statement.bool(at: 3), entries: [], songs: []))
        }
        snapshots[snapshots.count - 1].entries.append(Self.readEntry(statement, from: 5))
        snapshots[snapshots.count - 1].songs.append(SongID(statement.int64(at: 4)))
      }
      return snapshots
    }
  }

  // MARK: - Helpers

  func chartID(_ name: String) throws(ArchiveError) -> Int64 {
    guard
      let id = try reading({
        try database.row("SELECT id FROM charts WHERE name = ?", [name]) {
          $0.int64(at: 0)
        }
      })
    else {
      let charts = try reading {
        try database.rows("SELECT name FROM charts ORDER BY name") { $0.string(at: 0) }
      }
      throw .noSuchChart(name, charts: charts)
    }
    return id
  }
}

/// Text for a `LIKE` pattern whose escape character is a backslash: `%`, `_` and backslashes in
/// the text stand for themselves.
private func escapeLike(_ text: String) -> String {
  var escaped = ""
  for character in text {
    if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
    escaped.append(character)
  }
  return escaped
}

extension Character {
  /// Whether the character is a control character (C0, DEL or C1), such as NUL.
  fileprivate var isControl: Bool {
    unicodeScalars.first?.properties.generalCategory == .control
  }
}
