import ChartFormats
import ChartRanking
import Foundation
import Testing

/// CSV that spreadsheets would run: text cells that start like a formula are written with an
/// apostrophe before them (OWASP's CSV injection page), ChartArchive's own CSV takes it off again,
/// and other programs' CSV is read as written.
struct FormulaCellTests {
  @Test func aTextStartingLikeAFormulaGetsAnApostropheAndQuotes() {
    // `=1+1` was written as it is: a spreadsheet opening the file ran it.
    #expect(CSVWriter.record([CSVWriter.text("=1+1")]) == "\"'=1+1\"\r\n")
    for first in ["=", "+", "-", "@", "\t", "\r"] {
      #expect(CSVWriter.text(first + "x") == "'" + first + "x", "\(first.unicodeScalars.first!)")
    }
    #expect(
      CSVWriter.record([CSVWriter.text(#"=HYPERLINK("http://evil.example/x","click")"#)])
        == #""'=HYPERLINK(""http://evil.example/x"",""click"")""# + "\r\n")
    #expect(CSVWriter.record([CSVWriter.text("\tx")]) == "\"'\tx\"\r\n")
    // A text with its own apostrophe before such a character gets one more, so that a reader can
    // tell the two apart; any other text is written as it is.
    #expect(CSVWriter.text("'=1+1") == "''=1+1")
    #expect(CSVWriter.text("''-x") == "'''-x")
    for text in ["'Til Tuesday", "'", "''", "Rock-a-Bye", "a=b", " =1", "1", ""] {
      #expect(CSVWriter.text(text) == text)
      #expect(CSVWriter.record([CSVWriter.text(text)]) == text + "\r\n")
    }
    // Fields not written as text are not touched: figures keep their notation.
    #expect(CSVWriter.record(["=8", "-", "+3"]) == "=8,-,+3\r\n")
  }

  @Test func readingTakesOffOnlyTheWritersApostrophe() {
    for text in [
      "=1+1", "+57", "-twistin'-White Silver Sands", "@ MEH", "\tx", "\r\nx", "'=1+1", "''@x",
      "'Til Tuesday", "'", "''", "'-", "plain", "",
    ] {
      #expect(CSVWriter.readText(CSVWriter.text(text)) == text, "\(text)")
    }
    #expect(CSVWriter.readText("'Til Tuesday") == "'Til Tuesday")
    #expect(CSVWriter.readText("'=1+1") == "=1+1")
    #expect(CSVWriter.readText("''=1+1") == "'=1+1")
  }

  /// A snapshot whose texts start like formulas (the chart's name too), with real Hot 100 titles
  /// and artists that do (`+57` of 2024-11-23, `@ MEH` of 2020-05-02, `-twistin'-White Silver
  /// Sands` of 1962-05-05) and ones that start with their own apostrophe (`'Til Tuesday`, `'03
  /// Bonnie & Clyde`).
  static let formulaLike = try! Snapshot(
    chart: "@chart", chartDate: ChartDate(iso8601: "2024-03-02"), publishesPreviousRank: true,
    entries: [
      ChartEntry(
        rank: 1, title: #"=HYPERLINK("http://evil.example/x","click")"#, artist: "=1+1",
        publishedPreviousRank: 3, imageURL: "=cmd|' /C calc'!A0", songURL: "+https://s/1"),
      ChartEntry(
        rank: 2,
        title: "+57",
        artist:
          "Karol G, Feid & DFZM Featuring Ovy On The Drums, J Balvin, Maluma, Ryan Castro & Blessd"
      ),
      ChartEntry(rank: 3, title: "@ MEH", artist: "Playboi Carti"),
      ChartEntry(rank: 4, title: "-twistin'-White Silver Sands", artist: "Bill Black's Combo"),
      ChartEntry(rank: 5, title: "'Til You Can't", artist: "'Til Tuesday"),
      ChartEntry(rank: 6, title: "'=1+1", artist: "''-x"),
      ChartEntry(rank: 7, title: "\tTabbed", artist: "'03 Bonnie & Clyde"),
      ChartEntry(rank: 7, title: "Tied", artist: "-"),
    ])

  @Test func theNativeCSVEscapesFormulasAndReadsBackTheSameSnapshot() throws {
    let csv = NativeFormatWriter.csv(Self.formulaLike)
    #expect(
      csv.components(separatedBy: "\r\n") == [
        #""'@chart",2024-03-02,1,3,,,"'=HYPERLINK(""http://evil.example/x"",""click"")","'=1+1","#
          + #""'=cmd|' /C calc'!A0","'+https://s/1","#,
        #""'@chart",2024-03-02,2,-,,,"'+57","Karol G, Feid & DFZM Featuring Ovy On The Drums, J "#
          + #"Balvin, Maluma, Ryan Castro & Blessd",,,"#,
        #""'@chart",2024-03-02,3,-,,,"'@ MEH",Playboi Carti,,,"#,
        #""'@chart",2024-03-02,4,-,,,"'-twistin'-White Silver Sands",Bill Black's Combo,,,"#,
        #""'@chart",2024-03-02,5,-,,,'Til You Can't,'Til Tuesday,,,"#,
        #""'@chart",2024-03-02,6,-,,,"''=1+1","'''-x",,,"#,
        "\"'@chart\",2024-03-02,=7,-,,,\"'\tTabbed\",'03 Bonnie & Clyde,,,",
        #""'@chart",2024-03-02,=7,-,,,Tied,"'-",,,"#,
        "",
      ])
    let file = try ChartFileReader().decode(
      Data((NativeFormatWriter.csvHeader() + csv).utf8), path: "export.csv")
    #expect(file.format == .nativeCSV)
    #expect(file.snapshots == [Self.formulaLike])
  }

  @Test func anotherProgramsCSVIsReadAsWritten() throws {
    // A streaming download and a charts CSV: their apostrophes are their texts' own.
    let streaming = try ChartFileReader().decode(
      Data(
        "Position,Track Name,Artist,Streams,URL\n1,'=1+1,'Til Tuesday,5,'=https://s/a\n".utf8),
      path: "top/2024-01-06.csv")
    #expect(streaming.snapshots.first?.entries.first?.title == "'=1+1")
    #expect(streaming.snapshots.first?.entries.first?.artist == "'Til Tuesday")
    #expect(streaming.snapshots.first?.entries.first?.songURL == "'=https://s/a")
    let charts = try ChartFileReader().decode(
      Data(
        ("title,rank,date,artist,url,region,chart,trend,streams\n"
          + "'+57,1,2017-01-06,'-x,https://s/a,Global,'=top,MOVE_UP,5\n").utf8),
      path: "charts.csv")
    #expect(charts.snapshots.first?.chart == "'=top-global")
    #expect(charts.snapshots.first?.entries.first?.title == "'+57")
    #expect(charts.snapshots.first?.entries.first?.artist == "'-x")
  }
}
