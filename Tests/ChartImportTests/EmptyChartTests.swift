import ChartFormats
import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// A chart of no entries, which some sources publish (a Last.fm listener's week without plays,
/// the archive's own export of such a week), is stored as a snapshot with none: the songs of the
/// chart after it re-enter. Any other format's empty file is refused as before.
struct EmptyChartTests {
  /// Three weeks of a listener ending at noon on 2024-03-17, 2024-03-24 and 2024-03-31: two songs,
  /// then a week without plays, then the two songs again (the second one first).
  static let threeWeeks: [(name: String, text: String)] = [
    ("lastfm-u/2024-03-17.json", lastFMWeek(from: 1_710_072_000, [("A", "X"), ("B", "Y")])),
    ("lastfm-u/2024-03-24.json", lastFMWeek(from: 1_710_676_800, [])),
    ("lastfm-u/2024-03-31.json", lastFMWeek(from: 1_711_281_600, [("B", "Y"), ("A", "X")])),
  ]

  /// Each entry of a chart's snapshots as `date: rank title previous movement peak weeks run`,
  /// and `date: no entries` for a snapshot of none.
  static func figures(of chart: String, in archive: Archive) throws -> [String] {
    try archive.read { reader in
      try reader.snapshots(of: chart).flatMap { snapshot in
        let placements = try reader.placements(of: snapshot)
        guard !placements.isEmpty else { return ["\(snapshot.chartDate): no entries"] }
        return placements.map { placement in
          "\(snapshot.chartDate): \(placement.rank) \(placement.entry.title)"
            + " \(placement.previousRank.map(String.init) ?? "-") \(placement.movement)"
            + " \(placement.peakPosition) \(placement.weeksOnChart) \(placement.figures.run)"
        }
      }
    }
  }

  @Test func theSongsAfterAWeekWithoutPlaysReEnter() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let report = try importFiles(Self.threeWeeks, into: archive)
    #expect(report.imported == 3)
    #expect(report.entriesStored == 4)
    let figures = try Self.figures(of: "lastfm-u", in: archive)
    #expect(
      figures == [
        "2024-03-17T12:00:00Z: 1 A - debut 1 1 1",
        "2024-03-17T12:00:00Z: 2 B - debut 2 1 1",
        "2024-03-24T12:00:00Z: no entries",
        "2024-03-31T12:00:00Z: 1 B - reentry 1 2 2",
        "2024-03-31T12:00:00Z: 2 A - reentry 1 2 2",
      ])
    let snapshots = try archive.read { try $0.snapshots(of: "lastfm-u") }
    #expect(snapshots.map(\.entryCount) == [2, 0, 2])
    // An empty snapshot of a source that publishes empty charts is no damage.
    #expect(try archive.check().allSatisfy(\.passed))
  }

  @Test func anEmptyWeekAfterAnEmptyWeekIsAWeekNotARepeat() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let report = try importFiles(
      [
        ("lastfm-u/2024-03-17.json", lastFMWeek(from: 1_710_072_000, [("A", "X")])),
        ("lastfm-u/2024-03-24.json", lastFMWeek(from: 1_710_676_800, [])),
        ("lastfm-u/2024-03-31.json", lastFMWeek(from: 1_711_281_600, [])),
        ("lastfm-u/2024-04-07.json", lastFMWeek(from: 1_711_886_400, [("A", "X")])),
      ], into: archive)
    #expect(report.imported == 4)
    #expect(report.notes == [])
    let figures = try Self.figures(of: "lastfm-u", in: archive)
    #expect(
      figures == [
        "2024-03-17T12:00:00Z: 1 A - debut 1 1 1",
        "2024-03-24T12:00:00Z: no entries",
        "2024-03-31T12:00:00Z: no entries",
        "2024-04-07T12:00:00Z: 1 A - reentry 1 2 2",
      ])
  }

  @Test(arguments: [
    // The native JSON of one snapshot, and an export's.
    #"{"chart":"c","chart_date":"2024-01-13","entries":[]}"#,
    #"{"snapshots":[{"chart":"c","chart_date":"2024-01-13","entries":[]}]}"#,
  ])
  func theArchivesOwnJSONOfNoEntriesIsASnapshot(text: String) throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [("c/2024-01-06.json", nativeSnapshot("c", "2024-01-06", [("A", "X", nil, nil)]))],
      into: archive)
    let report = try importFiles([("c/2024-01-13.json", text)], into: archive)
    #expect(report.imported == 1)
    #expect(report.entriesStored == 0)
    #expect(
      try Self.figures(of: "c", in: archive) == [
        "2024-01-06: 1 A - debut 1 1 1", "2024-01-13: no entries",
      ])
  }
}
