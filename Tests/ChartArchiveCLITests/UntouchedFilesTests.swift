import Foundation
import Testing

/// A native chart file of one chart and date whose entries are the titles given.
private func chartFile(_ chart: String, _ date: String, _ titles: [String]) -> String {
  let entries = titles.enumerated().map { index, title in
    #"{"rank": \#(index + 1), "title": "\#(title)", "artist": "X"}"#
  }
  return
    #"{"chart": "\#(chart)", "chart_date": "\#(date)", "entries": [\#(entries.joined(separator: ", "))]}"#
}

/// Files that are not an archive's are never changed, and a failed import leaves what was there.
struct UntouchedFilesTests {
  @Test func aFailedFirstImportIntoAnEmptyFileLeavesItEmptyAndASuccessfulOneFillsIt() throws {
    let folder = try TemporaryFolder()
    let archive = try folder.write("empty.sqlite", "")
    let bad = try folder.write(
      "bad.json",
      #"{"chart": "c", "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "", "artist": "X"}]}"#
    )
    let refused = try chartArchive(["import", bad, "--db", archive])
    #expect(refused.status == 65)
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)).isEmpty)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
        "bad.json", "empty.sqlite",
      ])
    let good = try folder.write("good.json", chartFile("c", "2024-01-06", ["A"]))
    let imported = try chartArchive(["import", good, "--db", archive])
    #expect(imported.status == 0)
    #expect(
      try chartArchive(["show", "c", "--db", archive, "--format", "csv"]).output.contains(",A,X,"))
  }

  @Test func theImportThatCannotBeCopiedOutOfTheLogSaysWhatToKeep() throws {
    // A file size limit that the log fits in and the archive, grown by the import, does not.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    // An archive of some 600 KB first.
    let many = (0..<40).map { week in
      chartFile(
        "big",
        String(format: "2020-01-%02d", week % 28 + 1).replacingOccurrences(
          of: "2020-01", with: week < 28 ? "2020-01" : "2020-02"),
        (0..<100).map { "Song \(week)-\($0) with a title long enough to fill pages" })
    }
    for (index, text) in many.enumerated() { try folder.write("big/\(index).json", text) }
    #expect(
      try chartArchive([
        "import", folder.url.appendingPathComponent("big").path, "--db", archive, "--quiet",
      ]).status == 0)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int)
    let small = try folder.write(
      "small.json",
      chartFile("small", "2024-01-06", (0..<200).map { "Another \($0) long enough title" }))
    // ulimit -f counts kibibytes: the archive may grow by 16 KiB, the log may be 100 KiB.
    let run = try bash(
      #"ulimit -f \#(size / 1024 + 16) && "$TOOL" import "\#(small)" --db "\#(archive)""#)
    #expect(run.status == 0)
    #expect(
      run.error.hasPrefix(
        "warning: the import is stored in \(archive)-wal, the archive's write-ahead log, and could"
          + " not be copied into \(archive) ("))
    #expect(
      run.error.hasSuffix(
        "): keep \(archive)-wal beside the archive, and never move or delete one without the other;"
          + " it is copied in the next time the archive is opened with room to spare\n"))
    // Without the limit, the archive has the import.
    let show = try chartArchive([
      "show", "small", "--db", archive, "--limit", "1", "--format", "csv",
    ])
    #expect(show.status == 0)
    #expect(show.output.contains(",Another 0 long enough title,X,"))
  }
}

/// Output that cannot be written is an error, except for a reader that went away.
struct OutputFailureTests {
  @Test(arguments: [
    ["export", "hot-100"], ["show", "hot-100"], ["history", "night sky", "--format", "json"],
  ])
  func aFullDiskEndsTheCommandWith74(arguments: [String]) throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    let run = try bash(
      #""$TOOL" \#(arguments.joined(separator: " ").replacingOccurrences(of: "night sky", with: "'night sky'")) --db "\#(archive)" > /dev/full"#
    )
    #expect(run.status == 74)
    #expect(
      run.error
        == "Error: could not write to standard output (No space left on device); what was written"
        + " is incomplete\n")
  }

  @Test func anImportWhoseOutputFailsSaysItIsStored() throws {
    // The import is committed before its report is written: the error said only that the output
    // was incomplete, and a script took the import for failed.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try bash(#""$TOOL" import Sample-data/hot-100 --db "\#(archive)" > /dev/full"#)
    #expect(run.status == 74)
    #expect(
      run.error
        == "Error: could not write to standard output (No space left on device); what was written"
        + " is incomplete, but the import is stored in \(archive) (4 new, 0 replaced)\n")
    #expect(
      try chartArchive(["snapshots", "hot-100", "--db", archive]).output.contains("2024-01-13"))
    // Nothing new: nothing to say stored.
    let again = try bash(#""$TOOL" import Sample-data/hot-100 --db "\#(archive)" > /dev/full"#)
    #expect(
      again.error
        == "Error: could not write to standard output (No space left on device); what was written"
        + " is incomplete\n")
  }

  @Test func aReaderThatGoesAwayEndsTheCommandQuietly() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    // Enough output to fill the pipe after head has gone.
    let run = try bash(
      #"for i in 1 2 3 4 5 6 7 8; do "$TOOL" export hot-100 --db "\#(archive)"; done | head -c 10; echo " ${PIPESTATUS[0]}""#
    )
    #expect(run.output == #"{"snapshot 141"# + "\n")
    #expect(run.error == "")
  }
}

/// Folders as users have them: links, several formats, a date given for a dated file.
struct FolderTests {
  @Test func linksToFoldersAreFollowedAndALoopIsReadOnce() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("real/hot/2024-01-06.json", chartFile("hot", "2024-01-06", ["A"]))
    try folder.write("real/more/2024-01-13.json", chartFile("hot", "2024-01-13", ["B"]))
    let manager = FileManager.default
    // The folder given is a link; inside, a linked subfolder and a link back to the top.
    try manager.createSymbolicLink(
      atPath: folder.url.appendingPathComponent("charts").path,
      withDestinationPath: folder.url.appendingPathComponent("real/hot").path)
    try manager.createSymbolicLink(
      atPath: folder.url.appendingPathComponent("real/hot/linked").path,
      withDestinationPath: folder.url.appendingPathComponent("real/more").path)
    try manager.createSymbolicLink(
      atPath: folder.url.appendingPathComponent("real/more/loop").path,
      withDestinationPath: folder.url.appendingPathComponent("real").path)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("charts").path, "--db", archive,
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.output.components(separatedBy: "\n").filter { $0.hasPrefix("imported") }
        == [
          "imported  hot 2024-01-06  1 entry  \(folder.path)/charts/2024-01-06.json",
          "imported  hot 2024-01-13  1 entry  \(folder.path)/charts/linked/2024-01-13.json",
        ])
  }

  @Test func twoFormatsInOneFolderNamedChartAreRefusedSayingWhatToPass() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let weekly = try folder.write(
      "Samples/hot.csv",
      "chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart\n2024-01-06,1,A,X,,1,1\n"
    )
    let streaming = try folder.write(
      "Samples/regional-global-daily-2024-01-07.csv",
      "Position,\"Track Name\",Artist,Streams,URL\n1,B,Y,100,https://open.spotify.com/track/b\n")
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("Samples").path, "--db", archive,
    ])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(weekly): a weekly-chart-csv file, and \(streaming) is a streaming-csv file; both would"
        + " go to chart 'Samples', named after their folder (import them one format at a time, each"
        + " with --chart NAME, or pass --chart Samples if they are one chart)\n"
        + "Error: 1 of 2 files could not be imported; nothing was stored\n")
    let one = try chartArchive([
      "import", folder.url.appendingPathComponent("Samples").path, "--db", archive, "--chart",
      "Samples",
    ])
    #expect(one.status == 0)
  }

  @Test func aDateGivenForADatedFileIsAWarning() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let dated = try folder.write("c/x.json", chartFile("c", "2024-01-13", ["A"]))
    let named = try folder.write(
      "d/2024-01-13.json", #"[{"title": "A", "artist": "X"}]"#)
    let run = try chartArchive([
      "import", dated, named, "--date", "2024-01-06", "--db", archive, "--quiet",
    ])
    #expect(run.status == 0)
    // In the order the files are stored: by the date in their names first.
    #expect(
      run.error
        == "warning: \(named): --date 2024-01-06 is used, while the file's name says 2024-01-13\n"
        + "warning: \(dated) holds the chart of 2024-01-13; --date 2024-01-06 is not used for it\n")
  }
}
