import ChartRanking
import Foundation

@testable import ChartStorage

/// A snapshot of chart `c` (or `chart`) with entries given as (rank, title, artist), and the
/// previous ranks its source publishes, if any.
func snapshot(
  _ date: String, _ entries: [(Int, String, String)], chart: String = "c",
  previousRanks: [Int?]? = nil
) throws -> Snapshot {
  Snapshot(
    chart: chart, chartDate: try ChartDate(iso8601: date),
    publishesPreviousRank: previousRanks != nil,
    entries: entries.enumerated().map { index, entry in
      ChartEntry(
        rank: entry.0, title: entry.1, artist: entry.2,
        publishedPreviousRank: previousRanks?[index] ?? nil)
    })
}

/// An archive file's path in a temporary folder, removed with the folder when the test ends.
final class TemporaryArchive {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "chart-import-tests-\(UUID().uuidString)")
  var path: String { folder.appendingPathComponent("archive.sqlite").path }

  deinit { try? FileManager.default.removeItem(at: folder) }
}

/// Each query in a read of its own, so that the tests read as what they check.
extension Archive {
  func charts() throws -> [ChartSummary] { try read { try $0.charts() } }
  func snapshots(of chart: String) throws -> [SnapshotSummary] {
    try read { try $0.snapshots(of: chart) }
  }
  func snapshot(of chart: String, at date: ChartDate?) throws -> SnapshotSummary {
    try read { try $0.snapshot(of: chart, at: date) }
  }
  func snapshot(before snapshot: SnapshotSummary) throws -> SnapshotSummary? {
    try read { try $0.snapshot(before: snapshot) }
  }
  func check() throws -> [ArchiveCheck] { try read { try $0.check() } }
  func entries(of snapshot: SnapshotID) throws -> [ArchivedEntry] {
    try read { try $0.entries(of: snapshot) }
  }
  func placements(of snapshot: SnapshotSummary) throws -> [Placement] {
    try read { try $0.placements(of: snapshot) }
  }
  func songs(matching query: String, artist: String? = nil, chart: String? = nil) throws
    -> [SongSummary]
  {
    try read { try $0.songs(matching: query, artist: artist, chart: chart) }
  }
  func history(of song: SongID) throws -> [SongHistoryOnChart] {
    try read { try $0.history(of: song) }
  }
  /// The writing connection, for tests that look at the rows under the import (one thread).
  var database: Database { withWritingDatabase { $0 } }
}
