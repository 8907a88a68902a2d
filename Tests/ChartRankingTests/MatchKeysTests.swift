import ChartRanking
import Testing

/// The credit splitter and the forms of titles and credits that song matching compares.
struct MatchKeysTests {
  @Test(arguments: [
    ("Drake Featuring Lil Wayne", ["Drake", "Lil Wayne"]),
    ("Mara Vey, Sol", ["Mara Vey", "Sol"]),
    ("A feat. B & C", ["A", "B", "C"]),
    ("A ft. B", ["A", "B"]),
    ("A x B", ["A", "B"]),
    ("A X B", ["A", "B"]),
    ("Stan Getz/Astrud Gilberto", ["Stan Getz", "Astrud Gilberto"]),
    ("Kenny Rogers Duet With Dottie West", ["Kenny Rogers", "Dottie West"]),
    ("Bobby Vee With The Crickets", ["Bobby Vee", "The Crickets"]),
    // A joining word at an end, or before another, is part of a name.
    ("Lil Nas X", ["Lil Nas X"]),
    ("Lil Nas X Featuring Billy Ray Cyrus", ["Lil Nas X", "Billy Ray Cyrus"]),
    ("X Ambassadors", ["X Ambassadors"]),
    // Acts: the known ones, a singer and their band.
    ("Simon & Garfunkel", ["Simon & Garfunkel"]),
    ("Earth, Wind & Fire With The Emotions", ["Earth, Wind & Fire", "The Emotions"]),
    ("Crosby, Stills & Nash", ["Crosby, Stills & Nash"]),
    ("Tyler, The Creator Featuring Kali Uchis", ["Tyler, The Creator", "Kali Uchis"]),
    ("AC/DC", ["AC/DC"]),
    ("Gladys Knight And The Pips", ["Gladys Knight And The Pips"]),
    ("Nat King Cole & His Trio", ["Nat King Cole & His Trio"]),
    // A comma inside a word, or before a suffix, is a name's.
    ("10,000 Maniacs", ["10,000 Maniacs"]),
    (
      "The Stylistics Featuring Russell Thompkins,Jr.", ["The Stylistics", "Russell Thompkins,Jr."]
    ),
    ("Ray Parker, Jr. & Helen Terry", ["Ray Parker, Jr.", "Helen Terry"]),
    ("Fu-Schnickens W/ Shaquille O'Neal", ["Fu-Schnickens", "Shaquille O'Neal"]),
  ])
  func splitsACreditWithoutTheArchive(credit: String, artists: [String]) {
    #expect(ArtistCredit.artists(in: credit) == artists)
  }

  @Test func asksTheArchiveWhetherNamesJoinedAreOneAct() {
    // "Tam & Reed" charts on its own and neither name does: one act. Peabo Bryson and
    // Roberta Flack each chart on their own: two artists, though their duet charts as a whole.
    let alone: Set<String> = [
      "tam & reed", "peabo bryson", "roberta flack", "peabo bryson & roberta flack",
    ]
    let chartsAlone = { (name: String) in alone.contains(name) }
    #expect(ArtistCredit.artists(in: "Tam & Reed", chartsAlone: chartsAlone) == ["Tam & Reed"])
    #expect(
      ArtistCredit.artists(in: "Peabo Bryson & Roberta Flack", chartsAlone: chartsAlone)
        == ["Peabo Bryson", "Roberta Flack"])
    #expect(
      ArtistCredit.artists(in: "Tam & Reed Featuring Roberta Flack", chartsAlone: chartsAlone)
        == ["Tam & Reed", "Roberta Flack"])
    // Without the archive, only the known acts and bands are kept whole.
    #expect(ArtistCredit.artists(in: "Tam & Reed") == ["Tam", "Reed"])
    #expect(ArtistCredit.artists(in: "Peaches & Herb") == ["Peaches & Herb"])
  }

  @Test(arguments: [
    ("Paper Moons - Remastered 2009", "paper moons"),
    ("Paper Moons - 2009 Remaster", "paper moons"),
    ("Paper Moons (Remastered 2009)", "paper moons"),
    ("Paper Moons [Remastered]", "paper moons"),
    ("Paper Moons - Digitally Remastered 1998", "paper moons"),
    ("Paper Moons - Single Version", "paper moons"),
    ("Paper Moons - Radio Edit", "paper moons"),
    ("Paper Moons - Mono", "paper moons"),
    ("Paper Moons - Stereo", "paper moons"),
    ("Paper Moons - Remastered 2009 - Mono", "paper moons"),
    // Labels of another recording stay.
    ("Paper Moons - Live", "paper moons - live"),
    ("Paper Moons (Remix)", "paper moons (remix)"),
    ("Paper Moons - Night Owl Remix", "paper moons - night owl remix"),
    ("Paper Moons (Acoustic)", "paper moons (acoustic)"),
    ("Paper Moons - Instrumental", "paper moons - instrumental"),
    ("Paper Moons (Sped Up)", "paper moons (sped up)"),
    ("Paper Moons (Taylor's Version)", "paper moons (taylor's version)"),
    ("Paper Moons - Demo", "paper moons - demo"),
    // A year alone, "Version" alone and a label that is the whole title stay.
    ("White Christmas (1947)", "white christmas (1947)"),
    ("Paper Moons (Version)", "paper moons (version)"),
    ("(Remastered)", "(remastered)"),
  ])
  func joinsLabelsOfTheSameRecordingOnly(title: String, key: String) {
    #expect(SongKeys(ChartEntry(rank: 1, title: title, artist: "Ada Quill")).foldedTitle == key)
  }

  @Test func aFeaturedArtistInTheTitleIsOneCreditWithOneInTheCredit() {
    func keys(_ title: String, _ artist: String, url: String? = "https://x/1") -> String {
      let keys = SongKeys(ChartEntry(rank: 1, title: title, artist: artist, songURL: url))
      return keys.foldedTitle + " | " + keys.foldedArtist
    }
    let one = "night drive | mara vey, sol"
    #expect(keys("Night Drive (feat. Sol)", "Mara Vey") == one)
    #expect(keys("Night Drive [feat. Sol]", "Mara Vey") == one)
    #expect(keys("Night Drive ft. Sol", "Mara Vey") == one)
    #expect(keys("Night Drive (with Sol)", "Mara Vey") == one)
    #expect(keys("Night Drive", "Mara Vey, Sol") == one)
    #expect(keys("Night Drive", "Mara Vey Featuring Sol") == one)
    #expect(keys("Night Drive", "Mara Vey feat. Sol") == one)
    #expect(keys("Night Drive", "Mara Vey & Sol") == one)
    #expect(keys("Night Drive", "Mara Vey x Sol") == one)
    // The order of featured artists does not matter; the lead artist does.
    #expect(keys("Night Drive (feat. Sol & Ode)", "Mara Vey") == "night drive | mara vey, ode, sol")
    #expect(keys("Night Drive", "Mara Vey, Ode, Sol") == "night drive | mara vey, ode, sol")
    #expect(keys("Night Drive", "Sol, Mara Vey") == "night drive | sol, mara vey")
    // "(with …)" in a chart without song URLs is the title's.
    #expect(
      keys("Ain't Gonna Bump No More (with No Big Fat Woman)", "Joe Tex", url: nil)
        == "ain't gonna bump no more (with no big fat woman) | joe tex")
    #expect(
      keys("Love Me (With All Your Heart)", "Ray Charles Singers")
        == "love me (with all your heart) | ray charles singers")
  }

  @Test func caseAndAccentsAreFoldedForCreditsAsForTitles() {
    let plain = SongIdentity(title: "Bright Fog", artist: "Bjork Lind", songURL: nil)
    #expect(SongIdentity(title: "Bright Fog", artist: "Björk Lind", songURL: nil) == plain)
    #expect(SongIdentity(title: "BRIGHT FÓG", artist: "BJÖRK LIND", songURL: nil) == plain)
    #expect(
      SongIdentity(title: "Speed Drive", artist: "Charli xcx", songURL: nil)
        == SongIdentity(title: "Speed Drive", artist: "Charli XCX", songURL: nil))
    #expect(
      SongIdentity(title: "Ace", artist: "Motörhead", songURL: nil).key == "song:ace\u{1F}motorhead"
    )
  }

  @Test func aLastFMURLIsComparedWithItsNamesFoldedAnOpaqueOneExactly() {
    #expect(
      SongIdentity.comparableURL("https://www.last.fm/music/Bj%C3%B6rk+Lind/_/Bright+Fog")
        == "last.fm/music/bjork lind/_/bright fog")
    #expect(
      SongIdentity.comparableURL("https://www.last.fm/music/Bjork+Lind/_/Bright+Fog")
        == "last.fm/music/bjork lind/_/bright fog")
    #expect(
      SongIdentity.comparableURL("https://open.spotify.com/track/1bR3cQyWu4lM0nO2sT6vX8")
        == "https://open.spotify.com/track/1bR3cQyWu4lM0nO2sT6vX8")
    #expect(
      SongIdentity(title: "A", artist: "B", songURL: "spotify:track:1bR3cQyWu4lM0nO2sT6vX8")
        != SongIdentity(title: "A", artist: "B", songURL: "spotify:track:1br3cqywu4lm0no2st6vx8"))
  }
}
