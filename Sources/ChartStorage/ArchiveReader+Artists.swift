public import ChartRanking

extension ArchiveReader {
  // MARK: - Artists

  /// An artist by ID, or `nil` when there is none (the artist no song credits any more).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func artist(_ id: ArtistID) throws(ArchiveError) -> ArtistSummary? {
    try reading {
      try database.row(
        "SELECT a.id, a.name, (SELECT count(*) FROM song_artists WHERE artist_id = a.id)"
          + " FROM artists a WHERE a.id = ?", [id.rawValue], readArtist)
    }
  }

  /// The artists credited on a song, leads first, then by name.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func artists(of song: SongID) throws(ArchiveError) -> [(
    artist: ArtistSummary, role: ArtistRole
  )] {
    try reading {
      try database.rows(
        "SELECT a.id, a.name, (SELECT count(*) FROM song_artists WHERE artist_id = a.id), r.role"
          + " FROM song_artists r JOIN artists a ON a.id = r.artist_id WHERE r.song_id = ?"
          + " ORDER BY r.role, a.name_key", [song.rawValue]
      ) { (readArtist($0), ArtistRole(rawValue: $0.int(at: 3)) ?? .featured) }
    }
  }

  /// Artists matching a search, best first.
  ///
  /// Case and accents do not matter, nor `and` for `&` (`beyonce` finds Beyoncé, `hall and oates`
  /// Hall & Oates). An artist whose whole name is the query is the one match. Otherwise an artist
  /// matches when each word of the query begins a word of their name (`swift` finds Taylor
  /// Swift); failing that, when the query is a credit (`Drake Featuring Rihanna`, split by the
  /// credit splitter), the artists it names; failing that, the artists of the songs one of whose
  /// credits holds every word of the query, whose names hold one of its words. Matches by name
  /// are ordered by their number of songs (most first), then name.
  ///
  /// - Parameter query: a name, part of one, or a credit.
  /// - Returns: the artists; none for a query without a letter or digit.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func artists(matching query: String) throws(ArchiveError) -> [ArtistSummary] {
    let words = SearchQuery.words(query)
    guard !words.isEmpty else { return [] }
    return try reading { () throws(DatabaseError) in
      if let exact = try artist(keyed: ArtistIndex.key(query)) { return [exact] }
      let named = try artists(withWords: words)
      if !named.isEmpty { return named }
      let parts = ArtistCredit.artists(in: query)
      if parts.count > 1 {
        var found: [ArtistSummary] = []
        for part in parts {
          if let artist = try artist(keyed: ArtistIndex.key(part)), !found.contains(artist) {
            found.append(artist)
          }
        }
        if !found.isEmpty { return found }
      }
      return try artists(creditedWith: words)
    }
  }

  /// "Did you mean" for an artist search that found none: each word of the query corrected to a
  /// word of an artist's name (``Suggestions/correction(of:among:)``), and the artists the
  /// corrected search finds.
  ///
  /// - Returns: the corrected query and its artists; `nil` when no word could be corrected or the
  ///   corrected search finds none.
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func artistSuggestion(forSearch query: String) throws(ArchiveError) -> (
    query: String, artists: [ArtistSummary]
  )? {
    let names = try reading { () throws(DatabaseError) in
      try database.rows("SELECT name FROM artists", []) { $0.string(at: 0) }
    }
    var counts: [String: Int] = [:]
    for name in names {
      for word in Set(SearchQuery.words(name)) { counts[word, default: 0] += 1 }
    }
    let terms = counts.map { (term: $0.key, rows: $0.value) }
    var changed = false
    let fixed = query.split(whereSeparator: \.isWhitespace).map { word in
      guard let term = Suggestions.correction(of: String(word), among: terms) else {
        return String(word)
      }
      changed = true
      return term
    }.joined(separator: " ")
    guard changed else { return nil }
    let artists = try artists(matching: fixed)
    return artists.isEmpty ? nil : (fixed, artists)
  }

  /// An artist's careers: on each chart their songs were on (or on `chart` only), every song
  /// credited to them as lead or featured with its stored figures, by chart name.
  ///
  /// - Parameters:
  ///   - artist: the artist.
  ///   - chart: one chart's name, or `nil` for every chart.
  /// - Returns: a career per chart with at least one of the artist's songs; none for an artist
  ///   without songs there.
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` for an unknown chart,
  ///   ``ArchiveError/database(path:_:)``.
  public func careers(of artist: ArtistID, onChart chart: String? = nil) throws(ArchiveError)
    -> [ArtistCareer]
  {
    var only: Int64?
    if let chart { only = try chartID(chart) }
    return try reading { () throws(DatabaseError) in
      var songs: [SongID: (title: String, credit: String, role: ArtistRole)] = [:]
      for (song, about) in try database.rows(
        "SELECT r.song_id, g.title, g.artist, r.role FROM song_artists r"
          + " JOIN songs g ON g.id = r.song_id WHERE r.artist_id = ?", [artist.rawValue],
        {
          (
            SongID($0.int64(at: 0)),
            ($0.string(at: 1), $0.string(at: 2), ArtistRole(rawValue: $0.int(at: 3)) ?? .featured)
          )
        })
      {
        songs[song] = about
      }
      let entries = try entriesByChart(of: songs.keys, onChart: only)
      let charts = Dictionary(
        uniqueKeysWithValues: try database.rows("SELECT id, name, frequency FROM charts", []) {
          ($0.int64(at: 0), ($0.string(at: 1), $0.optionalString(at: 2)))
        })
      return entries.compactMap { chart, entries in
        charts[chart].map {
          ArtistCareer(
            chart: $0.0, frequency: $0.1.flatMap(ChartFrequency.init(rawValue:)), entries: entries,
            songs: songs)
        }
      }.sorted { $0.chart < $1.chart }
    }
  }

  /// The entries of songs with their stored figures, by chart ID: a lookup of each song's entries
  /// by the index of entries by song.
  private func entriesByChart(of songs: some Sequence<SongID>, onChart chart: Int64?)
    throws(DatabaseError) -> [Int64: [ArtistEntry]]
  {
    var entries: [Int64: [ArtistEntry]] = [:]
    let statement = try database.statement(
      "SELECT s.chart_id, s.chart_date, s.chart_time, e.rank, e.peak_position,"
        + " e.weeks_on_chart, e.run, e.figure_flags & 4 FROM entries e"
        + " JOIN snapshots s ON s.id = e.snapshot_id WHERE e.song_id = ?1"
        + " AND (?2 IS NULL OR s.chart_id = ?2)")
    for song in songs {
      statement.bind(song.rawValue, at: 1)
      if let chart { statement.bind(chart, at: 2) } else { statement.bindNull(at: 2) }
      defer { statement.reset() }
      while try statement.step() {
        entries[statement.int64(at: 0), default: []].append(
          ArtistEntry(
            song: song,
            chartDate: ChartDate(
              trustedISO8601: statement.string(at: 1), secondsSince1970: statement.int64(at: 2)),
            rank: statement.int(at: 3), peakPosition: statement.int(at: 4),
            weeksOnChart: statement.int(at: 5), run: statement.int(at: 6),
            isPartialRun: statement.int(at: 7) != 0))
      }
    }
    return entries
  }

  // MARK: - Searching

  /// The artist whose name key is `key`.
  private func artist(keyed key: String) throws(DatabaseError) -> ArtistSummary? {
    try database.row(
      "SELECT a.id, a.name, (SELECT count(*) FROM song_artists WHERE artist_id = a.id)"
        + " FROM artists a WHERE a.name_key = ?", [key], readArtist)
  }

  /// The artists each word of whose name some word of `words` begins, by songs, then name.
  private func artists(withWords words: [String]) throws(DatabaseError) -> [ArtistSummary] {
    // The longest word narrows the scan; every word is checked against the name's words.
    let longest = words.max { $0.count < $1.count } ?? ""
    let candidates = try database.rows(
      "SELECT a.id, a.name, (SELECT count(*) FROM song_artists WHERE artist_id = a.id)"
        + " FROM artists a WHERE a.name_key LIKE ? ESCAPE '\\'",
      ["%" + escapeLike(longest) + "%"], readArtist)
    return
      candidates.filter { artist in
        let nameWords = SearchQuery.words(artist.name)
        return words.allSatisfy { word in nameWords.contains { $0.hasPrefix(word) } }
      }
      .sorted { ($1.songCount, $0.name) < ($0.songCount, $1.name) }
  }

  /// The artists of the songs with a credit holding every word (as a word's beginning) whose names
  /// hold one of the words, by songs, then name.
  private func artists(creditedWith words: [String]) throws(DatabaseError) -> [ArtistSummary] {
    let match = words.map { "artist : \"\($0)\"*" }.joined(separator: " AND ")
    let found = try database.rows(
      "SELECT a.id, a.name, (SELECT count(*) FROM song_artists WHERE artist_id = a.id)"
        + " FROM artists a WHERE a.id IN (SELECT artist_id FROM song_artists WHERE song_id IN"
        + " (SELECT song_id FROM song_search WHERE song_search MATCH ? LIMIT 1000))", [match],
      readArtist)
    return
      found.filter { artist in
        let nameWords = SearchQuery.words(artist.name)
        return words.contains { word in nameWords.contains { $0.hasPrefix(word) } }
      }
      .sorted { ($1.songCount, $0.name) < ($0.songCount, $1.name) }
  }
}

private func readArtist(_ row: Statement) -> ArtistSummary {
  ArtistSummary(id: ArtistID(row.int64(at: 0)), name: row.string(at: 1), songCount: row.int(at: 2))
}
