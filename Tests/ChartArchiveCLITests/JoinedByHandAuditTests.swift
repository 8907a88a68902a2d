import Foundation
import Testing

/// `audit` names a person's merge or split as the cause of the disagreements it makes: "joined by
/// hand"; undoing the decision gives the audit back as it was.
struct JoinedByHandAuditTests {
  /// Four weeks of a chart of three, in the "Hot Stuff" CSV (which numbers runs): the source
  /// counts "Paper Moons", then "Paper Moonz" after a week away, and "Glass Tide", then "Glass
  /// Tyde" the week after it, as four songs, and so do the rules (no rule joins a misspelling).
  private static let chart = """
    url,week_id,week_position,song,performer,song_id,instance,previous_week_position,peak_position,weeks_on_chart
    http://www.billboard.com/charts/mini/2024-01-06,1/6/2024,1,Paper Moons,Mara Vey,a,1,,1,1
    http://www.billboard.com/charts/mini/2024-01-06,1/6/2024,2,Glass Tide,Nolan Reyes,b,1,,2,1
    http://www.billboard.com/charts/mini/2024-01-06,1/6/2024,3,Other,X,c,1,,3,1
    http://www.billboard.com/charts/mini/2024-01-13,1/13/2024,1,Other,X,c,1,3,1,2
    http://www.billboard.com/charts/mini/2024-01-13,1/13/2024,2,Glass Tide,Nolan Reyes,b,1,2,2,2
    http://www.billboard.com/charts/mini/2024-01-13,1/13/2024,3,Filler,Y,d,1,,3,1
    http://www.billboard.com/charts/mini/2024-01-20,1/20/2024,1,Other,X,c,1,1,1,3
    http://www.billboard.com/charts/mini/2024-01-20,1/20/2024,2,Paper Moonz,Mara Vey,e,1,,2,1
    http://www.billboard.com/charts/mini/2024-01-20,1/20/2024,3,Glass Tyde,Nolan Reyes,f,1,,3,1
    http://www.billboard.com/charts/mini/2024-01-27,1/27/2024,1,Paper Moonz,Mara Vey,e,1,2,1,2
    http://www.billboard.com/charts/mini/2024-01-27,1/27/2024,2,Other,X,c,1,1,1,4
    http://www.billboard.com/charts/mini/2024-01-27,1/27/2024,3,Glass Tyde,Nolan Reyes,f,1,3,3,2

    """

  /// An archive of the four weeks, in a folder removed with it.
  private static func archive() throws -> (folder: TemporaryFolder, path: String) {
    let folder = try TemporaryFolder()
    let file = try folder.write("mini.csv", chart)
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    let run = try chartArchive(["import", file, "--db", path, "--quiet"])
    try #require(run.status == 0, "\(run.error)")
    return (folder, path)
  }

  private static func song(_ path: String, _ title: String) throws -> String {
    try #require(try rows(path, "SELECT id FROM songs WHERE title = '\(title)'").first)
  }

  /// The audit in each of its formats.
  private static func audits(_ path: String) throws -> [String] {
    try ["table", "json", "csv"].map {
      try chartArchive(["audit", "mini", "--db", path, "--format", $0]).output
    }
  }

  @Test func aMergeOfTwoSongsTheSourceCountsApartIsTheCauseOfWhatItMakes() throws {
    let (folder, path) = try Self.archive()
    _ = folder
    let before = try Self.audits(path)
    // Nothing disagrees, and the table leaves the cause out.
    #expect(before[2] == "chart,chart_date,rank,figure,published,derived,cause,title,artist\r\n")
    #expect(!before[0].contains("joined by hand"))
    for (kept, merged) in [("Paper Moons", "Paper Moonz"), ("Glass Tide", "Glass Tyde")] {
      let merge = try chartArchive([
        "songs", "merge", try Self.song(path, kept), try Self.song(path, merged), "--db", path,
      ])
      try #require(merge.status == 0, "\(merge.error)")
    }
    let csv = try chartArchive(["audit", "mini", "--db", path, "--format", "csv"])
    // "Paper Moonz" re-enters a song that peaked at 1 (its weeks and run counted on from "Paper
    // Moons"); "Glass Tyde" goes on from "Glass Tide" at 2, which the source says is new. The
    // weeks and peaks off by as much the week after keep the cause.
    #expect(
      csv.output.split(whereSeparator: \.isNewline).dropFirst() == [
        "mini,2024-01-20,2,peak_position,2,1,joined by hand,Paper Moonz,Mara Vey",
        "mini,2024-01-20,2,weeks_on_chart,1,2,joined by hand,Paper Moonz,Mara Vey",
        "mini,2024-01-20,2,run,1,2,joined by hand,Paper Moonz,Mara Vey",
        "mini,2024-01-20,3,previous_rank,,2,joined by hand,Glass Tyde,Nolan Reyes",
        "mini,2024-01-20,3,peak_position,3,2,joined by hand,Glass Tyde,Nolan Reyes",
        "mini,2024-01-20,3,weeks_on_chart,1,3,joined by hand,Glass Tyde,Nolan Reyes",
        "mini,2024-01-27,1,weeks_on_chart,2,3,joined by hand,Paper Moonz,Mara Vey",
        "mini,2024-01-27,1,run,1,2,joined by hand,Paper Moonz,Mara Vey",
        "mini,2024-01-27,3,peak_position,3,2,joined by hand,Glass Tyde,Nolan Reyes",
        "mini,2024-01-27,3,weeks_on_chart,2,4,joined by hand,Glass Tyde,Nolan Reyes",
      ])
    let table = try chartArchive(["audit", "mini", "--db", path, "--summary"])
    #expect(
      table.output.hasSuffix(
        """
        CAUSE           DISAGREEMENTS
        source gap                  0
        rank shift                  0
        credit change               0
        two recordings              0
        tie                         0
        joined by hand             10
        unexplained                 0

        """))
    #expect(try rows(path, "SELECT DISTINCT cause FROM verdicts") == ["6"])
    // Both undone, last first: the audit is as before, in every format.
    #expect(try chartArchive(["songs", "undo", "2", "--db", path]).status == 0)
    #expect(try chartArchive(["songs", "undo", "1", "--db", path]).status == 0)
    #expect(try Self.audits(path) == before)
  }

  @Test func aSplitOfOneSongTheSourceCountsAsOneIsTheCauseOfWhatItMakes() throws {
    let (folder, path) = try Self.archive()
    _ = folder
    let before = try Self.audits(path)
    let split = try chartArchive([
      "songs", "split", try Self.song(path, "Other"), "--from", "2024-01-20", "--chart", "mini",
      "--db", path,
    ])
    try #require(split.status == 0, "\(split.error)")
    // From 2024-01-20 "Other" is another song: not on the previous chart, where the source gives
    // it a previous rank, and in its first week, where the source counts three (a re-entry, as
    // the source says it charted before).
    let csv = try chartArchive(["audit", "mini", "--db", path, "--format", "csv"])
    #expect(
      csv.output.split(whereSeparator: \.isNewline).dropFirst() == [
        "mini,2024-01-20,1,previous_rank,1,,joined by hand,Other,X",
        "mini,2024-01-20,1,weeks_on_chart,3,1,joined by hand,Other,X",
        "mini,2024-01-27,2,weeks_on_chart,4,2,joined by hand,Other,X",
      ])
    #expect(
      try rows(
        path,
        "SELECT movement, previous_rank, weeks_on_chart FROM chart_entries"
          + " WHERE chart_date = '2024-01-20' AND title = 'Other'") == ["re-entry||1"])
    #expect(try chartArchive(["songs", "undo", "1", "--db", path]).status == 0)
    #expect(try Self.audits(path) == before)
  }
}
