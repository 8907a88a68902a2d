import ChartImport
import ChartRanking
import ChartStorage
import Testing

/// Every query gives an entry the one movement decided for it when it was stored: the snapshot
/// (`show`), the diff of consecutive snapshots, the report and the song's history.
struct OneMovementTests {
  /// Each entry of a snapshot as `rank movement previous-rank`, as its placements give them.
  private static func shown(_ placements: [Placement]) -> [String] {
    placements.map { "\($0.rank) \($0.movement.kind) \($0.previousRank.map(String.init) ?? "-")" }
  }

  @Test func snapshotDiffReportAndHistoryAgreeOnEveryEntryOfTheSample() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try Importer.run(try ImportSource.files(in: [sampleData]).map { .file($0) }, into: archive)
    var pairs = 0
    try archive.read { reader in
      for chart in ["app-daily", "hot-100"] {
        let snapshots = try reader.snapshots(of: chart)
        for (older, newer) in zip(snapshots, snapshots.dropFirst()) {
          let placements = try reader.placements(of: newer)
          let shown = Self.shown(placements)
          #expect(shown.count > 0)
          let diff = try reader.diff(from: older, to: newer)
          let diffed = (diff.moves + diff.arrivals).sorted {
            $0.entry.entry.rank < $1.entry.entry.rank
          }
          .map {
            "\($0.entry.entry.rank) \($0.movement.kind)"
              + " \($0.olderRank.map(String.init) ?? "-")"
          }
          #expect(diffed == shown, "\(chart) \(older.chartDate) → \(newer.chartDate)")
          let report = try reader.report(on: newer, limit: 10).report
          #expect(
            report.debuts.map(\.rank)
              == placements.filter { $0.movement == .debut }.map(\.rank), "\(newer.chartDate)")
          #expect(
            report.reentries.map(\.rank)
              == placements.filter { $0.movement == .reentry }.map(\.rank), "\(newer.chartDate)")
          pairs += 1
        }
        // Each song's history gives the same movement at each date as the snapshot.
        var movements: [SongID: [String: Movement]] = [:]
        for snapshot in snapshots {
          for placement in try reader.placements(of: snapshot) {
            movements[placement.song, default: [:]][snapshot.chartDate.iso8601] =
              placement.movement
          }
        }
        for (song, byDate) in movements {
          let history = try reader.history(of: song).filter { $0.chart == chart }
          var given: [String: Movement] = [:]
          for placement in history.flatMap(\.history.placements) {
            given[placement.chartDate.iso8601] = placement.movement
          }
          #expect(given == byDate, "song \(song.rawValue) on \(chart)")
        }
      }
    }
    #expect(pairs == 7)
  }

  @Test func aDiffAcrossAGapCallsASongNewWhenItFirstChartedAfterTheOlderDate() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        ("c/1.json", nativeSnapshot("c", "2024-05-01", [("A", "X", nil, nil)])),
        ("c/2.json", nativeSnapshot("c", "2024-05-02", [("B", "Y", nil, nil)])),
        ("c/3.json", nativeSnapshot("c", "2024-05-03", [("C", "Z", nil, nil)])),
        // D's source counts 9 days: it charted before the archive's first of it, as its
        // re-entry says (the diff called it new).
        (
          "c/4.json",
          nativeSnapshot(
            "c", "2024-05-04", [("A", "X", nil, nil), ("C", "Z", nil, nil), ("D", "W", nil, 9)])
        ),
      ], into: archive)
    let (diff, placements) = try archive.read { reader in
      let snapshots = try reader.snapshots(of: "c")
      return (
        try reader.diff(from: snapshots[1], to: snapshots[3]),
        try reader.placements(of: snapshots[3])
      )
    }
    // A charted on 2024-05-01, before the older date: back; C first charted after it: new.
    #expect(diff.arrivals.map(\.entry.entry.title) == ["A", "C", "D"])
    #expect(diff.arrivals.map(\.movement) == [.reentry, .debut, .reentry])
    #expect(Self.shown(placements) == ["1 re-entry -", "2 down 1", "3 re-entry -"])
  }
}
