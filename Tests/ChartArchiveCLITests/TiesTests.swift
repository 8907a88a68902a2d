import Foundation
import Testing

/// Two entries at one rank, from the command line: imported where the file marks the tie or
/// with --allow-ties, stored at that rank, exported marked, and read by every command.
struct TiesTests {
  /// The Hot 100's tie at #100 of 1960-03-07, as a weekly chart CSV gives it (no mark), and the
  /// week after.
  private let weeks = """
    chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart
    1960-02-29,99,Beyond The Sea,Bobby Darin,-,99,1
    1960-02-29,100,Pretty Blue Eyes,Steve Lawrence,-,100,1
    1960-03-07,99,Pretty Blue Eyes,Steve Lawrence,100,99,2
    1960-03-07,100,Forever,The Little Dippers,-,100,1
    1960-03-07,100,Beyond The Sea,Bobby Darin,99,99,2
    1960-03-14,98,Forever,The Little Dippers,100,98,2
    1960-03-14,99,Beyond The Sea,Bobby Darin,100,99,3

    """

  @Test func anUnmarkedTieIsImportedWithAllowTiesAndExportedMarked() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("hot-100.csv", weeks)
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let refused = try chartArchive(["import", file, "--chart", "hot-100", "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "\(file): row 6 (rank 100), field 'current_week': rank 100 is also the rank of row 5\n"
        + "Error: 1 of 1 file could not be imported; nothing was stored\n")
    let run = try chartArchive([
      "import", file, "--chart", "hot-100", "--allow-ties", "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    #expect(run.error == "")
    // Both at 100, each moved from its own previous rank; a week later each names 100.
    let show = try chartArchive(["show", "hot-100", "1960-03-07", "--db", archive])
    #expect(
      show.output.components(separatedBy: "\n")[2...5] == [
        "RANK  MOVE  LAST  PEAK  WKS  TITLE             ARTIST",
        "  99  ▲1     100    99    2  Pretty Blue Eyes  Steve Lawrence",
        " 100  NEW          100    1  Forever           The Little Dippers",
        " 100  ▼1      99    99    2  Beyond The Sea    Bobby Darin",
      ])
    let next = try chartArchive(["show", "hot-100", "--db", archive, "--format", "csv"])
    #expect(
      next.output.components(separatedBy: "\r\n").dropFirst().prefix(2).map {
        $0.components(separatedBy: ",").prefix(6).joined(separator: ",")
      } == ["hot-100,1960-03-14,1960-03-07,98,up,100", "hot-100,1960-03-14,1960-03-07,99,up,100"])
    let report = try chartArchive(["report", "hot-100", "1960-03-07", "--db", archive])
    #expect(report.output.contains("Debuts (1)\n"))
    #expect(try chartArchive(["check", "--db", archive]).status == 0)
    // The export marks the tie, and reads back without --allow-ties.
    for format in ["csv", "json"] {
      let exported = try chartArchive(["export", "hot-100", "--format", format, "--db", archive])
      let copy = try folder.write("export.\(format)", exported.output)
      let other = folder.url.appendingPathComponent("\(format).sqlite").path
      let again = try chartArchive([
        "import", copy, "--frequency", "weekly", "--db", other, "--quiet",
      ])
      #expect(again.status == 0, "\(format)")
      #expect(
        try chartArchive(["export", "hot-100", "--format", format, "--db", other]).output
          == exported.output)
      let reimport = try chartArchive(["import", copy, "--db", other, "--quiet"])
      #expect(reimport.output == "Nothing new: all 3 snapshots were already in \(other).\n")
    }
    let csv = try chartArchive([
      "export", "hot-100", "1960-03-07", "--format", "csv", "--db", archive,
    ])
    #expect(
      csv.output.components(separatedBy: "\r\n")[2...3] == [
        "hot-100,1960-03-07,=100,-,100,1,Forever,The Little Dippers,,,",
        "hot-100,1960-03-07,=100,99,99,2,Beyond The Sea,Bobby Darin,,,",
      ])
  }
}
