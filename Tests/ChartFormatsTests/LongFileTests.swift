import ChartRanking
import Foundation
import Testing

@testable import ChartFormats

/// A long CSV text (a dataset of many weeks) is read in parts on several threads; these tests
/// read the same texts in one piece and in parts and want the same rows, snapshots and problems.
struct LongFileTests {
  /// `a,b`, then `x,y` records up to `size` bytes; a quoted field with a line feed in it across
  /// the middle of the text; `x,y` records again, `tail` last.
  private func text(tail: String = "") -> (text: String, size: Int) {
    let size = CSVTable.minimumPartSize
    let fill = String(repeating: "x,y\n", count: size / 4 - 1)
    return ("a,b\n" + fill + "\"1\n2\",3\n" + fill + tail, size)
  }

  private func rows(_ text: String, threads: Int) -> Result<[[String]], CSVTable.Problem> {
    Result { () throws(CSVTable.Problem) in try CSVTable(Data(text.utf8), threads: threads).rows }
  }

  @Test func aTextIsCutJustAfterALineFeedOutsideQuotes() {
    let (text, size) = text()
    #expect(text.utf8.count == 2 * size + 4)
    // The middle, size + 2, is the line feed inside the quotes; the record ends at size + 7.
    let parts = Data(text.utf8).withUnsafeBytes { CSVTable.parts(of: $0, count: 2) }
    #expect(parts == [0..<(size + 8), (size + 8)..<(2 * size + 4)])
    // One part per minimumPartSize bytes at most, whatever the threads.
    #expect(Data(text.utf8).withUnsafeBytes { CSVTable.parts(of: $0, count: 8).count } == 2)
    #expect(Data("a,b\n".utf8).withUnsafeBytes { CSVTable.parts(of: $0, count: 8) } == [0..<4])
  }

  @Test func aTextReadInPartsHasTheRowsOfTheTextReadWhole() throws {
    let (text, size) = text()
    let whole = try rows(text, threads: 1).get()
    #expect(whole.count == size / 2)
    #expect(whole[size / 4] == ["1\n2", "3"])
    #expect(try rows(text, threads: 2).get() == whole)
    #expect(try rows(text, threads: 8).get() == whole)
  }

  @Test func aProblemInALaterPartIsToldAsInTheTextReadWhole() {
    let (quoteInField, size) = text(tail: "x,y\"z\n")
    let row = size / 2 + 1
    let malformed = CSVTable.Problem.malformed(
      row: row, line: row + 1, column: 2, reason: .quoteInUnquotedField)
    #expect(rows(quoteInField, threads: 1) == .failure(malformed))
    #expect(rows(quoteInField, threads: 2) == .failure(malformed))
    var notUTF8 = Data(text(tail: "x,y\n").text.utf8)
    notUTF8.insert(0xFF, at: notUTF8.count - 2)
    for threads in [1, 2] {
      #expect(
        Result { () throws(CSVTable.Problem) in try CSVTable(notUTF8, threads: threads).rows }
          == .failure(.notUTF8(row: row, column: 2)))
    }
  }

  /// A "Hot Stuff" file of `weeks` weeks of 100 entries from 2020-01-04, rank by rank: each week's
  /// rows are spread over the whole file, so every part holds some of every week.
  private func hotStuff(
    weeks: Int, badDateAtRow badRow: Int? = nil, editing edit: (Int, String) -> String = { $1 }
  ) -> Data {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let first = calendar.date(from: DateComponents(year: 2020, month: 1, day: 4))!
    let dates = (0..<weeks).map { week in
      let parts = calendar.dateComponents(
        [.year, .month, .day], from: calendar.date(byAdding: .day, value: 7 * week, to: first)!)
      return (us: "\(parts.month!)/\(parts.day!)/\(parts.year!)", iso: isoDate(parts))
    }
    var text =
      "url,week_id,week_position,song,performer,song_id,instance,previous_week_position,"
      + "peak_position,weeks_on_chart\n"
    var row = 1
    for rank in 1...100 {
      for (week, date) in dates.enumerated() {
        row += 1
        let written = row == badRow ? "2/30/2020" : date.us
        text += edit(
          row,
          "http://www.billboard.com/charts/hot-100/\(date.iso),\(written),\(rank),Title \(rank),"
            + "Artist \(rank),Title \(rank)Artist \(rank),1,\(week == 0 ? "" : "\(rank)"),"
            + "\(rank),\(week + 1)\n")
      }
    }
    return Data(text.utf8)
  }

  private func isoDate(_ parts: DateComponents) -> String {
    let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.year!)-\(two(parts.month!))-\(two(parts.day!))"
  }

  @Test func aDatasetDecodedInPartsHasTheSnapshotsOfTheDatasetDecodedWhole() throws {
    let data = hotStuff(weeks: 120)
    var reader = ChartFileReader()
    reader.threadCount = 1
    let whole = try reader.decode(data, path: "billboard.csv")
    #expect(ChartFileReader.parts(of: 1..<12_001, count: 3).count == 2)
    reader.threadCount = 3
    let inParts = try reader.decode(data, path: "billboard.csv")
    #expect(inParts.snapshots == whole.snapshots)
    #expect(whole.snapshots.count == 120)
    #expect(whole.snapshots.first?.chart == "hot-100")
    #expect(whole.snapshots.first?.chartDate.description == "2020-01-04")
    #expect(whole.snapshots.last?.chartDate.description == "2022-04-16")
    let last = try #require(whole.snapshots.last)
    #expect(last.entries.map(\.rank) == Array(1...100))
    #expect(last.entries[41].title == "Title 42")
    #expect(last.entries[41].artist == "Artist 42")
    #expect(last.entries[41].publishedPreviousRank == 42)
    #expect(last.entries[41].publishedWeeksOnChart == 120)
  }

  @Test func aProblemInADatasetDecodedInPartsIsToldWithItsLine() {
    let data = hotStuff(weeks: 120, badDateAtRow: 11_000)
    for threads in [1, 3] {
      var reader = ChartFileReader()
      reader.threadCount = threads
      #expect(throws: ChartFileError.self) { try reader.decode(data, path: "billboard.csv") }
      do {
        _ = try reader.decode(data, path: "billboard.csv")
      } catch {
        #expect(
          error.problems.map(\.description) == [
            "row 11000, field 'week_id': '2/30/2020' is not a valid date (M/D/YYYY or YYYY-MM-DD)"
          ])
      }
    }
  }

  /// The parts `reader` hands over of `data`, read in parts of 8 weeks, and what it throws.
  private func parts(of data: Data, reader: ChartFileReader = ChartFileReader()) -> (
    parts: [DecodedChartFile], error: ChartFileError?
  ) {
    var parts: [DecodedChartFile] = []
    do {
      try reader.decode(data, path: "billboard.csv", weeksPerPart: 8) { part, _ in
        parts.append(part)
        return true
      }
      return (parts, nil)
    } catch {
      return (parts, error)
    }
  }

  /// The problems `reader` finds reading `data` whole.
  private func problems(in data: Data) -> [String] {
    do {
      _ = try ChartFileReader().decode(data, path: "billboard.csv")
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  @Test func aDatasetIsHandedOverInPartsOfItsWeeksOldestFirst() throws {
    let data = hotStuff(weeks: 20)
    let (parts, error) = parts(of: data)
    #expect(error == nil)
    #expect(parts.map(\.snapshots.count) == [8, 8, 4])
    #expect(parts.allSatisfy { $0.format == .hotStuffCSV && $0.path == "billboard.csv" })
    #expect(parts.allSatisfy { $0.frequency == .weekly })
    #expect(
      parts.flatMap(\.snapshots)
        == (try ChartFileReader().decode(data, path: "billboard.csv")).snapshots)
    #expect(parts[1].snapshots.first?.chartDate.description == "2020-02-29")
  }

  @Test func everyPartHasTheFrequencyOfTheWholeFile() throws {
    // The 17th week's rows (the third part's first) name a daily chart: the whole file is weekly,
    // as its first row's chart is.
    let data = hotStuff(weeks: 20) { row, line in
      (row - 2) % 20 == 16 ? line.replacingOccurrences(of: "/hot-100/", with: "/foo-daily/") : line
    }
    let whole = try ChartFileReader().decode(data, path: "billboard.csv")
    #expect(whole.frequency == .weekly)
    #expect(whole.snapshots.map(\.chart).filter { $0 == "foo-daily" }.count == 1)
    let (parts, error) = parts(of: data)
    #expect(error == nil)
    #expect(parts.map(\.snapshots.count) == [8, 8, 4])
    #expect(parts[2].snapshots.first?.chart == "foo-daily")
    #expect(parts.map(\.frequency) == [.weekly, .weekly, .weekly])
    #expect(parts.flatMap(\.snapshots) == whole.snapshots)
  }

  @Test func aProblemInALaterWeekIsToldAsTheWholeFileTellsItAfterTheFirstParts() {
    // Row 1,960 is rank 98 of the 20th week.
    let data = hotStuff(weeks: 20) { row, line in
      row == 1_960 ? line.replacingOccurrences(of: ",Title 98,", with: ", ,") : line
    }
    let (parts, error) = parts(of: data)
    #expect(parts.map(\.snapshots.count) == [8, 8])
    #expect(error?.problems.map(\.description) == problems(in: data))
    #expect(problems(in: data) == ["row 1960 (rank 98), field 'song': blank"])
  }

  @Test func noPartIsReadAfterTheTakerStops() throws {
    // The third part (weeks 17 to 20) has a blank title: it is never read, so nothing is thrown.
    let data = hotStuff(weeks: 20) { row, line in
      row == 1_960 ? line.replacingOccurrences(of: ",Title 98,", with: ", ,") : line
    }
    var reader = ChartFileReader()
    reader.threadCount = 1
    var taken: [Int] = []
    try reader.decode(data, path: "billboard.csv", weeksPerPart: 8) { part, _ in
      taken.append(part.snapshots.count)
      return taken.count < 2
    }
    #expect(taken == [8, 8])
  }

  @Test func aWeekSplitAcrossTwoDatesIsRefusedBeforeAnyPart() {
    // The 20th week's last rows dated three days after it.
    let data = hotStuff(weeks: 20) { row, line in
      row > 1_950 && row % 20 == 1
        ? line.replacingOccurrences(of: ",5/16/2020,", with: ",5/19/2020,") : line
    }
    let (parts, error) = parts(of: data)
    #expect(parts.isEmpty)
    #expect(error?.problems.map(\.description) == problems(in: data))
    #expect(
      problems(in: data) == [
        "row 1961, field 'week_id': '5/19/2020' is 3 days after '5/16/2020' (row 21): the weeks of"
          + " a weekly chart are 7 days apart (one week split across two dates?)"
      ])
  }

  @Test func aDatasetAfterAByteOrderMarkIsHandedOverInParts() throws {
    let data = Data([0xEF, 0xBB, 0xBF]) + hotStuff(weeks: 20)
    let (parts, error) = parts(of: data)
    #expect(error == nil)
    #expect(parts.map(\.snapshots.count) == [8, 8, 4])
    #expect(
      parts.flatMap(\.snapshots)
        == (try ChartFileReader().decode(data, path: "billboard.csv")).snapshots)
  }

  @Test func aDatasetWhoseDatesAreQuotedIsHandedOverWhole() {
    let data = hotStuff(weeks: 20) { _, line in
      line.replacingOccurrences(
        of: #",([0-9]+/[0-9]+/2020),"#, with: ",\"$1\",", options: .regularExpression)
    }
    let (parts, error) = parts(of: data)
    #expect(error == nil)
    #expect(parts.map(\.snapshots.count) == [20])
  }

  @Test func aDatasetWithQuotedFieldsIsCutIntoWeeksAsLibcsvReadsItsRecords() throws {
    // A quoted title with a comma, quotes and a line break in it; CRLF line ends on some rows.
    let data = hotStuff(weeks: 20) { row, line in
      row % 7 == 0
        ? line.replacingOccurrences(of: ",Title 1,", with: ",\"Hello,\n \"\"Goodbye\"\"\",")
        : row % 5 == 0 ? line.replacingOccurrences(of: "\n", with: "\r\n") : line
    }
    let (parts, error) = parts(of: data)
    #expect(error == nil)
    #expect(parts.map(\.snapshots.count) == [8, 8, 4])
    let whole = try ChartFileReader().decode(data, path: "billboard.csv").snapshots
    #expect(parts.flatMap(\.snapshots) == whole)
    // Rank 1's rows are rows 2 to 21: the 6th week's is row 7.
    #expect(whole[5].entries[0].title == "Hello,\n \"Goodbye\"")
    #expect(whole[4].entries[0].title == "Title 1")
  }

  @Test func aColumnNoFieldReadsIsStillCheckedAsUTF8() {
    var data = hotStuff(weeks: 1)
    // Row 3's song_id, "Title 2Artist 2": a byte that is not UTF-8 in it.
    let rowThree = data.split(separator: 0x0A)[2]
    let songID = rowThree.firstRange(of: Data("Title 2Artist 2".utf8))!
    data[songID.lowerBound + 5] = 0xFF
    #expect(problems(in: data) == ["row 3: field 6 is not valid UTF-8 text"])
    var reader = ChartFileReader()
    reader.chart = "hot-100"
    #expect(throws: ChartFileError.self) { try reader.decode(data, path: "billboard.csv") }
  }
}
