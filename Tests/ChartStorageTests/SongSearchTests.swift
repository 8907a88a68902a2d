import ChartImport
import ChartRanking
import ChartStorage
import Testing

/// How a search ranks what it finds: whole titles, then whole words, each by how far the song
/// went; matches inside words only when there is nothing better.
struct SongSearchTests {
  /// The songs of the Hot 100 that `halo` found (with their best ranks), and a few more: on chart
  /// `c` two weeks, on chart `d` one song whose only match of `halo` is inside a word.
  static func archive() throws -> Archive {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(
        snapshot(
          "2024-01-06",
          [
            (1, "Cafe Society", "B"), (2, "Don't Stop (Live)", "X"),
            (3, "Don't Stop", "Fleetwood Mac"),
            (5, "Halo", "Beyoncé"), (20, "🔥🔥 Mix", "Fire Two"), (25, "Nag", "The Halos"),
            (30, "🔥", "Fire"), (40, "Halo / Walking On Sunshine", "Glee Cast"),
            (45, "Broken Halos", "Chris Stapleton"), (50, "Café", "A"),
            (65, "Shamrocks And Shenanigans (Boom Shalock Lock Boom)", "House Of Pain"),
            (88, "Halo", "Jordan Smith"),
          ]))
      try batch.store(snapshot("2024-01-13", [(5, "HALO!", "Tie"), (7, "Halo", "Beyoncé")]))
      try batch.store(snapshot("2024-01-06", [(1, "Halos Of Gold", "Nobody")], chart: "d"))
    }
    return archive
  }

  /// Each song found as `title — artist`, best first.
  static func found(
    _ archive: Archive, _ query: String, artist: String? = nil, chart: String? = nil
  ) throws -> [String] {
    try archive.songs(matching: query, artist: artist, chart: chart).map {
      "\($0.title) — \($0.artist)"
    }
  }

  @Test func wholeTitlesThenWholeWordsEachByPeakThenEntriesWithoutInsideWords() throws {
    let archive = try Self.archive()
    // "HALO!" is a whole title too (punctuation and case aside); it peaked at 5 as Beyoncé's did,
    // with one entry to her two. "Broken Halos", "Nag" by The Halos and "Shalock" are left out.
    #expect(
      try Self.found(archive, "Halo") == [
        "Halo — Beyoncé", "HALO! — Tie", "Halo — Jordan Smith",
        "Halo / Walking On Sunshine — Glee Cast",
      ])
    #expect(try Self.found(archive, "  halo!  ") == Self.found(archive, "Halo"))
    // A whole title comes before a whole-word match that went further.
    #expect(
      try Self.found(archive, "don't stop") == [
        "Don't Stop — Fleetwood Mac", "Don't Stop (Live) — X",
      ])
    #expect(try Self.found(archive, "cafe") == ["Café — A", "Cafe Society — B"])
    // A word of the credit is a whole word: "halos" of "The Halos".
    #expect(
      try Self.found(archive, "halos") == [
        "Halos Of Gold — Nobody", "Nag — The Halos", "Broken Halos — Chris Stapleton",
      ])
    #expect(try Self.found(archive, "halo beyonce") == ["Halo — Beyoncé"])
    #expect(
      try Self.found(archive, "shalock") == [
        "Shamrocks And Shenanigans (Boom Shalock Lock Boom) — House Of Pain"
      ])
  }

  @Test func insideWordsWhenNothingIsBetterByPeakThenEntries() throws {
    let archive = try Self.archive()
    #expect(
      try Self.found(archive, "hal") == [
        "Halos Of Gold — Nobody", "Halo — Beyoncé", "HALO! — Tie", "Nag — The Halos",
        "Halo / Walking On Sunshine — Glee Cast", "Broken Halos — Chris Stapleton",
        "Shamrocks And Shenanigans (Boom Shalock Lock Boom) — House Of Pain",
        "Halo — Jordan Smith",
      ])
    // On chart d, the only song is an inside-word match: the whole titles of chart c hide nothing.
    #expect(try Self.found(archive, "Halo", chart: "d") == ["Halos Of Gold — Nobody"])
    // Without a letter or digit: the title that is the query, else the titles containing it.
    #expect(try Self.found(archive, "🔥") == ["🔥 — Fire"])
    #expect(try Self.found(archive, "🔥🔥") == ["🔥🔥 Mix — Fire Two"])
    // An artist alone (part of the credit): every song of the credit, by peak.
    #expect(
      try Self.found(archive, "", artist: "n") == [
        "Halos Of Gold — Nobody", "Halo — Beyoncé", "Broken Halos — Chris Stapleton",
        "Shamrocks And Shenanigans (Boom Shalock Lock Boom) — House Of Pain",
        "Halo — Jordan Smith",
      ])
  }

  /// `dont stop` has none of the words of "Don't Stop" ("don", "t"), but all of its letters: the
  /// index of titles' letters and digits finds it, and it is the song meant.
  @Test func aTitleWithTheQuerysLettersIsAWholeTitleAndTheSongMeant() throws {
    let archive = try Self.archive()
    #expect(try Self.found(archive, "dont stop") == ["Don't Stop — Fleetwood Mac"])
    // The index has the letters before a parenthesis: the query's parenthesis finds the title
    // with one, and "Don't Stop", whose letters are those before it, is not that title.
    #expect(try Self.found(archive, "dont stop (live)") == ["Don't Stop (Live) — X"])
    #expect(try Self.found(archive, "dont stop live") == [])
    #expect(try Self.found(archive, "halo (live)") == [])
    let meant = try archive.read { try $0.song(matching: "dont stop") }
    guard case .found(let songs) = meant else {
      Issue.record("\(meant)")
      return
    }
    #expect(songs.map(\.artist) == ["Fleetwood Mac"])
  }

  @Test func theSongMeantIsTheOneWholeTitleElseTheOneMatch() throws {
    let archive = try Self.archive()
    func meant(_ query: String, artist: String? = nil) throws -> String {
      switch try archive.read({ try $0.song(matching: query, artist: artist) }) {
      case .found(let songs): "found " + songs.map { "\($0.title) — \($0.artist)" }.joined()
      case .several(let songs): "\(songs.count) songs"
      case .none: "none"
      }
    }
    #expect(try meant("Halo") == "4 songs")
    #expect(try meant("halo walking") == "found Halo / Walking On Sunshine — Glee Cast")
    #expect(try meant("halo", artist: "jordan") == "found Halo — Jordan Smith")
    #expect(try meant("cafe") == "found Café — A")
    #expect(
      try meant("shamrocks")
        == "found Shamrocks And Shenanigans (Boom Shalock Lock Boom) — House Of Pain")
    #expect(try meant("halox") == "none")
  }
}
