import Foundation
import Testing

/// A Last.fm listener's week without plays, a chart of no entries, from `import` to `diff`,
/// `export` and `check`; and the empty files of the formats whose sources never publish one,
/// refused as before.
struct EmptyChartCommandTests {
  /// A Last.fm weekly track chart of the week from `from` (seconds since 1970) to seven days
  /// later, of tracks (title, artist, plays) ranked 1, 2, 3 … in order.
  static func lastFMWeek(from: Int, _ tracks: [(String, String, Int)]) -> String {
    let lines = tracks.enumerated().map { index, track in
      ##"{"artist":{"mbid":"","#text":"\##(track.1)"},"@attr":{"rank":"\##(index + 1)"},"##
        + #""url":"https://www.last.fm/music/\#(track.1)/_/\#(track.0)","#
        + #""name":"\#(track.0)","playcount":"\#(track.2)"}"#
    }
    return #"{"weeklytrackchart":{"track":[\#(lines.joined(separator: ","))],"#
      + #""@attr":{"from":"\#(from)","to":"\#(from + 604_800)","user":"u"}}}"#
  }

  /// An archive of a listener's two weeks to 2024-03-17 and 2024-03-24 (noon), the second
  /// without plays, in a folder of its own.
  static func twoWeeks() throws -> (folder: TemporaryFolder, archive: String) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try folder.write(
      "lastfm-u/2024-03-17.json", lastFMWeek(from: 1_710_072_000, [("A", "X", 9), ("B", "Y", 4)]))
    let empty = try folder.write("lastfm-u/2024-03-24.json", lastFMWeek(from: 1_710_676_800, []))
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("lastfm-u").path, "--db", archive,
    ])
    #expect(run.status == 0)
    #expect(run.output.contains("imported  lastfm-u 2024-03-24T12:00:00Z  0 entries  \(empty)\n"))
    return (folder, archive)
  }

  @Test(arguments: [
    ("2024-01-06.json", #"{"date":"2024-01-06","data":[]}"#, "the chart has no entries"),
    ("2024-01-06.json", "[]", "the chart has no entries"),
    ("2024-01-06.json", #"{"results":{"songs":[]}}"#, "the chart has no entries"),
    (
      "2024-01-06.csv", "Position,\"Track Name\",Artist,Streams,URL\n",
      "the file has a header but no rows"
    ),
    (
      "2024-01-06.csv",
      "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,image_url,"
        + "song_url,streams\n",
      "the file has a header but no rows"
    ),
  ])
  func anEmptyFileOfAFormatWhoseSourceNeverPublishesOneIsRefused(
    name: String, text: String, problem: String
  ) throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write("c/" + name, text)
    let run = try chartArchive(["import", file, "--db", archive])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(file): \(problem)\nError: 1 of 1 file could not be imported; nothing was stored\n")
    #expect(!FileManager.default.fileExists(atPath: archive))
  }

  @Test func theDiffOfAChartThenAnEmptyOneHasEveryEntryDropOut() throws {
    let (folder, archive) = try Self.twoWeeks()
    _ = folder
    let run = try chartArchive([
      "diff", "lastfm-u", "2024-03-17T12:00:00Z", "2024-03-24T12:00:00Z", "--db", archive,
    ])
    #expect(run.status == 0)
    #expect(
      run.output == """
        lastfm-u: 2024-03-17T12:00:00Z → 2024-03-24T12:00:00Z

        Debuts and re-entries (0)
          (none)

        Drop-outs (2)
        WAS  TITLE  ARTIST
          1  A      X
          2  B      Y

        On both (0: 0 up, 0 down, 0 unchanged)
          (none)

        """)
    let show = try chartArchive(["show", "lastfm-u", "--db", archive, "--format", "json"])
    #expect(
      show.output == """
        {
          "chart": "lastfm-u",
          "chart_date": "2024-03-24T12:00:00Z",
          "previous_chart_date": "2024-03-17T12:00:00Z",
          "entries": []
        }

        """)
  }

  @Test func aWeekOfNoEntriesIsAWeekOfThePeriod() throws {
    let (folder, archive) = try Self.twoWeeks()
    _ = folder
    let run = try chartArchive([
      "period", "lastfm-u", "--from", "2024-03-20", "--to", "2024-03-27", "--db", archive,
      "--format", "json",
    ])
    #expect(run.status == 0)
    let period = try json(run.output)
    #expect(period["snapshots"] as? Int == 1)
    #expect(period["previous_snapshots"] as? Int == 1)
    #expect(period["first_chart_date"] as? String == "2024-03-24T12:00:00Z")
    #expect(period["songs"] as? Int == 0)
    #expect((period["entries"] as? [Any])?.count == 0)
  }

  @Test func anEmptySnapshotComesBackFromItsJSONExportAndACSVIsRefused() throws {
    let (folder, archive) = try Self.twoWeeks()
    let exported = try chartArchive(["export", "lastfm-u", "--db", archive])
    #expect(exported.status == 0)
    #expect(
      exported.output.contains(
        #"{"chart": "lastfm-u", "chart_date": "2024-03-24T12:00:00Z", "frequency": "weekly","#
          + #" "entries": []}"#))
    let file = try folder.write("export.json", exported.output)
    let second = folder.url.appendingPathComponent("b.sqlite").path
    let imported = try chartArchive(["import", file, "--db", second, "--quiet"])
    #expect(imported.status == 0)
    #expect(
      imported.output
        == "Imported 1 file into \(second): 2 new snapshots, 0 replaced, 0 unchanged; 2 entries"
        + " stored.\n")
    #expect(try chartArchive(["export", "lastfm-u", "--db", second]).output == exported.output)
    // An empty snapshot stored as its source published it is no damage.
    #expect(try chartArchive(["check", "--db", second]).status == 0)
    let csv = try chartArchive(["export", "lastfm-u", "--format", "csv", "--db", archive])
    #expect(csv.status == 65)
    #expect(csv.output == "")
    #expect(
      csv.error
        == "Error: lastfm-u 2024-03-24T12:00:00Z has no entries, which a CSV cannot hold (a row is"
        + " an entry): export the chart as JSON\n")
  }
}
