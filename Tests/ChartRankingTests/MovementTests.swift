import ChartRanking
import Testing

struct MovementTests {
  @Test(arguments: [
    (5, 8, false, Movement.up(3)),
    (8, 5, false, Movement.down(3)),
    (4, 4, true, Movement.unchanged),
    (1, nil, false, Movement.debut),
    (1, nil, true, Movement.reentry),
  ])
  func appliesTheMovementRule(rank: Int, previousRank: Int?, before: Bool, expected: Movement) {
    #expect(Movement(rank: rank, previousRank: previousRank, wasOnChartBefore: before) == expected)
  }

  @Test func markersAndKinds() {
    let movements: [Movement] = [.up(3), .down(12), .unchanged, .debut, .reentry]
    #expect(movements.map(\.marker) == ["▲3", "▼12", "–", "NEW", "RE"])
    #expect(movements.map(\.kind) == ["up", "down", "unchanged", "new", "re-entry"])
    #expect(movements.map(\.change) == [3, -12, 0, nil, nil])
  }
}
