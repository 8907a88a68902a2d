import ChartFormats
import ChartPresentation
import ChartRanking
import Testing

struct TableTests {
  @Test func coloursOnlyOnATerminalAndNeverWithNO_COLOR() {
    #expect(Style.forOutput(isTerminal: true, environment: [:]).colors)
    #expect(!Style.forOutput(isTerminal: false, environment: [:]).colors)
    #expect(!Style.forOutput(isTerminal: true, environment: ["NO_COLOR": "1"]).colors)
    #expect(Style.forOutput(isTerminal: true, environment: ["NO_COLOR": ""]).colors)
    #expect(!Style.forOutput(isTerminal: true, environment: ["TERM": "dumb"]).colors)
    #expect(Style(colors: true).paint(.up(3)) == "\u{1B}[32m▲3\u{1B}[0m")
    #expect(Style(colors: false).paint(.up(3)) == "▲3")
  }

  /// A corrected previous rank that is none (the source named one; the song was not on the
  /// previous chart): marked in tables, null in JSON (it was the text "!"), empty in CSV.
  @Test func aMarkWithoutANumberIsNullInJSON() {
    #expect(Cell.markedNull(mark: "!").json == .null)
    #expect(Cell.markedNull(mark: "!").csv == "")
    #expect(Cell.markedNull(mark: "!").display == "!")
  }

  @Test func tablesAlignWideCharactersAndCSVQuotes() {
    let table = Table(
      columns: [Column(key: "t", heading: "T"), Column(key: "n", heading: "N", alignRight: true)],
      rows: [[.text("밤하늘"), .int(1)], [.text("ab"), .int(10)]])
    #expect(table.text(style: Style(colors: false)) == "T        N\n밤하늘   1\nab      10")
    #expect(
      CSVWriter.record(["a,b", "say \"hi\"", "plain", "two\nlines"])
        == "\"a,b\",\"say \"\"hi\"\"\",plain,\"two\nlines\"\r\n")
    #expect(displayWidth("Beyonce\u{301}") == 7)
    // A comma or quote followed by a combining mark is still a comma or a quote.
    #expect(
      CSVWriter.record(["Hello,\u{301}World", "A \"\u{301}B"])
        == "\"Hello,\u{301}World\",\"A \"\"\u{301}B\"\r\n")
    // Control characters cannot reach the terminal.
    #expect(Cell.text("a\u{1B}[2Jb\nc").display == "a\u{FFFD}[2Jb\u{FFFD}c")
  }

  /// Unicode's bidirectional controls (Bidi_Control), each of which reorders text after it on a
  /// terminal that follows the bidirectional algorithm.
  static let bidiControls: [Unicode.Scalar] = [
    "\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}",
    "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
  ]

  @Test func bidiControlsAreShownAsReplacementsAndKeptAsData() {
    // A title holding U+202E (right-to-left override) was printed as it is: the rest of its line,
    // the artist after it, showed reversed.
    #expect(Cell.text("\u{202E}").display == "\u{FFFD}")
    for control in Self.bidiControls {
      #expect(
        Cell.text("a\(control)b").display == "a\u{FFFD}b", "U+\(String(control.value, radix: 16))")
    }
    let table = Table(
      columns: [Column(key: "title", heading: "TITLE"), Column(key: "artist", heading: "ARTIST")],
      rows: [[.text("Evil \u{202E}Title"), .text("Artist")], [.text("Plain"), .text("B")]])
    #expect(
      table.text(style: Style(colors: false))
        == "TITLE        ARTIST\nEvil \u{FFFD}Title  Artist\nPlain        B")
    // JSON and CSV keep them: they are data.
    #expect(Cell.text("Evil \u{202E}Title").json == .string("Evil \u{202E}Title"))
    #expect(Cell.text("Evil \u{202E}Title").csv == "Evil \u{202E}Title")
    // A chart's name in a heading, too.
    var document = Document("entries", table)
    document.heading = ["odd\u{2067}chart · 2024-01-06"]
    #expect(
      document.rendered(as: .table, style: .plain).hasPrefix("odd\u{FFFD}chart · 2024-01-06\n"))
  }

  @Test func csvTextThatStartsLikeAFormulaIsEscapedAndFiguresAreNot() {
    // A title `=1+1` was written as it is: a spreadsheet opening the CSV ran it.
    #expect(Cell.text("=1+1").csv == "'=1+1")
    #expect(Cell.text("'Til Tuesday").csv == "'Til Tuesday")
    // A published trend keeps its notation, as the ranks and counts do.
    #expect(Cell.figure("+3").csv == "+3")
    #expect(Cell.figure("=").csv == "=")
    #expect(Cell.figure("-2").json == .string("-2"))
    #expect(Cell.figure("-2").display == "-2")
    let document = Document(
      "entries",
      Table(
        columns: [
          Column(key: "rank", heading: "RANK"), Column(key: "published", heading: "PUBLISHED"),
          Column(key: "title", heading: "TITLE"), Column(key: "artist", heading: "ARTIST"),
        ],
        rows: [
          [
            .int(1), .figure("+3"), .text(#"=HYPERLINK("http://evil.example/x","click")"#),
            .text("=1+1"),
          ],
          [.int(2), .figure("-2"), .text("'Til Tuesday"), .text("@ MEH")],
        ]),
      fields: [("chart", .text("-chart"))])
    #expect(
      document.rendered(as: .csv, style: .plain)
        == "chart,rank,published,title,artist\r\n"
        + #""'-chart",1,+3,"'=HYPERLINK(""http://evil.example/x"",""click"")","'=1+1""#
        + "\r\n\"'-chart\",2,-2,'Til Tuesday,\"'@ MEH\"\r\n")
    // JSON and tables give the text as it is.
    #expect(document.rendered(as: .json, style: .plain).contains(#""artist": "=1+1""#))
  }
}
