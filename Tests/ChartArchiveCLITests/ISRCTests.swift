import Foundation
import Testing

/// The ISRCs of Apple Music's charts and ChartArchive's own files: kept, exported and imported
/// again, and refused, naming the file and the entry, when one is not an ISRC.
struct ISRCTests {
  let pages = [
    "Tests/ChartFormatsTests/Samples/apple-music-most-played-2024-03-21-page-1.json",
    "Tests/ChartFormatsTests/Samples/apple-music-most-played-2024-03-21-page-2.json",
  ]

  @Test(arguments: ["json", "csv"])
  func isrcsSurviveAnExport(format: String) throws {
    let folder = try TemporaryFolder()
    let first = folder.url.appendingPathComponent("first.sqlite").path
    let second = folder.url.appendingPathComponent("second.sqlite").path
    let imported = try chartArchive(
      ["import"] + pages + ["--chart", "apple-music-us", "--db", first, "--quiet"])
    #expect(imported.status == 0, "\(imported.error)")
    let exported = try chartArchive(["export", "apple-music-us", "--format", format, "--db", first])
    #expect(exported.status == 0)
    if format == "csv" {
      let lines = exported.output.components(separatedBy: "\r\n")
      #expect(lines.first?.hasSuffix(",song_url,streams,isrc") == true)
      #expect(lines[1].hasSuffix("?i=1700000000,,QZXYZ2400001"))
      #expect(lines[25].hasSuffix(",QZXYZ2400025"))
    } else {
      #expect(exported.output.contains(#""isrc": "QZXYZ2400001""#))
      #expect(exported.output.contains(#""isrc": "QZXYZ2400025""#))
    }
    let file = try folder.write("apple-music-us.\(format)", exported.output)
    #expect(try chartArchive(["import", file, "--db", second, "--quiet"]).status == 0)
    let again = try chartArchive(["export", "apple-music-us", "--format", format, "--db", second])
    #expect(again.output == exported.output)
  }

  @Test func anEntryWhoseISRCIsNotOneIsRefusedAndNothingIsStored() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(
      try chartArchive(
        ["import"] + pages + ["--chart", "apple-music-us", "--db", archive, "--quiet"]
      ).status == 0)
    let before = try chartArchive(["export", "apple-music-us", "--db", archive]).output
    let good = try folder.write(
      "mine/2024-03-21.json",
      #"{"chart": "mine", "chart_date": "2024-03-21", "entries": [{"rank": 1, "title": "A", "#
        + #""artist": "X", "isrc": "QZXYZ2400001"}]}"#)
    let bad = try folder.write(
      "mine/2024-03-28.json",
      #"{"chart": "mine", "chart_date": "2024-03-28", "entries": [{"rank": 1, "title": "A", "#
        + #""artist": "X", "isrc": "QZXYZ2400001"}, {"rank": 2, "title": "B", "artist": "Y", "#
        + #""isrc": "QZ-XYZ-24-0002"}]}"#)
    let run = try chartArchive(["import", good, bad, "--db", archive, "--quiet"])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(bad): entry 2 (rank 2), field 'isrc': expected an ISRC: 12 letters and digits,"
        + " CC-XXX-YY-NNNNN (two letters, three letters or digits, two digits, five digits; hyphens"
        + " may be left out), found 'QZ-XYZ-24-0002'\n"
        + "Error: 1 of 2 files could not be imported; nothing was stored\n")
    #expect(
      try chartArchive(["charts", "--format", "csv", "--db", archive]).output.contains("mine")
        == false)
    #expect(try chartArchive(["export", "apple-music-us", "--db", archive]).output == before)
  }
}
