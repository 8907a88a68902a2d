import Foundation
import Testing

/// Titles that act on what shows them: bidirectional controls on terminals and pages.
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
}
