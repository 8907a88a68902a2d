import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// The archive's version: one more with every committed change, and a time that two states never
/// share. `/api/feed/updated` was the last import's time in whole seconds: a chart and its
/// correction within one second left it as it was while the feed changed.
struct ArchiveVersionTests {
  @Test func everyChangeMovesTheVersionOnEvenWithinOneSecond() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    #expect(try archive.read { try $0.version() } == ArchiveVersion(version: 0, updated: 0))
    let before = Int(Date.now.timeIntervalSince1970)
    var seen: [ArchiveVersion] = []
    for title in ["A", "B", "C"] {
      try archive.write { writer in
        let chart = try writer.insertChart(named: "chart-" + title, frequency: .weekly)
        _ = try writer.insertSnapshot(
          ofChart: chart, chartDate: try ChartDate(iso8601: "2024-01-06"),
          publishesPreviousRank: false, source: title)
      }
      seen.append(try archive.read { try $0.version() })
    }
    #expect(seen.map(\.version) == [1, 2, 3])
    // Three writes within a second or two: each takes a second of its own.
    #expect(seen[0].updated >= before)
    #expect(seen[1].updated > seen[0].updated)
    #expect(seen[2].updated > seen[1].updated)
    #expect(seen[2].updated <= Int(Date.now.timeIntervalSince1970) + 2)
    // A write that changes nothing leaves the version as it was.
    try archive.write { _ in }
    #expect(try archive.read { try $0.version() } == seen[2])
  }

  /// What a write runs before its commit runs after the writer's own last steps (the version has
  /// moved on, in the transaction), and what it throws undoes the whole write: an import waits
  /// there for its damage check.
  @Test func whatRunsBeforeTheCommitSeesTheWriteSettledAndCanUndoIt() throws {
    struct Refused: Error {}
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    nonisolated(unsafe) var writing: ArchiveWriter?
    nonisolated(unsafe) var seen: [String] = []
    #expect(throws: Refused.self) {
      try archive.write(
        beforeCommit: {
          seen.append("before the commit: version \(try writing!.reader.version().version)")
          throw Refused()
        },
        { writer in
          writing = writer
          _ = try writer.insertChart(named: "chart", frequency: .weekly)
          seen.append("body: version \(try writer.reader.version().version)")
        })
    }
    #expect(seen == ["body: version 0", "before the commit: version 1"])
    #expect(try archive.read { try $0.version() } == ArchiveVersion(version: 0, updated: 0))
    #expect(try archive.read { try $0.chart(named: "chart") } == nil)
  }
}
