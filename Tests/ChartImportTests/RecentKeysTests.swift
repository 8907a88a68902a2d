import ChartRanking
import Testing

@testable import ChartImport

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
    #expect(again.primaryArtist == "beyonce")
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
    let count = recent.generationSize * 2 + 10
    for number in 0..<count { _ = recent.keys(of: Self.entry("Song \(number)", "Artist")) }
    for number in [0, recent.generationSize, count - 1] {
      let entry = Self.entry("Song \(number)", "Artist")
      #expect(recent.keys(of: entry) == SongKeys(entry))
    }
  }

  @Test func theGenerationGrowsToHoldChartsReadTogether() {
    var recent = RecentKeys()
    #expect(recent.generationSize == 2_048)
    // Thirty charts of 200 entries, three days, interleaved by date: every chart repeats its
    // entries from one day to the next.
    for _ in 0..<3 {
      for chart in 0..<30 {
        recent.startSnapshot(of: "region-\(chart)", entryCount: 200)
        for rank in 0..<200 {
          _ = recent.keys(of: Self.entry("Song \(rank) of region \(chart)", "Artist \(rank)"))
        }
      }
    }
    // 6,000 entries between two days of one chart, and a quarter to spare.
    #expect(recent.generationSize == 7_500)
    // The first day computed every entry's keys (6,000), with generations of 2,048; the second
    // again those of the first 2,048, dropped before the generation grew; the third none.
    let afterTwoDays = recent.computed
    #expect(afterTwoDays == 8_048)
    for chart in 0..<30 {
      recent.startSnapshot(of: "region-\(chart)", entryCount: 200)
      for rank in 0..<200 {
        _ = recent.keys(of: Self.entry("Song \(rank) of region \(chart)", "Artist \(rank)"))
      }
    }
    #expect(recent.computed == afterTwoDays)
  }

  @Test func aSingleChartKeepsTheSmallestGeneration() {
    var recent = RecentKeys()
    for week in 0..<10 {
      recent.startSnapshot(of: "hot-100", entryCount: 100)
      for rank in 0..<100 { _ = recent.keys(of: Self.entry("Song \(rank + week)", "Artist")) }
    }
    #expect(recent.generationSize == 2_048)
    #expect(recent.computed == 109)
  }
}
