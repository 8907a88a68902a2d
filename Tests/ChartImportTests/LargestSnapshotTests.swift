import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// The most entries a chart's snapshots held in a span, against which deciding figures tells a
/// short snapshot: a span from the first snapshot is read from the largest down
/// (`snapshots_by_size`), a later one by chart time; both give the same answers.
struct LargestSnapshotTests {
  @Test func theLargestSnapshotOfASpanIsFoundFromEitherEnd() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    func entries(_ count: Int) -> [(Int, String, String)] {
      (1...count).map { ($0, "T\($0)", "A") }
    }
    try archive.importing { batch in
      for (date, count) in [("2024-01-06", 3), ("2024-01-13", 5), ("2024-01-20", 2)] {
        try batch.store(snapshot(date, entries(count)))
      }
      try batch.store(snapshot("2024-01-27", entries(4)))
      // Another chart's larger snapshot is not the chart's.
      try batch.store(snapshot("2024-01-10", entries(7), chart: "d"))
    }
    func time(_ date: String) throws -> Int64 { try ChartDate(iso8601: date).secondsSince1970 }
    let answers = try archive.read { reader in
      let chart = ChartID(try reader.chartID("c"))
      return try [
        (Int64.min, time("2024-01-06")), (.min, time("2024-01-07")), (.min, time("2024-01-13")),
        (.min, time("2024-01-14")), (.min, time("2030-01-01")),
        (time("2024-01-14"), time("2030-01-01")),
        (time("2024-01-20"), time("2024-01-21")), (time("2024-01-21"), time("2024-01-27")),
      ].map { try reader.largestEntryCount(ofChart: chart, from: $0.0, before: $0.1) }
    }
    #expect(answers == [nil, 3, 3, 5, 5, 4, 2, nil])
  }
}
