import ChartRanking
import Testing

struct SnapshotTests {
  private func snapshot(_ ranks: [Int]) throws -> Snapshot {
    Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: ranks.enumerated().map { ChartEntry(rank: $1, title: "T\($0)", artist: "A") })
  }

  @Test func entriesInRankOrderStayAsGiven() throws {
    #expect(try snapshot([1, 2, 2, 3]).entries.map(\.title) == ["T0", "T1", "T2", "T3"])
    #expect(try snapshot([]).entries.isEmpty)
  }

  @Test func entriesOutOfOrderAreSortedByRankKeepingTiesInTheirOrder() throws {
    let sorted = try snapshot([3, 1, 2, 1])
    #expect(sorted.entries.map(\.rank) == [1, 1, 2, 3])
    #expect(sorted.entries.map(\.title) == ["T1", "T3", "T2", "T0"])
  }
}
