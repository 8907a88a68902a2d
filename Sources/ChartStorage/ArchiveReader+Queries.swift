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
  /// The derived figures of every appearance.
  public var history: SongHistory
}

/// Columns of an entry joined with its snapshot, read as an ``Appearance`` from column `offset` on.
///
/// The queries that read a song's entries join in the order songs → entries (by the
/// `entries_by_song` index) → snapshots, written with CROSS JOIN: SQLite's planner keeps that
/// order (<https://www.sqlite.org/optoverview.html#crossjoin>), where it would otherwise walk a
/// whole chart's snapshots.
private let appearanceColumns = """
  s.id, s.chart_date, s.chart_time, s.publishes_previous_rank,
  (SELECT p.id FROM snapshots p WHERE p.chart_id = s.chart_id AND p.chart_time < s.chart_time
    ORDER BY p.chart_time DESC LIMIT 1),
  e.rank, e.title, e.artist, e.previous_rank, e.peak_position, e.weeks_on_chart, e.image_url,
  e.song_url, e.streams
  """

private func readAppearance(_ row: Statement, from offset: Int32) -> Appearance {
  Appearance(
    snapshot: SnapshotID(row.int64(at: offset)),
    chartDate: ChartDate(
      trustedISO8601: row.string(at: offset + 1), secondsSince1970: row.int64(at: offset + 2)),
    previousSnapshot: row.optionalInt64(at: offset + 4).map(SnapshotID.init),
    publishesPreviousRank: row.bool(at: offset + 3),
    entry: readEntry(row, from: offset + 5))
}

/// Reads `rank, title, artist, previous_rank, peak_position, weeks_on_chart, image_url, song_url,
/// streams`.
private func readEntry(_ row: Statement, from offset: Int32) -> ChartEntry {
  ChartEntry(
    rank: row.int(at: offset), title: row.string(at: offset + 1),
    artist: row.string(at: offset + 2), publishedPreviousRank: row.optionalInt(at: offset + 3),
    publishedPeakPosition: row.optionalInt(at: offset + 4),
    publishedWeeksOnChart: row.optionalInt(at: offset + 5),
    imageURL: row.optionalString(at: offset + 6), songURL: row.optionalString(at: offset + 7),
    streams: row.optionalInt(at: offset + 8))
}

private let snapshotColumns = """
  s.id, c.name, s.chart_date, s.chart_time,
  (SELECT count(*) FROM entries e WHERE e.snapshot_id = s.id), s.publishes_previous_rank, s.source
  """

private func readSnapshot(_ row: Statement) -> SnapshotSummary {
  SnapshotSummary(
    id: SnapshotID(row.int64(at: 0)), chart: row.string(at: 1),
    chartDate: ChartDate(trustedISO8601: row.string(at: 2), secondsSince1970: row.int64(at: 3)),
    entryCount: row.int(at: 4), publishesPreviousRank: row.bool(at: 5),
    source: row.optionalString(at: 6))
}

extension ArchiveReader {
  // MARK: - Charts and snapshots

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
  /// - Throws: ``ArchiveError/noSuchChart(_:)``, ``ArchiveError/noSuchSnapshot(chart:chartDate:)``,
  ///   ``ArchiveError/notEnoughSnapshots(chart:needed:stored:)`` when the chart has none, or
  ///   ``ArchiveError/database(path:_:)``.
  public func snapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> SnapshotSummary
  {
    let chartID = try self.chartID(chart)
    let found = try reading {
      if let chartDate {
        try database.row(
          "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
            + " WHERE s.chart_id = ? AND s.chart_time = ?", [chartID, chartDate.secondsSince1970],
          readSnapshot)
      } else {
        try database.row(
          "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
            + " WHERE s.chart_id = ? ORDER BY s.chart_time DESC LIMIT 1", [chartID], readSnapshot)
      }
    }
    if let found { return found }
    if let chartDate { throw .noSuchSnapshot(chart: chart, chartDate: chartDate) }
    throw .notEnoughSnapshots(chart: chart, needed: 1, stored: 0)
  }

  /// The snapshot of a chart at a chart date (its latest when `nil`), the one before it and its
  /// entries' figures: what `show` presents.
  ///
  /// - Throws: as ``snapshot(of:at:)``.
  public func chartSnapshot(of chart: String, at chartDate: ChartDate?) throws(ArchiveError)
    -> ChartSnapshot
  {
    let summary = try snapshot(of: chart, at: chartDate)
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
  ///   has one snapshot, or ``ArchiveError/database(path:_:)``.
  public func snapshotsToCompare(of chart: String, _ first: ChartDate?, _ second: ChartDate?)
    throws(ArchiveError) -> (older: SnapshotSummary, newer: SnapshotSummary)
  {
    if let first, let second {
      let one = try snapshot(of: chart, at: first)
      let other = try snapshot(of: chart, at: second)
      return one.chartDate < other.chartDate ? (one, other) : (other, one)
    }
    let newer = try snapshot(of: chart, at: first)
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
    try reading {
      try database.row(
        "SELECT \(snapshotColumns) FROM snapshots s JOIN charts c ON c.id = s.chart_id"
          + " WHERE c.name = ? AND s.chart_time < ? ORDER BY s.chart_time DESC LIMIT 1",
        [snapshot.chart, snapshot.chartDate.secondsSince1970], readSnapshot)
    }
  }

  /// The entries of a snapshot with their songs, in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entries(of snapshot: SnapshotID) throws(ArchiveError) -> [ArchivedEntry] {
    try reading { try Self.entries(of: snapshot, in: database) }
  }

  static func entries(of snapshot: SnapshotID, in database: Database) throws(DatabaseError)
    -> [ArchivedEntry]
  {
    try database.rows(
      "SELECT song_id, rank, title, artist, previous_rank, peak_position, weeks_on_chart,"
        + " image_url, song_url, streams FROM entries WHERE snapshot_id = ? ORDER BY position",
      [snapshot.rawValue]
    ) { ArchivedEntry(entry: readEntry($0, from: 1), song: SongID($0.int64(at: 0))) }
  }

  // MARK: - Derived figures

  /// The entries of a snapshot with their derived previous rank, movement, peak position and weeks
  /// on chart (the rules of ``SongHistory``), in rank order.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func placements(of snapshot: SnapshotSummary) throws(ArchiveError) -> [Placement] {
    try placements(of: snapshot, entries: try entries(of: snapshot.id))
  }

  /// The placements of a snapshot whose entries were already read.
  private func placements(of snapshot: SnapshotSummary, entries: [ArchivedEntry])
    throws(ArchiveError) -> [Placement]
  {
    let rows = try reading {
      try database.rows(
        """
        SELECT e.song_id, \(appearanceColumns)
        FROM (SELECT DISTINCT song_id FROM entries WHERE snapshot_id = ?) cur
          CROSS JOIN entries e ON e.song_id = cur.song_id
          CROSS JOIN snapshots s ON s.id = e.snapshot_id
        WHERE s.chart_id = (SELECT chart_id FROM snapshots WHERE id = ?) AND s.chart_time <= ?
        """, [snapshot.id.rawValue, snapshot.id.rawValue, snapshot.chartDate.secondsSince1970]
      ) { (SongID($0.int64(at: 0)), readAppearance($0, from: 1)) }
    }
    var appearances: [SongID: [Appearance]] = [:]
    for (song, appearance) in rows { appearances[song, default: []].append(appearance) }
    return SongHistory.placements(
      of: entries, in: snapshot.id, chartDate: snapshot.chartDate, appearances: appearances)
  }

  /// The rank-change report of a snapshot against the chart's previous snapshot.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot to report on.
  ///   - limit: how many climbers and fallers to list.
  /// - Returns: the report and the previous snapshot (`nil` for the chart's first snapshot, when
  ///   every entry is a debut and nothing drops out).
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func report(on snapshot: SnapshotSummary, limit: Int) throws(ArchiveError)
    -> (report: RankChangeReport, previous: SnapshotSummary?)
  {
    let current = try entries(of: snapshot.id)
    let placements = try placements(of: snapshot, entries: current)
    let previous = try self.snapshot(before: snapshot)
    var dropOuts: [ArchivedEntry] = []
    if let previous {
      dropOuts = RankPairing(newer: current, older: try entries(of: previous.id)).unpaired
    }
    return (RankChangeReport(placements: placements, dropOuts: dropOuts, limit: limit), previous)
  }

  /// The diff of two snapshots of one chart (see ``SnapshotDiff``).
  ///
  /// - Parameters:
  ///   - older: the older snapshot.
  ///   - newer: the newer snapshot.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func diff(from older: SnapshotSummary, to newer: SnapshotSummary) throws(ArchiveError)
    -> SnapshotDiff
  {
    let olderEntries = try entries(of: older.id)
    let newerEntries = try entries(of: newer.id)
    // Only arrivals (entries the older snapshot has no entry of their song for) need to be looked
    // up, and of those only the ones the source does not already say have charted before: a few a
    // week, not every entry.
    let olderRanks = RankPairing(newer: newerEntries, older: olderEntries).olderRanks
    let arrivals = zip(newerEntries, olderRanks).filter { entry, olderRank in
      olderRank == nil && !entry.entry.saysChartedBefore
    }.map(\.0)
    var seen: Set<SongID> = []
    try reading {
      for arrival in arrivals {
        let charted = try database.row(
          """
          SELECT 1 FROM entries e CROSS JOIN snapshots s ON s.id = e.snapshot_id
          WHERE e.song_id = ?1 AND s.chart_time < ?3
            AND s.chart_id = (SELECT chart_id FROM snapshots WHERE id = ?2)
          LIMIT 1
          """, [arrival.song.rawValue, newer.id.rawValue, newer.chartDate.secondsSince1970],
          { _ in true })
        if charted != nil { seen.insert(arrival.song) }
      }
    }
    return SnapshotDiff(older: olderEntries, newer: newerEntries, songsSeenBeforeNewer: seen)
  }

  // MARK: - Songs

  /// Songs matching a search, best matches first.
  ///
  /// Text is compared after folding (``SongIdentity/fold(_:)``). A song matches when its title or
  /// its artist credit contains the query, or its title and artist together do; songs whose title
  /// equals the query come first. An artist, when given, must be contained in the song's artist.
  ///
  /// - Parameters:
  ///   - query: a title, an artist, or part of either; may be empty when `artist` is given.
  ///   - artist: part of the artist credit, or `nil`.
  ///   - chart: only songs that were on this chart, or `nil` for any chart.
  ///   - exactTitle: only songs whose title equals the query (an index lookup, not a scan).
  /// - Returns: matching songs: exact titles first, then by number of entries (most first), then
  ///   title and artist.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func songs(
    matching query: String, artist: String? = nil, chart: String? = nil, exactTitle: Bool = false
  ) throws(ArchiveError) -> [SongSummary] {
    let title = SongIdentity.fold(query)
    let artistPattern = "%" + escapeLike(SongIdentity.fold(artist ?? "")) + "%"
    let contains = "%" + escapeLike(title) + "%"
    let chartID = try chart.map { name throws(ArchiveError) in try self.chartID(name) }
    let onChart =
      chartID == nil
      ? ""
      : " AND EXISTS (SELECT 1 FROM entries e JOIN snapshots s ON s.id = e.snapshot_id"
        + " WHERE e.song_id = g.id AND s.chart_id = ?4)"
    return try reading {
      try database.rows(
        """
        SELECT g.id, g.title, g.artist, g.identity, g.recording,
          (SELECT s.chart_date FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.song_id = g.id ORDER BY s.chart_time LIMIT 1),
          (SELECT min(s.chart_time) FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
            WHERE e.song_id = g.id),
          (SELECT min(rank) FROM entries WHERE song_id = g.id),
          (SELECT count(*) FROM entries WHERE song_id = g.id) AS n
        FROM songs g
        WHERE \(exactTitle ? "g.title_key = ?1" : """
          (g.title_key LIKE ?1 ESCAPE '\\' OR g.artist_key LIKE ?1 ESCAPE '\\'
            OR (g.title_key || ' ' || g.artist_key) LIKE ?1 ESCAPE '\\')
          """)
          AND g.artist_key LIKE ?2 ESCAPE '\\'
          AND EXISTS (SELECT 1 FROM entries WHERE song_id = g.id)\(onChart)
        ORDER BY g.title_key = ?3 DESC, n DESC, g.title, g.artist, g.recording
        """, [exactTitle ? title : contains, artistPattern, title] + (chartID.map { [$0] } ?? [])
      ) { row in
        SongSummary(
          id: SongID(row.int64(at: 0)), title: row.string(at: 1), artist: row.string(at: 2),
          identity: SongIdentity(key: row.string(at: 3)), recording: row.int(at: 4),
          firstChartDate: ChartDate(
            trustedISO8601: row.string(at: 5), secondsSince1970: row.int64(at: 6)),
          bestRank: row.int(at: 7), entryCount: row.int(at: 8))
      }
    }
  }

  /// The song a search means: the songs titled exactly as the query (an index lookup) when they
  /// are one song (or recordings of one title and artist), else among all that match (see
  /// ``songs(matching:artist:chart:exactTitle:)``) those titled as the query, else all, when they
  /// are one song.
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

  /// A song's history on every chart it was on, by chart name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func history(of song: SongID) throws(ArchiveError) -> [ChartHistory] {
    let rows = try reading {
      try database.rows(
        """
        SELECT c.name, \(appearanceColumns)
        FROM entries e JOIN snapshots s ON s.id = e.snapshot_id JOIN charts c ON c.id = s.chart_id
        WHERE e.song_id = ? ORDER BY c.name, s.chart_time, e.rank
        """, [song.rawValue]
      ) { ($0.string(at: 0), readAppearance($0, from: 1)) }
    }
    var histories: [ChartHistory] = []
    var start = rows.startIndex
    while start < rows.endIndex {
      let chart = rows[start].0
      var end = start
      while end < rows.endIndex, rows[end].0 == chart { end += 1 }
      histories.append(
        ChartHistory(
          chart: chart, history: SongHistory(appearances: rows[start..<end].map { $0.1 })))
      start = end
    }
    return histories
  }

  // MARK: - Audit

  /// Every snapshot of a chart with its entries and their songs, in chart-date order: what
  /// ``ChartAudit`` reads.
  ///
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func auditedSnapshots(of chart: String) throws(ArchiveError) -> [AuditedSnapshot] {
    let chartID = try self.chartID(chart)
    return try reading {
      var snapshots: [AuditedSnapshot] = []
      let statement = try database.statement(
        """
        SELECT s.id, s.chart_date, s.chart_time, s.publishes_previous_rank, e.song_id,
          e.rank, e.title, e.artist, e.previous_rank, e.peak_position, e.weeks_on_chart,
          e.image_url, e.song_url, e.streams
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
              publishesPreviousRank: statement.bool(at: 3), entries: []))
        }
        snapshots[snapshots.count - 1].entries.append(
          ArchivedEntry(entry: readEntry(statement, from: 5), song: SongID(statement.int64(at: 4))))
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
    else { throw .noSuchChart(name) }
    return id
  }
}

private func escapeLike(_ text: String) -> String {
  var escaped = ""
  for character in text {
    if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
    escaped.append(character)
  }
  return escaped
}
