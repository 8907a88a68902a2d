import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// Who is credited on each song, decided at import by the credit splitter and decided again when
/// the archive's answer changes and after a correction by hand; an artist's career from the
/// stored figures.
struct ArtistTests {
  /// Three weeks: a featured artist (Sol), a known act (Simon & Garfunkel), an act the archive
  /// keeps whole (Tam & Reed: neither name charts on its own), an accented name spelled two ways
  /// (Björk Lind, BJORK LIND).
  static let weeks: [(String, [(Int, String, String)])] = [
    (
      "2024-01-06",
      [
        (1, "Paper Moons", "Mara Vey Featuring Sol"), (2, "Tide", "Simon & Garfunkel"),
        (3, "Glow", "Tam & Reed"), (4, "Bright Fog", "Björk Lind"),
      ]
    ),
    (
      "2024-01-13",
      [
        (1, "Tide", "Simon & Garfunkel"), (2, "Paper Moons", "Mara Vey Featuring Sol"),
        (3, "Other", "Sol"), (4, "Night", "BJORK LIND x Mara Vey"),
      ]
    ),
    (
      "2024-01-20",
      [
        (1, "Night", "Bjork Lind x Mara Vey"), (2, "Tide", "Simon & Garfunkel"),
        (3, "Glow", "Tam & Reed"),
      ]
    ),
  ]

  static func archive(
    _ weeks: [(String, [(Int, String, String)])] = weeks
  ) throws -> Archive {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { store in
      for (date, entries) in weeks { try store.store(try snapshot(date, entries)) }
    }
    return archive
  }

  /// The artist a search finds, which must be one.
  static func artist(_ archive: Archive, _ name: String) throws -> ArtistSummary {
    let found = try archive.read { try $0.artists(matching: name) }
    try #require(found.count == 1, "\(name): \(found.map(\.name))")
    return found[0]
  }

  /// (title, role, debut date, debut rank, peak, weeks at peak, weeks, runs) of each song.
  static func songs(_ archive: Archive, _ name: String) throws -> [String] {
    let artist = try artist(archive, name)
    let careers = try archive.read { try $0.careers(of: artist.id) }
    return careers.flatMap { career in
      career.songs.map {
        "\($0.title) \($0.role.name) \($0.debutDate) #\($0.debutRank) peak \($0.peakPosition)"
          + " x\($0.weeksAtPeak) \($0.weeksOnChart)w \($0.runs)r"
      }
    }
  }

  @Test func eachSongIsCreditedToItsLeadAndFeaturedArtists() throws {
    let archive = try Self.archive()
    #expect(
      try Self.songs(archive, "mara vey") == [
        "Paper Moons lead 2024-01-06 #1 peak 1 x1 2w 1r",
        "Night featured 2024-01-13 #4 peak 1 x1 2w 1r",
      ])
    #expect(
      try Self.songs(archive, "Sol") == [
        "Paper Moons featured 2024-01-06 #1 peak 1 x1 2w 1r",
        "Other lead 2024-01-13 #3 peak 3 x1 1w 1r",
      ])
    let career = try archive.read {
      try $0.careers(of: try Self.artist(archive, "Mara Vey").id, onChart: "c")
    }
    #expect(career.count == 1)
    #expect(career[0].entryCount == 2)
    #expect(career[0].topTenCount == 2)
    #expect(career[0].numberOneCount == 2)
    #expect(career[0].weeksAtNumberOne == 2)
    #expect(career[0].weeksOnChart == 4)
    #expect(career[0].firstEntry?.title == "Paper Moons")
    #expect(career[0].latestEntry?.title == "Night")
    #expect(
      career[0].songs[1].spans.map { "\($0.from)…\($0.to) \($0.bestRank)" } == [
        "2024-01-13…2024-01-20 1"
      ])
  }

  @Test func actsAreKeptWholeAndAccentsFolded() throws {
    let archive = try Self.archive()
    // A known act, and one the archive keeps whole: neither name charts on its own.
    #expect(try Self.artist(archive, "simon").name == "Simon & Garfunkel")
    #expect(try Self.artist(archive, "Simon and Garfunkel").name == "Simon & Garfunkel")
    #expect(try Self.songs(archive, "Tam & Reed") == ["Glow lead 2024-01-06 #3 peak 3 x2 2w 2r"])
    // The name as first spelled; found with accents and case folded.
    #expect(try Self.artist(archive, "BJÖRK lind").name == "Björk Lind")
    #expect(try Self.artist(archive, "bjork").name == "Björk Lind")
    #expect(
      try Self.songs(archive, "björk lind") == [
        "Bright Fog lead 2024-01-06 #4 peak 4 x1 1w 1r", "Night lead 2024-01-13 #4 peak 1 x1 2w 1r",
      ])
    // A credit finds the artists it names.
    #expect(
      try archive.read { try $0.artists(matching: "Mara Vey Featuring Sol") }.map(\.name) == [
        "Mara Vey", "Sol",
      ])
    #expect(try archive.read { try $0.artists(matching: "Garfunkle") }.isEmpty)
    #expect(
      try archive.read { try $0.artistSuggestion(forSearch: "Garfunkle") }?.artists.map(\.name)
        == ["Simon & Garfunkel"])
    let counts = try archive.read {
      try $0.database.row("SELECT count(*) FROM artists", []) { $0.int(at: 0) }
    }
    #expect(counts == 5)
  }

  @Test func anActIsTwoArtistsOnceOneOfItsNamesChartsAlone() throws {
    let archive = try Self.archive()
    #expect(try Self.artist(archive, "tam").name == "Tam & Reed")
    try archive.importing { store in
      try store.store(try snapshot("2024-01-27", [(1, "Solo", "Tam"), (2, "Glow", "Tam & Reed")]))
    }
    #expect(
      try Self.songs(archive, "Tam") == [
        "Glow lead 2024-01-06 #3 peak 2 x1 3w 2r", "Solo lead 2024-01-27 #1 peak 1 x1 1w 1r",
      ])
    #expect(try Self.songs(archive, "Reed") == ["Glow featured 2024-01-06 #3 peak 2 x1 3w 2r"])
    #expect(
      try archive.read { try $0.artists(matching: "tam & reed") }.map(\.name) == ["Tam", "Reed"])
    let names = try archive.read {
      try $0.database.rows("SELECT name FROM artists ORDER BY name", []) { $0.string(at: 0) }
    }
    #expect(!names.contains("Tam & Reed"))
    // The same artists as deciding every song afresh gives.
    let before = try Self.credits(archive)
    try archive.write { writer in try ArtistIndex(database: writer.database).rebuild() }
    #expect(try Self.credits(archive) == before)
  }

  /// Every song's artists and roles, by song and name.
  static func credits(_ archive: Archive) throws -> [String] {
    try archive.read {
      try $0.database.rows(
        "SELECT song_id, artist, role FROM artist_credits ORDER BY song_id, artist", []
      ) { "\($0.int(at: 0)) \($0.string(at: 1)) \($0.string(at: 2))" }
    }
  }

  @Test func aSongMergedByHandIsCountedOnce() throws {
    var weeks = Self.weeks
    weeks.append(("2024-01-27", [(1, "Paper Moonz", "Mara Vey")]))
    let archive = try Self.archive(weeks)
    #expect(try Self.songs(archive, "Mara Vey").count == 3)
    let moons = try archive.read { try $0.songs(matching: "Paper Moons") }[0].id
    let moonz = try archive.read { try $0.songs(matching: "Paper Moonz") }[0].id
    try archive.correct(.merge([moons, moonz]))
    #expect(
      try Self.songs(archive, "mara vey") == [
        "Paper Moons lead 2024-01-06 #1 peak 1 x2 3w 2r",
        "Night featured 2024-01-13 #4 peak 1 x1 2w 1r",
      ])
    // Sol is still credited on the merged song (its first credit), once.
    #expect(
      try Self.songs(archive, "sol").first == "Paper Moons featured 2024-01-06 #1 peak 1 x2 3w 2r")
    try archive.undoDecision(1)
    #expect(try Self.songs(archive, "Mara Vey").count == 3)
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func theMigrationFillsAnArchiveThatHoldsSongs() throws {
    let file = TemporaryArchive()
    do {
      let archive = try Archive(path: file.path, access: .create)
      try archive.importing { store in
        for (date, entries) in Self.weeks { try store.store(try snapshot(date, entries)) }
      }
    }
    let expected: [String]
    do {
      let archive = try Archive(path: file.path, access: .write)
      expected = try Self.credits(archive)
      try archive.write { writer in
        try writer.database.execute(
          "DROP INDEX snapshots_by_size; DROP TABLE artist_totals; DROP TABLE artist_totals_kept;"
            + " DROP VIEW artist_runs; DROP VIEW artist_credits; DROP TRIGGER songs_without_artists;"
            + " DROP TABLE whole_credits; DROP TABLE song_artists; DROP TABLE artists;"
            + " DROP TABLE archive_version; PRAGMA user_version = 13")
      }
    }
    let archive = try Archive(path: file.path, access: .write)
    #expect(try Self.credits(archive) == expected)
    #expect(expected.count == 8)
  }

  /// A name's key and a featured name's spelling, searched byte by byte in ASCII text, are what
  /// Foundation's search gives: ` and ` written ` & ` at each occurrence left to right, the
  /// spelling the first occurrence's.
  @Test func asciiNamesAreSearchedAsFoundationSearchesThem() {
    for folded in [
      "hall and oates", "a and and b", "x and y and z", "and", " and ", "anderson", "band and",
      "peaches and herb and", "tom and jerry-and friends", "",
    ] {
      let foundation =
        folded.contains(" and ") ? folded.replacingOccurrences(of: " and ", with: " & ") : folded
      #expect(ArtistIndex.keyOfFolded(folded) == foundation, "\(folded)")
    }
    #expect(ArtistIndex.keyOfFolded("hall and oates") == "hall & oates")
    #expect(ArtistIndex.keyOfFolded("a and and b") == "a & and b")
    #expect(ArtistIndex.keyOfFolded("beyoncé and jay-z") == "beyoncé & jay-z")
    #expect(
      ArtistIndex.spelling(
        of: "sol", in: "Paper Moons (Feat. SOL)", folded: "paper moons (feat. sol)")
        == "SOL")
    #expect(ArtistIndex.spelling(of: "b", in: "A (feat. B)", folded: "a (feat. b)") == "B")
    #expect(ArtistIndex.spelling(of: "zed", in: "A (feat. B)", folded: "a (feat. b)") == "zed")
    // Folding that changed the length: the folded name itself.
    #expect(ArtistIndex.spelling(of: "b", in: "A  (feat. B)", folded: "a (feat. b)") == "b")
    #expect(ArtistIndex.spelling(of: "b", in: "Á (feat. B)", folded: "a (feat. b)") == "B")
  }
}

/// The by-artist leaderboards: ranks shared by ties (1, 1, 3), the dates that make each figure,
/// a span, and the songs of a featured artist counted for them.
struct ArtistLeaderboardTests {
  /// Four weeks of a chart of three: Ana's two number ones, Bo's one (featuring Ana) that holds
  /// number one two weeks, and Cy in the top 10 with two songs at once.
  static let weeks: [(String, [(Int, String, String)])] = [
    ("2024-01-06", [(1, "One", "Ana"), (2, "Two", "Cy"), (3, "Three", "Cy")]),
    ("2024-01-13", [(1, "Four", "Bo Featuring Ana"), (2, "One", "Ana"), (3, "Two", "Cy")]),
    ("2024-01-20", [(1, "Four", "Bo Featuring Ana"), (2, "Five", "Ana"), (3, "Three", "Cy")]),
    ("2024-01-27", [(1, "Five", "Ana"), (2, "Six", "Dee"), (3, "Two", "Cy")]),
  ]

  /// Each row as `rank name figure first…last`.
  static func board(
    _ archive: Archive, _ figure: ArtistLeaderboard.Figure, from: String? = nil,
    to: String? = nil, limit: Int = 10
  ) throws -> [String] {
    try archive.read {
      try $0.artistLeaderboard(
        figure, chart: "c", from: from.map { try ChartDate(iso8601: $0) },
        to: to.map { try ChartDate(iso8601: $0) }, limit: limit)
    }.rows.map { "\($0.rank) \($0.artist.name) \($0.figure) \($0.firstDate)…\($0.lastDate)" }
  }

  @Test func eachLeaderboardRanksArtistsWithTiesSharingARank() throws {
    let archive = try ArtistTests.archive(Self.weeks)
    #expect(
      try Self.board(archive, .numberOnes) == [
        "1 Ana 3 2024-01-06…2024-01-27", "2 Bo 1 2024-01-13…2024-01-20",
      ])
    #expect(
      try Self.board(archive, .weeksAtNumberOne) == [
        "1 Ana 4 2024-01-06…2024-01-27", "2 Bo 2 2024-01-13…2024-01-20",
      ])
    #expect(
      try Self.board(archive, .topTens) == [
        "1 Ana 3 2024-01-06…2024-01-27", "2 Cy 2 2024-01-06…2024-01-27",
        "3 Bo 1 2024-01-13…2024-01-20", "3 Dee 1 2024-01-27…2024-01-27",
      ])
    #expect(try Self.board(archive, .entries) == Self.board(archive, .topTens))
    // Two artists tied: both first, the next third.
    #expect(
      try Self.board(archive, .entriesAtOnce) == [
        "1 Ana 2 2024-01-13…2024-01-20", "1 Cy 2 2024-01-06…2024-01-06",
        "3 Bo 1 2024-01-13…2024-01-20", "3 Dee 1 2024-01-27…2024-01-27",
      ])
    // A limit keeps the artists tied at its last rank.
    #expect(try Self.board(archive, .entriesAtOnce, limit: 1).count == 2)
    #expect(try Self.board(archive, .numberOnes, limit: 1) == ["1 Ana 3 2024-01-06…2024-01-27"])
  }

  @Test func aSpanCountsWhatHappenedInIt() throws {
    let archive = try ArtistTests.archive(Self.weeks)
    #expect(
      try Self.board(archive, .numberOnes, from: "2024-01-20", to: "2024-01-27") == [
        "1 Ana 2 2024-01-20…2024-01-27", "2 Bo 1 2024-01-20…2024-01-20",
      ])
    #expect(
      try Self.board(archive, .entries, to: "2024-01-06") == [
        "1 Cy 2 2024-01-06…2024-01-06", "2 Ana 1 2024-01-06…2024-01-06",
      ])
    #expect(try Self.board(archive, .weeksAtNumberOne, from: "2025-01-01").isEmpty)
    #expect(throws: ArchiveError.self) {
      try archive.read { try $0.artistLeaderboard(.entries, chart: "none") }
    }
  }

  /// Song IDs far apart (many songs deleted) are looked up another way than dense ones by the
  /// scan of the entries (a span: the whole chart's totals are kept): every leaderboard is the
  /// same, and so is each as the records read all five in one scan.
  @Test func sparseSongIDsGiveTheSameLeaderboards() throws {
    let archive = try ArtistTests.archive(Self.weeks)
    let figures = ArtistLeaderboard.Figure.allCases
    let dense = try figures.map { try Self.board(archive, $0, from: "2024-01-01") }
    #expect(try figures.map { try Self.board(archive, $0) } == dense)
    try archive.write {
      try $0.database.execute(
        "UPDATE songs SET id = id + 1000000; UPDATE entries SET song_id = song_id + 1000000;"
          + " UPDATE song_artists SET song_id = song_id + 1000000")
    }
    #expect(try figures.map { try Self.board(archive, $0, from: "2024-01-01") } == dense)
    let records = try archive.read {
      try $0.records(of: "c", span: RecordSpan(from: try ChartDate(iso8601: "2024-01-01")))
    }
    let shared = records.leaderboards.filter { $0.kind.artistFigure != nil }.map { board in
      board.rows.map { row -> String in
        guard case .artist(let artist) = row.record.holder else { return "not an artist" }
        return "\(row.rank) \(artist.name) \(row.record.figure)"
          + " \(row.record.firstDate)…\(row.record.lastDate)"
      }
    }
    #expect(shared == dense)
  }

  @Test func ranksAreSharedByTiesAndCutAtTheLimit() throws {
    func artist(_ id: Int64, _ name: String) -> ArtistSummary {
      ArtistSummary(id: ArtistID(id), name: name, songCount: 1)
    }
    let date = try ChartDate(iso8601: "2024-01-06")
    let rows = ArtistLeaderboard.ranked(
      [
        (artist(1, "b"), 5, date, date), (artist(2, "A"), 5, date, date),
        (artist(3, "c"), 4, date, date), (artist(4, "d"), 0, date, date),
        (artist(5, "e"), 3, date, date),
      ], limit: 3)
    #expect(rows.map { "\($0.rank) \($0.artist.name)" } == ["1 A", "1 b", "3 c"])
  }

}
