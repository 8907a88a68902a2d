import Foundation
import Testing

/// Titles that act on what shows them: bidirectional controls on terminals and pages, formulas in
/// the spreadsheets that open a CSV.
struct TextSafetyTests {
  /// An archive of one snapshot whose first title holds U+202E (right-to-left override) and whose
  /// second artist holds U+2067 (right-to-left isolate), with a song URL after the first.
  static func bidiArchive() throws -> (folder: TemporaryFolder, path: String) {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "bidi/2024-03-02.json",
      #"{"chart": "bidi", "chart_date": "2024-03-02", "entries": ["#
        + #"{"rank": 1, "title": "Evil \u202eTitle", "artist": "One","#
        + #" "song_url": "https://music.example.com/t/1"},"#
        + #"{"rank": 2, "title": "Plain", "artist": "Two \u2067x"}]}"#)
    #expect(try chartArchive(["import", file, "--db", path, "--quiet"]).status == 0)
    return (folder, path)
  }

  @Test func aTitlesBidiControlsAreKeptAsDataAndShownHarmless() throws {
    // The title was printed as it is: on a terminal the artist after it showed reversed, on a page
    // the link after it moved before it.
    let (folder, path) = try Self.bidiArchive()
    _ = folder
    let table = try chartArchive(["show", "bidi", "--db", path])
    #expect(table.status == 0)
    #expect(table.output.contains("   1  NEW            1    1  Evil \u{FFFD}Title  One\n"))
    #expect(table.output.contains("   2  NEW            2    1  Plain        Two \u{FFFD}x\n"))
    #expect(!table.output.unicodeScalars.contains { $0.properties.isBidiControl })
    let history = try chartArchive(["history", "evil", "--db", path])
    #expect(history.output.hasPrefix("Evil \u{FFFD}Title — One\n"))
    // Kept as data: JSON, CSV and an export give the title as it was imported.
    let json = try chartArchive(["show", "bidi", "--format", "json", "--db", path])
    #expect(json.output.contains(#""title": "Evil \#u{202E}Title""#))
    let csv = try chartArchive(["show", "bidi", "--format", "csv", "--db", path])
    #expect(csv.output.contains(",Evil \u{202E}Title,One,"))
    let export = try chartArchive(["export", "bidi", "--db", path])
    #expect(export.output.contains(#""title": "Evil \#u{202E}Title""#))
    // A page isolates the title and the artist and replaces the override.
    let page = try chartArchive(["report", "bidi", "--format", "html", "--db", path])
    #expect(
      page.output.contains(
        "<p><span><bdi>Evil \u{FFFD}Title</bdi></span> <a href=\"https://music.example.com/t/1\""))
    #expect(page.output.contains("<span><bdi>Two \u{FFFD}x</bdi></span>"))
    #expect(!page.output.unicodeScalars.contains { $0.properties.isBidiControl })
  }

  @Test func csvTextThatStartsLikeAFormulaIsEscapedAndAnExportImportsTheSame() throws {
    // The title and the artist were written as they are by export and show: a spreadsheet ran
    // them. A title that starts with its own apostrophe must come back with it.
    let folder = try TemporaryFolder()
    let first = folder.url.appendingPathComponent("first.sqlite").path
    let second = folder.url.appendingPathComponent("second.sqlite").path
    let file = try folder.write(
      "inj/2024-03-02.json",
      #"{"chart": "inj", "chart_date": "2024-03-02", "entries": ["#
        + #"{"rank": 1, "previous_rank": 3, "#
        + #""title": "=HYPERLINK(\"http://evil.example/x\",\"click\")", "artist": "=1+1"},"#
        + #"{"rank": 2, "previous_rank": null, "title": "+57", "artist": "Karol G"},"#
        + #"{"rank": 3, "previous_rank": null, "title": "'=1+1", "artist": "'Til Tuesday"}]}"#)
    #expect(try chartArchive(["import", file, "--db", first, "--quiet"]).status == 0)
    let export = try chartArchive(["export", "inj", "--format", "csv", "--db", first])
    #expect(
      export.output
        == "chart,chart_date,rank,previous_rank,peak_position,weeks_on_chart,title,artist,"
        + "image_url,song_url,streams\r\n"
        + #"inj,2024-03-02,1,3,,,"'=HYPERLINK(""http://evil.example/x"",""click"")","'=1+1",,,"#
        + "\r\n" + #"inj,2024-03-02,2,-,,,"'+57",Karol G,,,"# + "\r\n"
        + #"inj,2024-03-02,3,-,,,"''=1+1",'Til Tuesday,,,"# + "\r\n")
    let show = try chartArchive(["show", "inj", "--format", "csv", "--db", first])
    #expect(
      show.output.contains(
        #",,"'=HYPERLINK(""http://evil.example/x"",""click"")","'=1+1",,,published,"#))
    #expect(show.output.contains(#",,"''=1+1",'Til Tuesday,,,published,"#))
    // The export imports to the same archive: the same entries, the apostrophes taken off.
    let csv = try folder.write("inj.csv", export.output)
    #expect(try chartArchive(["import", csv, "--db", second, "--quiet"]).status == 0)
    let json = try chartArchive(["export", "inj", "--db", first]).output
    #expect(json.contains(#""title": "'=1+1", "artist": "'Til Tuesday""#))
    #expect(try chartArchive(["export", "inj", "--db", second]).output == json)
    #expect(
      try chartArchive(["show", "inj", "--format", "csv", "--db", second]).output == show.output)
  }

  @Test(.enabled(if: hot100IsPresent, hot100Absent))
  func theHot100sTitlesThatStartLikeFormulasComeBackFromAnExport() throws {
    // The weeks of `-twistin'-White Silver Sands` (1962-05-05), `@ MEH` (2020-05-02) and `+57`
    // (2024-11-23), the data's only titles that start with `+`, `-` or `@`.
    let folder = try TemporaryFolder()
    let first = folder.url.appendingPathComponent("first.sqlite").path
    let second = folder.url.appendingPathComponent("second.sqlite").path
    let weeks = ["1962-05-05", "2020-05-02", "2024-11-23"].map {
      URL(fileURLWithPath: hot100Folder).appendingPathComponent("\($0).json").path
    }
    #expect(
      try chartArchive(["import"] + weeks + ["--chart", "hot-100", "--db", first, "--quiet"])
        .status == 0)
    let export = try chartArchive(["export", "hot-100", "--format", "csv", "--db", first]).output
    for row in [
      #"hot-100,1962-05-05,92,-,92,1,"'-twistin'-White Silver Sands",Bill Black's Combo,,,"#,
      #"hot-100,2020-05-02,35,-,35,1,"'@ MEH",Playboi Carti,,,"#,
      #"hot-100,2024-11-23,62,-,62,1,"'+57","Karol G, Feid & DFZM Featuring Ovy On The Drums, J "#
        + #"Balvin, Maluma, Ryan Castro & Blessd",,,"#,
    ] {
      #expect(export.contains("\r\n" + row + "\r\n"), "\(row)")
    }
    let csv = try folder.write("hot-100.csv", export)
    #expect(
      try chartArchive(["import", csv, "--frequency", "weekly", "--db", second, "--quiet"]).status
        == 0)
    #expect(
      try chartArchive(["export", "hot-100", "--db", second]).output
        == chartArchive(["export", "hot-100", "--db", first]).output)
  }
}
