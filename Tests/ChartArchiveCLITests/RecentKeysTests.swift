import ChartRanking
import Testing

@testable import ChartArchiveCLI

/// The import's memory of song keys gives what computing them gives, across generations.
@Suite struct RecentKeysTests {
  static func entry(_ title: String, _ artist: String, url: String? = nil) -> ChartEntry {
    ChartEntry(rank: 1, title: title, artist: artist, songURL: url)
  }

  @Test func rememberedKeysAreTheComputedOnes() {
    var recent = RecentKeys()
    let credit = Self.entry("Crazy In Love (Remix)", "Beyoncé Featuring JAY-Z")
    let first = recent.keys(of: credit)
    let again = recent.keys(of: credit)
    #expect(first == SongKeys(credit))
    #expect(again == first)
    #expect(again.primaryArtist == "beyoncé")
    #expect(again.baseTitle == "crazyinlove")
  }

  @Test func aSongURLMakesOtherKeys() {
    var recent = RecentKeys()
    let plain = recent.keys(of: Self.entry("A", "X"))
    let linked = recent.keys(of: Self.entry("A", "X", url: "https://music.example.com/a"))
    #expect(plain.identity.key == "song:a\u{1F}x")
    #expect(linked.identity.key == "url:https://music.example.com/a")
  }

  @Test func textsSplitOtherwiseBetweenTitleAndArtistAreOtherSongs() {
    var recent = RecentKeys()
    let first = recent.keys(of: Self.entry("Ab", "C"))
    let second = recent.keys(of: Self.entry("A", "Bc"))
    let third = recent.keys(of: Self.entry("A", "Bc", url: "https://music.example.com/a"))
    #expect(first.identity.key == "song:ab\u{1F}c")
    #expect(second.identity.key == "song:a\u{1F}bc")
    #expect(third.identity.key == "url:https://music.example.com/a")
  }

  @Test func keysStayRightAcrossGenerations() {
    var recent = RecentKeys()
    let count = RecentKeys.generationSize * 2 + 10
    for number in 0..<count { _ = recent.keys(of: Self.entry("Song \(number)", "Artist")) }
    for number in [0, RecentKeys.generationSize, count - 1] {
      let entry = Self.entry("Song \(number)", "Artist")
      #expect(recent.keys(of: entry) == SongKeys(entry))
    }
  }
}
