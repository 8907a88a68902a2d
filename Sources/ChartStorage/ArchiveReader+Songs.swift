public import ChartRanking

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

/// One recording of a song, with its history on each chart it was on.
public struct SongRecording: Sendable {
  /// The song.
  public var song: SongSummary
  /// Its history per chart, by chart name.
  public var histories: [SongHistoryOnChart]
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
public struct SongHistoryOnChart: Sendable {
  /// The chart's name.
  public var chart: String
  /// How often the chart is published, when known (a daily chart counts days, not weeks).
  public var frequency: ChartFrequency?
  /// Every entry of the song on the chart with its figures.
  public var history: SongHistory
  /// The decisions that joined entries to the song or split them from another, on this chart
  /// (`songs merge`, `songs split`), in the order made.
  public var decisions: [SongDecisionNote] = []
}

/// A song's columns, from the table aliased `g`, read by `readSong`.
private let songColumns = """
  g.id, g.title, g.artist, g.identity, g.recording,
    (SELECT s.chart_date FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
      WHERE e.song_id = g.id ORDER BY s.chart_time LIMIT 1),
    (SELECT min(s.chart_time) FROM entries e JOIN snapshots s ON s.id = e.snapshot_id
      WHERE e.song_id = g.id),
    (SELECT min(rank) FROM entries WHERE song_id = g.id) AS best,
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

extension ArchiveReader {
  // MARK: - Songs

  /// Songs matching a search, best matches first.
  ///
  /// Every title and credit each song charted under is searched through the full-text index
  /// `song_search` (<https://www.sqlite.org/fts5.html>), which ignores case and accents ("cafe"
  /// finds "Café", "beyonce" finds "Beyoncé"): a song matches when each word of the query begins a
  /// word of one of its titles or credits (`night sky` finds "밤하늘 (Night Sky)", `christmas`
  /// finds "Christmastime"), and each word of `artist` begins a word of that title's credit. A
  /// song also matches when its folded title or credit (see ``SongIdentity/fold(_:)``) contains
  /// the folded query, for what the index has no word for ("🔥"), and when a title's letters and
  /// digits are the query's (`dont stop believin` finds "Don't Stop Believin'", which has the
  /// words "don" and "t"): the index of ``SongIdentity/baseTitle(_:)``, the letters and digits
  /// before a parenthesis, finds those titles, so that a title with a parenthesis is found so
  /// when the query has it too (`dont stop (live)`).
  ///
  /// The matches are ranked as ``SearchMatch`` says, by the best of each song's titles and
  /// credits: whole titles first, then songs with every word of the query as a whole word of a
  /// title or credit; songs that match only inside words ("halo" in "Broken Halos") are left out
  /// when there is a song of either kind. Each kind is ordered by how far the song went: its best
  /// rank on any chart (best first), then its number of entries (weeks on a weekly chart; most
  /// first), then title, artist and song ID.
  ///
  /// - Parameters:
  ///   - query: a title, an artist, or part of either; may be empty when `artist` is given (every
  ///     song then ranks the same, by how far it went).
  ///   - artist: part of the artist credit, or `nil`.
  ///   - chart: only songs that were on this chart, or `nil` for any chart.
  ///   - exactTitle: only songs whose title equals the query folded (an index lookup, not a
  ///     search).
  /// - Returns: matching songs, best first.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func songs(
    matching query: String, artist: String? = nil, chart: String? = nil, exactTitle: Bool = false
  ) throws(ArchiveError) -> [SongSummary] {
    try rankedSongs(matching: query, artist: artist, chart: chart, exactTitle: exactTitle).map(
      \.song)
  }

  /// ``songs(matching:artist:chart:exactTitle:)``, each with how well it matches.
  func rankedSongs(
    matching query: String, artist: String?, chart: String?, exactTitle: Bool
  ) throws(ArchiveError) -> [(song: SongSummary, match: SearchMatch)] {
    let search = SearchQuery(query)
    var matches: [Int64: SearchMatch] = [:]
    for credit in try credits(matching: query, artist: artist, chart: chart, exactTitle: exactTitle)
    {
      let match = search.match(title: credit.title, artist: credit.artist)
      // A title found by its letters and digits alone matches when they are the query's, not
      // when only those before a parenthesis are ("Halo" for `halo (live)`).
      if credit.byLetters, match != .wholeTitle { continue }
      matches[credit.song] = min(match, matches[credit.song] ?? match)
    }
    if matches.values.contains(where: { $0 < .insideWords }) {
      matches = matches.filter { $0.value < .insideWords }
    }
    guard !matches.isEmpty else { return [] }
    // The songs with how they match, as a JSON object ({"23638": 0}), ordered by SQLite. The
    // songs are read in the order of their IDs, as they are stored: in the dictionary's order,
    // reading the 9,000 songs `the` finds in the Hot 100 read ten times as many pages.
    let pairs = matches.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value.rawValue)" }
    let found = "{" + pairs.joined(separator: ",") + "}"
    return try reading {
      try database.rows(
        """
        SELECT \(songColumns), m.value FROM json_each(?1) m CROSS JOIN songs g ON g.id = m.key
        ORDER BY m.value, best, n DESC, g.title, g.artist, g.id
        """, [found]
      ) { (song: readSong($0), match: SearchMatch(rawValue: $0.int(at: 9)) ?? .insideWords) }
    }
  }

  /// The titles and credits a search finds (see ``songs(matching:artist:chart:exactTitle:)``),
  /// each with its song's ID, of the songs that have an entry (on `chart`, when given); `byLetters`
  /// when only the index of base titles' letters and digits found it.
  private func credits(
    matching query: String, artist: String?, chart: String?, exactTitle: Bool
  ) throws(ArchiveError) -> [(song: Int64, title: String, artist: String, byLetters: Bool)] {
    let chartID = try chart.map { name throws(ArchiveError) in try self.chartID(name) }
    let words = Self.searchTerms(exactTitle ? nil : query, artist: artist)
    let contains = "%" + escapeLike(SongIdentity.fold(query)) + "%"
    let artistContains = "%" + escapeLike(SongIdentity.fold(artist ?? "")) + "%"
    // A query longer than a LIKE pattern may be is longer than any title or credit (10,000
    // characters): nothing matches, where SQLite would fail ("LIKE or GLOB pattern too complex").
    guard contains.utf8.count <= Self.longestLikePattern,
      artistContains.utf8.count <= Self.longestLikePattern
    else { return [] }
    let baseTitle = exactTitle ? "" : SongIdentity.baseTitle(query)
    // The exact title by its index; else the full-text index, the folded text containing the
    // query (what has no word for the index: "🔥") and the title's letters and digits by their
    // index. The artist's words, when given, in the credit of the same title.
    let credits = [("songs", "id"), ("song_credits", "song_id")]
    var sources: [String]
    if exactTitle {
      sources = credits.map { "SELECT \($1), title, artist, 0 FROM \($0) WHERE title_key = ?1" }
    } else {
      sources = credits.map {
        "SELECT \($1), title, artist, 0 FROM \($0) WHERE \(Self.containsCondition)"
      }
      if !baseTitle.isEmpty {
        sources += credits.map {
          "SELECT \($1), title, artist, 1 FROM \($0)"
            + " WHERE base_title_key = ?6 AND artist_key LIKE ?5 ESCAPE '\\'"
        }
      }
      if !words.isEmpty {
        sources.append(
          "SELECT song_id, title, artist, 0 FROM song_search WHERE song_search MATCH ?2")
      }
    }
    var only = ""
    if exactTitle, !words.isEmpty {
      only += " AND f.song IN (SELECT song_id FROM song_search WHERE song_search MATCH ?2)"
    }
    if chartID != nil {
      only +=
        " AND EXISTS (SELECT 1 FROM entries e JOIN snapshots s ON s.id = e.snapshot_id"
        + " WHERE e.song_id = f.song AND s.chart_id = ?3)"
    }
    return try reading {
      try database.rows(
        """
        WITH f(song, title, artist, by_letters) AS (\(sources.joined(separator: " UNION ALL ")))
        SELECT DISTINCT song, title, artist, by_letters FROM f
        WHERE EXISTS (SELECT 1 FROM entries WHERE song_id = f.song)\(only)
        """,
        [SongIdentity.fold(query), words, chartID ?? -1, contains, artistContains, baseTitle]
      ) {
        (
          song: $0.int64(at: 0), title: $0.string(at: 1), artist: $0.string(at: 2),
          byLetters: $0.int(at: 3) != 0
        )
      }
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
  /// ``songs(matching:artist:chart:exactTitle:)``) those whose whole title is the query (see
  /// ``SearchMatch/wholeTitle``), else all, when they are one song. When an artist is given, the songs credited to exactly that artist win over
  /// those whose credit only contains it.
  ///
  /// - Parameters: as ``songs(matching:artist:chart:exactTitle:)``.
  /// - Throws: ``ArchiveError/noSuchChart(_:)`` or ``ArchiveError/database(path:_:)``.
  public func song(matching query: String, artist: String? = nil, chart: String? = nil)
    throws(ArchiveError) -> SongSearch
  {
    var songs = try rankedSongs(matching: query, artist: artist, chart: chart, exactTitle: true)
    if Set(songs.map(\.song.identity)).count != 1 {
      songs = try rankedSongs(matching: query, artist: artist, chart: chart, exactTitle: false)
    }
    // A credit that is the artist asked for wins over credits that contain it ("Queen Bee", not
    // "Max & Queen Bee").
    // Each found song is looked up by its key (no index has credits by artist: a scan of every
    // song and credit cost a search with --artist 1,400 page reads of the Hot 100's archive).
    if let artist {
      let folded = SongIdentity.fold(artist)
      let credited = try reading {
        var credited: [(song: SongSummary, match: SearchMatch)] = []
        for song in songs {
          let found = try database.row(
            "SELECT 1 FROM songs WHERE id = ?1 AND artist_key = ?2 UNION ALL"
              + " SELECT 1 FROM song_credits WHERE song_id = ?1 AND artist_key = ?2 LIMIT 1",
            [song.song.id.rawValue, folded], { _ in true })
          if found != nil { credited.append(song) }
        }
        return credited
      }
      if !credited.isEmpty { songs = credited }
    }
    let wholeTitles = songs.filter { $0.match == .wholeTitle }.map(\.song)
    let all = songs.map(\.song)
    if let chosen = [wholeTitles, all].first(where: {
      !$0.isEmpty && Set($0.map(\.identity)).count == 1
    }) {
      return .found(chosen.sorted { $0.firstChartDate < $1.firstChartDate })
    }
    return all.isEmpty ? .none : .several(all)
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
  public func history(of song: SongID) throws(ArchiveError) -> [SongHistoryOnChart] {
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
          runVerdict: verdicts[.run], movementVerdict: verdicts[.movement])
      }
      return rows
    }
    var histories: [SongHistoryOnChart] = []
    var start = rows.startIndex
    while start < rows.endIndex {
      let chart = rows[start].chart
      var end = start
      while end < rows.endIndex, rows[end].chart == chart { end += 1 }
      histories.append(
        SongHistoryOnChart(
          chart: chart, frequency: rows[start].frequency.flatMap(ChartFrequency.init),
          history: SongHistory(placements: rows[start..<end].map(\.placement))))
      start = end
    }
    guard try reading({ try database.row("SELECT 1 FROM decisions LIMIT 1") { _ in true } }) != nil
    else { return histories }
    let notes = try decisionNotes(of: song)
    for index in histories.indices {
      histories[index].decisions = notes.filter { $0.chart == histories[index].chart }
    }
    return histories
  }
}

/// Text for a `LIKE` pattern whose escape character is a backslash: `%`, `_` and backslashes in
/// the text stand for themselves.
func escapeLike(_ text: String) -> String {
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
