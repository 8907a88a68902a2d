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
