import ChartRanking
import Testing

/// The movement a source publishes beside an entry, checked against the archive's: a verdict on
/// the movement where they disagree and the archive can tell how the entry moved.
struct PublishedTrendTests {
  /// Two daily snapshots of a source that publishes no previous ranks, with a trend beside each
  /// entry (title, song, trend).
  static func days(
    _ first: [(String, Int64, PublishedTrend?)], _ second: [(String, Int64, PublishedTrend?)]
  )
    throws -> [LinkedSnapshot]
  {
    try [("2024-03-22", first), ("2024-03-23", second)].enumerated().map { index, day in
      LinkedSnapshot(
        id: SnapshotID(Int64(index + 1)), chartDate: try ChartDate(iso8601: day.0),
        publishesPreviousRank: false,
        entries: day.1.enumerated().map { rank, line in
          ArchivedEntry(
            entry: ChartEntry(
              rank: rank + 1, title: line.0, artist: "Artist", publishedTrend: line.2),
            song: SongID(line.1))
        })
    }
  }

  @Test func aTrendThatDisagreesWhereTheArchiveCanTellHasAVerdict() throws {
    let snapshots = try Self.days(
      [
        ("A", 1, PublishedTrend(.up(places: 3), text: "+3")),
        ("B", 2, PublishedTrend(.debut, text: "NEW")),
      ],
      [
        ("B", 2, PublishedTrend(.up(places: 1), text: "+1")),
        ("A", 1, PublishedTrend(.up(places: nil), text: "MOVE_UP")),
        ("C", 3, PublishedTrend(.notOnPrevious, text: "NEW_ENTRY")),
      ])
    let decided = ChartFigures.decideAll(snapshots)
    // The chart's first snapshot: the archive cannot tell how its entries moved (no previous
    // ranks, no previous snapshot), so "+3" beside a debut is not checked.
    #expect(decided[0].figures.map(\.movementVerdict) == [nil, nil])
    // B climbed one place as published; A fell one, published as a climb; C is new.
    #expect(decided[1].figures.map(\.movement) == [.up(1), .down(1), .debut])
    #expect(
      decided[1].figures.map(\.movementVerdict) == [
        nil, FigureVerdict(derived: nil, cause: .unexplained), nil,
      ])
    let audit = ChartAudit(snapshots: snapshots)
    #expect(audit.agreements[4] == FigureAgreement(figure: .movement, compared: 3, agreeing: 2))
    #expect(audit.disagreements.map(\.entry.title) == ["A"])
    #expect(audit.disagreements.map(\.derivedMovement) == [.down(1)])
    #expect(audit.disagreements.map(\.entry.publishedTrend?.text) == ["MOVE_UP"])
  }

  @Test func whatATrendSaysAgreesWithTheMovementsItNames() {
    let movements: [Movement] = [.up(2), .down(1), .unchanged, .debut, .reentry]
    func agreeing(_ kind: PublishedTrend.Kind) -> [Movement] {
      movements.filter { PublishedTrend(kind, text: "").agrees(with: $0) }
    }
    #expect(agreeing(.up(places: nil)) == [.up(2)])
    #expect(agreeing(.up(places: 3)) == [])
    #expect(agreeing(.down(places: 1)) == [.down(1)])
    #expect(agreeing(.unchanged) == [.unchanged])
    #expect(agreeing(.notOnPrevious) == [.debut, .reentry])
    #expect(agreeing(.debut) == [.debut])
    #expect(agreeing(.reentry) == [.reentry])
  }

  @Test func aKindIsWrittenAsAWordAndReadBack() {
    let kinds: [PublishedTrend.Kind] = [
      .up(places: nil), .up(places: 4), .down(places: nil), .down(places: 2), .unchanged,
      .notOnPrevious, .debut, .reentry,
    ]
    for kind in kinds {
      #expect(PublishedTrend.Kind(word: kind.word, places: kind.places) == kind)
    }
    #expect(PublishedTrend.Kind(word: "sideways", places: nil) == nil)
  }
}
