import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// Corrections kept as decisions: a merge and a split applied at once with their figures decided
/// again, and applied again after a replacement and an import out of date order.
struct DecisionTests {
  /// Three weeks: "Paper Moons" charts, drops out, and comes back as "Paper Moonz" (a scraper's
  /// misspelling no rule joins).
  private static func weeks(replacingLast: Bool = false) throws -> [Snapshot] {
    [
      try snapshot("2024-01-06", [(1, "Paper Moons", "Mara Vey"), (2, "Other", "X")]),
      try snapshot("2024-01-13", [(1, "Other", "X")]),
      try snapshot(
        "2024-01-20",
        replacingLast
          ? [(1, "Paper Moonz", "Mara Vey"), (2, "Other", "X"), (3, "New", "Y")]
          : [(1, "Other", "X"), (2, "Paper Moonz", "Mara Vey")]),
    ]
  }

  /// (movement, previous rank, peak, weeks on chart, run, song) of a chart date's entry titled so.
  private static func figures(_ archive: Archive, _ date: String, _ title: String) throws
    -> (Movement, Int?, Int, Int, Int, SongID)?
  {
    let placements = try archive.placements(
      of: try archive.snapshot(of: "c", at: try ChartDate(iso8601: date)))
    return placements.first { $0.entry.title == title }.map {
      ($0.movement, $0.previousRank, $0.peakPosition, $0.weeksOnChart, $0.figures.run, $0.song)
    }
  }

  private static func song(_ archive: Archive, _ date: String, _ title: String) throws -> SongID {
    try #require(try figures(archive, date, title)).5
  }

  @Test func aMergeMakesAReEntryOfWhatWasADebut() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { store in for week in try Self.weeks() { try store.store(week) } }
    let moons = try Self.song(archive, "2024-01-06", "Paper Moons")
    let moonz = try Self.song(archive, "2024-01-20", "Paper Moonz")
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.debut, nil, 2, 1, 1, moonz))
    let decision = try archive.correct(.merge([moons, moonz]))
    #expect(decision.number == 1)
    #expect(decision.kind == .merge)
    #expect(
      decision.songs.map { $0.map { "\($0.chart) \($0.chartDate) \($0.title)" } } == [
        ["c 2024-01-06 Paper Moons"], ["c 2024-01-20 Paper Moonz"],
      ])
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.reentry, nil, 1, 2, 2, moons))
    #expect(try archive.read { try $0.songRow(moonz) } == nil)
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func aMergeOfSongsOnOneSnapshotIsRefused() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { store in for week in try Self.weeks() { try store.store(week) } }
    let moons = try Self.song(archive, "2024-01-06", "Paper Moons")
    let other = try Self.song(archive, "2024-01-06", "Other")
    #expect(
      throws: CorrectionError.sameSnapshot(
        chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), ranks: [1, 2])
    ) {
      try archive.correct(.merge([moons, other]))
    }
    #expect(try archive.read { try $0.decisions() }.isEmpty)
  }

  @Test func aMergeHoldsAfterTheSnapshotIsReplaced() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { store in for week in try Self.weeks() { try store.store(week) } }
    let moons = try Self.song(archive, "2024-01-06", "Paper Moons")
    try archive.correct(.merge([moons, try Self.song(archive, "2024-01-20", "Paper Moonz")]))
    try archive.importing { try $0.store(try Self.weeks(replacingLast: true)[2], replacing: true) }
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.reentry, nil, 1, 2, 2, moons))
    // The entries moved since: undoing it links by the rules, which make "Paper Moonz" a song of
    // its own again.
    try archive.undoDecision(1)
    let moonz = try Self.song(archive, "2024-01-20", "Paper Moonz")
    #expect(moonz != moons)
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.debut, nil, 1, 1, 1, moonz))
    #expect(try archive.read { try $0.decisions() }.isEmpty)
  }

  @Test func aMergeHoldsAfterAnImportOutOfDateOrder() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let weeks = try Self.weeks()
    try archive.importing { store in
      try store.store(weeks[0])
      try store.store(weeks[2])
    }
    let moons = try Self.song(archive, "2024-01-06", "Paper Moons")
    try archive.correct(.merge([moons, try Self.song(archive, "2024-01-20", "Paper Moonz")]))
    // The week between not yet imported: one week down.
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.down(1), 1, 1, 2, 1, moons))
    try archive.importing { try $0.store(weeks[1]) }
    #expect(
      try Self.figures(archive, "2024-01-20", "Paper Moonz")! == (.reentry, nil, 1, 2, 2, moons))
    #expect(try Self.figures(archive, "2024-01-13", "Other")!.0 == .up(1))
  }

  @Test func aSplitInTheMiddleOfARunMakesADebut() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let ranks = [3, 2, 4, 1]
    try archive.importing { store in
      for (week, rank) in ranks.enumerated() {
        var entries = [(1, "A", "X"), (2, "B", "X"), (3, "C", "X"), (4, "D", "X")]
          .filter { $0.0 != rank }.map { ($0.0, $0.1, $0.2) }
        entries.insert((rank, "Drift", "Ana"), at: rank - 1)
        entries = entries.enumerated().map { ($0.offset + 1, $0.element.1, $0.element.2) }
        try store.store(try snapshot("2024-01-\(6 + 7 * week)".paddedDay, Array(entries.prefix(4))))
      }
    }
    let drift = try Self.song(archive, "2024-01-06", "Drift")
    #expect(try Self.figures(archive, "2024-01-27", "Drift")! == (.up(3), 4, 1, 4, 1, drift))
    let decision = try archive.correct(
      .split(drift, chart: "c", from: try ChartDate(iso8601: "2024-01-20")))
    #expect(decision.songs.first?.map(\.chartDate.iso8601) == ["2024-01-20"])
    let other = try Self.song(archive, "2024-01-20", "Drift")
    #expect(other != drift)
    #expect(try Self.figures(archive, "2024-01-13", "Drift")! == (.up(1), 3, 2, 2, 1, drift))
    #expect(try Self.figures(archive, "2024-01-20", "Drift")! == (.debut, nil, 4, 1, 1, other))
    #expect(try Self.figures(archive, "2024-01-27", "Drift")! == (.up(3), 4, 1, 2, 1, other))
    #expect(
      throws: CorrectionError.nothingToSplit(
        song: other, chart: "c", from: try ChartDate(iso8601: "2024-01-20"), before: true)
    ) {
      try archive.correct(.split(other, chart: "c", from: try ChartDate(iso8601: "2024-01-20")))
    }
    // Undone: one song again, with its ID and figures.
    try archive.undoDecision(decision.number)
    #expect(try Self.figures(archive, "2024-01-27", "Drift")! == (.up(3), 4, 1, 4, 1, drift))
    #expect(try archive.read { try $0.songRow(other) } == nil)
  }

  @Test func theFiguresAMergeDecidesAreThoseOfTheWholeChartDecidedAgain() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { store in for week in try Self.weeks() { try store.store(week) } }
    try archive.correct(
      .merge([
        try Self.song(archive, "2024-01-06", "Paper Moons"),
        try Self.song(archive, "2024-01-20", "Paper Moonz"),
      ]))
    let rows = "SELECT * FROM chart_entries ORDER BY snapshot_id, position"
    let read: (Statement) -> String = { row in
      (0..<22).map { row.optionalString(at: Int32($0)) ?? "-" }.joined(separator: "|")
    }
    let before = try archive.database.rows(rows, [], read)
    try archive.write { writer in
      for chart in try writer.reader.chartNames() {
        let id = try #require(try writer.reader.chart(named: chart)).id
        try FigureLedger.redecide(chart: id, from: .min, writer: writer)
      }
    }
    #expect(try archive.database.rows(rows, [], read) == before)
  }
}

extension String {
  /// `2024-01-6` as `2024-01-06`.
  fileprivate var paddedDay: String {
    let parts = split(separator: "-")
    return parts.count == 3 && parts[2].count == 1 ? "\(parts[0])-\(parts[1])-0\(parts[2])" : self
  }
}
