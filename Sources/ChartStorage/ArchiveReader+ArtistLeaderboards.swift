public import ChartRanking
import Foundation

extension ArchiveReader {
  // MARK: - Artist leaderboards

  /// A leaderboard of artists on a chart (see ``ArtistLeaderboard/Figure``): each artist credited
  /// on a song (lead or featured, `song_artists`) scored from the chart's entries and their
  /// stored figures, never decided again; ranked most first, ties sharing a rank (1, 1, 3).
  ///
  /// One scan of the chart's entries in the span (those ranked 1 or in the top 10 only, for the
  /// figures about them) with the artists of each entry's song.
  ///
  /// - Parameters:
  ///   - figure: what is counted.
  ///   - chart: the chart's name.
  ///   - from: the span's first chart date, inclusive, or `nil` for the chart's first: a day is
  ///     the chart's day in its time zone (``RecordSpan/instants(in:)``).
  ///   - to: the span's last chart date, inclusive (all of its day), or `nil` for the chart's
  ///     latest.
  ///   - limit: the last rank listed (more rows where artists tie at it); at least 1.
  /// - Returns: the leaderboard; no rows when no entry of the span counts.
  /// - Throws: ``ArchiveError/noSuchChart(_:charts:)`` for an unknown chart,
  ///   ``ArchiveError/database(path:_:)``.
  public func artistLeaderboard(
    _ figure: ArtistLeaderboard.Figure, chart: String, from: ChartDate? = nil,
    to: ChartDate? = nil, limit: Int = 10
  ) throws(ArchiveError) -> ArtistLeaderboard {
    var scores: ArtistScores?
    return ArtistLeaderboard(
      figure: figure, chart: chart, from: from, to: to,
      rows: try artistRows(
        figure, chartID: try chartID(chart), from: from, to: to, limit: limit, scores: &scores))
  }

  /// The rows of ``artistLeaderboard(_:chart:from:to:limit:)`` for a chart's ID.
  ///
  /// - Parameter scores: every figure's scores of the chart and span, when read already (see
  ///   ``artistScores(chart:instants:)``): the records' five artist leaderboards read them once.
  func artistRows(
    _ figure: ArtistLeaderboard.Figure, chartID: Int64, from: ChartDate?, to: ChartDate?,
    limit: Int, scores known: inout ArtistScores?
  ) throws(ArchiveError) -> [ArtistLeaderboard.Row] {
    if from == nil, to == nil, known == nil,
      let kept = try keptArtistRows(figure, chartID: chartID, limit: limit)
    {
      return kept
    }
    let instants = RecordSpan(from: from, to: to).instants(in: try timeZone(ofChart: chartID))
    if known == nil {
      known = try reading { () throws(DatabaseError) in
        try artistScores(chart: chartID, instants: instants)
      }
    }
    guard let all = known else { return [] }
    let scores = all.scores[figure] ?? [:]
    // Names are read for the artists that may be ranked within the limit only.
    let figures = scores.values.map(\.figure).sorted(by: >)
    let threshold = figures.isEmpty ? 1 : figures[min(max(1, limit), figures.count) - 1]
    return try ranked(
      scores.filter { $0.value.figure >= threshold }.map {
        (
          id: $0.key, figure: $0.value.figure, first: all.dates[$0.value.first],
          last: all.dates[$0.value.last]
        )
      }, limit: limit)
  }

  /// Artists' figures, by artist ID, named and ranked (``ArtistLeaderboard/ranked(_:limit:)``);
  /// an artist no longer in the archive is left out.
  private func ranked(
    _ figures: [(id: Int64, figure: Int, first: ChartDate, last: ChartDate)], limit: Int
  ) throws(ArchiveError) -> [ArtistLeaderboard.Row] {
    var named: [(artist: ArtistSummary, figure: Int, firstDate: ChartDate, lastDate: ChartDate)] =
      []
    for figure in figures {
      guard let artist = try artist(ArtistID(figure.id)) else { continue }
      named.append((artist, figure.figure, figure.first, figure.last))
    }
    return ArtistLeaderboard.ranked(named, limit: limit)
  }

  /// The rows of ``artistLeaderboard(_:chart:from:to:limit:)`` over the chart's whole history
  /// from the totals kept for it (``ArtistTotals``), when they hold for the archive's version;
  /// `nil` when they do not, and the entries are to be added up.
  func keptArtistRows(_ figure: ArtistLeaderboard.Figure, chartID: Int64, limit: Int)
    throws(ArchiveError) -> [ArtistLeaderboard.Row]?
  {
    try reading { () throws -> [ArtistLeaderboard.Row]? in
      let holds = try database.row(
        "SELECT 1 FROM artist_totals_kept k, archive_version v"
          + " WHERE k.chart_id = ? AND k.version = v.version", [chartID]
      ) { _ in true }
      guard holds == true else { return nil }
      let code = ArtistTotals.code(figure)
      // Names are read for the artists that may be ranked within the limit only.
      let threshold =
        try database.row(
          "SELECT total FROM artist_totals WHERE chart_id = ? AND figure = ?"
            + " ORDER BY total DESC LIMIT 1 OFFSET ?", [chartID, code, max(1, limit) - 1]
        ) { $0.int(at: 0) } ?? 1
      return try ranked(
        try database.rows(
          "SELECT t.artist_id, t.total, f.chart_date, f.chart_time, l.chart_date, l.chart_time"
            + " FROM artist_totals t JOIN snapshots f ON f.id = t.first_snapshot_id"
            + " JOIN snapshots l ON l.id = t.last_snapshot_id"
            + " WHERE t.chart_id = ? AND t.figure = ? AND t.total >= ?", [chartID, code, threshold]
        ) {
          (
            id: $0.int64(at: 0), figure: $0.int(at: 1),
            first: ChartDate(trustedISO8601: $0.string(at: 2), secondsSince1970: $0.int64(at: 3)),
            last: ChartDate(trustedISO8601: $0.string(at: 4), secondsSince1970: $0.int64(at: 5))
          )
        }, limit: limit)
    }
  }

  /// One artist's score: its figure, and the first and last snapshot that make it (indexes of
  /// ``ArtistScores/dates``).
  struct ArtistScore {
    var figure = 0
    var first: Int
    var last: Int
  }

  /// Every artist's score of each figure on a chart in a span, by artist ID (an artist without
  /// an entry that counts has none), with the span's chart dates in chart order.
  struct ArtistScores {
    /// Each figure's scores, by artist ID.
    var scores: [ArtistLeaderboard.Figure: [Int64: ArtistScore]]
    /// The chart dates of the span's snapshots, in chart order: what the scores' snapshot
    /// indexes refer to.
    var dates: [ChartDate]
    /// The same snapshots' IDs.
    var snapshots: [Int64]
  }

  /// Every artist's score of each figure, from one scan of the chart's entries in the span, in
  /// chart order, with the artists of each entry's song (`song_artists`) read once beforehand.
  /// Songs are counted by song, each song's first and last snapshot found in the scan; weeks at
  /// number 1 and entries at once by snapshot.
  func artistScores(chart: Int64, instants: (from: Int64, to: Int64)) throws(DatabaseError)
    -> ArtistScores
  {
    let credits = try SongCredits(database)
    var tally = ArtistTally(songCount: credits.songCount, artistCount: credits.artistIDs.count)
    let snapshots = try database.statement(
      "SELECT id, chart_date, chart_time FROM snapshots"
        + " WHERE chart_id = ?1 AND chart_time BETWEEN ?2 AND ?3 ORDER BY chart_time")
    snapshots.bind([chart, instants.from, instants.to])
    var order: [Int64: Int] = [:]
    var dates: [ChartDate] = []
    var ids: [Int64] = []
    while try snapshots.step() {
      order[snapshots.int64(at: 0)] = dates.count
      ids.append(snapshots.int64(at: 0))
      dates.append(
        ChartDate(
          trustedISO8601: snapshots.string(at: 1), secondsSince1970: snapshots.int64(at: 2)))
    }
    snapshots.reset()
    // Weeks on chart are read for the entries at number 1 only, from their partial index: the
    // scan of every entry then reads the first columns of each row only (a quarter faster).
    var weeksAtNumberOne: [EntryKey: Int64] = [:]
    let numberOnes = try database.statement(
      "SELECT e.snapshot_id, e.position, e.weeks_on_chart"
        // The index first (CROSS JOIN keeps the order): scanned once, not once a snapshot.
        + " FROM entries e INDEXED BY entries_at_number_one CROSS JOIN snapshots s"
        + " WHERE s.id = e.snapshot_id AND e.rank = 1 AND s.chart_id = ?1"
        + " AND s.chart_time BETWEEN ?2 AND ?3")
    numberOnes.bind([chart, instants.from, instants.to])
    while try numberOnes.step() {
      weeksAtNumberOne[
        EntryKey(snapshot: numberOnes.int64(at: 0), position: numberOnes.int64(at: 1))] =
        numberOnes.int64(at: 2)
    }
    numberOnes.reset()
    let entries = try database.statement(
      "SELECT e.snapshot_id, e.position, e.song_id, e.rank"
        + " FROM snapshots s JOIN entries e ON e.snapshot_id = s.id"
        + " WHERE s.chart_id = ?1 AND s.chart_time BETWEEN ?2 AND ?3 ORDER BY s.chart_time")
    entries.bind([chart, instants.from, instants.to])
    defer { entries.reset() }
    var snapshot: Int64 = -1
    var index = -1
    while try entries.step() {
      if entries.int64(at: 0) != snapshot {
        tally.endSnapshot(index)
        snapshot = entries.int64(at: 0)
        index = order[snapshot] ?? index
      }
      guard let song = credits.number(of: entries.int64(at: 2)) else { continue }
      let rank = entries.int(at: 3)
      let weeks =
        rank > 1
        ? 0 : weeksAtNumberOne[EntryKey(snapshot: snapshot, position: entries.int64(at: 1))] ?? 0
      tally.count(
        song: song, artists: credits.artists(of: song), rank: rank, weeksOnChart: weeks,
        snapshot: index)
    }
    tally.endSnapshot(index)
    return ArtistScores(scores: tally.scores(credits), dates: dates, snapshots: ids)
  }
}

extension ArchiveReader {
  /// Every artist's score of each figure from a chart's entries as a write logged them, every one
  /// of the chart's (``ChartEntryLog``), counted as ``artistScores(chart:instants:)`` counts the
  /// chart's rows over all its dates, with the artists of each song (`song_artists`) read once.
  func artistScores(of log: ChartEntryLog) throws(DatabaseError) -> ArtistScores {
    let credits = try SongCredits(database)
    var tally = ArtistTally(songCount: credits.songCount, artistCount: credits.artistIDs.count)
    for snapshot in log.snapshotIDs.indices {
      for entry in log.entries(ofSnapshotAt: snapshot) {
        guard let song = credits.number(of: Int64(log.songs[entry])) else { continue }
        let rank = Int(log.ranks[entry])
        tally.count(
          song: song, artists: credits.artists(of: song), rank: rank,
          weeksOnChart: rank > 1 ? 0 : log.weeksAtNumberOne[entry] ?? 0, snapshot: snapshot)
      }
      tally.endSnapshot(snapshot)
    }
    return ArtistScores(
      scores: tally.scores(credits), dates: log.chartDates, snapshots: log.snapshotIDs)
  }
}

/// An entry's primary key.
private struct EntryKey: Hashable {
  var snapshot: Int64
  var position: Int64
}

/// The artists of every song (`song_artists`), songs and artists numbered from 0 in ID order.
private struct SongCredits {
  /// Each song's number, by song ID.
  private var songs: [Int64: Int] = [:]
  /// The same, indexed by song ID (-1 for none), when the IDs are dense enough (song IDs are
  /// row IDs: dense unless many songs were deleted); then ``songs`` is left empty.
  private var denseSongs: [Int32] = []
  /// How many songs have artists.
  private(set) var songCount = 0
  /// Each song's artists' numbers: those of song `n` are
  /// `artistNumbers[starts[n]..<starts[n + 1]]`.
  private var starts: [Int] = [0]
  private var artistNumbers: [Int] = []
  /// The artists' IDs, by number.
  var artistIDs: [Int64] = []

  init(_ database: Database) throws(DatabaseError) {
    var numbers: [Int64: Int] = [:]
    let statement = try database.statement(
      "SELECT song_id, artist_id FROM song_artists ORDER BY song_id")
    defer { statement.reset() }
    var last: Int64?
    while try statement.step() {
      let song = statement.int64(at: 0)
      let artist = statement.int64(at: 1)
      if song != last {
        if last != nil { starts.append(artistNumbers.count) }
        songs[song] = songs.count
        last = song
      }
      if let number = numbers[artist] {
        artistNumbers.append(number)
      } else {
        numbers[artist] = artistIDs.count
        artistNumbers.append(artistIDs.count)
        artistIDs.append(artist)
      }
    }
    starts.append(artistNumbers.count)
    songCount = songs.count
    if let largest = last, largest >= 0, largest < 4 * Int64(songs.count) + 4_096 {
      denseSongs = Array(repeating: -1, count: Int(largest) + 1)
      for (id, number) in songs { denseSongs[Int(id)] = Int32(number) }
      songs = [:]
    }
  }

  /// The number of the song with an ID; `nil` for a song without artists.
  func number(of song: Int64) -> Int? {
    guard !denseSongs.isEmpty else { return songs[song] }
    guard song >= 0, song < denseSongs.count, denseSongs[Int(song)] >= 0 else { return nil }
    return Int(denseSongs[Int(song)])
  }

  /// The artists' numbers of the song numbered `song`.
  func artists(of song: Int) -> ArraySlice<Int> { artistNumbers[starts[song]..<starts[song + 1]] }
}

/// The figures of the artist leaderboards as a scan in chart order adds them up: songs by song,
/// weeks at number 1 and entries at once by snapshot.
private struct ArtistTally {
  /// Per song (by number): its first and last snapshot (indexes in chart order) in the span at
  /// number 1, in the top 10, anywhere; -1 while it has none.
  var atNumberOne: SongSpans
  var inTopTen: SongSpans
  var onChart: SongSpans

  /// Each song's first and last snapshot of some kind.
  struct SongSpans {
    var first: [Int32]
    var last: [Int32]

    init(count: Int) {
      first = Array(repeating: -1, count: count)
      last = first
    }

    /// The song numbered `song` is seen on the snapshot with index `snapshot` (in chart order).
    mutating func see(_ song: Int, on snapshot: Int) {
      if first[song] < 0 { first[song] = Int32(snapshot) }
      last[song] = Int32(snapshot)
    }
  }
  /// The weeks at number 1 already counted: (song, weeks on chart); a snapshot repeating the
  /// previous one repeats its weeks on chart.
  var weeksCounted: Set<[Int64]> = []
  /// Per artist (by number): weeks at number 1, the snapshot last counted.
  var weeks: [ArtistScoreCount]
  /// Per artist: the most entries at once, and those on the snapshot being counted.
  var atOnce: [ArtistScoreCount]
  var onThisSnapshot: [Int]
  var touched: [Int] = []

  /// A figure counted by snapshot, with the snapshot that last changed it.
  struct ArtistScoreCount {
    var figure = 0
    var first = -1
    var last = -1
  }

  init(songCount: Int, artistCount: Int) {
    atNumberOne = SongSpans(count: songCount)
    inTopTen = atNumberOne
    onChart = atNumberOne
    weeks = Array(repeating: ArtistScoreCount(), count: artistCount)
    atOnce = weeks
    onThisSnapshot = Array(repeating: 0, count: artistCount)
  }

  /// Counts an entry of the song numbered `song`, credited to `artists`, on the snapshot with
  /// index `snapshot`.
  mutating func count(
    song: Int, artists: ArraySlice<Int>, rank: Int, weeksOnChart: Int64, snapshot: Int
  ) {
    onChart.see(song, on: snapshot)
    for artist in artists {
      if onThisSnapshot[artist] == 0 { touched.append(artist) }
      onThisSnapshot[artist] += 1
    }
    guard rank <= ArtistLeaderboard.Figure.lowestTopTenRank else { return }
    inTopTen.see(song, on: snapshot)
    guard rank <= 1 else { return }
    atNumberOne.see(song, on: snapshot)
    let isNewWeek = weeksCounted.insert([Int64(song), weeksOnChart]).inserted
    for artist in artists {
      if weeks[artist].first < 0 { weeks[artist].first = snapshot }
      guard isNewWeek else { continue }
      if weeks[artist].last != snapshot { weeks[artist].figure += 1 }
      weeks[artist].last = snapshot
    }
  }

  /// The snapshot with index `snapshot` is counted: each artist's entries on it against its
  /// most at once (the first snapshot to reach the most, and the last).
  mutating func endSnapshot(_ snapshot: Int) {
    for artist in touched {
      let count = onThisSnapshot[artist]
      if count > atOnce[artist].figure {
        atOnce[artist] = ArtistScoreCount(figure: count, first: snapshot, last: snapshot)
      } else if count == atOnce[artist].figure {
        atOnce[artist].last = snapshot
      }
      onThisSnapshot[artist] = 0
    }
    touched.removeAll(keepingCapacity: true)
  }

  /// Every figure's scores, by artist ID.
  func scores(_ credits: SongCredits) -> [ArtistLeaderboard.Figure: [Int64: ArchiveReader
    .ArtistScore]]
  {
    var result: [ArtistLeaderboard.Figure: [Int64: ArchiveReader.ArtistScore]] = [:]
    for (figure, seen) in [
      (ArtistLeaderboard.Figure.numberOnes, atNumberOne), (.topTens, inTopTen), (.entries, onChart),
    ] {
      var counts = Array(repeating: ArtistScoreCount(), count: credits.artistIDs.count)
      for song in seen.first.indices where seen.first[song] >= 0 {
        let (first, last) = (Int(seen.first[song]), Int(seen.last[song]))
        for artist in credits.artists(of: song) {
          counts[artist].figure += 1
          counts[artist].first = counts[artist].first < 0 ? first : min(counts[artist].first, first)
          counts[artist].last = max(counts[artist].last, last)
        }
      }
      result[figure] = Self.scores(counts, credits)
    }
    for (figure, counts) in [
      (ArtistLeaderboard.Figure.weeksAtNumberOne, weeks), (.entriesAtOnce, atOnce),
    ] {
      result[figure] = Self.scores(counts, credits)
    }
    return result
  }

  /// The scores of the artists counted, by artist ID.
  private static func scores(_ counts: [ArtistScoreCount], _ credits: SongCredits) -> [Int64:
    ArchiveReader.ArtistScore]
  {
    var scores: [Int64: ArchiveReader.ArtistScore] = [:]
    for (artist, count) in counts.enumerated() where count.first >= 0 {
      scores[credits.artistIDs[artist]] = ArchiveReader.ArtistScore(
        figure: count.figure, first: count.first, last: count.last)
    }
    return scores
  }
}
