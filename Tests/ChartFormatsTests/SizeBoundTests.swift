import ChartRanking
import Foundation
import Testing

@testable import ChartFormats

/// The bounds on what an import reads (docs/formats.md, "Size bounds"): a line or a field over
/// 1 MiB is refused at once, with the file, the line and the bound; a file of one snapshot over
/// its format's bound is refused; a file of many weeks is read in parts, its rows in any order.
struct SizeBoundTests {
  private let mebibyte = 1 << 20

  /// A folder removed when the value is released.
  private final class Folder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "size-bound-tests-\(UUID().uuidString)"
    ).path

    init() throws {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// What reading `data` as the file `path` throws, in words (`nil` when it is read).
  private func refusal(_ data: Data, path: String = "chart.csv") -> String? {
    do {
      _ = try ChartFileReader().decode(data, path: path)
      return nil
    } catch {
      return error.description
    }
  }

  /// `count` bytes of `byte`.
  private func bytes(_ count: Int, of byte: Character = "a") -> Data {
    Data(repeating: byte.asciiValue!, count: count)
  }

  // MARK: - Lines

  /// A line of exactly 1 MiB is within the bound; one byte more is not, whether the line ends
  /// are LF, CRLF or lone CRs, and wherever the chunks it comes in are cut.
  @Test func aLineIsMeasuredToTheByteWhateverItsLineEnds() {
    for end in ["\n", "\r\n", "\r"] {
      for extra in [0, 1] {
        var text = Data("a\(end)b\(end)".utf8)
        text += bytes(mebibyte + extra)
        text += Data(end.utf8)
        #expect(text.withUnsafeBytes(LineMeter.firstLongLine) == (extra == 0 ? nil : 3))
      }
    }
  }

  /// A CRLF cut between two chunks ends one line, not two; a lone CR at a chunk's end ends one.
  @Test func aLineEndCutBetweenChunksIsCountedOnce() {
    func line(_ chunks: [String]) -> Int? {
      var meter = LineMeter()
      for chunk in chunks {
        if let line = Data(chunk.utf8).withUnsafeBytes({ meter.scan($0) }) { return line }
      }
      return Data(count: mebibyte + 1).withUnsafeBytes { meter.scan($0) }
    }
    #expect(line(["a\r", "\nb\r", "\n"]) == 3)
    #expect(line(["a\r", "b\r", "\r\n"]) == 4)
    #expect(line(["a\r"]) == 2)
    #expect(line(["a\r", ""]) == 2)
    #expect(line(["\n", "\r", "\n"]) == 3)
  }

  /// A long line in pieces of 64 KiB is refused at the byte that makes it too long.
  @Test func aLineInManyChunksIsRefusedOnceTooLong() {
    var meter = LineMeter()
    let chunk = bytes(1 << 16)
    for _ in 0..<16 {
      #expect(chunk.withUnsafeBytes { meter.scan($0) } == nil)
    }
    #expect(Data("a".utf8).withUnsafeBytes { meter.scan($0) } == 1)
  }

  @Test func aCSVLineOverTheBoundIsRefusedWithItsLine() {
    for end in ["\n", "\r\n", "\r"] {
      var text = Data("chart_date,rank,title,artist\(end)".utf8)
      text += bytes(mebibyte + 1)
      #expect(
        refusal(text)
          == "chart.csv: line 2: longer than 1,048,576 bytes (1 MiB), the bound on a line")
    }
  }

  // MARK: - Fields

  /// A quoted field of short lines, 1 MiB and a byte long.
  @Test func aQuotedCSVFieldOverTheBoundIsRefusedWithItsRowAndLine() {
    let line = String(repeating: "b", count: 1023) + "\n"
    var text = Data("title,artist\n\"".utf8)
    text += Data(String(repeating: line, count: 1024).utf8)
    text += Data("b\",x\n".utf8)
    #expect(
      refusal(text)
        == "chart.csv: row 2 (line 2): field 1 is longer than 1,048,576 bytes (1 MiB), the bound"
        + " on a field")
  }

  @Test func aJSONStringOverTheBoundIsRefusedWithItsLineAndColumn() {
    var text = Data("{\"chart\": \"x\",\n\"title\": \"".utf8)
    text += bytes(mebibyte + 1)
    text += Data("\"}".utf8)
    #expect(
      refusal(text, path: "chart.json")
        == "chart.json: line 2: the string at column 11 is longer than 1,048,576 bytes (1 MiB),"
        + " the bound on a field")
  }

  // MARK: - Files of one snapshot

  /// A CSV without a date column (Spotify's download of one week) over 8 MiB.
  @Test func aCSVOfOneSnapshotOverItsBoundIsRefused() {
    var text = Data(
      "rank,uri,artist_names,track_name,source,peak_rank,previous_rank,weeks_on_chart,streams\n"
        .utf8)
    let row = Data("1,spotify:track:x,Artist,Title,Label,1,1,1,100\n".utf8)
    while text.count <= 8 * mebibyte { text += row }
    #expect(
      refusal(text)
        == "chart.csv: \(ChartFileReader.words(forBytes: text.count)) long, larger than the"
        + " 8,388,608 bytes (8 MiB) a CSV file of one snapshot may be (a spotify-charts-csv file"
        + " has no date column to read it in parts)")
  }

  /// HTML over 2 MiB (libxml2's tree of a 16 MiB document of attributes took 1.2 GB).
  @Test func anHTMLDocumentOverItsBoundIsRefused() {
    var text = Data("<html><body>".utf8)
    text += bytes(2 * mebibyte, of: " ")
    #expect(
      refusal(text, path: "chart.html")
        == "chart.html: 2,097,164 bytes long, larger than the 2,097,152 bytes (2 MiB) a HTML"
        + " file of one snapshot may be (a web page holds one chart)")
  }

  /// A JSON text of 3 MB that holds a million empty objects besides its one entry took 460 MB
  /// to read; past 262,144 values it is refused, where the value past the bound is.
  @Test func aJSONFileOfTooManyValuesIsRefused() {
    let text =
      #"{"chart": "c", "chart_date": "2024-05-06", "entries": [{"rank": 1, "title": "T", "#
      + #""artist": "A"}], "junk": ["#
      + Array(repeating: "{}", count: 300_000).joined(separator: ",")
      + "]}"
    #expect(
      refusal(Data(text.utf8), path: "chart.json")
        == "chart.json: line 1: more than 262144 values (strings, numbers, arrays, objects …), the"
        + " most a file of one snapshot holds")
  }

  /// An app's feed of one day (JSON that is not an export) of 16,777,262 bytes.
  private func largeFeed() -> Data {
    var text = Data("[".utf8)
    let entry = Data("{\"title\": \"A\", \"artist\": \"B\"},\n".utf8)
    while text.count <= 16 * mebibyte { text += entry }
    text += Data("{\"title\": \"A\", \"artist\": \"B\"}]".utf8)
    return text
  }

  /// JSON over 16 MiB that is not an export.
  @Test func aJSONFileOfOneSnapshotOverItsBoundIsRefused() {
    #expect(
      refusal(largeFeed(), path: "chart.json")
        == "chart.json: 16,777,262 bytes long, larger than the 16,777,216 bytes (16 MiB) a JSON"
        + " file of one snapshot may be (only an export, {\"snapshots\": […]} as `export` writes it,"
        + " is read in parts)")
  }

  // MARK: - Named pipes

  /// Writes `data` into the named pipe `path` on a thread of its own, as a shell would.
  private func feed(_ path: String, _ data: Data) {
    Thread.detachNewThread {
      // The reader may stop reading: `write` then fails rather than the process being ended.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &signals, nil)
      let descriptor = open(path, O_WRONLY)
      guard descriptor >= 0 else { return }
      defer { close(descriptor) }
      data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
          if written <= 0 { return }
          offset += written
        }
      }
    }
  }

  @Test func aNamedPipeIsReadToItsEnd() throws {
    let folder = try Folder()
    let pipe = folder.path + "/chart.csv"
    #expect(mkfifo(pipe, 0o600) == 0)
    feed(
      pipe,
      Data("date,rank,song,artist,last-week,peak-rank,weeks-on-board\n2024-01-06,1,A,B,,1,1\n".utf8)
    )
    let file = try ChartFileReader().read(contentsOf: pipe)
    #expect(file.snapshots.map(\.chartDate.description) == ["2024-01-06"])
    #expect(file.snapshots.first?.entries.map(\.title) == ["A"])
  }

  /// What reading the named pipe `name` fed `data` throws, in words.
  private func pipeRefusal(_ data: Data, name: String) throws -> String? {
    let folder = try Folder()
    let pipe = folder.path + "/" + name
    #expect(mkfifo(pipe, 0o600) == 0)
    feed(pipe, data)
    do {
      _ = try ChartFileReader().read(contentsOf: pipe)
      return nil
    } catch {
      return error.description.replacingOccurrences(of: folder.path + "/", with: "")
    }
  }

  /// A pipe's long line, or long JSON string, is refused as it comes, the writer left writing.
  @Test func aNamedPipesLongLineOrStringIsRefusedAsItComes() throws {
    #expect(
      try pipeRefusal(Data("title,artist\r\n".utf8) + bytes(4 * mebibyte), name: "chart.csv")
        == "chart.csv: line 2: longer than 1,048,576 bytes (1 MiB), the bound on a line")
    #expect(
      try pipeRefusal(Data("[{\"title\": \"".utf8) + bytes(4 * mebibyte), name: "chart.json")
        == "chart.json: a string or a number is longer than 1,048,576 bytes (1 MiB), the bound on"
        + " a field")
  }

  /// A pipe of more than 16 MiB, kept in a temporary file as it comes, is read whole from there:
  /// its size is told.
  @Test func aNamedPipeLargerThanAFileReadWholeIsReadToItsEnd() throws {
    #expect(
      try pipeRefusal(largeFeed(), name: "chart.json")
        == "chart.json: 16,777,262 bytes long, larger than the 16,777,216 bytes (16 MiB) a JSON"
        + " file of one snapshot may be (only an export, {\"snapshots\": […]} as `export` writes it,"
        + " is read in parts)")
  }

  /// A pipe of binary bytes (short lines of them) is refused at its first 16 MiB, not copied to
  /// the temporary folder to its end (`<(cat /dev/urandom)` filled the disk).
  @Test func aNamedPipeOfBinaryBytesIsRefusedBeforeItIsCopied() throws {
    var binary = Data(capacity: 17 * mebibyte)
    while binary.count < 17 * mebibyte { binary += Data([0x00, 0xFF, 0xFE, 0x0A]) }
    #expect(
      try pipeRefusal(binary, name: "chart.csv")
        == "chart.csv: not a chart file: not UTF-8 text (a binary file?)")
    // Text cut inside a character at the 16 MiB is text.
    #expect(FileBytes.isText(Data("abc é".utf8).dropLast()))
    #expect(!FileBytes.isText(Data([0x61, 0xFF, 0x61])))
  }

  // MARK: - Files of many weeks

  /// A "Hot Stuff" file of `weeks` weeks of 10 entries from 2020-01-04, each week's rows
  /// together, the weeks in the order `order` gives.
  private func hotStuff(weeks: Int, order: (Int) -> Int) -> Data {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let first = calendar.date(from: DateComponents(year: 2020, month: 1, day: 4))!
    var text =
      "url,week_id,week_position,song,performer,song_id,instance,previous_week_position,"
      + "peak_position,weeks_on_chart\n"
    for position in 0..<weeks {
      let week = order(position)
      let day = calendar.dateComponents(
        [.year, .month, .day], from: calendar.date(byAdding: .day, value: 7 * week, to: first)!)
      for rank in 1...10 {
        text +=
          "http://www.billboard.com/charts/hot-100/x,\(day.month!)/\(day.day!)/\(day.year!),"
          + "\(rank),Title \(rank + week),Artist \(rank),Title \(rank + week)Artist \(rank),1,,"
          + "\(rank),1\n"
      }
    }
    return Data(text.utf8)
  }

  /// Weeks in no order (week 7p mod 30 at place p), read in parts as a file too large to be read
  /// whole is, give the snapshots of the weeks in order read whole.
  @Test func aFileOfManyWeeksInNoOrderReadInPartsIsReadAsInOrder() throws {
    let inOrder = hotStuff(weeks: 30) { $0 }
    let shuffled = hotStuff(weeks: 30) { $0 * 7 % 30 }
    let whole = try ChartFileReader().decode(inOrder, path: "billboard.csv")
    #expect(whole.snapshots.count == 30)
    #expect(whole.snapshots.last?.chartDate.description == "2020-07-25")
    #expect(whole.snapshots.last?.entries.map(\.title).first == "Title 30")
    var reader = ChartFileReader()
    reader.largeFileSize = 1_000
    var parts: [DecodedChartFile] = []
    try reader.decode(shuffled, path: "billboard.csv", weeksPerPart: 8) { part, _ in
      parts.append(part)
      return true
    }
    #expect(parts.map(\.snapshots.count) == [8, 8, 8, 6])
    #expect(parts.flatMap(\.snapshots) == whole.snapshots)
    #expect(try reader.decode(shuffled, path: "billboard.csv").snapshots == whole.snapshots)
  }
}
