import ChartFormats
import ChartRanking
import Foundation
import Testing

private func decode(
  _ json: String, path: String = "charts/hot-100/2024-01-06.json",
  reader: ChartFileReader = ChartFileReader()
) throws(ChartFileError) -> DecodedChartFile {
  try reader.decode(Data(json.utf8), path: path)
}

/// The problems a file has, as the importer prints them.
private func problems(
  _ json: String, path: String = "charts/hot-100/2024-01-06.json",
  reader: ChartFileReader = ChartFileReader()
) -> [String] {
  do {
    _ = try decode(json, path: path, reader: reader)
    return []
  } catch {
    return error.description.components(separatedBy: "\n")
  }
}

struct FormatDetectionTests {
  @Test func readsTheWeeklyChartFormat() throws {
    let file = try decode(
      """
      {"date":"2024-01-06","data":[
        {"song":"Lovin On Me","artist":"Jack Harlow","this_week":2,"last_week":9,"peak_position":2,"weeks_on_chart":8},
        {"song":"Rockin' Around The Christmas Tree","artist":"Brenda Lee","this_week":1,"last_week":null,"peak_position":1,"weeks_on_chart":58}]}
      """)
    #expect(file.format == .billboardWeekly)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "hot-100")
    #expect(snapshot.chartDate.iso8601 == "2024-01-06")
    #expect(snapshot.publishesPreviousRank)
    #expect(
      snapshot.entries == [
        ChartEntry(
          rank: 1, title: "Rockin' Around The Christmas Tree", artist: "Brenda Lee",
          publishedPreviousRank: nil, publishedPeakPosition: 1, publishedWeeksOnChart: 58),
        ChartEntry(
          rank: 2, title: "Lovin On Me", artist: "Jack Harlow", publishedPreviousRank: 9,
          publishedPeakPosition: 2, publishedWeeksOnChart: 8),
      ])
    // The chart is weekly, whatever its name.
    #expect(file.frequency == .weekly)
  }

  @Test func readsTheNativeFormatAndItsChartName() throws {
    let file = try decode(
      """
      {"chart":"my-weekly","chart_date":"2024-01-06","frequency":"weekly","entries":[
        {"rank":1,"previous_rank":null,"title":"A","artist":"X","image_url":"https://i/1.jpg","song_url":"https://s/1"},
        {"rank":2,"previous_rank":1,"title":"B","artist":"Y"}]}
      """)
    #expect(file.format == .native)
    #expect(file.frequency == .weekly)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "my-weekly")
    #expect(snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [nil, 1])
    #expect(snapshot.entries.map(\.imageURL) == ["https://i/1.jpg", nil])
    #expect(snapshot.entries.map(\.songURL) == ["https://s/1", nil])
  }

  @Test func nativeSnapshotsWithoutPreviousRanksLeaveThemToTheArchive() throws {
    let file = try decode(
      #"{"chart":"c","chart_date":"2024-01-06T13:00:00Z","entries":[{"rank":1,"title":"A","artist":"X"}]}"#
    )
    #expect(file.snapshots.first?.publishesPreviousRank == false)
    #expect(file.snapshots.first?.chartDate.iso8601 == "2024-01-06T13:00:00Z")
  }

  /// billboard.py writes `lastPos` null where a chart has no last-week figures: such a snapshot
  /// publishes no previous ranks and leaves them to the archive. It was read as "not on last
  /// week's chart", which the archive contradicted with a `2!` mark and a warning per entry. A 0
  /// is still "not on last week's chart".
  @Test func billboardPysNullLastPositionIsNotAvailable() throws {
    let unknown = try decode(
      #"{"name": "hot-100", "date": "2024-01-13", "entries": [{"title": "B", "artist": "Y","#
        + #" "rank": 1, "lastPos": null, "peakPos": null, "weeks": null}, {"title": "A","#
        + #" "artist": "X", "rank": 2, "lastPos": null, "peakPos": null, "weeks": null}]}"#)
    #expect(unknown.format == .billboardPy)
    #expect(unknown.snapshots.first?.publishesPreviousRank == false)
    let published = try decode(
      #"{"name": "hot-100", "date": "2024-01-13", "entries": [{"title": "B", "artist": "Y","#
        + #" "rank": 1, "lastPos": 2, "peakPos": 1, "weeks": 2}, {"title": "C", "artist": "Z","#
        + #" "rank": 2, "lastPos": 0, "peakPos": 2, "weeks": 1}]}"#)
    #expect(published.snapshots.first?.publishesPreviousRank == true)
    #expect(published.snapshots.first?.entries.map(\.publishedPreviousRank) == [2, nil])
    // In the native format null stays "not on the previous chart", as documented.
    let native = try decode(
      #"{"chart": "c", "chart_date": "2024-01-13", "entries": [{"rank": 1, "title": "A","#
        + #" "artist": "X", "previous_rank": null}]}"#)
    #expect(native.snapshots.first?.publishesPreviousRank == true)
  }

  @Test func readsAnAppFeedWithRankFromPositionAndDateFromTheFileName() throws {
    let file = try decode(
      """
      [{"title":"A","artist":"X","image":"https://i/a.jpg","url":"https://s/a","last":2,"id":7},
       {"title":"B","artist":"Y","image":"https://i/b.jpg","url":"https://s/b","last":0},
       {"title":"C","artist":"Z"}]
      """, path: "feeds/app-daily/top-2024-05-02.json")
    #expect(file.format == .appFeed)
    #expect(file.frequency == .daily)
    let snapshot = try #require(file.snapshots.first)
    #expect(snapshot.chart == "app-daily")
    #expect(snapshot.chartDate.iso8601 == "2024-05-02")
    #expect(snapshot.publishesPreviousRank)
    #expect(snapshot.entries.map(\.rank) == [1, 2, 3])
    #expect(snapshot.entries.map(\.publishedPreviousRank) == [2, nil, nil])
    #expect(snapshot.entries.map(\.songURL) == ["https://s/a", "https://s/b", nil])
  }

  @Test func commandLineChartAndDateApply() throws {
    let reader = ChartFileReader(chart: "top", chartDate: try ChartDate(iso8601: "2024-05-09"))
    let feed = try decode(#"[{"title":"A","artist":"X"}]"#, path: "feed.json", reader: reader)
    #expect(feed.snapshots.first?.chart == "top")
    #expect(feed.snapshots.first?.chartDate.iso8601 == "2024-05-09")
    // A file's own date wins over --date.
    let weekly = try decode(
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1}]}"#, reader: reader)
    #expect(weekly.snapshots.first?.chartDate.iso8601 == "2024-01-06")
  }

  @Test func aFormatCanBeForced() {
    let reader = ChartFileReader(format: .native)
    #expect(
      problems(#"{"date":"2024-01-06","data":[]}"#, reader: reader) == [
        "charts/hot-100/2024-01-06.json: field 'entries': missing: expected an array of entries"
          + " (chart-archive format)",
        "charts/hot-100/2024-01-06.json: field 'chart': missing: give the chart's name",
      ])
  }
}

struct ChartFileProblemTests {
  static let path = "charts/hot-100/2024-01-06.json"

  @Test(arguments: [
    (
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1},{"song":"B","artist":"Y","this_week":1}]}"#,
      ["entry 2 (rank 1), field 'this_week': rank 1 is also the rank of entry 1"]
    ),
    (
      // Ranks above the number of entries are kept apart otherwise: found all the same.
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":7},{"song":"B","artist":"Y","this_week":2},{"song":"C","artist":"Z","this_week":7}]}"#,
      ["entry 3 (rank 7), field 'this_week': rank 7 is also the rank of entry 1"]
    ),
    (
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":0}]}"#,
      ["entry 1 (rank 0), field 'this_week': rank must be 1 or more, found 0"]
    ),
    (
      // Figures no chart has: shown as up 9223372036854775806 and 9223372036854775807* weeks.
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"last_week":9223372036854775807,"peak_position":100001,"weeks_on_chart":10000001}]}"#,
      [
        "entry 1 (rank 1), field 'last_week': must be at most 100000 (a rank), found"
          + " 9223372036854775807",
        "entry 1 (rank 1), field 'peak_position': must be at most 100000 (a rank), found 100001",
        "entry 1 (rank 1), field 'weeks_on_chart': must be at most 10000000, found 10000001",
      ]
    ),
    (
      #"{"date":"2024-01-06","data":[{"artist":"X","this_week":1},{"song":"  ","artist":"X","this_week":2}]}"#,
      ["entry 1 (rank 1), field 'song': missing", "entry 2 (rank 2), field 'song': blank"]
    ),
    (
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":"1"}]}"#,
      ["entry 1, field 'this_week': expected an integer or null"]
    ),
    (
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1000000}]}"#,
      ["entry 1 (rank 1000000), field 'this_week': rank 1000000 is larger than 100000"]
    ),
    (
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"last_week":-3}]}"#,
      ["entry 1 (rank 1), field 'last_week': must be 1 or more (or null), found -3"]
    ),
    (
      #"{"date":"2023-02-30","data":[{"song":"A","artist":"X","this_week":1}]}"#,
      [
        "field 'date': '2023-02-30' is not a valid ISO 8601 date (YYYY-MM-DD) or date and time"
          + " (YYYY-MM-DDTHH:MM:SSZ)"
      ]
    ),
    (#"{"date":"2024-01-06","data":[]}"#, ["the chart has no entries"]),
    (#"{"date":"2024-01-06","data":{}}"#, ["field 'data': expected an array of entries"]),
    (#"{"date":"2024-01-06","data":[3]}"#, ["entry 1: expected a JSON object"]),
    (
      #"{"hello":"world"}"#,
      [
        "not a chart file: a JSON object with neither 'entries' (ChartArchive format) nor 'data'"
          + " (weekly chart format)"
      ]
    ),
    ("", ["the file is empty"]),
    (
      "PNG\r\n",
      [
        "not a chart file: expected a JSON object or array, or a CSV with a known header (see"
          + " chart-archive formats)"
      ]
    ),
    (
      #"{"date":"2024-01-06","data":[{"song":"A""#,
      ["not valid JSON: the text ends before the JSON value is complete (line 1, column 41)"]
    ),
    (
      "{\"date\": \"2024-01-06\",\n \"data\": x}",
      ["not valid JSON: unexpected character (line 2, column 10)"]
    ),
  ])
  func reportsEachProblemWithItsEntryAndField(json: String, expected: [String]) {
    #expect(problems(json) == expected.map { "\(Self.path): \($0)" })
  }

  @Test func anAppFeedWithoutADateSaysHowToGiveOne() {
    #expect(
      problems(#"[{"title":"A","artist":"X"}]"#, path: "feed.json") == [
        "feed.json: no chart date: give the chart date or name the file YYYY-MM-DD.json"
          + " (or YYYY-MM-DDTHH-MM.json)"
      ])
  }

  @Test func bidirectionalControlsOfAValueOrAPathAreWrittenAsEscapes() {
    // A value holding U+202E reversed the rest of the message's line on a terminal.
    #expect(ChartFileError.printable("a\u{202E}b\u{200F}") == "a\\u{202E}b\\u{200F}")
    #expect(
      problems(
        "Position,Track Name,Artist,Streams,URL\n1,A,X,5\u{2066},https://s/a\n",
        path: "top\u{202E}/2024-01-06.csv") == [
          // A chart is not named after such a folder.
          "top\\u{202E}/2024-01-06.csv: row 2: the folder's name 'top\\u{202E}' is not a valid"
            + " chart name (1 to 200 characters, no control or bidirectional control characters,"
            + " not . or ..); give the chart's name",
          "top\\u{202E}/2024-01-06.csv: row 2 (rank 1), field 'streams': expected a whole number,"
            + " found '5\\u{2066}'",
        ])
  }

  @Test func invalidUTF8IsReportedWhereItIs() {
    var bytes = Array(#"{"date":"2024-01-06","data":[{"song":""#.utf8)
    bytes += [0xFF] + Array(#"","artist":"X","this_week":1}]}"#.utf8)
    #expect(
      throws: ChartFileError(
        path: "y.json", "not valid JSON: a string that is not valid UTF-8 (line 1, column 39)")
    ) {
      try ChartFileReader().decode(Data(bytes), path: "y.json")
    }
  }

  @Test func escapedBackslashesAndSurrogatePairsAreNotLoneSurrogates() throws {
    // "\\uD800" is a backslash and the letters uD800; "\uD83C\uDFB5" is one character (U+1F3B5).
    let file = try decode(
      #"{"date":"2024-01-06","data":[{"song":"a\\uD800","artist":"\uD83C\uDFB5 \" \\","this_week":1}]}"#
    )
    #expect(file.snapshots[0].entries[0].title == #"a\uD800"#)
    #expect(file.snapshots[0].entries[0].artist == "\u{1F3B5} \" \\")
    // A lone surrogate after other escapes is still found, where it is.
    #expect(
      problems(#"{"date":"2024-01-06","data":[{"song":"\\\"\uDC00","artist":"X","this_week":1}]}"#)
        == [
          "\(Self.path): not valid JSON: a \\u escape of a lone UTF-16 surrogate (not a character)"
            + " (line 1, column 43)"
        ])
  }

  @Test func textOfOnlyWhiteSpaceIsBlankWhateverTheSpaces() {
    // Tab, no-break space, em space, ideographic space; then a title that is one non-ASCII letter.
    let json =
      #"{"date":"2024-01-06","data":[{"song":"\t\u00a0\u2003\u3000","artist":"X","this_week":1},"#
      + #"{"song":"\u00e9","artist":"Y","this_week":2}]}"#
    #expect(problems(json) == ["\(Self.path): entry 1 (rank 1), field 'song': blank"])
  }

  @Test func wholeNumbersWrittenWithAFractionOrExponentAreIntegers() throws {
    let file = try ChartFileReader().decode(
      Data(
        #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1.0,"weeks_on_chart":2e0}]}"#
          .utf8), path: "x.json")
    #expect(file.snapshots.first?.entries.first?.rank == 1)
    #expect(file.snapshots.first?.entries.first?.publishedWeeksOnChart == 2)
  }

  @Test func aKeyRepeatedAmongManyIsReportedOnce() {
    let keys = (0..<30).map { #""k\#($0)":0"# }.joined(separator: ",")
    let json =
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"#
      + keys + #","k3":1,"k3":2}]}"#
    #expect(problems(json) == ["\(Self.path): entry 1 (rank 1), field 'k3': given more than once"])
  }

  @Test func aListLongerThanAnyChartIsRefusedWhole() {
    let json =
      #"{"date":"2024-01-06","data":["#
      + Array(repeating: "0", count: 100_001).joined(separator: ",")
      + "]}"
    #expect(
      problems(json) == [
        "\(Self.path): field 'data': 100001 entries; a chart has at most 100000"
      ])
    let feed = "[" + Array(repeating: "0", count: 100_001).joined(separator: ",") + "]"
    #expect(problems(feed) == ["\(Self.path): 100001 entries; a chart has at most 100000"])
  }

  /// Found by fuzzing: an empty array read as a format whose entries are in an object.
  @Test func anArrayReadAsAnObjectFormatHasNoEntries() {
    #expect(
      problems("[]", reader: ChartFileReader(format: .billboardPy)) == [
        "\(Self.path): field 'entries': missing: expected an array of entries (billboard-py format)"
      ])
    #expect(
      problems("[]", reader: ChartFileReader(format: .billboardWeekly)) == [
        "\(Self.path): field 'data': missing: expected an array of entries (billboard-weekly"
          + " format)"
      ])
  }

  @Test func aFileWithManyProblemsReportsTheFirstHundred() {
    let entries = (1...150).map { #"{"this_week":\#($0)}"# }.joined(separator: ",")
    let found = problems(#"{"date":"2024-01-06","data":["# + entries + "]}")
    #expect(found.count == 101)
    #expect(found.first == "\(Self.path): entry 1 (rank 1), field 'song': missing")
    #expect(found.last == "\(Self.path): … and 200 more problems in this file")
  }

  @Test(arguments: [("1.5e1", 15), ("150e-1", 15), ("1E+2", 100), ("7.000", 7)])
  func wholeNumbersAreReadExactly(text: String, value: Int) throws {
    let file = try ChartFileReader().decode(
      Data(
        #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"weeks_on_chart":\#(text)}]}"#
          .utf8),
      path: "x.json")
    #expect(file.snapshots.first?.entries.first?.publishedWeeksOnChart == value)
  }

  @Test func aByteOrderMarkBeforeJSONIsSkipped() throws {
    let file = try ChartFileReader().decode(
      Data(
        [0xEF, 0xBB, 0xBF]
          + #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1}]}"#.utf8),
      path: "x.json")
    #expect(file.snapshots.first?.entries.map(\.title) == ["A"])
  }

  @Test func chartNamesAreChecked() {
    let entries = #""entries":[{"rank":1,"title":"A","artist":"X"}]"#
    #expect(
      problems(#"{"chart":"","chart_date":"2024-01-06","# + entries + "}", path: "a.json") == [
        "a.json: field 'chart': the file's '' is not a valid chart name (1 to 200 characters, no"
          + " control or bidirectional control characters, not . or ..)"
      ])
    // A name of a folder, and one that reverses what follows it.
    #expect(
      problems(#"{"chart":"..","chart_date":"2024-01-06","# + entries + "}", path: "a.json") == [
        "a.json: field 'chart': the file's '..' is not a valid chart name (1 to 200 characters, no"
          + " control or bidirectional control characters, not . or ..)"
      ])
    #expect(
      problems(
        #"{"chart":"hot\u202E-100","chart_date":"2024-01-06","# + entries + "}", path: "a.json")
        == [
          "a.json: field 'chart': the file's 'hot\\u{202E}-100' is not a valid chart name (1 to"
            + " 200 characters, no control or bidirectional control characters, not . or ..)"
        ])
    #expect(
      problems(#"[{"title":"A","artist":"X"}]"#, path: "tab\there/2024-01-06.json") == [
        "tab\\there/2024-01-06.json: the folder's name 'tab\\there' is not a valid chart name (1 to"
          + " 200 characters, no control or bidirectional control characters, not . or ..); give"
          + " the chart's name"
      ])
  }

  @Test func aNativeFileWithoutADateTakesTheFileName() throws {
    let file = try decode(
      #"{"chart":"c","entries":[{"rank":1,"title":"A","artist":"X"}]}"#, path: "c/2024-02-03.json")
    #expect(file.snapshots.first?.chartDate.iso8601 == "2024-02-03")
  }

  @Test func textLengthCountsScalars() {
    let long = "a" + String(repeating: "\u{301}", count: 10_000)
    #expect(
      problems(
        #"{"date":"2024-01-06","data":[{"song":""# + long + #"","artist":"X","this_week":1}]}"#)
        == [
          "charts/hot-100/2024-01-06.json: entry 1 (rank 1), field 'song': 10001 characters long;"
            + " at most 10000 are accepted"
        ])
  }

  @Test func aBinaryFileIsNotText() {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00]
    #expect(
      throws: ChartFileError(
        path: "cover.json", "not a chart file: not UTF-8 text (a binary file?)")
    ) { try ChartFileReader().decode(Data(png), path: "cover.json") }
  }

  @Test func aMissingFileIsReported() {
    #expect(throws: ChartFileError.self) {
      try ChartFileReader().read(contentsOf: "/nonexistent/2024-01-06.json")
    }
  }
}

struct MarkupFileTests {
  static let message =
    "not a chart file: an HTML or XML document (a saved web page or an error page?)"

  @Test(arguments: [
    ("<!DOCTYPE html>\n<html><body>502 Bad Gateway</body></html>\n", "c/2024-01-06.csv"),
    ("\u{FEFF}\r\n  <HTML><title>Just a moment...</title></HTML>", "c/2024-01-06.json"),
    ("<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code></Error>", "c/2024-01-06.json"),
    ("<", "c/2024-01-06.csv"),
  ])
  func aWebPageIsNotAChartFileWhateverItsName(text: String, path: String) {
    #expect(problems(text, path: path) == ["\(path): \(Self.message)"])
  }

  @Test(arguments: [ChartFormat.weeklyCSV, .native])
  func evenWhenAFormatIsForced(format: ChartFormat) {
    #expect(
      problems("<html></html>", path: "p.csv", reader: ChartFileReader(format: format)) == [
        "p.csv: \(Self.message)"
      ])
  }
}

struct TextCheckTests {
  static let path = "charts/hot-100/2024-01-06.json"

  /// A weekly chart file of one entry whose title is `title`, as JSON text (escapes allowed).
  static func weekly(title: String) -> String {
    #"{"date":"2024-01-06","data":[{"song":""# + title + #"","artist":"X","this_week":1}]}"#
  }

  @Test(arguments: [
    (#"A\u001b[31mB"#, "U+001B"),
    ("A\u{7F}", "U+007F"),
    ("A\u{85}B", "U+0085"),
    ("A\u{9B}B", "U+009B"),
    (#"A\rB"#, "U+000D"),
    (#"A\r"#, "U+000D"),
    (#"A\r\u0001\u0000"#, "U+000D"),
    (#"\u0001A\u0000"#, "U+0001"),
  ])
  func controlCharactersOtherThanTabAndLineBreaksAreRefused(title: String, named: String) {
    #expect(
      problems(Self.weekly(title: title)) == [
        "\(Self.path): entry 1 (rank 1), field 'song': contains a control character \(named)"
      ])
  }

  @Test func nulKeepsItsOwnWords() {
    #expect(
      problems(Self.weekly(title: #"A\u0000"#)) == [
        "\(Self.path): entry 1 (rank 1), field 'song': contains a NUL character"
      ])
  }

  @Test func tabsAndLineBreaksAreKept() throws {
    let file = try decode(Self.weekly(title: #"A\tB\nC\r\nD"#))
    #expect(file.snapshots.first?.entries.first?.title == "A\tB\nC\r\nD")
  }

  @Test func aControlCharacterInACSVArtistIsRefused() {
    let csv = "Position,Track Name,Artist,Streams,URL\n1,A,X\u{1B}Y,5,u\n"
    #expect(
      problems(csv, path: "c/2024-01-06.csv") == [
        "c/2024-01-06.csv: row 2 (rank 1), field 'artist': contains a control character U+001B"
      ])
  }

  @Test(arguments: [
    #"\u200b"#,  // zero-width space
    #"\u200c\u200d"#,  // zero-width non-joiner and joiner
    #"\u2060 \ufeff"#,  // word joiner, a space, a byte order mark
    #"\u00ad"#,  // soft hyphen
    #"\u200e\u202a\u2066"#,  // bidi marks, embedding and isolate
    #"\ufe0f"#,  // variation selector
    #"\u3164"#,  // Hangul filler
    #"\t\u200b\u3000"#,
  ])
  func textOfOnlyInvisibleCharactersIsBlank(title: String) {
    #expect(
      problems(Self.weekly(title: title)) == ["\(Self.path): entry 1 (rank 1), field 'song': blank"]
    )
  }

  @Test func charactersAfterC1AreKept() throws {
    // U+00A0 to U+00BF share C1's lead byte: a no-break space, ©, ½, «, », ¿.
    let title = "\u{A0}© ½ «A» ¿B?"
    let file = try decode(Self.weekly(title: title))
    #expect(file.snapshots.first?.entries.first?.title == title)
  }

  @Test func invisibleCharactersBesideVisibleOnesAreKept() throws {
    // A zero-width space before a letter; a family emoji joined with ZWJ.
    let file = try decode(Self.weekly(title: #"\u200bA"#))
    #expect(file.snapshots.first?.entries.first?.title == "\u{200B}A")
    let family = "\u{1F469}\u{200D}\u{1F467}"
    let emoji = try decode(Self.weekly(title: family))
    #expect(emoji.snapshots.first?.entries.first?.title == family)
  }

  @Test func anInvisibleCSVTitleIsBlank() {
    let csv = "Position,Track Name,Artist,Streams,URL\n1,\u{200B},X,5,u\n"
    #expect(
      problems(csv, path: "c/2024-01-06.csv") == [
        "c/2024-01-06.csv: row 2 (rank 1), field 'track name': blank"
      ])
  }
}

struct LargeNumberTests {
  static let path = "charts/hot-100/2024-01-06.json"

  @Test(arguments: [
    ("99999999999999999999", "99999999999999999999 is too large (at most 9223372036854775807)"),
    ("9223372036854775808", "9223372036854775808 is too large (at most 9223372036854775807)"),
    ("1e19", "1e19 is too large (at most 9223372036854775807)"),
    ("1.5e30", "1.5e30 is too large (at most 9223372036854775807)"),
    ("1e400", "1e400 is too large (at most 9223372036854775807)"),
    (
      "-9223372036854775809",
      "-9223372036854775809 is too small (at least -9223372036854775808)"
    ),
    ("-1e20", "-1e20 is too small (at least -9223372036854775808)"),
    (
      String(repeating: "9", count: 60),
      "99999999999999999999… (60 characters) is too large (at most 9223372036854775807)"
    ),
    // Not whole: not an integer, whatever the size.
    ("1.5", "expected an integer or null"),
    ("1e-400", "expected an integer or null"),
    ("1.5e-1", "expected an integer or null"),
  ])
  func aJSONNumberBeyondSixtyFourBitsIsTooLarge(number: String, message: String) {
    let json =
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"weeks_on_chart":"#
      + number + "}]}"
    #expect(
      problems(json) == ["\(Self.path): entry 1 (rank 1), field 'weeks_on_chart': \(message)"])
  }

  @Test func theLargestAndSmallestIntegersAreRead() throws {
    let json =
      #"{"chart":"c","chart_date":"2024-01-06","entries":[{"rank":1,"title":"A","artist":"X","streams":9223372036854775807,"previous_rank":-9223372036854775808}]}"#
    #expect(
      problems(json) == [
        "\(Self.path): entry 1 (rank 1), field 'previous_rank': must be 1 or more (or null),"
          + " found -9223372036854775808"
      ])
    let file = try decode(
      #"{"chart":"c","chart_date":"2024-01-06","entries":[{"rank":1,"title":"A","artist":"X","streams":9.223372036854775807e18}]}"#
    )
    #expect(file.snapshots.first?.entries.first?.streams == Int.max)
  }

  @Test(arguments: [
    ("99999999999999999999", "99999999999999999999 is too large (at most 9223372036854775807)"),
    ("+99999999999999999999", "+99999999999999999999 is too large (at most 9223372036854775807)"),
    (
      "-99999999999999999999",
      "-99999999999999999999 is too small (at least -9223372036854775808)"
    ),
    // CSV numbers are plain integers.
    ("1e30", "expected a whole number, found '1e30'"),
    ("--99999999999999999999", "expected a whole number, found '--99999999999999999999'"),
    ("+", "expected a whole number, found '+'"),
  ])
  func aCSVNumberBeyondSixtyFourBitsIsTooLarge(number: String, message: String) {
    let csv = "Position,Track Name,Artist,Streams,URL\n1,A,X,\(number),u\n"
    #expect(
      problems(csv, path: "c/2024-01-06.csv") == [
        "c/2024-01-06.csv: row 2 (rank 1), field 'streams': \(message)"
      ])
  }

  @Test func aRankBeyondSixtyFourBitsIsTooLargeAndNotMissing() {
    let csv = "Position,Track Name,Artist,Streams,URL\n99999999999999999999,A,X,5,u\n"
    #expect(
      problems(csv, path: "c/2024-01-06.csv") == [
        "c/2024-01-06.csv: row 2, field 'position': 99999999999999999999 is too large (at most"
          + " 9223372036854775807)"
      ])
  }
}
