import Foundation
import Testing

/// `chart-archive songs`: a merge and a split, each undone, leave every table a user reads as it
/// was, byte for byte; exit statuses scripts can trust.
struct DecisionCommandTests {
  /// What a user reads of the archive: every chart's export, the views and the full-text index.
  private static func everything(_ path: String) throws -> [String] {
    var lines: [String] = []
    for chart in try rows(path, "SELECT name FROM charts ORDER BY name") {
      let export = try chartArchive(["export", chart, "--db", path])
      try #require(export.status == 0, "\(export.error)")
      lines.append(export.output)
    }
    lines += try rows(path, "SELECT * FROM chart_entries ORDER BY snapshot_id, position")
    lines += try rows(path, "SELECT * FROM song_runs ORDER BY song_id, chart")
    lines += try rows(path, "SELECT * FROM song_search ORDER BY song_id, title, artist")
    lines += try rows(path, "SELECT * FROM verdicts ORDER BY snapshot_id, position, figure")
    return lines
  }

  @Test func aMergeAndASplitUndoneLeaveTheArchiveAsItWas() throws {
    let (folder, path) = try sampleArchive()
    _ = folder
    let before = try Self.everything(path)
    // "Echo Chamber" charted twice on app-daily (2024-05-03, then 2024-05-05 after a day away):
    // two songs by a split, one again by a merge.
    let split = try chartArchive(
      ["songs", "split", "176", "--from", "2024-05-05", "--chart", "app-daily", "--db", path])
    #expect(split.status == 0, "\(split.error)")
    #expect(
      try rows(
        path,
        "SELECT movement, weeks_on_chart, run, song_id FROM chart_entries WHERE chart = 'app-daily'"
          + " AND chart_date = '2024-05-05' AND title = 'Echo Chamber'") == ["new|1|1|183"])
    let history = try chartArchive(["history", "--song", "183", "--db", path])
    #expect(
      history.output.hasSuffix(
        "Split by hand:  from 2024-05-05 'Echo Chamber' by 'Parallel Lines' (decision 1)\n"))
    let merge = try chartArchive(["songs", "merge", "176", "183", "--db", path])
    #expect(merge.status == 0, "\(merge.error)")
    #expect(
      try rows(
        path,
        "SELECT movement, weeks_on_chart, run, song_id FROM chart_entries WHERE chart = 'app-daily'"
          + " AND chart_date = '2024-05-05' AND title = 'Echo Chamber'") == ["re-entry|2|2|176"])
    let listed = try chartArchive(["songs", "decisions", "--format", "json", "--db", path])
    let decisions = try #require(try json(listed.output)["decisions"] as? [[String: Any]])
    #expect(decisions.map { $0["number"] as? Int } == [1, 2])
    #expect(decisions.map { $0["kind"] as? String } == ["split", "merge"])
    #expect(try chartArchive(["songs", "undo", "2", "--db", path]).status == 0)
    #expect(try chartArchive(["songs", "undo", "1", "--db", path]).status == 0)
    #expect(try Self.everything(path) == before)
    #expect(try rows(path, "SELECT count(*) FROM decisions") == ["0"])
  }

  @Test func refusalsExitWithStatusesScriptsCanTrust() throws {
    let (folder, path) = try sampleArchive()
    _ = folder
    let cases: [([String], Int32, String)] = [
      (
        ["merge", "1", "2"], 65,
        "Error: the songs are both on hot-100 of 2023-12-23, at ranks 1 and 2: one song is never"
          + " two entries of one snapshot"
      ),
      (
        ["merge", "1", "9999"], 1,
        "Error: no song has the ID 9999 (history --format json gives song_id)"
      ),
      (["merge", "1"], 64, "Error: merge takes two song IDs or more"),
      (
        ["merge", "1", "x"], 64, "Error: 'x' is not a song ID (a whole number, as song_id gives it)"
      ),
      (["split", "1", "--chart", "hot-100"], 64, "Error: split needs --from DATE"),
      (
        ["split", "176", "--from", "2024-04-01", "--chart", "app-daily"], 65,
        "Error: song 176 has no entry on app-daily before 2024-04-01: there is nothing to split"
      ),
      (
        ["split", "1", "--from", "2024-01-06", "--chart", "hot-10"], 1,
        "Error: no chart named 'hot-10' in the archive"
      ),
      (
        ["undo", "3"], 1, "Error: no decision has the number 3 (see chart-archive songs decisions)"
      ),
      (["rewind"], 64, "Error: unknown action 'rewind' (expected merge, split, decisions or undo)"),
    ]
    for (arguments, status, message) in cases {
      let run = try chartArchive(["songs"] + arguments + ["--db", path])
      #expect(run.status == status, "\(arguments)")
      #expect(run.error.hasPrefix(message), "\(arguments): \(run.error)")
    }
  }
}

/// `charts rename` and `snapshots delete`: kept as decisions, the one undone, the other refused.
struct ChartCorrectionTests {
  @Test func aRenameIsUndoneAndADeleteIsRefusedWithItsFile() throws {
    let (folder, path) = try sampleArchive()
    _ = folder
    let before = try rows(path, "SELECT * FROM chart_entries ORDER BY snapshot_id, position")
    let rename = try chartArchive(["charts", "rename", "app-daily", "app-day", "--db", path])
    #expect(rename.output == "Decision 1: chart app-daily renamed app-day.\n")
    #expect(try rows(path, "SELECT name FROM charts WHERE name LIKE 'app-d%'") == ["app-day"])
    #expect(try chartArchive(["songs", "undo", "1", "--db", path]).status == 0)
    #expect(try rows(path, "SELECT * FROM chart_entries ORDER BY snapshot_id, position") == before)
    let delete = try chartArchive(["snapshots", "delete", "hot-100", "2023-12-30", "--db", path])
    #expect(delete.status == 0, "\(delete.error)")
    #expect(
      try rows(path, "SELECT count(*) FROM snapshots WHERE chart_date = '2023-12-30'") == ["0"])
    // The week after it follows the one before: its derived previous ranks are of 2023-12-23.
    #expect(
      try rows(
        path,
        "SELECT previous_chart_date FROM (SELECT s.chart_date, lag(s.chart_date) OVER"
          + " (ORDER BY s.chart_time) AS previous_chart_date FROM snapshots s JOIN charts c"
          + " ON c.id = s.chart_id WHERE c.name = 'hot-100') WHERE chart_date = '2024-01-06'")
        == ["2023-12-23"])
    // Decision 1 was undone: its number is given again.
    let undo = try chartArchive(["songs", "undo", "1", "--db", path])
    #expect(undo.status == 65)
    #expect(
      undo.error.hasPrefix(
        "Error: decision 1 cannot be undone: a deleted snapshot's rows are not kept; import "))
    #expect(undo.error.hasSuffix("Sample-data/hot-100/2023-12-30.json again\n"))
    #expect(try chartArchive(["check", "--db", path]).status == 0)
  }
}
