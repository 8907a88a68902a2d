public import ChartRanking

/// A correction a person made, as the archive keeps it (table `decisions`).
public struct Decision: Hashable, Sendable {
  /// What it decides.
  public enum Kind: String, Sendable, CaseIterable {
    /// The songs holding the entries of ``Decision/songs`` are one song.
    case merge
    /// The song holding the entry of ``Decision/songs`` is another song on its chart from that
    /// entry's chart date on.
    case split
    /// The chart ``Decision/chart`` was renamed ``Decision/detail``.
    case rename
    /// The snapshot of ``Decision/chart`` at ``Decision/chartDate`` was deleted; ``Decision/detail``
    /// is the file it came from, when known.
    case delete
  }

  /// Its number: 1 for the first decision of the archive, one more for each (an undone one's
  /// number is not given again while a later one stands).
  public var number: Int
  public var kind: Kind
  /// When it was made (ISO 8601, UTC).
  public var madeAt: String
  /// A merge's songs, each by its first entry on each chart it was on, the kept song first; a
  /// split's one entry (its first of the other song). Empty for a rename or delete.
  public var songs: [[DecisionEntry]]
  /// A rename's chart before; a delete's chart.
  public var chart: String?
  /// A delete's chart date.
  public var chartDate: ChartDate?
  /// A rename's new name; a delete's source file.
  public var detail: String?
  /// How many entries the songs it left had right after it was made, while what undoing it
  /// restores still describes the archive; `nil` once an import applied it again.
  public var entryCount: Int?
}

/// An entry found by a decision: where it is and its song.
public struct LocatedEntry: Hashable, Sendable {
  public var snapshot: SnapshotID
  /// 0-based position in its snapshot.
  public var position: Int
  public var rank: Int
  public var song: SongID
  public var chart: ChartID
  /// Its snapshot's chart date.
  public var chartDate: ChartDate
  public var title: String
  public var artist: String
  public var songURL: String?
}

/// A song's row as `songs` holds it, or one of its credits as `song_credits` does (then
/// `identity` is empty and `recording` 0): what undoing a decision puts back.
public struct SongRow: Hashable, Sendable {
  public var id: SongID
  public var identity: String
  public var recording: Int
  public var title: String
  public var artist: String
  public var titleKey: String
  public var artistKey: String
  public var baseTitleKey: String
  public var primaryArtistKey: String

  public init(
    id: SongID, identity: String, recording: Int, title: String, artist: String, titleKey: String,
    artistKey: String, baseTitleKey: String, primaryArtistKey: String
  ) {
    self.id = id
    self.identity = identity
    self.recording = recording
    self.title = title
    self.artist = artist
    self.titleKey = titleKey
    self.artistKey = artistKey
    self.baseTitleKey = baseTitleKey
    self.primaryArtistKey = primaryArtistKey
  }
}

/// What undoing a decision restores, while nothing changed its songs since (`decision_undo`).
public struct DecisionUndo: Sendable {
  /// Each moved entry's snapshot and position, and its song before the decision.
  public var moves: [(snapshot: SnapshotID, position: Int, song: SongID)] = []
  /// The songs the decision deleted, with their rows.
  public var deletedSongs: [SongRow] = []
  /// The credits deleted with them.
  public var deletedCredits: [SongRow] = []
  /// The credits the decision added to a song.
  public var addedCredits: [SongRow] = []

  public init() {}
}

extension ArchiveReader {
  /// Every decision, in the order made.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func decisions() throws(ArchiveError) -> [Decision] {
    try reading {
      var decisions = try database.rows(
        "SELECT number, kind, made_at, chart, chart_date, detail, entry_count FROM decisions"
          + " ORDER BY number", []
      ) { row in
        Decision(
          number: row.int(at: 0), kind: Decision.Kind(rawValue: row.string(at: 1)) ?? .merge,
          madeAt: row.string(at: 2), songs: [], chart: row.optionalString(at: 3),
          chartDate: row.optionalString(at: 4).flatMap { try? ChartDate(iso8601: $0) },
          detail: row.optionalString(at: 5), entryCount: row.optionalInt(at: 6))
      }
      let entries = try database.rows(
        "SELECT decision, song, chart, chart_date, title, artist, song_url FROM decision_entries"
          + " ORDER BY decision, song, chart", []
      ) { row in
        (
          row.int(at: 0), row.int(at: 1),
          (try? ChartDate(iso8601: row.string(at: 3))).map {
            DecisionEntry(
              chart: row.string(at: 2), chartDate: $0, title: row.string(at: 4),
              artist: row.string(at: 5), songURL: row.optionalString(at: 6))
          }
        )
      }
      let index = Dictionary(
        decisions.indices.map { (decisions[$0].number, $0) }, uniquingKeysWith: { $1 })
      for (number, song, entry) in entries {
        guard let at = index[number], let entry else { continue }
        while decisions[at].songs.count <= song { decisions[at].songs.append([]) }
        decisions[at].songs[song].append(entry)
      }
      return decisions
    }
  }

  /// The entry a decision names, or `nil` when the archive holds no such entry (its snapshot was
  /// deleted, or replaced by one without it). Of two such entries in one snapshot (a title and
  /// credit given twice), the first.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entry(named entry: DecisionEntry) throws(ArchiveError) -> LocatedEntry? {
    try reading {
      try database.row(
        "SELECT e.snapshot_id, e.position, e.rank, e.song_id, s.chart_id, s.chart_date,"
          + " s.chart_time, e.title, e.artist, e.song_url FROM charts c"
          + " JOIN snapshots s ON s.chart_id = c.id AND s.chart_time = ?"
          + " JOIN entries e ON e.snapshot_id = s.id AND e.title = ? AND e.artist = ?"
          + " AND e.song_url IS ? WHERE c.name = ? ORDER BY e.position LIMIT 1",
        [entry.chartDate.secondsSince1970, entry.title, entry.artist, entry.songURL, entry.chart],
        Self.locatedEntry)
    }
  }

  /// Every entry of a song, on every chart, in chart-date order (by chart within one instant).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entries(ofSong song: SongID) throws(ArchiveError) -> [LocatedEntry] {
    try reading {
      try database.rows(
        "SELECT e.snapshot_id, e.position, e.rank, e.song_id, s.chart_id, s.chart_date,"
          + " s.chart_time, e.title, e.artist, e.song_url FROM entries e"
          + " JOIN snapshots s ON s.id = e.snapshot_id WHERE e.song_id = ?"
          + " ORDER BY s.chart_time, s.chart_id, e.position", [song.rawValue], Self.locatedEntry)
    }
  }

  private static func locatedEntry(_ row: Statement) -> LocatedEntry {
    LocatedEntry(
      snapshot: SnapshotID(row.int64(at: 0)), position: row.int(at: 1), rank: row.int(at: 2),
      song: SongID(row.int64(at: 3)), chart: ChartID(row.int64(at: 4)),
      chartDate: ChartDate(trustedISO8601: row.string(at: 5), secondsSince1970: row.int64(at: 6)),
      title: row.string(at: 7), artist: row.string(at: 8), songURL: row.optionalString(at: 9))
  }

  /// How many entries the songs have together.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entryCount(ofSongs songs: Set<SongID>) throws(ArchiveError) -> Int {
    var count = 0
    for song in songs {
      count += try reading {
        try database.row(
          "SELECT count(*) FROM entries WHERE song_id = ?", [song.rawValue], { $0.int(at: 0) })
          ?? 0
      }
    }
    return count
  }

  /// A song's row, or `nil` when there is none with this ID.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func songRow(_ song: SongID) throws(ArchiveError) -> SongRow? {
    try reading {
      try database.row(
        "SELECT id, identity, recording, title, artist, title_key, artist_key, base_title_key,"
          + " primary_artist_key FROM songs WHERE id = ?", [song.rawValue], Self.songRow)
    }
  }

  /// The credits a song charted under besides its own (`song_credits`).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func creditRows(of song: SongID) throws(ArchiveError) -> [SongRow] {
    try reading {
      try database.rows(
        "SELECT song_id, '', 0, title, artist, title_key, artist_key, base_title_key,"
          + " primary_artist_key FROM song_credits WHERE song_id = ? ORDER BY title_key, artist_key",
        [song.rawValue], Self.songRow)
    }
  }

  private static func songRow(_ row: Statement) -> SongRow {
    SongRow(
      id: SongID(row.int64(at: 0)), identity: row.string(at: 1), recording: row.int(at: 2),
      title: row.string(at: 3), artist: row.string(at: 4), titleKey: row.string(at: 5),
      artistKey: row.string(at: 6), baseTitleKey: row.string(at: 7),
      primaryArtistKey: row.string(at: 8))
  }

  /// What undoing a decision restores (see ``DecisionUndo``).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func undo(of decision: Int) throws(ArchiveError) -> DecisionUndo {
    try reading {
      var undo = DecisionUndo()
      let rows = try database.rows(
        "SELECT kind, snapshot_id, position, song_id, coalesce(identity, ''),"
          + " coalesce(recording, 0), title, artist, title_key, artist_key, base_title_key,"
          + " primary_artist_key FROM decision_undo WHERE decision = ? ORDER BY rowid",
        [decision]
      ) { row in
        let kind = row.int(at: 0)
        guard kind != 0 else {
          return (
            kind,
            SongRow(
              id: SongID(row.int64(at: 3)), identity: "", recording: 0, title: "",
              artist: "", titleKey: "", artistKey: "", baseTitleKey: "", primaryArtistKey: ""),
            row.int64(at: 1), row.int(at: 2)
          )
        }
        let song = SongRow(
          id: SongID(row.int64(at: 3)), identity: row.string(at: 4), recording: row.int(at: 5),
          title: row.string(at: 6), artist: row.string(at: 7), titleKey: row.string(at: 8),
          artistKey: row.string(at: 9), baseTitleKey: row.string(at: 10),
          primaryArtistKey: row.string(at: 11))
        return (kind, song, Int64(0), 0)
      }
      for (kind, song, snapshot, position) in rows {
        switch kind {
        case 0: undo.moves.append((SnapshotID(snapshot), position, song.id))
        case 1: undo.deletedSongs.append(song)
        case 2: undo.deletedCredits.append(song)
        default: undo.addedCredits.append(song)
        }
      }
      return undo
    }
  }
}

extension ArchiveReader {
  /// The entry at a position of a snapshot, or `nil` when there is none.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func entry(at position: Int, in snapshot: SnapshotID) throws(ArchiveError)
    -> LocatedEntry?
  {
    try reading {
      try database.row(
        "SELECT e.snapshot_id, e.position, e.rank, e.song_id, s.chart_id, s.chart_date,"
          + " s.chart_time, e.title, e.artist, e.song_url FROM entries e"
          + " JOIN snapshots s ON s.id = e.snapshot_id WHERE e.snapshot_id = ? AND e.position = ?",
        [snapshot.rawValue, position], Self.locatedEntry)
    }
  }
}

/// A decision that joined entries to a song or split them from another, as its history says it.
public struct SongDecisionNote: Hashable, Sendable {
  /// The decision's number.
  public var number: Int
  /// `merge`: the entry (the first of a song merged into this one) was joined by hand; `split`:
  /// the song's entries from it on were split by hand from the entries before.
  public var kind: Decision.Kind
  /// The entry's chart and chart date, title and credit.
  public var chart: String
  public var chartDate: ChartDate
  public var title: String
  public var artist: String
}

extension ArchiveReader {
  /// The decisions whose entries the song holds now: a merge's entries of the songs merged into
  /// another (not those of the song kept), a split's entry, in the order made.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func decisionNotes(of song: SongID) throws(ArchiveError) -> [SongDecisionNote] {
    try reading {
      try database.rows(
        "SELECT d.number, d.kind, c.name, s.chart_date, s.chart_time, e.title, e.artist"
          + " FROM decision_entries de JOIN decisions d ON d.number = de.decision"
          + " JOIN charts c ON c.name = de.chart"
          + " JOIN snapshots s ON s.chart_id = c.id AND s.chart_date = de.chart_date"
          + " JOIN entries e ON e.snapshot_id = s.id AND e.title = de.title"
          + " AND e.artist = de.artist AND e.song_url IS de.song_url"
          + " WHERE e.song_id = ? AND (d.kind = 'split' OR de.song > 0)"
          + " ORDER BY d.number, s.chart_time", [song.rawValue]
      ) { row in
        SongDecisionNote(
          number: row.int(at: 0), kind: Decision.Kind(rawValue: row.string(at: 1)) ?? .merge,
          chart: row.string(at: 2),
          chartDate: ChartDate(
            trustedISO8601: row.string(at: 3), secondsSince1970: row.int64(at: 4)),
          title: row.string(at: 5), artist: row.string(at: 6))
      }
    }
  }
}

extension ArchiveReader {
  /// The entries of a chart that merges and splits name (see ``HandDecidedEntry``), in the order
  /// the decisions were made, a merge's by the order of its songs: what the audit asks to tell a
  /// disagreement a decision explains. Empty for a chart no decision names.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func handDecidedEntries(ofChart chart: ChartID) throws(ArchiveError)
    -> [HandDecidedEntry]
  {
    try reading {
      try database.rows(
        "SELECT d.number, d.kind, de.song, de.chart_date, de.title, de.artist, de.song_url"
          + " FROM charts c JOIN decision_entries de ON de.chart = c.name"
          + " JOIN decisions d ON d.number = de.decision"
          + " WHERE c.id = ? AND d.kind IN ('merge', 'split') ORDER BY d.number, de.song",
        [chart.rawValue]
      ) { row in
        (try? ChartDate(iso8601: row.string(at: 3))).map {
          HandDecidedEntry(
            decision: row.int(at: 0), kind: row.string(at: 1) == "split" ? .split : .merge,
            group: row.int(at: 2), chartDate: $0, title: row.string(at: 4),
            artist: row.string(at: 5), songURL: row.optionalString(at: 6))
        }
      }.compactMap(\.self)
    }
  }

  /// The song holding an entry a decision names on a chart (of two such entries in one
  /// snapshot, the first), or `nil` when the chart has no snapshot at its chart date with such
  /// an entry.
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func song(holding entry: HandDecidedEntry, onChart chart: ChartID) throws(ArchiveError)
    -> SongID?
  {
    try reading {
      try database.row(
        "SELECT e.song_id FROM snapshots s JOIN entries e ON e.snapshot_id = s.id"
          + " AND e.title = ? AND e.artist = ? AND e.song_url IS ?"
          + " WHERE s.chart_id = ? AND s.chart_time = ? ORDER BY e.position LIMIT 1",
        [
          entry.title, entry.artist, entry.songURL, chart.rawValue,
          entry.chartDate.secondsSince1970,
        ]
      ) { SongID($0.int64(at: 0)) }
    }
  }
}

extension Decision {
  /// The decision as an export carries it: a merge or a split; `nil` for a rename or a delete,
  /// which concern the archive's own charts and snapshots.
  public var songDecision: SongDecision? {
    switch kind {
    case .merge: SongDecision(kind: .merge, madeAt: madeAt, songs: songs)
    case .split: SongDecision(kind: .split, madeAt: madeAt, songs: songs)
    case .rename, .delete: nil
    }
  }
}
