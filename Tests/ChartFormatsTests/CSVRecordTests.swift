import ChartRanking
import Foundation
import Testing

@_spi(Fuzzing) @testable import ChartFormats

private let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// The problems of a CSV text, as the importer prints them after the file's path.
private func problems(_ csv: String, path: String = "c/2024-01-06.csv") -> [String] {
  do {
    _ = try ChartFileReader().decode(Data(csv.utf8), path: path)
    return []
  } catch {
    return error.problems.map(\.description)
  }
}

struct CSVFieldCountTests {
  @Test func aWeeklyChartRowShorterThanItsHeaderIsRefused() {
    // It was stored as an entry without a last week.
    #expect(
      problems(
        "chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart\n"
          + "2030-01-04,1,Short,Ana Lu\n") == [
          "row 2 (line 2): expected 7 fields as in the header, found 4"
        ])
  }

  @Test func aStreamingDownloadWhoseLastLineWasCutIsRefused() {
    // It stored an entry without its URL, the song's identity. The note before the header is no
    // data row, though it has fewer fields than the header.
    #expect(
      problems(
        "Note that these figures are generated using a formula.\n"
          + "Position,\"Track Name\",Artist,Streams,URL\n1,Alpha,Ann,10,https://s/a\n"
          + "2,Beta,Bo,9,https://s/b\n3,Gamma,Cy Dee", path: "c/2017-01-01.csv") == [
          "row 5 (line 5): expected 5 fields as in the header, found 3"
        ])
  }

  @Test func aShortRowOfAChartsCSVMakesNoChartOfTheFolder() {
    // It made a chart named after the folder; now it is the file's only problem.
    #expect(
      problems(
        "title,rank,date,artist,url,region,chart,trend,streams\nBeta,2,2030-01-04,Bo Chen\n",
        path: "not a chart\t/charts.csv") == [
          "row 2 (line 2): expected 9 fields as in the header, found 4"
        ])
  }

  @Test func anExtraFieldIsRefusedEvenWhenEmpty() {
    #expect(
      problems("Position,Track Name,Artist,Streams,URL\n1,A,X,5,https://s/a,\n") == [
        "row 2 (line 2): expected 5 fields as in the header, found 6"
      ])
    #expect(
      problems("Position,Track Name,Artist,Streams,URL\n1,A,X,5,https://s/a,more\n") == [
        "row 2 (line 2): expected 5 fields as in the header, found 6"
      ])
  }

  @Test func theLineCountsLineBreaksInQuotesAndBlankLines() {
    // Row 2 holds a line break (CRLF, which a title may hold), line 4 is blank: row 3 is on line 5.
    let csv =
      "Position,Track Name,Artist,Streams,URL\r\n1,\"Two\r\nLines\",X,5,u\r\n\r\n2,B,Y\r\n"
    #expect(problems(csv) == ["row 3 (line 5): expected 5 fields as in the header, found 3"])
  }

  @Test func theLineCountsLoneCarriageReturnsAndSkipsAByteOrderMark() {
    #expect(
      problems("Position,Track Name,Artist,Streams,URL\r1,A,X,5,u\r\r2,B\r") == [
        "row 3 (line 4): expected 5 fields as in the header, found 2"
      ])
    #expect(
      problems("\u{FEFF}\nPosition,Track Name,Artist,Streams,URL\n1,A\n") == [
        "row 2 (line 3): expected 5 fields as in the header, found 2"
      ])
  }

  @Test func everyRowOfTheWrongLengthIsReported() {
    let csv =
      "Position,Track Name,Artist,Streams,URL\n1,A,X,5\n2,B,Y,x,u\n3,C,Z,4,u,v,w\n4,D,W,3,u\n"
    #expect(
      problems(csv) == [
        "row 2 (line 2): expected 5 fields as in the header, found 4",
        "row 4 (line 4): expected 5 fields as in the header, found 7",
        "row 3 (rank 2), field 'streams': expected a whole number, found 'x'",
      ])
  }

  @Test func aRowAsLongAsItsHeaderIsRead() throws {
    let file = try ChartFileReader().decode(
      Data(
        "Note that these figures are generated using a formula.\nPosition,\"Track Name\",Artist,Streams,URL\n1,\"A, \"\"B\"\"\",X,5,u\n"
          .utf8), path: "c/2017-01-01.csv")
    #expect(file.snapshots.first?.entries.map(\.title) == ["A, \"B\""])
  }

  @Test func aProblemShowsItsLineBeforeItsRank() {
    #expect(
      ChartFileProblem(row: 3, line: 5, rank: 2, field: "title", message: "blank").description
        == "row 3 (line 5, rank 2), field 'title': blank")
    #expect(ChartFileProblem(line: 7, message: "odd").description == "line 7: odd")
    #expect(ChartFileProblem(row: 3, rank: 2, message: "odd").description == "row 3 (rank 2): odd")
  }
}

/// Text that is not CSV names the rule of RFC 4180 it breaks, the row, the field and the line
/// (libcsv's own words, "error parsing data while strict checking enabled", named none of them).
struct MalformedCSVTests {
  private let header = "Position,Track Name,Artist,Streams,URL\n"

  @Test func aQuoteInAFieldThatDoesNotStartWithOneNamesTheField() {
    #expect(
      problems(header + "1,A,X,5,u\n2,B,Y \"Z\",4,u\n") == [
        "row 3 (line 3): not valid CSV: field 3 has a quote but does not start with one (a field"
          + " with quotes is quoted whole, each quote in it written twice: \"A \"\"B\"\" C\")"
      ])
  }

  @Test func textAfterAClosingQuoteIsToldOnItsLineAfterAQuotedLineBreak() {
    // Row 2's title holds a CRLF: row 3 starts on line 4.
    #expect(
      problems(header + "1,\"Two\r\nLines\",X,5,u\r\n2,\"B\"x,Y,4,u\r\n") == [
        "row 3 (line 4): not valid CSV: field 2 goes on after its closing quote (a quote inside a"
          + " quoted field is written twice)"
      ])
  }

  @Test func aQuoteNeverClosedIsToldWhereItOpens() {
    // The quote opens on line 3 and swallows the lines after it; a doubled quote does not close it,
    // and blank lines and lone carriage returns count as libcsv counts them.
    #expect(
      problems(
        "\u{FEFF}Position,Track Name,Artist,Streams,URL\r1,A,X,5,u\r\r2,\"B \"\"C,Y,4,u\r3,D\r")
        == ["row 3 (line 4): not valid CSV: field 2 opens a quote that is never closed"])
  }

  @Test func theOpeningQuoteIsTheFirstOfItsField() {
    let cases: [(String, Int)] = [
      ("\"a", 0), ("\"a\"\"b", 0), ("\"\",\"x", 3), ("\"\"\"a", 0), ("a,b", 3),
    ]
    for (text, offset) in cases {
      #expect(
        Data(text.utf8).withUnsafeBytes { CSVTable.unclosedQuote(in: $0) } == offset, "\(text)")
    }
  }
}

struct CSVRecordLinesTests {
  @Test func eachRecordStartsWhereLibcsvStartsIt() throws {
    // A blank line; a quoted field over two lines, then a quoted quote; a CR inside quotes; CRLF.
    let csv = "a,b\n\n\"x\ny\",\"\"\"\"\r\nc,\"d\r\"\r\n\r\ne"
    #expect(CSVTable.recordLines(in: Data(csv.utf8)) == [1, 3, 5, 8])
    #expect(
      try CSVTable(Data(csv.utf8)).rows == [["a", "b"], ["x\ny", "\""], ["c", "d\r"], ["e"]])
  }

  /// Every CSV file of the samples and the malformed corpus that libcsv reads has as many records
  /// for the line count as libcsv's rows.
  @Test func findsAsManyRecordsAsLibcsvInEveryCSVFile() throws {
    let folders = ["Samples", "Malformed"].map { testsFolder.appendingPathComponent($0) }
    var read = 0
    for folder in folders {
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where name.hasSuffix(".csv") {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        #expect(ChartFileReader.csvRecordLinesAgreeWithTheParser(on: data), "\(name)")
        if (try? CSVTable(data)) != nil { read += 1 }
      }
    }
    #expect(read >= 19)
  }
}
