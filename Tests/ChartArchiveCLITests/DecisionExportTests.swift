import Foundation
import Testing

/// An export carries the merges and splits a person made: the archive it is imported into keeps
/// them and ties the entries as the first does. Before, an export dropped them, and the second
/// archive showed the split song's entries as one song again.
struct DecisionExportTests {
  /// Every entry's figures and title, without the row IDs two archives number their own way.
  private static func figures(_ path: String) throws -> [String] {
    try rows(
      path,
      "SELECT chart, chart_date, rank, movement, places_moved, previous_rank, peak_position,"
        + " weeks_on_chart, run, title, artist FROM chart_entries ORDER BY chart, chart_date, rank")
  }

  @Test func aMergeAndASplitTravelWithAJSONExport() throws {
    let (folder, first) = try sampleArchive()
    let second = folder.url.appendingPathComponent("second.sqlite").path
    // "Echo Chamber" parted on app-daily from 2024-05-05; "Barbie Dangerous" and "Flowers" joined
    // on the Hot 100.
    let split = try chartArchive(
      ["songs", "split", "176", "--from", "2024-05-05", "--chart", "app-daily", "--db", first])
    #expect(split.status == 0, "\(split.error)")
    #expect(try chartArchive(["songs", "merge", "58", "125", "--db", first]).status == 0)
    let listed = try chartArchive(["songs", "decisions", "--format", "csv", "--db", first]).output

    var files: [String] = []
    for chart in ["app-daily", "hot-100"] {
      let exported = try chartArchive(["export", chart, "--db", first])
      #expect(exported.status == 0, "\(exported.error)")
      files.append(try folder.write("\(chart).json", exported.output))
    }
    let daily = try String(contentsOfFile: files[0], encoding: .utf8)
    #expect(daily.hasPrefix(#"{"decisions": ["# + "\n" + #"{"kind": "split", "made_at": ""#))
    #expect(
      daily.contains(
        #""songs": [[{"chart": "app-daily", "chart_date": "2024-05-05", "title": "Echo Chamber","#
          + #" "artist": "Parallel Lines", "song_url": "#))
    #expect(daily.contains("],\n\"snapshots\": [\n{\"chart\": \"app-daily\""))
    let hot = try String(contentsOfFile: files[1], encoding: .utf8)
    #expect(
      hot.hasPrefix(
        #"{"decisions": ["# + "\n" + #"{"kind": "merge", "made_at": ""#))
    #expect(
      hot.contains(
        #""songs": [[{"chart": "hot-100", "chart_date": "2023-12-23", "title": "Barbie Dangerous","#
          + #" "artist": "Nicki Minaj"}], [{"chart": "hot-100", "chart_date": "2024-01-13","#
          + #" "title": "Flowers", "artist": "Miley Cyrus"}]]}"#))

    for file in files {
      let imported = try chartArchive(["import", file, "--db", second])
      #expect(imported.status == 0, "\(imported.error)")
      #expect(
        imported.output.hasSuffix(
          "Kept 1 decision the export carries (songs decisions lists them).\n"))
    }
    #expect(
      try chartArchive(["songs", "decisions", "--format", "csv", "--db", second]).output == listed)
    #expect(
      try rows(
        second,
        "SELECT movement, weeks_on_chart, run FROM chart_entries WHERE chart = 'app-daily'"
          + " AND chart_date = '2024-05-05' AND title = 'Echo Chamber'") == ["new|1|1"])
    let firstFigures = try Self.figures(first)
    #expect(
      try Self.figures(second)
        == firstFigures.filter { !$0.hasPrefix("app-") || $0.hasPrefix("app-daily|") })
    #expect(try chartArchive(["export", "app-daily", "--db", second]).output == daily)
    #expect(try chartArchive(["export", "hot-100", "--db", second]).output == hot)

    // The same export again keeps nothing twice.
    let again = try chartArchive(["import", files[1], "--db", second])
    #expect(again.output.hasSuffix("Nothing new: all 4 snapshots were already in \(second).\n"))
    #expect(
      try chartArchive(["songs", "decisions", "--format", "csv", "--db", second]).output == listed)
  }

  /// A CSV export has no room for decisions: it is as before.
  @Test func aCSVExportCarriesNoDecisions() throws {
    let (folder, path) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let before = try chartArchive(["export", "hot-100", "--format", "csv", "--db", path]).output
    let merge = try chartArchive(["songs", "merge", "58", "125", "--db", path])
    #expect(merge.status == 0, "\(merge.error)")
    #expect(
      try chartArchive(["export", "hot-100", "--format", "csv", "--db", path]).output == before)
  }

  /// A decision the file gets wrong refuses the file, naming the decision and what is wrong.
  @Test func aDecisionWithAnUnknownKindRefusesTheFile() throws {
    let (folder, path) = try sampleArchive()
    let file = try folder.write(
      "bad.json",
      #"{"decisions": [{"kind": "join", "made_at": "2026-01-01T00:00:00Z", "songs": []}],"#
        + #" "snapshots": [{"chart": "x", "chart_date": "2024-01-06", "entries": [{"rank": 1,"#
        + #" "title": "A", "artist": "B"}]}]}"#)
    let run = try chartArchive(["import", file, "--db", path])
    #expect(run.status != 0)
    #expect(
      run.error.contains(
        "bad.json: field 'decisions': decision 1: kind 'join': expected merge or split"))
    #expect(try rows(path, "SELECT count(*) FROM decisions") == ["0"])
  }
}
