import Testing

@testable import ChartRanking

private func entry(
  _ rank: Int, _ title: String, _ artist: String, previous: Int? = nil, weeks: Int? = nil
) -> ChartEntry {
  ChartEntry(
    rank: rank, title: title, artist: artist, publishedPreviousRank: previous,
    publishedWeeksOnChart: weeks)
}

struct SongLinkingTests {
  @Test(arguments: [
    ("Nat \"King\" Cole", "natkingcole"),
    ("Nat King Cole & His Trio", "natkingcole"),
    ("The Weeknd Featuring Daft Punk", "weeknd"),
    ("Drake Feat. Rihanna", "drake"),
    ("Jelly Roll With Lainey Wilson", "jellyroll"),
    ("Peso Pluma, Junior H & Oscar Maydon", "pesopluma"),
    ("Simon & Garfunkel", "simon"),
    ("Silk Sonic (Bruno Mars & Anderson .Paak)", "silksonicbrunomars"),
    ("The The", "the"),
    ("Beyoncé", "beyonce"),
    ("Björk/Guðmundsson", "bjork"),
    (", Foo", "foo"),
    ("X", "x"),
    ("The", "the"),
    ("  The  Weeknd ,Daft Punk", "weeknd"),
  ])
  func primaryArtistIsTheLeadArtistsLettersAndDigits(credit: String, primary: String) {
    #expect(SongIdentity.primaryArtist(credit) == primary)
  }

  @Test func aPublishedPreviousRankJoinsACreditChange() {
    let previous = [
      ArchivedEntry(entry: entry(15, "The Christmas Song", "Nat King Cole"), song: SongID(7))
    ]
    let links = SongLinking.link(
      [entry(11, "The Christmas Song", "Nat \"King\" Cole", previous: 15)],
      publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [] },
      songsWithTitle: { _, _ in [] })
    #expect(links == [.previousRank(SongID(7))])
  }

  @Test func anIdentityGivesItsFoldedCreditAndASongURLNone() {
    let credit = SongIdentity(title: "Blinding  Lights", artist: "the weeknd", songURL: nil)
      .foldedCredit
    #expect(credit?.title == SongIdentity.fold("Blinding Lights"))
    #expect(credit?.artist == SongIdentity.fold("The Weeknd"))
    #expect(credit?.title != credit?.artist)
    #expect(SongIdentity(title: "A", artist: "B", songURL: "https://x/1").foldedCredit == nil)
  }

  @Test func anEntryTheNextSnapshotContinuesTakesItsSong() {
    // Rule 5: the next snapshot's entry whose previous rank is this entry's rank, same title.
    let next = SongLinking.PreviousSnapshot([
      ArchivedEntry(entry: entry(1, "Other", "Z", previous: 2, weeks: 5), song: SongID(3)),
      ArchivedEntry(
        entry: entry(2, "Tune", "Nat \"King\" Cole", previous: 1, weeks: 2), song: SongID(4)),
    ])
    let entries = [
      entry(1, "Tune", "Nat King Cole", weeks: 1), entry(2, "Another", "Y", weeks: 1),
    ]
    let links = SongLinking.link(
      entries, keys: entries.map(SongKeys.init), publishesPreviousRank: true, previous: .none,
      next: next, songsWithIdentity: { _ in [] }, songsElsewhere: { _ in [] },
      songsWithTitle: { _, _ in [] }, songsWithISRC: { _ in [] })
    // "Another" at rank 2: the next snapshot's entry with previous rank 2 has another title.
    #expect(links == [.nextRank(SongID(4)), .newSong])
  }

  @Test func aPreviousRankPointingAtAnotherTitleDoesNotJoin() {
    let previous = [ArchivedEntry(entry: entry(15, "Other", "Nat King Cole"), song: SongID(7))]
    let links = SongLinking.link(
      [entry(11, "The Christmas Song", "Nat King Cole", previous: 15)],
      publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [] },
      songsWithTitle: { _, _ in [] })
    #expect(links == [.newSong])
  }

  @Test func aPreviousRankAtAnotherCreditOfTheTitleYieldsToTheCreditOnThePreviousSnapshot() {
    // A week missing between the two: each previous rank is that of the missing week, where the
    // two versions had swapped places. Joined by previous rank, each took the other's song.
    let previous = [
      ArchivedEntry(entry: entry(1, "Melody", "Les Baxter", weeks: 1), song: SongID(1)),
      ArchivedEntry(entry: entry(2, "Melody", "Al Hibbler", weeks: 1), song: SongID(2)),
    ]
    let links = SongLinking.link(
      [
        entry(1, "Melody", "Al Hibbler", previous: 1, weeks: 3),
        entry(2, "Melody", "Les Baxter", previous: 2, weeks: 3),
      ], publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [] },
      songsWithTitle: { _, _ in [] })
    #expect(links == [.identity(SongID(2)), .identity(SongID(1))])
  }

  @Test func theSameSongsAtTheSameRanksWithOtherFiguresAreNoRepeat() {
    // A year later, the same two credits at the same ranks, but the second has charted five
    // weeks: not the previous chart saved again, so the first week is a new recording. Taken
    // for a repeat, it continued the old one (a re-entry at weeks 2, run 2).
    let previous = [
      ArchivedEntry(entry: entry(1, "Hit", "A", weeks: 1), song: SongID(1)),
      ArchivedEntry(entry: entry(2, "Other", "B", weeks: 1), song: SongID(2)),
    ]
    let links = SongLinking.link(
      [entry(1, "Hit", "A", weeks: 1), entry(2, "Other", "B", weeks: 5)],
      publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [SongID(1)] },
      songsWithTitle: { _, _ in [] })
    #expect(links == [.newSong, .identity(SongID(2))])
    // The same chart saved again keeps its songs, its debut's first week included.
    let repeated = SongLinking.link(
      [entry(1, "Hit", "A", weeks: 1), entry(2, "Other", "B", weeks: 1)],
      publishesPreviousRank: true, previous: previous, songsWithIdentity: { _ in [SongID(1)] },
      songsWithTitle: { _, _ in [] })
    #expect(repeated == [.identity(SongID(1)), .identity(SongID(2))])
  }

  @Test func twoEntriesOfOneSnapshotAreTwoSongs() {
    let links = SongLinking.link(
      [entry(19, "Unchained Melody", "X"), entry(45, "Unchained Melody", "X")],
      publishesPreviousRank: false, previous: [],
      songsWithIdentity: { _ in [SongID(3)] }, songsWithTitle: { _, _ in [] })
    #expect(links == [.identity(SongID(3)), .newSong])
  }

  @Test func aFirstWeekIsANewRecordingEvenWithAKnownIdentity() {
    let links = SongLinking.link(
      [entry(78, "Unchained Melody", "X", weeks: 1)], publishesPreviousRank: true, previous: [],
      songsWithIdentity: { _ in [SongID(3)] }, songsWithTitle: { _, _ in [] })
    #expect(links == [.newSong])
  }

  @Test func aReentryUnderAnotherCreditFindsTheEarlierSong() {
    let onPrevious = ArchivedEntry(entry: entry(1, "Other", "Y"), song: SongID(1))
    let links = SongLinking.link(
      [entry(40, "Think I'm In Love With You", "Chris Stapleton & Dua Lipa", weeks: 2)],
      publishesPreviousRank: true, previous: [onPrevious], songsWithIdentity: { _ in [] },
      songsWithTitle: { title, primary in
        title == "thinkiminlovewithyou" && primary == "chrisstapleton" ? [SongID(9)] : []
      })
    #expect(links == [.reentry(SongID(9))])
  }

  @Test func everyEntryOfALongChartWithoutPreviousRanksFindsItsSongOnThePreviousOne() {
    // 50 songs, two of them with the same identity (two recordings of one title and artist);
    // the next snapshot has them in reverse order. The first lookups scan the previous snapshot,
    // the later ones use a map: both give each entry its own song, recordings in rank order.
    let titles = (1...48).map { "Song \($0)" } + ["Unchained Melody", "Unchained Melody"]
    let previous = titles.enumerated().map { index, title in
      ArchivedEntry(entry: entry(index + 1, title, "X"), song: SongID(Int64(100 + index)))
    }
    let current = titles.reversed().enumerated().map { index, title in
      entry(index + 1, title.uppercased(), "x")
    }
    let links = SongLinking.link(
      current, publishesPreviousRank: false, previous: previous,
      songsWithIdentity: { _ in [SongID(1)] }, songsWithTitle: { _, _ in [] })
    #expect(
      links
        == [.identity(SongID(148)), .identity(SongID(149))]
        + (0..<48).reversed().map { .identity(SongID(Int64(100 + $0))) })
  }

  @Test func identitiesAreEqualWhenTheirKeysAre() {
    let identity = SongIdentity(title: "Blinding  Lights", artist: "the weeknd", songURL: nil)
    #expect(identity == SongIdentity(key: "song:blinding lights\u{1F}the weeknd"))
    #expect(identity.hashValue == SongIdentity(key: identity.key).hashValue)
    #expect(identity != SongIdentity(key: "song:blinding lights\u{1F}the weekend"))
    #expect(
      Set([identity, SongIdentity(key: identity.key), SongIdentity(key: "url:x")]).count == 2)
  }

  @Test func theIdentityOnThePreviousSnapshotComesFirst() {
    let previous = [ArchivedEntry(entry: entry(3, "A", "X"), song: SongID(5))]
    let links = SongLinking.link(
      [entry(2, "a", "x")], publishesPreviousRank: false, previous: previous,
      songsWithIdentity: { _ in [SongID(8)] }, songsWithTitle: { _, _ in [] })
    #expect(links == [.identity(SongID(5))])
  }

  @Test func historyNamesTheCreditChangesItJoined() throws {
    let figures = EntryFigures(
      previousRank: nil, previousRankSource: .derived, movement: .debut, peakPosition: 15,
      weeksOnChart: 1, run: 1)
    let history = SongHistory(placements: [
      Placement(
        snapshot: SnapshotID(2), chartDate: try ChartDate(iso8601: "2023-12-30"),
        entry: entry(11, "The Christmas Song", "Nat \"King\" Cole"), song: SongID(1),
        figures: figures),
      Placement(
        snapshot: SnapshotID(1), chartDate: try ChartDate(iso8601: "2023-12-23"),
        entry: entry(15, "The Christmas Song", "Nat King Cole"), song: SongID(1), figures: figures),
    ])
    #expect(history.creditChanges.count == 1)
    #expect(history.creditChanges.first?.chartDate.iso8601 == "2023-12-30")
    #expect(history.creditChanges.first?.from == "Nat King Cole")
    #expect(history.creditChanges.first?.to == "Nat \"King\" Cole")
  }

  @Test func theSetOfTakenSongsGrowsAndHoldsAnyID() {
    var songs = SongLinking.SongSet(capacity: 2)
    let ids: [Int64] = [0, -1, 7, .max, .min, 1 << 40] + (100..<140).map { $0 * 64 }
    for id in ids { songs.insert(SongID(id)) }
    for id in ids { songs.insert(SongID(id)) }
    #expect(songs.count == ids.count)
    #expect(ids.allSatisfy { songs.contains(SongID($0)) })
    #expect(![1, 8, 64, 141 * 64, -2].contains { songs.contains(SongID($0)) })
  }
}
