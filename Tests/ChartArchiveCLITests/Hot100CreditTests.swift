import ChartRanking
import Foundation
import Testing

/// The credit splitter and the song-matching keys on every credit of the real Hot 100.
@Suite(.enabled(if: hot100IsPresent, hot100Absent))
struct Hot100CreditTests {
  /// Every distinct title and credit of the archive's entries, with their songs.
  static func credits() throws -> [(title: String, artist: String, songs: Set<Int64>)] {
    _ = try Hot100Tests.firstImport.get()
    let lines = try rows(
      Hot100Tests.archive, "SELECT title, artist, song_id FROM entries", separator: "\u{1F}")
    var songs: [String: (String, String, Set<Int64>)] = [:]
    for line in lines {
      let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(
        String.init)
      songs[fields[0] + "\u{1F}" + fields[1], default: (fields[0], fields[1], [])].2.insert(
        Int64(fields[2]) ?? 0)
    }
    return songs.values.map { ($0.0, $0.1, $0.2) }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
  }

  @Test func theSplitterKnowsActsFromCollaborationsByWhatChartsAlone() throws {
    let credits = try Self.credits()
    let alone = Set(credits.map { SongIdentity.fold($0.artist) })
    func artists(_ credit: String) -> [String] {
      ArtistCredit.artists(in: credit) { alone.contains($0) }
    }
    let expected: [(String, [String])] = [
      ("Simon & Garfunkel", ["Simon & Garfunkel"]),
      ("Earth, Wind & Fire", ["Earth, Wind & Fire"]),
      ("Hamilton, Joe Frank & Dennison", ["Hamilton, Joe Frank & Dennison"]),
      ("Homer And Jethro", ["Homer And Jethro"]),
      ("Jan & Dean", ["Jan & Dean"]),
      ("The Mamas & The Papas", ["The Mamas & The Papas"]),
      ("Commander Cody & His Lost Planet Airmen", ["Commander Cody & His Lost Planet Airmen"]),
      ("Peabo Bryson & Roberta Flack", ["Peabo Bryson", "Roberta Flack"]),
      ("Lil Baby & Young Thug", ["Lil Baby", "Young Thug"]),
      ("Doja Cat & Tyga", ["Doja Cat", "Tyga"]),
      ("Paul McCartney And Wings", ["Paul McCartney", "Wings"]),
      ("Lil Nas X Featuring Billy Ray Cyrus", ["Lil Nas X", "Billy Ray Cyrus"]),
      (
        "Knoc-Turn'Al With Dr. Dre & Missy \"Misdemeanor\" Elliott",
        ["Knoc-Turn'Al", "Dr. Dre", "Missy \"Misdemeanor\" Elliott"]
      ),
    ]
    for (credit, want) in expected {
      #expect(credits.contains { $0.artist == credit }, "\(credit) is a Hot 100 credit")
      #expect(artists(credit) == want, "\(credit)")
    }
    // Over all of them: how many credits name one artist and how many several.
    let counts = credits.map(\.artist).reduce(into: Set<String>()) { $0.insert($1) }.reduce(
      into: [0, 0]
    ) { counts, credit in counts[artists(credit).count > 1 ? 1 : 0] += 1 }
    #expect(counts == [7_230, 4_040])
  }

  @Test func theMatchingRulesJoinOnlyTheseCreditsAndTheArchiveAgrees() throws {
    // Credits whose keys the rules of versions before 9 (case folded, nothing more) kept apart
    // and the matching keys join, with how many songs the archive made of them.
    func oldKey(_ text: String) -> String {
      text.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
        .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    var groups: [String: [(old: String, credit: String, songs: Set<Int64>)]] = [:]
    for credit in try Self.credits() {
      let key = SongIdentity(title: credit.title, artist: credit.artist, songURL: nil).key
      let old = oldKey(credit.title) + "\u{1F}" + oldKey(credit.artist)
      groups[key, default: []].append((old, "\(credit.title) — \(credit.artist)", credit.songs))
    }
    let joined = groups.values.filter { Set($0.map(\.old)).count > 1 }.map { group in
      group.map(\.credit).sorted().joined(separator: " | ")
        + " → \(group.reduce(into: Set<Int64>()) { $0.formUnion($1.songs) }.count) songs"
    }.sorted()
    // Reviewed one by one: each is one recording, whose credit the Hot 100 wrote both ways.
    #expect(
      joined == [
        "Hell At Night — BigXthaPlug & Ella Langley | Hell At Night — BigXthaPlug Featuring Ella"
          + " Langley → 1 songs",
        "I Ain't Coming Back — Morgan Wallen & Post Malone | I Ain't Coming Back — Morgan Wallen"
          + " Featuring Post Malone → 1 songs",
      ])
  }
}
