import ChartRanking
import Dispatch
import Foundation
import Synchronization

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
  /// Whether the archive held an artist before this index inserted any; `nil` until asked.
  private var artistsBefore: Bool?
  /// Whether a name key is a whole credit's, as asked of `whole_credits` or known from a rebuild.
  private var alone: [String: Bool] = [:]
  /// The credits split so far and the names' keys: valid while ``alone`` does not change.
  private var splitter = CreditSplitter()
  /// What ``beginUpdate(created:credited:)`` leaves to ``endUpdate()``.
  private var pending: Pending?

  /// The created songs' artists being decided, and the songs to decide again after them.
  private struct Pending {
    var created: PendingRoles
    var again: Set<Int64>
  }
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

  /// ``key(_:)`` of a name folded already. An ASCII name is searched byte by byte (Foundation's
  /// string search costs some thousand instructions a call on Linux, and most names are ASCII).
  static func keyOfFolded(_ folded: String) -> String {
    guard isASCII(folded) else {
      return folded.contains(" and ")
        ? folded.replacingOccurrences(of: " and ", with: " & ") : folded
    }
    let bytes = Array(folded.utf8)
    guard firstOffset(of: andBytes, in: bytes[...]) != nil else { return folded }
    var key: [UInt8] = []
    key.reserveCapacity(bytes.count)
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x20, bytes[index...].starts(with: andBytes) {
        key += [0x20, 0x26, 0x20]  // " & "
        index += andBytes.count
      } else {
        key.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: key, as: UTF8.self)
  }

  private static let andBytes = Array(" and ".utf8)

  /// Whether a text is ASCII, without a carriage return (which makes one character with the line
  /// feed after it): its characters are then its bytes.
  static func isASCII(_ text: String) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
  }

  /// The offset of the first occurrence of `needle` in `bytes`, from `bytes`' start.
  static func firstOffset(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard let first = needle.first, needle.count <= bytes.count else { return nil }
    var index = bytes.startIndex
    while index + needle.count <= bytes.endIndex {
      if bytes[index] == first, bytes[index...].starts(with: needle) {
        return index - bytes.startIndex
      }
      index += 1
    }
    return nil
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
    if isASCII(text), isASCII(folded), isASCII(name) {
      // Characters are bytes: the same search, byte by byte.
      let textBytes = Array(text.utf8)
      guard folded.utf8.count == textBytes.count,
        let start = firstOffset(of: Array(name.utf8), in: Array(folded.utf8)[...])
      else { return name }
      return String(decoding: textBytes[start..<start + name.utf8.count], as: UTF8.self)
    }
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
    try beginUpdate(created: created, credited: credited, known: [:])
    try endUpdate()
  }

  /// The first part of ``update(created:credited:)``: which names chart whole, which songs are
  /// decided again, the created songs' credits read, and the split of many of them (a first
  /// import's) begun on another thread. Until ``endUpdate()`` the write may do what does not touch
  /// the artists, the songs or their credits (fill the full-text index).
  ///
  /// - Parameter known: the own credits (their rows in `songs`) of created songs, by song ID, so
  ///   that they are not read back; those of the others are read.
  /// - Throws: ``DatabaseError``.
  func beginUpdate(
    created: Set<Int64>, credited: [(song: Int64, artist: String)], known: [Int64: CreditRow]
  ) throws(DatabaseError) {
    guard !created.isEmpty || !credited.isEmpty else { return }
    let hadArtists = try database.row("SELECT 1 FROM song_artists LIMIT 1", []) { _ in true } != nil
    let rows = try creditRows(created.sorted(), known: known)
    // Each credit once: an artist charts many songs under one.
    var texts = Set(credited.map(\.artist))
    for row in rows where row.isOwn { texts.insert(row.artist) }
    var again = Set(credited.map(\.song)).subtracting(created)
    // A first import's many credits are keyed on the other thread too; no song charted before
    // them is decided again for the names they make whole.
    if !hadArtists, created.count >= Self.creditsSplitApart {
      pending = Pending(created: try startRoles(of: rows, keying: texts), again: again)
      return
    }
    // In key order, the order of the table's rows.
    let keys = Set(texts.map(cachedKey)).sorted()
    for key in keys { alone[key] = true }
    let newlyWhole = try insertWholeCredits(keys, tellingNew: hadArtists)
    // Songs charted before this write were decided without the names that chart whole now.
    if hadArtists {
      for key in newlyWhole { again.formUnion(try songs(naming: key)) }
      again.subtract(created)
    }
    pending = Pending(created: try startRoles(of: rows), again: again)
  }

  /// The end of ``update(created:credited:)``: the created songs' artists stored, and those of
  /// the songs decided again.
  ///
  /// - Returns: the songs decided again that are credited to other artists now (their charts'
  ///   artist totals then count otherwise: ``ArtistTotals``).
  /// - Throws: ``DatabaseError``.
  @discardableResult
  func endUpdate() throws(DatabaseError) -> Set<Int64> {
    guard let pending else { return [] }
    self.pending = nil
    let decided = pending.created.decided()
    if !decided.wholeCredits.isEmpty {
      for key in decided.wholeCredits { alone[key] = true }
      _ = try insertWholeCredits(decided.wholeCredits, tellingNew: false)
    }
    try insert(decided.roles, new: true)
    let before = try artistsOf(pending.again)
    try decide(pending.again.sorted(), new: false)
    let after = try artistsOf(pending.again)
    for artist in Set(before.values.joined()) {
      try database.run(
        "DELETE FROM artists WHERE id = ?1 AND NOT EXISTS"
          + " (SELECT 1 FROM song_artists WHERE artist_id = ?1)", artist)
    }
    return pending.again.filter { before[$0] != after[$0] }
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

  /// The artists credited on each of some songs, by song ID.
  private func artistsOf(_ songs: Set<Int64>) throws(DatabaseError) -> [Int64: Set<Int64>] {
    var artists: [Int64: Set<Int64>] = [:]
    for song in songs {
      artists[song] = Set(
        try database.rows(
          "SELECT artist_id FROM song_artists WHERE song_id = ?", [song], { $0.int64(at: 0) }))
    }
    return artists
  }

  /// Decides the artists of songs from their credits, replacing those they had unless `new`.
  private func decide(_ songs: [Int64], new: Bool) throws(DatabaseError) {
    try insert(try startRoles(of: try creditRows(songs)).decided().roles, new: new)
  }

  /// The credits of songs, each song's one after another in song order: its own, then those it
  /// took since.
  ///
  /// - Parameter known: songs' own credits known already, by song ID: a run of songs all known is
  ///   not read from `songs`.
  private func creditRows(_ songs: [Int64], known: [Int64: CreditRow] = [:])
    throws(DatabaseError) -> [CreditRow]
  {
    var rows: [CreditRow] = []
    for run in References.runs(of: songs) {
      // Two reads merged here, cheaper than SQLite's merge of a UNION ALL ordered by song.
      let own: [CreditRow]
      if let kept = Self.rows(of: run, in: known) {
        own = kept
      } else {
        own = try database.rows(
          "SELECT id, identity LIKE 'url:%', title, artist FROM songs WHERE id BETWEEN ? AND ?",
          [run.lowerBound, run.upperBound]
        ) {
          CreditRow(
            song: $0.int64(at: 0), hasSongURL: $0.int64(at: 1) != 0, title: $0.string(at: 2),
            artist: $0.string(at: 3), isOwn: true)
        }
      }
      let taken = try database.rows(
        "SELECT song_id, title, artist FROM song_credits WHERE song_id BETWEEN ? AND ?"
          + " ORDER BY song_id, title_key, artist_key", [run.lowerBound, run.upperBound]
      ) {
        CreditRow(
          song: $0.int64(at: 0), hasSongURL: false, title: $0.string(at: 1),
          artist: $0.string(at: 2), isOwn: false)
      }
      rows.reserveCapacity(rows.count + own.count + taken.count)
      var next = 0
      for var credit in taken {
        while next < own.count, own[next].song <= credit.song {
          rows.append(own[next])
          next += 1
        }
        if let song = rows.last, song.song == credit.song, song.isOwn {
          credit.hasSongURL = song.hasSongURL
        }
        rows.append(credit)
      }
      rows += own[next...]
    }
    return rows
  }

  /// The own credits of a run of songs, when all are known.
  private static func rows(of run: ClosedRange<Int64>, in known: [Int64: CreditRow])
    -> [CreditRow]?
  {
    guard !known.isEmpty else { return nil }
    var rows: [CreditRow] = []
    rows.reserveCapacity(run.count)
    for song in run {
      guard let row = known[song] else { return nil }
      rows.append(row)
    }
    return rows
  }

  /// Inserts whole credits' name keys into `whole_credits`, those it holds already left as they
  /// are.
  ///
  /// - Parameters:
  ///   - keys: the keys, in key order.
  ///   - tellingNew: whether to tell which keys are new to the table: each is then inserted by a
  ///     statement of its own; else ``rowsPerInsert`` at a time, but for the last few.
  /// - Returns: the keys new to the table when `tellingNew`, else none.
  private func insertWholeCredits(_ keys: [String], tellingNew: Bool) throws(DatabaseError)
    -> [String]
  {
    var newlyWhole: [String] = []
    var start = 0
    while start < keys.count {
      let count = !tellingNew && keys.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
      let insert = try database.statement(
        count == 1 ? Self.insertOneWholeCredit : Self.insertWholeCredits)
      for offset in 0..<count { insert.bind(keys[start + offset], at: Int32(offset + 1)) }
      defer { insert.reset() }
      try insert.run()
      if tellingNew, database.changes > 0 { newlyWhole.append(keys[start]) }
      start += count
    }
    return newlyWhole
  }

  private static let insertOneWholeCredit =
    "INSERT OR IGNORE INTO whole_credits (name_key) VALUES (?)"
  private static let insertWholeCredits =
    "INSERT OR IGNORE INTO whole_credits (name_key) VALUES "
    + Array(repeating: "(?)", count: rowsPerInsert).joined(separator: ", ")

  /// Stores songs' artists, replacing those they had unless `new`, the artists new to the archive
  /// inserted in the order the songs name them. The rows go in ``rowsPerInsert`` at a time: SQLite
  /// runs a statement's setup and its end once per statement.
  private func insert(_ decided: [(song: Int64, roles: [CreditSplitter.Role])], new: Bool)
    throws(DatabaseError)
  {
    var rows: [(song: Int64, artist: Int64, role: Int)] = []
    for (song, roles) in decided {
      if !new { try database.run("DELETE FROM song_artists WHERE song_id = ?", song) }
      for (key, name, role) in roles {
        rows.append((song, try artistID(key: key, name: name), role))
      }
    }
    var start = 0
    while start < rows.count {
      let count = rows.count - start >= Self.rowsPerInsert ? Self.rowsPerInsert : 1
      let insert = try database.statement(
        count == 1 ? Self.insertOneRow : Self.insertRows)
      for (offset, row) in rows[start..<start + count].enumerated() {
        insert.bind(row.song, at: Int32(offset * 3 + 1))
        insert.bind(row.artist, at: Int32(offset * 3 + 2))
        insert.bind(row.role, at: Int32(offset * 3 + 3))
      }
      defer { insert.reset() }
      try insert.run()
      start += count
    }
  }

  /// How many rows of `song_artists` and `whole_credits` one statement inserts, but for the last
  /// few.
  static let rowsPerInsert = 100
  private static let insertOneRow =
    "INSERT INTO song_artists (song_id, artist_id, role) VALUES (?, ?, ?)"
  private static let insertRows =
    "INSERT INTO song_artists (song_id, artist_id, role) VALUES "
    + Array(repeating: "(?, ?, ?)", count: rowsPerInsert).joined(separator: ", ")

  /// How many songs a write decides at least for their credits to be split on another thread.
  static let creditsSplitApart = 2_000

  /// Each song's artists from its credits' rows (in song order), with their roles. Many songs' (a
  /// first import's) are split on another thread, once every whole credit is known here, while
  /// this one goes on; a few (a week's) here, asking the archive about the names they hold.
  ///
  /// - Parameter texts: credits that chart whole, not yet keyed nor in ``alone``: keyed on the
  ///   other thread (the split always goes there then), their keys, in key order, given with the
  ///   roles for `whole_credits`.
  private func startRoles(of rows: [CreditRow], keying texts: Set<String>? = nil)
    throws(DatabaseError) -> PendingRoles
  {
    let songStarts = rows.indices.filter { $0 == 0 || rows[$0 - 1].song != rows[$0].song }
    guard songStarts.count >= Self.creditsSplitApart || texts != nil else {
      var failure: DatabaseError?
      let decided = splitter.roles(of: rows[...], songStarts: songStarts[...]) { key in
        do throws(DatabaseError) {
          return try self.chartsAlone(key)
        } catch {
          failure = error
          return false
        }
      }
      if let failure { throw failure }
      return PendingRoles((decided, []))
    }
    try completeAlone()
    let alone = self.alone
    let splitter = self.splitter
    return PendingRoles {
      var splitter = splitter
      var alone = alone
      // In key order, the order of the table's rows.
      let keys = Set((texts ?? []).map { splitter.key($0) }).sorted()
      for key in keys { alone[key] = true }
      let roles = splitter.roles(of: rows[...], songStarts: songStarts[...]) { alone[$0] ?? false }
      return (roles, keys)
    }
  }

  /// Reads every whole credit of the archive into ``alone``, so that a name not in it charts with
  /// others only.
  private func completeAlone() throws(DatabaseError) {
    guard !aloneIsComplete else { return }
    for key in try database.rows("SELECT name_key FROM whole_credits", [], { $0.string(at: 0) }) {
      alone[key] = true
    }
    aloneIsComplete = true
  }

  /// ``key(_:)`` of a name, folded once however often it is asked: a credit naming one artist is
  /// that artist's name.
  private func cachedKey(_ name: String) -> String {
    splitter.key(name)
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
    if artistsBefore == nil {
      artistsBefore = try database.row("SELECT 1 FROM artists LIMIT 1", []) { _ in true } != nil
    }
    // An archive without artists (a first import's) has none but those this index inserted.
    var found: Int64?
    if artistsBefore == true {
      let select = try database.statement("SELECT id FROM artists WHERE name_key = ?")
      select.bind(key, at: 1)
      found = try select.step() ? select.int64(at: 0) : nil
      select.reset()
    }
    let id: Int64
    if let found {
      id = found
    } else {
      let insert = try database.statement("INSERT INTO artists (name, name_key) VALUES (?, ?)")
      insert.bind(name, at: 1)
      insert.bind(key, at: 2)
      defer { insert.reset() }
      try insert.run()
      id = database.lastInsertedRowID
    }
    ids[key] = id
    return id
  }
}

/// One credit of a song, as ``ArtistIndex`` reads it: the song's, or one it took since.
struct CreditRow: Sendable {
  var song: Int64
  /// Whether the song has a song URL (a lowercase `(with B)` in its title features B).
  var hasSongURL: Bool
  var title: String
  var artist: String
  /// Whether the credit is the song's own (`songs`), not one it took since (`song_credits`).
  var isOwn: Bool
}

/// The credit splitter (``ArtistCredit``) as ``ArtistIndex`` asks it, with what it split so far:
/// a value, so that two threads may each split part of a write's credits with a copy.
struct CreditSplitter: Sendable {
  /// An artist of a song: its name key, its name as written, and 0 (lead) or 1 (featured).
  typealias Role = (key: String, name: String, role: Int)

  /// The artists of each credit split so far (their keys and names), by the credit as published:
  /// valid while what names chart alone does not change.
  private var credits: [String: [(key: String, name: String)]] = [:]
  /// Names' keys (``ArtistIndex/key(_:)``), by the name as written.
  private var keys: [String: String] = [:]

  /// ``ArtistIndex/key(_:)`` of a name, folded once however often it is asked.
  mutating func key(_ name: String) -> String {
    if let key = keys[name] { return key }
    let key = ArtistIndex.key(name)
    keys[name] = key
    return key
  }

  /// The artists of the songs that start at `songStarts` in `rows` (each song's rows one after
  /// another), each with its role.
  ///
  /// - Parameter chartsAlone: whether a name key is a whole credit's.
  mutating func roles(
    of rows: ArraySlice<CreditRow>, songStarts: ArraySlice<Int>,
    chartsAlone: @escaping (String) -> Bool
  ) -> [(song: Int64, roles: [Role])] {
    var decided: [(song: Int64, roles: [Role])] = []
    decided.reserveCapacity(songStarts.count)
    for start in songStarts {
      let song = rows[start].song
      var roles: [Role] = []
      var index = start
      while index < rows.endIndex, rows[index].song == song {
        addRoles(of: rows[index], to: &roles, chartsAlone: chartsAlone)
        index += 1
      }
      decided.append((song, roles))
    }
    return decided
  }

  /// Adds one credit's artists to a song's, each once, a lead one where any credit leads with it.
  private mutating func addRoles(
    of row: CreditRow, to roles: inout [Role], chartsAlone: @escaping (String) -> Bool
  ) {
    let folded = { (folded: String) -> Bool in chartsAlone(ArtistIndex.keyOfFolded(folded)) }
    // An artist charts many songs under one credit: its artists are split once.
    var names: [(key: String, name: String)]
    if let known = credits[row.artist] {
      names = known
    } else {
      names = []
      for name in ArtistCredit.artists(in: row.artist, chartsAlone: folded) {
        names.append((key(name), name))
      }
      credits[row.artist] = names
    }
    for name in ArtistIndex.featured(
      in: row.title, hasSongURL: row.hasSongURL, chartsAlone: folded)
    {
      names.append((key(name), name))
    }
    for (offset, (key, name)) in names.enumerated() where !key.isEmpty {
      let role = offset == 0 ? 0 : 1
      if let at = roles.firstIndex(where: { $0.key == key }) {
        roles[at].role = min(roles[at].role, role)
      } else {
        roles.append((key, name, role))
      }
    }
  }
}

/// Songs' artists decided here, or being decided on another thread, with the whole credits'
/// keys found there.
final class PendingRoles: Sendable {
  /// Songs' artists, with the keys of the whole credits keyed with them (in key order).
  typealias Decided = (roles: [(song: Int64, roles: [CreditSplitter.Role])], wholeCredits: [String])

  private let result = Mutex<Decided?>(nil)
  private let group = DispatchGroup()

  /// Roles decided already.
  init(_ decided: Decided) {
    result.withLock { $0 = decided }
  }

  /// Roles `work` decides on another thread.
  init(_ work: @escaping @Sendable () -> Decided) {
    DispatchQueue.global().async(group: group) { [self] in
      let decided = work()
      result.withLock { $0 = decided }
    }
  }

  /// The roles and keys, waiting for the other thread to decide them.
  func decided() -> Decided {
    group.wait()
    return result.withLock { $0 ?? ([], []) }
  }
}
