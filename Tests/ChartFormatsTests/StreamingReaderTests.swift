import Foundation
import Testing

@testable import ChartFormats

private let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
private let packageRoot = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
private let hot100Folder = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/data/billboard-hot-100")

/// The JSON files of a folder and its subfolders.
private func jsonFiles(in folder: URL) -> [URL] {
  let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
  return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "json" }
    .sorted { $0.path < $1.path }
}

/// What the streaming reader makes of a file, or `nil` when it leaves it to the tree.
private func streamed(_ data: Data) -> JSONFileFields? {
  data.withUnsafeBytes(StreamingReader.fileFields)
}

/// What the tree makes of a file, or `nil` when it is not JSON or not an object or array.
private func throughTheTree(_ data: Data) -> JSONFileFields? {
  data.withUnsafeBytes { bytes in
    (try? JSONTree.parse(bytes)).flatMap { JSONFileFields(json: $0, forced: nil) }
  }
}

struct StreamingReaderTests {
  /// Every file the streaming reader takes, it reads as the tree does: the malformed corpus, the
  /// test samples and the sample data.
  @Test func readsEveryFileItTakesAsTheTreeDoes() throws {
    let files =
      jsonFiles(in: testsFolder.appendingPathComponent("Malformed"))
      + jsonFiles(in: testsFolder.appendingPathComponent("Samples"))
      + jsonFiles(in: packageRoot.appendingPathComponent("Sample-data"))
    #expect(files.count >= 60)
    var taken: [String] = []
    for file in files {
      let data = try Data(contentsOf: file)
      guard let fast = streamed(data) else { continue }
      taken.append(file.path)
      #expect(fast == throughTheTree(data), "\(file.path)")
    }
    // The sample data's four billboard weeks are taken (its app feeds are arrays: the tree's).
    #expect(taken.filter { $0.contains("Sample-data/hot-100/") }.count == 4)
  }

  @Test(arguments: [
    // Fields of the usual files, nulls, missing fields, empty texts, a byte order mark.
    #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"last_week":null,"peak_position":1,"weeks_on_chart":1}]}"#,
    #"{"chart":"c","chart_date":"2024-01-06","frequency":"weekly","entries":[{"rank":2,"title":"","artist":"Ünï","previous_rank":-3,"image_url":null,"song_url":"u","streams":9223372036854775807}]}"#,
    "\u{FEFF}{\"date\":null,\"data\":[]}",
    // Texts the checks refuse: control characters, only invisible characters.
    #"{"date":"2024-01-06","data":[{"song":"A\u001b[31m\u0085","artist":"\u200b\u00ad","this_week":1}]}"#,
    #"{"data":[{}],"entries":[{"rank":1}]}"#,
    "{}",
    // Exports: snapshots of the native format, with billboard's lists too, or none.
    #"{"snapshots":[{"chart":"c","chart_date":"2024-01-06","frequency":"daily","entries":[{"rank":1,"title":"A","artist":"X","streams":5}]},{"chart":null,"date":"2024-01-07","data":[{"this_week":1}]}]}"#,
    #"{"chart":"c","snapshots":[]}"#,
    // ISRCs, as written and as an export writes them, empty or null.
    #"{"chart":"c","chart_date":"2024-01-06","entries":[{"rank":1,"title":"A","artist":"X","isrc":"us-rc1-76-07839"},{"rank":2,"title":"B","artist":"Y","isrc":"GBAYE0601498"},{"rank":3,"title":"C","artist":"Z","isrc":""},{"rank":4,"title":"D","artist":"W","isrc":null}]}"#,
  ])
  func takesTheUsualShapes(json: String) {
    let data = Data(json.utf8)
    #expect(streamed(data) != nil)
    #expect(streamed(data) == throughTheTree(data))
  }

  @Test func keepsNoSpareRoomPerSnapshot() throws {
    // An export of many one-entry snapshots took 2.6 times the tree's memory when every list
    // kept room for 128 entries.
    let snapshot =
      #"{"chart":"h","chart_date":"2024-01-06","entries":[{"rank":1,"title":"S","artist":"A"}]}"#
    let export =
      #"{"snapshots":["# + Array(repeating: snapshot, count: 3).joined(separator: ",") + "]}"
    let data = Data(export.utf8)
    let file = try #require(streamed(data))
    for snapshot in file.snapshots ?? [] {
      #expect(snapshot.entries?.count == 1)
      #expect(snapshot.entries?.capacity ?? 0 < 16)
    }
    #expect(file.snapshots?.count == 3)
  }

  @Test(arguments: [
    // Left to the tree, which says what is wrong or reads what is unusual.
    #"{"date":"2024-01-06","date":"2024-01-13","data":[]}"#,  // a key given twice
    #"{"data":[{"this_week":1,"this_week":2}]}"#,  // a field given twice
    #"{"data":[{"this_week":1.0}]}"#,  // a whole number with a fraction
    #"{"data":[{"this_week":99999999999999999999}]}"#,  // too large
    #"{"data":[{"this_week":-99999999999999999999}]}"#,  // too small
    #"{"data":[{"this_week":1e30}]}"#,  // whole, but too large
    #"{"data":[{"this_week":"1"}]}"#,  // text for a number
    #"{"data":[{"song":1}]}"#,  // a number for text
    #"{"data":[{"song":true}]}"#,
    #"{"data":[{"song":"\uDC00"}]}"#,  // a lone surrogate escape
    #"{"data":[{"extra":1}]}"#,  // a field the streaming reader does not know
    #"{"entries":[{"isrc":"USRC1760783"}]}"#,  // not an ISRC
    #"{"entries":[{"isrc":17607839}]}"#,  // a number for an ISRC
    #"{"data":[{"isrc":"USRC17607839"}]}"#,  // billboard's entries have none
    #"{"name":"hot-100","entries":[]}"#,  // billboard.py's
    #"{"snapshots":[1]}"#,  // a snapshot that is not an object
    #"{"snapshots":[{"snapshots":[]}]}"#,  // snapshots in a snapshot
    #"{"snapshots":null}"#,
    #"{"snapshots":[{"chart":"c","chart":"d"}]}"#,  // a snapshot's key given twice
    #"[{"rank":1}]"#,  // an app feed
    #"{"data":[1]}"#,
    #"{"data":{}}"#,
    #"{"data":null}"#,
    #"{"data":[]"#,  // cut short
    #"{"data":[]} x"#,  // something after the value
    "",
  ])
  func leavesEverythingElseToTheTree(json: String) {
    #expect(streamed(Data(json.utf8)) == nil)
  }

  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: hot100Folder.path),
      "the real Hot 100 is absent (shared/data/billboard-hot-100 beside the repository's folder)"))
  func takesEveryHot100WeekAndReadsItAsTheTreeDoes() throws {
    let files = jsonFiles(in: hot100Folder)
    #expect(files.count == 3_549)
    for file in files {
      let data = try Data(contentsOf: file)
      let fast = streamed(data)
      #expect(fast != nil, "\(file.lastPathComponent)")
      #expect(fast == throughTheTree(data), "\(file.lastPathComponent)")
    }
  }
}
