import ChartRanking
import Foundation

/// Who is credited on each song (migration 0014: `artists`, `song_artists`, `whole_credits`),
/// decided from the song's credits by the credit splitter (``ArtistCredit``, docs/rules.md, "The
/// credit splitter") with the archive asked whether names joined chart on their own.
///
/// A song's artists are those of every credit it charted under: its own (`songs`) and the others
/// (`song_credits`), each with the artists its title features (``MatchKeys/title(folded:original:readsWith:)``).
/// An artist is the lead of a song when it is the first artist of one of those credits, featured
/// otherwise.
///
/// A class, so that the splitter's question to the archive (an escaping closure) can keep its
/// answers. Valid inside the write or migration that made it; not `Sendable`.
final class ArtistIndex {
  let database: Database
  /// Artist IDs by name key, looked up or inserted by this index.
  private var ids: [String: Int64] = [:]
  /// Whether a name key is a whole credit's, as asked of `whole_credits` or known from a rebuild.
  private var alone: [String: Bool] = [:]
  /// The artists of each credit split so far (their keys and names), by the credit as published:
  /// valid while ``alone`` does not change.
  private var credits: [String: [(key: String, name: String)]] = [:]
  /// Names' keys (``key(_:)``), by the name as written.
  private var keys: [String: String] = [:]
  /// Whether `alone` holds every whole credit (a rebuild), so that a key not in it charts with
  /// others only.
  private var aloneIsComplete = false

  init(database: Database) {
    self.database = database
  }

  /// A name's key: folded (``SongIdentity/fold(_:)``) with ` and ` written ` & `, so that `Hall
  /// and Oates` and `Hall & Oates` are one act.
  static func key(_ name: String) -> String {
    keyOfFolded(SongIdentity.fold(name))
  }

  /// ``key(_:)`` of a name folded already.
  static func keyOfFolded(_ folded: String) -> String {
    folded.contains(" and ") ? folded.replacingOccurrences(of: " and ", with: " & ") : folded
  }

  /// The artists a title features (`(feat. B)`, `ft. B`; a lowercase `(with B)` when the song has
  /// a song URL), each as written, in order; none for most titles, told by a scan of their bytes.
  ///
  /// - Parameters:
  ///   - title: the title as published.
  ///   - hasSongURL: whether the song has a song URL.
  ///   - chartsAlone: whether a folded name charts on its own as a whole credit.
  static func featured(
    in title: String, hasSongURL: Bool, chartsAlone: @escaping (String) -> Bool
  ) -> [String] {
    guard mayFeature(title) else { return [] }
    let folded = SongIdentity.fold(title)
    let featured = MatchKeys.title(folded: folded, original: title, readsWith: hasSongURL).featured
    return featured.flatMap { name in
      ArtistCredit.artists(
        in: spelling(of: name, in: title, folded: folded), chartsAlone: chartsAlone)
    }
  }

  /// Whether a title may name a featured artist as ``MatchKeys/title(folded:original:readsWith:)``
  /// finds them: it ends with `)` or `]`, or holds a word starting `fe` or `ft` (any case).
  static func mayFeature(_ title: String) -> Bool {
    let bytes = title.utf8
    if let last = bytes.last, last == 0x29 || last == 0x5D { return true }  // ) ]
    var previous: (UInt8, UInt8) = (0, 0)
    for byte in bytes {
      let lower = byte | 0x20
      if previous.0 == 0x20, previous.1 == 0x66, lower == 0x65 || lower == 0x74 { return true }
      previous = (previous.1, lower)
    }
    return false
  }

  /// A folded name's spelling in the text it was folded from: the same characters where folding
  /// kept the text's length (it does but for letters such as `ß`), else the folded name.
  static func spelling(of name: String, in text: String, folded: String) -> String {
    guard folded.count == text.count, let range = folded.range(of: name) else { return name }
    let start = folded.distance(from: folded.startIndex, to: range.lowerBound)
    let length = folded.distance(from: range.lowerBound, to: range.upperBound)
    let from = text.index(text.startIndex, offsetBy: start)
    return String(text[from..<text.index(from, offsetBy: length)])
  }

  // MARK: - Deciding

  /// Decides every song's artists again, and which credits chart whole: what migration 0014 fills,
  /// and what a correction by hand has decided again (a merge, a split, an undo, a deleted
  /// snapshot may add or take away any credit). Artists keep their IDs and names; an artist no
  /// song credits any more is deleted.
  ///
  /// - Throws: ``DatabaseError``.
  func rebuild() throws(DatabaseError) {
    let credits = try database.rows(
      "SELECT artist FROM songs UNION SELECT artist FROM song_credits", []
    ) { Self.key($0.string(at: 0)) }
    try database.execute("DELETE FROM whole_credits; DELETE FROM song_artists")
    alone = [:]
    for credit in credits where alone.updateValue(true, forKey: credit) == nil {
      try database.run("INSERT INTO whole_credits (name_key) VALUES (?)", credit)
    }
    aloneIsComplete = true
    let songs = try database.rows("SELECT id FROM songs ORDER BY id", []) { $0.int64(at: 0) }
    try decide(songs, new: true)
    try database.execute(
      "DELETE FROM artists WHERE NOT EXISTS (SELECT 1 FROM song_artists WHERE artist_id = artists.id)"
    )
  }

  /// Decides the artists of the songs a write added and of those that took a new credit, and again
  /// those of the songs the archive rule decides otherwise now: those whose credits hold a name
  /// that charts whole for the first time (the act `Homer And Jethro` is two artists once `Homer`
  /// charts on its own).
  ///
  /// - Parameters:
  ///   - created: the songs the write inserted (every one still in the archive).
  ///   - credited: the songs that took a new credit, with the credit's text.
  /// - Throws: ``DatabaseError``.
  func update(created: Set<Int64>, credited: [(song: Int64, artist: String)])
    throws(DatabaseError)
  {
    guard !created.isEmpty || !credited.isEmpty else { return }
    let hadArtists = try database.row("SELECT 1 FROM song_artists LIMIT 1", []) { _ in true } != nil
    // Each credit once: an artist charts many songs under one.
    var texts = Set(credited.map(\.artist))
    for run in References.runs(of: created) {
      texts.formUnion(
        try database.rows(
          "SELECT artist FROM songs WHERE id BETWEEN ? AND ?", [run.lowerBound, run.upperBound],
          { $0.string(at: 0) }))
    }
    var newlyWhole: [String] = []
    let insert = try database.statement("INSERT OR IGNORE INTO whole_credits (name_key) VALUES (?)")
    for key in Set(texts.map(cachedKey)) {
      alone[key] = true
      insert.bind(key, at: 1)
      defer { insert.reset() }
      try insert.run()
      if database.changes > 0 { newlyWhole.append(key) }
    }
    var again = Set(credited.map(\.song)).subtracting(created)
    // Songs charted before this write were decided without the names that chart whole now.
    if hadArtists {
      for key in newlyWhole { again.formUnion(try songs(naming: key)) }
      again.subtract(created)
    }
    try decide(created.sorted(), new: true)
    let before = try artistsOf(again)
    try decide(again.sorted(), new: false)
    for artist in before {
      try database.run(
        "DELETE FROM artists WHERE id = ?1 AND NOT EXISTS"
          + " (SELECT 1 FROM song_artists WHERE artist_id = ?1)", artist)
    }
  }

  /// The songs (by the full-text index `song_search`) one of whose credits holds a name's words
  /// one after another.
  private func songs(naming key: String) throws(DatabaseError) -> Set<Int64> {
    let words = SearchQuery.words(key)
    guard !words.isEmpty else { return [] }
    let phrase = "artist : \"" + words.joined(separator: " ") + "\""
    return Set(
      try database.rows(
        "SELECT song_id FROM song_search WHERE song_search MATCH ?", [phrase], { $0.int64(at: 0) }))
  }

  /// The artists credited on some of the songs.
  private func artistsOf(_ songs: Set<Int64>) throws(DatabaseError) -> Set<Int64> {
    var artists: Set<Int64> = []
    for song in songs {
      artists.formUnion(
        try database.rows(
          "SELECT artist_id FROM song_artists WHERE song_id = ?", [song], { $0.int64(at: 0) }))
    }
    return artists
  }

  /// Decides the artists of songs from their credits, replacing those they had unless `new`.
  private func decide(_ songs: [Int64], new: Bool) throws(DatabaseError) {
    guard !songs.isEmpty else { return }
    let insert = try database.statement(
      "INSERT INTO song_artists (song_id, artist_id, role) VALUES (?, ?, ?)")
    for run in References.runs(of: songs) {
      let rows = try database.rows(
        "SELECT id, identity LIKE 'url:%', title, artist FROM songs WHERE id BETWEEN ?1 AND ?2"
          + " UNION ALL SELECT song_id, (SELECT identity LIKE 'url:%' FROM songs WHERE id = song_id),"
          + " title, artist FROM song_credits WHERE song_id BETWEEN ?1 AND ?2 ORDER BY 1",
        [run.lowerBound, run.upperBound]
      ) { ($0.int64(at: 0), $0.int64(at: 1) != 0, $0.string(at: 2), $0.string(at: 3)) }
      var index = rows.startIndex
      while index < rows.endIndex {
        let song = rows[index].0
        var roles: [(key: String, name: String, role: Int)] = []
        while index < rows.endIndex, rows[index].0 == song {
          let (_, hasSongURL, title, artist) = rows[index]
          try addRoles(title: title, artist: artist, hasSongURL: hasSongURL, to: &roles)
          index += 1
        }
        if !new { try database.run("DELETE FROM song_artists WHERE song_id = ?", song) }
        for (key, name, role) in roles {
          insert.bind(song, at: 1)
          insert.bind(try artistID(key: key, name: name), at: 2)
          insert.bind(role, at: 3)
          defer { insert.reset() }
          try insert.run()
        }
      }
    }
  }

  /// Adds one credit's artists to a song's, each once, a lead one where any credit leads with it.
  private func addRoles(
    title: String, artist: String, hasSongURL: Bool,
    to roles: inout [(key: String, name: String, role: Int)]
  ) throws(DatabaseError) {
    var failure: DatabaseError?
    let chartsAlone = { (folded: String) -> Bool in
      do throws(DatabaseError) {
        return try self.chartsAlone(Self.keyOfFolded(folded))
      } catch {
        failure = error
        return false
      }
    }
    // An artist charts many songs under one credit: its artists are split once.
    var names: [(key: String, name: String)]
    if let known = credits[artist] {
      names = known
    } else {
      names = ArtistCredit.artists(in: artist, chartsAlone: chartsAlone).map {
        (cachedKey($0), $0)
      }
      credits[artist] = names
    }
    names += Self.featured(in: title, hasSongURL: hasSongURL, chartsAlone: chartsAlone).map {
      (Self.key($0), $0)
    }
    if let failure { throw failure }
    for (offset, (key, name)) in names.enumerated() where !key.isEmpty {
      let role = offset == 0 ? 0 : 1
      if let at = roles.firstIndex(where: { $0.key == key }) {
        roles[at].role = min(roles[at].role, role)
      } else {
        roles.append((key, name, role))
      }
    }
  }

  /// ``key(_:)`` of a name, folded once however often it is asked: a credit naming one artist is
  /// that artist's name.
  private func cachedKey(_ name: String) -> String {
    if let key = keys[name] { return key }
    let key = Self.key(name)
    keys[name] = key
    return key
  }

  /// Whether a name key is a whole credit's.
  private func chartsAlone(_ key: String) throws(DatabaseError) -> Bool {
    if let known = alone[key] { return known }
    if aloneIsComplete { return false }
    let found =
      try database.row("SELECT 1 FROM whole_credits WHERE name_key = ?", [key]) { _ in true }
      != nil
    alone[key] = found
    return found
  }

  /// The ID of the artist with a name key, inserted with the name when there is none.
  private func artistID(key: String, name: String) throws(DatabaseError) -> Int64 {
    if let id = ids[key] { return id }
    let id: Int64
    if let found = try database.row(
      "SELECT id FROM artists WHERE name_key = ?", [key], { $0.int64(at: 0) })
    {
      id = found
    } else {
      try database.run("INSERT INTO artists (name, name_key) VALUES (?, ?)", name, key)
      id = database.lastInsertedRowID
    }
    ids[key] = id
    return id
  }
}
