import ChartRanking
import Testing

struct SearchQueryTests {
  @Test func wordsAreRunsOfLettersAndDigitsLowercasedWithoutAccents() {
    #expect(SearchQuery.words("Don't Stop Believin'") == ["don", "t", "stop", "believin"])
    #expect(SearchQuery.words("Beyoncé & JAY-Z") == ["beyonce", "jay", "z"])
    #expect(SearchQuery.words("밤하늘 (Night Sky)") == ["밤하늘", "night", "sky"])
    #expect(SearchQuery.words("Fallin 4 U") == ["fallin", "4", "u"])
    #expect(SearchQuery.words(" ¿?! 🔥 ") == [])
  }

  @Test func aTitleAndCreditMatchWholeInWordsOrInside() {
    let halo = SearchQuery("Halo")
    #expect(halo.match(title: "Halo", artist: "Beyoncé") == .wholeTitle)
    #expect(halo.match(title: "HALO!", artist: "Tie") == .wholeTitle)
    #expect(halo.match(title: "Halo / Walking On Sunshine", artist: "Glee Cast") == .wholeWords)
    #expect(halo.match(title: "Broken Halos", artist: "Chris Stapleton") == .insideWords)
    #expect(halo.match(title: "Nag", artist: "The Halos") == .insideWords)
    #expect(SearchQuery("halos").match(title: "Nag", artist: "The Halos") == .wholeWords)
    #expect(SearchQuery("halo beyonce").match(title: "Halo", artist: "Beyoncé") == .wholeWords)
    #expect(SearchQuery("beyonce halo").match(title: "Halo", artist: "Beyoncé") == .wholeWords)
    #expect(
      SearchQuery("dont stop believin").match(title: "Don't Stop Believin'", artist: "Journey")
        == .wholeTitle)
    #expect(
      SearchQuery("oklahoma smokeshow").match(title: "Oklahoma Smoke Show", artist: "Zach Bryan")
        == .wholeTitle)
    #expect(SearchQuery("café").match(title: "Cafe", artist: "A") == .wholeTitle)
    #expect(SearchQuery("🔥").match(title: "🔥", artist: "Fire") == .wholeTitle)
    #expect(SearchQuery("🔥").match(title: "🔥🔥 Mix", artist: "Fire") == .insideWords)
    // A search by artist alone ranks every song the same.
    #expect(SearchQuery(" ").match(title: "Halo", artist: "Beyoncé") == .wholeWords)
  }
}
