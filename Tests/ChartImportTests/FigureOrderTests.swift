import ChartImport
import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// The figures an archive stores do not depend on how its snapshots came in: in date order, in
/// reverse, in several imports, with a replacement. Each time they are those of the whole chart
/// decided at once (``ChartFigures/decideAll(_:)``).
struct FigureOrderTests {
  /// Weekly snapshots of ten entries from twenty songs, songs leaving and coming back, with the
  /// previous ranks published as the source would (so that the source agrees with the archive).
  static func chart(weeks: Int, seed: UInt64) throws -> [Snapshot] {
    var state = seed
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var snapshots: [Snapshot] = []
    var previous: [String] = []
    for week in 0..<weeks {
      var titles = previous.filter { _ in next(5) != 0 }
      while titles.count < 10 {
        let title = "Song \(next(20))"
        if !titles.contains(title) { titles.append(title) }
      }
      titles = titles.sorted { _, _ in next(3) == 0 }
      let day = Date(timeIntervalSince1970: Double(19_000 + 7 * week) * 86_400)
      snapshots.append(
        try snapshot(
          String(ISO8601DateFormatter().string(from: day).prefix(10)),
          titles.enumerated().map { ($0.offset + 1, $0.element, "Artist") },
          previousRanks: titles.map { title in previous.firstIndex(of: title).map { $0 + 1 } }))
      previous = titles
    }
    return snapshots
  }

  /// Whether every stored snapshot's figures are those of the chart decided at once.
  static func storedFiguresAreTheWholeChartsDecided(_ archive: Archive) throws -> [String] {
    try archive.read { reader in
      let decided = ChartFigures.decideAll(try reader.linkedSnapshots(of: "c"))
      var differing: [String] = []
      for (summary, whole) in zip(try reader.snapshots(of: "c"), decided) {
        if try reader.placements(of: summary).map(\.figures) != whole.figures {
          differing.append(summary.chartDate.iso8601)
        }
      }
      return differing
    }
  }

  @Test(arguments: [1, 2, 3] as [UInt64])
  func inOrderReversedOrInSeveralImportsTheFiguresAreTheSame(seed: UInt64) throws {
    let weeks = try Self.chart(weeks: 40, seed: seed)
    let inOrder = try Archive(path: ":memory:", access: .create)
    try inOrder.importing { batch in for week in weeks { try batch.store(week) } }
    let reversed = try Archive(path: ":memory:", access: .create)
    try reversed.importing { batch in for week in weeks.reversed() { try batch.store(week) } }
    // The second half first, then the first half out of order, a replacement of a week in the
    // middle, and later weeks.
    let pieces = try Archive(path: ":memory:", access: .create)
    try pieces.importing { batch in for week in weeks[20..<35] { try batch.store(week) } }
    try pieces.importing { batch in
      for index in [3, 0, 19, 7, 12, 1, 2, 4, 5, 6, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18] {
        try batch.store(weeks[index])
      }
    }
    let other = try Self.chart(weeks: 40, seed: seed + 10)
    var replacement = weeks[27]
    replacement.entries = other[27].entries
    replacement.publishesPreviousRank = false
    try pieces.importing { batch in
      try batch.store(replacement, replacing: true)
      for week in weeks[35...] { try batch.store(week) }
    }
    #expect(try Self.storedFiguresAreTheWholeChartsDecided(inOrder) == [])
    #expect(try Self.storedFiguresAreTheWholeChartsDecided(reversed) == [])
    #expect(try Self.storedFiguresAreTheWholeChartsDecided(pieces) == [])
    // The chart has re-entries, whose figures continue the song's last entry.
    let movements = try inOrder.read { reader in
      try reader.snapshots(of: "c").flatMap { try reader.placements(of: $0).map(\.movement) }
    }
    #expect(movements.filter { $0 == .reentry }.count > 10)
  }
}
