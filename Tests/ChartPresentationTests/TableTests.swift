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
}
