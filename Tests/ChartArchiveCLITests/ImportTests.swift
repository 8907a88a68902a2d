import ChartFormats
import Foundation
import Testing

/// A valid weekly chart file of two entries.
private let validWeek = """
  {"date":"2024-01-13","data":[
    {"song":"A","artist":"X","this_week":1,"last_week":null,"peak_position":1,"weeks_on_chart":1},
    {"song":"B","artist":"Y","this_week":2,"last_week":null,"peak_position":2,"weeks_on_chart":1}]}
  """

struct ImportTests {
  @Test func importsSampleDataThenFindsNothingNew() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let first = try chartArchive(["import", "Sample-data", "--db", archive])
    #expect(first.status == 0)
    let lines = first.output.components(separatedBy: "\n")
    #expect(lines.count == 20)
    #expect(
      lines[0] == "imported  hot-100 2023-12-23  100 entries  Sample-data/hot-100/2023-12-23.json")
    // In chart-date order across the charts.
    #expect(
      lines[4]
        == "imported  app-monthly 2024-04-01  20 entries  Sample-data/app-monthly/2024-04-01.json")
    #expect(
      lines[6]
        == "imported  app-daily 2024-05-01  10 entries  Sample-data/app-daily/2024-05-01.json")
    #expect(
      lines[17]
        == "imported  app-hourly 2024-05-05T14:00:00Z  20 entries"
        + "  Sample-data/app-hourly/2024-05-05T14-00.json")
    #expect(
      lines[18]
        == "Imported 18 files into \(archive): 18 new snapshots, 0 replaced, 0 unchanged; 630 entries"
        + " stored.")
    let again = try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"])
    #expect(again.status == 0)
    #expect(again.output == "Nothing new: all 18 snapshots were already in \(archive).\n")
    // --quiet keeps no line per snapshot, only the counts of the summary.
    let quiet = folder.url.appendingPathComponent("quiet.sqlite").path
    let counted = try chartArchive(["import", "Sample-data", "--db", quiet, "--quiet"])
    #expect(
      counted.output
        == "Imported 18 files into \(quiet): 18 new snapshots, 0 replaced, 0 unchanged; 630"
        + " entries stored.\n")

    let check = try chartArchive(["check", "--db", archive, "--format", "csv"])
    #expect(check.status == 0)
    #expect(check.output.components(separatedBy: "\r\n").filter { $0.contains(",ok,") }.count == 7)
    let charts = try chartArchive(["charts", "--db", archive, "--format", "csv"])
    #expect(
      charts.output
        == "chart,frequency,snapshots,first_chart_date,last_chart_date\r\n"
        + "app-daily,daily,5,2024-05-01,2024-05-05\r\n"
        + "app-hourly,hourly,3,2024-05-05T12:00:00Z,2024-05-05T14:00:00Z\r\n"
        + "app-monthly,monthly,2,2024-04-01,2024-05-01\r\n"
        + "app-total,all-time,2,2024-05-04,2024-05-05\r\n"
        + "app-weekly,weekly,2,2024-04-28,2024-05-05\r\n"
        + "hot-100,weekly,4,2023-12-23,2024-01-13\r\n")
  }

  /// `-q` is `--quiet` (it was an unknown option).
  @Test func dashQIsQuiet() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try chartArchive(["import", "Sample-data/app-daily", "-q", "--db", archive])
    #expect(run.status == 0)
    #expect(
      run.output
        == "Imported 5 files into \(archive): 5 new snapshots, 0 replaced, 0 unchanged; 50 entries"
        + " stored.\n")
  }

  /// A file a shell gives as a pipe (`<(curl …)`, a named pipe) is read to its end (it was
  /// "cannot be read (… You don't have permission.)").
  @Test func aPipeIsReadLikeAFile() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try bash(
      #""$TOOL" import <(printf '[{"title": "A", "artist": "B"}]') --chart x-daily"#
        + " --date 2024-01-01 --db \(archive)")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasPrefix("imported  x-daily 2024-01-01  1 entry  /dev/fd/"))
  }

  @Test func oneEntryIsCountedInTheSingular() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write(
      "solo/2024-01-06.json",
      #"{"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"last_week":null}]}"#)
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let run = try chartArchive(["import", file, "--db", archive])
    #expect(
      run.output
        == "imported  solo 2024-01-06  1 entry  \(file)\nImported 1 file into \(archive): 1 new"
        + " snapshot, 0 replaced, 0 unchanged; 1 entry stored.\n")
  }

  @Test func aLogLeftWhereNoArchiveIsIsRenamedAsideAndSaidSo() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try folder.write("a.sqlite-wal", "the log of an archive moved away without it")
    // An empty journal holds nothing: deleted.
    _ = try folder.write("a.sqlite-journal", "")
    let run = try chartArchive(["import", "Sample-data/hot-100", "--db", archive, "--quiet"])
    #expect(run.status == 0)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    #expect(names.count == 2)
    #expect(names.first == "a.sqlite")
    let aside = try #require(names.last)
    #expect(aside.hasPrefix("a.sqlite-wal.orphaned-"))
    #expect(
      run.error
        == "warning: renamed \(archive)-wal to \(folder.url.appendingPathComponent(aside).path):"
        + " it was beside no archive, left by one deleted or moved without it, and may hold that"
        + " archive's last"
        + " imports; put it back beside that archive, named as the archive with -wal (or -journal)"
        + " after it, before opening it\n")
  }

  @Test func theReportOfTheSampleWeekIsExact() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try chartArchive(["import", "Sample-data", "--db", archive])
    let run = try chartArchive(["report", "hot-100", "--db", archive, "--limit", "3"])
    #expect(run.status == 0)
    #expect(
      run.output.hasPrefix(
        """
        hot-100 · 2024-01-13 (against 2024-01-06)

        Number one
        RANK  MOVE  LAST  PEAK  WKS  TITLE        ARTIST
           1  ▲8       9     1   8*  Lovin On Me  Jack Harlow

        Debuts (5)
        RANK  MOVE  LAST  PEAK  WKS  TITLE                        ARTIST
          59  NEW           59    1  I Can Feel It                Kane Brown
        """))
    #expect(
      run.output.contains(
        """
        Biggest climbers
        RANK  MOVE  LAST  PEAK  WKS  TITLE                ARTIST
          36  ▲40     76    36  29*  Truck Bed            HARDY
          38  ▲39     77    38  10*  Save Me The Trouble  Dan + Shay
          45  ▲39     84    45  13*  The Painter          Cody Johnson

        Biggest fallers
          (none)

        Drop-outs (41)
        LAST  TITLE
        """))

    let report = try json(
      chartArchive(["report", "hot-100", "2024-01-13", "--db", archive, "--format", "json"]).output)
    #expect(report["chart_date"] as? String == "2024-01-13")
    #expect(report["previous_chart_date"] as? String == "2024-01-06")
    #expect((report["debuts"] as? [Any])?.count == 5)
    #expect((report["reentries"] as? [Any])?.count == 36)
    #expect((report["drop_outs"] as? [Any])?.count == 41)
    let top = try #require((report["number_one"] as? [[String: Any]])?.first)
    #expect(top["title"] as? String == "Lovin On Me")
    #expect(top["movement"] as? String == "up")
    #expect(top["previous_rank"] as? Int == 9)
    #expect(top["previous_rank_source"] as? String == "published")
    // The sample holds four of its weeks: the source's eight are given, the archive's four beside.
    #expect(top["weeks_on_chart"] as? Int == 8)
    #expect(top["archive_weeks_on_chart"] as? Int == 4)
    #expect(top["published_weeks_on_chart"] is NSNull)
    #expect(top["partial_run"] as? Bool == true)
    #expect(
      run.output.hasSuffix(
        "\n\n* the source's figure: the archive does not hold the start of the song's run\n"))
  }

  @Test func theAppFeedMovesAsPublished() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try chartArchive(["import", "Sample-data/app-daily", "--db", archive])
    let run = try chartArchive([
      "show", "app-daily", "2024-05-04", "--db", archive, "--format", "csv",
    ])
    #expect(run.status == 0)
    let lines = run.output.components(separatedBy: "\r\n")
    #expect(
      lines[0]
        == "chart,chart_date,previous_chart_date,rank,movement,previous_rank,peak_position,"
        + "weeks_on_chart,streams,title,artist,image_url,song_url,previous_rank_source,run,"
        + "partial_run,published_previous_rank,published_peak_position,published_weeks_on_chart,"
        + "archive_peak_position,archive_weeks_on_chart,published_run,archive_run")
    #expect(
      lines[3]
        == "app-daily,2024-05-04,2024-05-03,3,up,7,3,3,,Firstlight,Seo-yeon,"
        + "https://images.example.com/covers/k.jpg,https://music.example.com/track/k,published,1,"
        + "false,,,,,,,")
    // Back after a day away: a re-entry, its second run.
    #expect(
      lines[10] == "app-daily,2024-05-04,2024-05-03,10,re-entry,,9,2,,Salt Water,Nadia Rahimi,"
        + "https://images.example.com/covers/i.jpg,https://music.example.com/track/i,published,2,"
        + "false,,,,,,,")
  }

  /// Each bad file: what the importer must say about it.
  @Test(arguments: [
    (
      "bad/2024-01-13.json", #"{"date":"2024-01-13","data":[{"song":"A""#,
      "not valid JSON: the text ends before the JSON value is complete (line 1, column 41)"
    ),
    (
      "bad/2024-01-13.json",
      #"{"date":"2024-01-13","data":[{"song":"A","artist":"X","this_week":1},{"song":"B","artist":"Y","this_week":1}]}"#,
      "entry 2 (rank 1), field 'this_week': rank 1 is also the rank of entry 1"
    ),
    (
      "bad/2024-01-13.json",
      #"{"date":"2024-01-13","data":[{"song":"A","artist":"X","this_week":0}]}"#,
      "entry 1 (rank 0), field 'this_week': rank must be 1 or more, found 0"
    ),
    (
      "bad/2024-01-13.json",
      #"{"date":"2024-01-13","data":[{"song":"A","artist":"X","this_week":1},{"artist":"Y","this_week":2}]}"#,
      "entry 2 (rank 2), field 'song': missing"
    ),
  ])
  func badInputExits65NamingFileAndEntryAndLeavesTheArchiveAsItWas(
    file: String, content: String, problem: String
  ) throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data/hot-100", "--db", archive]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: archive))
    // A valid new week goes with the bad file: it must not be stored either.
    let good = try folder.write(
      "good/2024-01-20.json", validWeek.replacing("2024-01-13", with: "2024-01-20"))
    let bad = try folder.write(file, content)
    let run = try chartArchive(["import", good, bad, "--chart", "hot-100", "--db", archive])
    #expect(run.status == 65)
    #expect(run.output == "")
    #expect(
      run.error
        == "\(bad): \(problem)\nError: 1 of 2 files could not be imported; nothing was stored\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
    let snapshots = try chartArchive(["snapshots", "hot-100", "--db", archive, "--format", "csv"])
    #expect(snapshots.output.components(separatedBy: "\r\n").count == 6)  // header, 4 weeks, ""
  }

  @Test func everyProblemOfEveryFileIsListed() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let first = try folder.write(
      "c/2024-01-06.json",
      #"{"date":"2024-01-06","data":[{"song":"","artist":"X","this_week":-1}]}"#)
    let second = try folder.write("c/2024-01-13.json", "[]")
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c").path, "--db", archive,
    ])
    #expect(run.status == 65)
    #expect(
      run.error == """
        \(first): entry 1 (rank -1), field 'this_week': rank must be 1 or more, found -1
        \(first): entry 1 (rank -1), field 'song': blank
        \(second): the chart has no entries
        Error: 2 of 2 files could not be imported; nothing was stored

        """)
    // The archive did not exist before the import: it still does not.
    #expect(!FileManager.default.fileExists(atPath: archive))
  }

  @Test func aDifferentSnapshotOfAStoredDateIsRefusedUnlessReplacing() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let week = try folder.write("w/2024-01-13.json", validWeek)
    #expect(try chartArchive(["import", week, "--chart", "c", "--db", archive]).status == 0)
    let changed = try folder.write("x/2024-01-13.json", validWeek.replacing("\"B\"", with: "\"C\""))
    let refused = try chartArchive(["import", changed, "--chart", "c", "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "\(changed): c 2024-01-13 is already stored with different entries (use --replace to"
        + " replace it)\nError: 1 of 1 file could not be imported; nothing was stored\n")
    let replaced = try chartArchive([
      "import", changed, "--chart", "c", "--db", archive, "--replace",
    ])
    #expect(replaced.status == 0)
    #expect(replaced.output.hasPrefix("replaced  c 2024-01-13  2 entries"))
    let show = try chartArchive(["show", "c", "--db", archive, "--format", "csv"])
    #expect(show.output.contains(",2,new,,2,1,,C,Y,,,published,1,false,,,,,,,\r\n"))
  }

  @Test func queriesRefuseAnEmptyFileAndLeaveIt() throws {
    let folder = try TemporaryFolder()
    let empty = try folder.write("empty.sqlite", "")
    let run = try chartArchive(["charts", "--db", empty])
    #expect(run.status == 65)
    #expect(run.error == "Error: \(empty) is not a ChartArchive archive: it is empty\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
  }

  @Test func diffRefusesTheSameDateTwice() throws {
    let run = try chartArchive([
      "diff", "hot-100", "2024-01-06", "2024-01-06", "--db", "/nonexistent",
    ])
    #expect(run.status == 64)
    #expect(
      run.error.hasPrefix(
        "Error: <older> and <newer> are the same date: give two different chart dates\n"))
  }

  @Test func aFailedImportIntoANewArchiveLeavesNoArchive() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("new/sub/a.sqlite").path
    let bad = try folder.write("bad/2024-01-06.json", #"{"date":"2024-01-06","data":[]}"#)
    let run = try chartArchive(["import", bad, "--chart", "c", "--db", archive])
    #expect(run.status == 65)
    #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("new").path))
  }

  @Test func aFailedImportIntoANewArchiveLeavesItsFolderAsItWas() throws {
    let folder = try TemporaryFolder()
    let other = try folder.write("archives/notes.txt", "kept")
    let archive = folder.url.appendingPathComponent("archives/a.sqlite").path
    let bad = try folder.write("bad/2024-01-06.json", #"{"date":"2024-01-06","data":[]}"#)
    let run = try chartArchive(["import", bad, "--chart", "c", "--db", archive])
    #expect(run.status == 65)
    let left = try FileManager.default.contentsOfDirectory(
      atPath: folder.url.appendingPathComponent("archives").path)
    #expect(left == [URL(fileURLWithPath: other).lastPathComponent])
  }

  @Test func anyImportDeletesTheBuildFilesOfKilledFirstImportsInItsFolder() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data/app-daily", "--db", archive]).status == 0)
    let killed = try folder.write(".chart-archive-build-12-0123abcd", "")
    #expect(try chartArchive(["import", "Sample-data/hot-100", "--db", archive]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: killed))
  }

  @Test func twoDifferentFilesForOneDateInOneImportAreAConflictEvenWhenReplacing() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let first = try folder.write("a/2024-01-13.json", validWeek)
    let second = try folder.write("b/2024-01-13.json", validWeek.replacing("\"B\"", with: "\"C\""))
    let run = try chartArchive([
      "import", first, second, "--chart", "c", "--db", archive, "--replace",
    ])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(second): another file of this import, \(first), holds a different snapshot of c"
        + " 2024-01-13\n"
        + "Error: 1 of 2 files could not be imported; nothing was stored\n")
  }

  @Test func aFileLeftUnchangedStillConflictsWithAnotherOfTheSameDate() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let one = try folder.write(
      "a/2024-01-06.json",
      #"{"chart":"t","chart_date":"2024-01-06","entries":[{"rank":1,"title":"One","artist":"A"}]}"#)
    let two = try folder.write(
      "b/2024-01-06.json",
      #"{"chart":"t","chart_date":"2024-01-06","entries":[{"rank":1,"title":"Two","artist":"B"}]}"#)
    #expect(try chartArchive(["import", one, "--db", archive, "--quiet"]).status == 0)
    // `one` is left as it is; `two` is another snapshot of that date in the same import, refused
    // as it is when the archive does not hold `one` yet.
    for _ in 0..<2 {
      let run = try chartArchive(["import", one, two, "--db", archive, "--replace"])
      #expect(run.status == 65)
      #expect(
        run.error
          == "\(two): another file of this import, \(one), holds a different snapshot of t"
          + " 2024-01-06\n"
          + "Error: 1 of 2 files could not be imported; nothing was stored\n")
    }
    #expect(
      try chartArchive(["show", "t", "2024-01-06", "--db", archive]).output.contains("One"))
  }

  @Test func aSkippedFileDoesNotLetALaterOneReplaceWhatTheImportStored() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let files = try ["a", "b", "c"].map { name in
      try folder.write(
        "\(name)/2024-01-06.json",
        #"{"chart":"t","chart_date":"2024-01-06","entries":[{"rank":1,"title":"Song "#
          + name + #"","artist":"Art"}]}"#)
    }
    let run = try chartArchive(
      ["import", folder.url.path, "--db", archive, "--replace", "--skip-invalid", "--quiet"])
    #expect(run.status == 0)
    #expect(run.output.contains("1 new snapshot, 0 replaced, 0 unchanged"))
    #expect(
      run.error
        == "skipped: \(files[1]): another file of this import, \(files[0]), holds a different"
        + " snapshot of t 2024-01-06\nskipped: \(files[2]): another file of this import,"
        + " \(files[0]), holds a different snapshot of t 2024-01-06\n")
    #expect(
      try chartArchive(["show", "t", "2024-01-06", "--db", archive]).output.contains("Song a"))
  }

  @Test func theSameInstantWrittenAnotherWayIsUnchanged() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let entries = #""entries":[{"rank":1,"title":"A","artist":"X"}]}"#
    let day = try folder.write("a/x.json", #"{"chart":"c","chart_date":"2024-01-06","# + entries)
    let midnight = try folder.write(
      "b/x.json", #"{"chart":"c","chart_date":"2024-01-06T00:00:00Z","# + entries)
    #expect(try chartArchive(["import", day, "--db", archive]).status == 0)
    let again = try chartArchive(["import", midnight, "--db", archive, "--quiet"])
    #expect(again.status == 0)
    #expect(again.output == "Nothing new: the snapshot was already in \(archive).\n")
  }

  @Test func aChartFileOrFolderWhoseNameIsNotUTF8IsReportedAndNothingIsStored() throws {
    // Swift cannot hold such a name as a path: both were left out without a word.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("c/2024-01-13.json", validWeek)
    func make(_ name: [UInt8], folder isFolder: Bool) {
      let path =
        Array(folder.url.appendingPathComponent("c").path.utf8) + [UInt8(ascii: "/")]
        + name + [0]
      path.withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { path in
          if isFolder {
            _ = mkdir(path.baseAddress!, 0o755)
          } else {
            _ = close(open(path.baseAddress!, O_CREAT | O_WRONLY, 0o644))
          }
        }
      }
    }
    make([0xFF] + Array("2024-01-20.json".utf8), folder: false)
    make(Array("d".utf8) + [0xFE], folder: true)
    // Not a chart file's name: left out, as any other file.
    make([0xFD] + Array(".txt".utf8), folder: false)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c").path, "--db", archive,
    ])
    #expect(run.status == 66)
    // In name order.
    #expect(
      run.error
        == "Error: \(folder.path)/c/d\u{FFFD}: its name is not UTF-8 text (rename it to import it)\n"
        + "\(folder.path)/c/\u{FFFD}2024-01-20.json: its name is not UTF-8 text (rename it to"
        + " import it)\n")
    #expect(!FileManager.default.fileExists(atPath: archive))
  }

  @Test func aFileNameWithControlCharactersIsShownEscapedNotSentToTheTerminal() throws {
    // ESC [ 3 1 m turned a terminal's text red; a line feed split the line.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let good = try folder.write("c/ok\u{1B}[31m-2024-01-13.json", validWeek)
    let bad = try folder.write("c/bad\nline-2024-01-20.json", "[")
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c").path, "--db", archive, "--skip-invalid",
    ])
    #expect(run.status == 0)
    let shown = { (path: String) in
      path.replacing("\u{1B}", with: "\\u{1B}").replacing("\n", with: "\\n")
    }
    #expect(run.output.hasPrefix("imported  c 2024-01-13  2 entries  \(shown(good))\n"))
    #expect(run.error.hasPrefix("skipped: \(shown(bad)): "))
    #expect(!run.output.contains("\u{1B}") && !run.error.contains("\u{1B}"))
  }

  /// Whether this process can make a file it cannot read: it is not root, or as root it can run
  /// the tool as nobody (setpriv installed, the tool in folders nobody may enter).
  static let canMeetAnUnreadableFile: Bool = {
    guard getuid() == 0 else { return true }
    guard isInstalled("/usr/bin/setpriv") else { return false }
    return
      (try? runProgram(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", toolURL.path, "--version"]))?.status
      == 0
  }()

  @Test(
    .enabled(
      if: canMeetAnUnreadableFile,
      "root reads every file, and the tool cannot run as nobody here: skipped"))
  func aFileThatCannotBeReadIsReportedBeforeAnythingIsRead() throws {
    // It was refused as invalid data (65) after the files before it were read, while a folder
    // that cannot be read was reported first (66).
    let folder = try TemporaryFolder()
    chmod(folder.path, 0o777)
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("c/2024-01-13.json", validWeek)
    let locked = try folder.write(
      "c/2024-01-20.json", validWeek.replacing("2024-01-13", with: "2024-01-20"))
    chmod(locked, 0o000)
    let arguments = ["import", folder.url.appendingPathComponent("c").path, "--db", archive]
    // Root reads any file: the command runs as nobody.
    let run =
      getuid() == 0
      ? try runProgram(
        "/usr/bin/setpriv",
        ["--reuid=65534", "--regid=65534", "--clear-groups", toolURL.path] + arguments)
      : try chartArchive(arguments)
    #expect(run.status == 66)
    #expect(run.error == "Error: \(locked): cannot be read (Permission denied)\n")
    #expect(!FileManager.default.fileExists(atPath: archive))
  }

  @Test func aLinkToNothingIsReportedAndNothingIsStored() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write("c/2024-01-13.json", validWeek)
    let link = folder.url.appendingPathComponent("c/2024-01-20.json").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere.json")
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c").path, "--db", archive,
    ])
    #expect(run.status == 66)
    #expect(run.error == "Error: \(folder.path)/c/2024-01-20.json: a link to nothing\n")
    #expect(!FileManager.default.fileExists(atPath: archive))
    // A link to itself was called a link to nothing.
    try FileManager.default.removeItem(atPath: link)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "2024-01-20.json")
    for path in [folder.url.appendingPathComponent("c").path, link] {
      let loop = try chartArchive(["import", path, "--db", archive])
      #expect(loop.status == 66)
      #expect(
        loop.error
          == "Error: \(link): a link that leads back to itself (a loop of links)\n")
    }
  }

  @Test func concurrentFirstImportsQueueInsteadOfFailing() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    // Three first imports into one path, each held, its new archive built, by a lock on the folder
    // that publishing takes: let go, one publishes its archive and the others import into it.
    let lock = try FolderLock(folder.path)
    let imports = try ["Sample-data/app-daily", "Sample-data/hot-100", "Sample-data/app-daily"].map
    {
      try StartedProcess(tool: ["import", $0, "--db", archive, "--quiet"])
    }
    for importing in imports {
      waitUntil("import \(importing.pid) waits to publish its archive") {
        waitsForLock(importing.pid, on: folder.path) || !importing.isRunning
      }
    }
    #expect(!FileManager.default.fileExists(atPath: archive))
    lock.release()
    let runs = imports.map { $0.wait() }
    #expect(runs.map(\.status) == [0, 0, 0], "\(runs.map(\.error))")
    #expect(
      runs[1].output
        == "Imported 4 files into \(archive): 4 new snapshots, 0 replaced, 0 unchanged; 400 entries"
        + " stored.\n")
    #expect(
      Set([runs[0].output, runs[2].output]) == [
        "Imported 5 files into \(archive): 5 new snapshots, 0 replaced, 0 unchanged; 50 entries"
          + " stored.\n",
        "Nothing new: all 5 snapshots were already in \(archive).\n",
      ])
    // The archive holds every snapshot of both imports, once, and nothing else is left.
    #expect(try chartArchive(["check", "--db", archive]).status == 0)
    let charts = try chartArchive(["charts", "--db", archive, "--format", "csv"])
    #expect(
      charts.output
        == "chart,frequency,snapshots,first_chart_date,last_chart_date\r\n"
        + "app-daily,daily,5,2024-05-01,2024-05-05\r\nhot-100,weekly,4,2023-12-23,2024-01-13\r\n")
    for (chart, dates, entries) in [
      ("app-daily", ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05"], 10),
      ("hot-100", ["2023-12-23", "2023-12-30", "2024-01-06", "2024-01-13"], 100),
    ] {
      let snapshots = try chartArchive(["snapshots", chart, "--db", archive, "--format", "csv"])
      #expect(
        snapshots.output.components(separatedBy: "\r\n").dropFirst().dropLast()
          == dates.map { "\(chart),\($0),\(entries),Sample-data/\(chart)/\($0).json" }[...])
    }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
        !$0.hasPrefix("a.sqlite")
      } == [])
  }

  @Test func everyFormatImportsFromTheCommandLine() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    // The streaming download, Apple's two pages (of one chart: both are skipped), the kworb tables
    // (a CSV, and a web page: folders are walked for *.html too), the weekly CSV, Kaggle's Hot
    // 100, the UK chart's and the Last.fm week would all go into chart Samples, named after their
    // folder: all but the first are skipped, and the weekly one imported into a chart of its own.
    // The "Hot Stuff" files name their chart in their rows' addresses: hot-100, as billboard.py's
    // file does.
    let run = try chartArchive([
      "import", "Tests/ChartFormatsTests/Samples", "--db", archive, "--skip-invalid",
    ])
    #expect(run.status == 0)
    #expect(
      run.output.components(separatedBy: "\n").map { $0.components(separatedBy: " entr").first! }
        == [
          // Files in chart-date order of their names, then by path; snapshots in file order.
          "imported  Samples 2017-01-01  5", "imported  regional-global-weekly 2024-03-21  5",
          "imported  regional-us-daily 2024-03-21  3", "imported  hot-100 2024-01-13  4",
          "imported  top200-global 2017-01-06  2", "imported  top200-global 2017-01-07  2",
          "imported  top200-argentina 2017-01-06  1", "imported  viral50-global 2017-01-06  1",
          "imported  hot-100 2020-01-04  4", "imported  hot-100 2020-01-11  4",
          "imported  hot-100 2020-01-18  4", "imported  hot-100 2020-01-25  4",
          "imported  hot-100 2020-02-01  4", "imported  hot-100 2020-02-08  4",
          "imported  hot-100 2020-02-15  4", "imported  hot-100 2020-02-22  4",
          "imported  hot-100 2020-02-29  4", "imported  regional-gb-weekly 2024-03-21  5",
          "imported  Samples-global 2017-01-01  2", "imported  Samples-global 2017-01-02  2",
          "imported  Samples-united-states 2017-01-01  1",
          "Imported 9 of 17 files into \(archive): 21 new snapshots, 0 replaced, 0 unchanged; 69",
          "Skipped 8 invalid files (listed on standard error).", "",
        ])
    let samples = "Tests/ChartFormatsTests/Samples/"
    let sameFolder =
      " is a streaming-csv file; both would go to chart 'Samples', named after their folder"
      + " (import them one format at a time, each with --chart NAME, or pass --chart Samples if"
      + " they are one chart)\n"
    #expect(
      run.error
        == "skipped: \(samples)apple-music-most-played-2024-03-21-page-1.json: an apple-music-charts"
        + " file, and \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)apple-music-most-played-2024-03-21-page-2.json: an apple-music-charts"
        + " file, and \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)kworb-global-daily-2024-03-21.csv: a kworb-csv file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)kworb-global-daily-2024-03-22.html: a kworb-html file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)hot-100-weeks.csv: a weekly-chart-csv file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)kaggle-hot-100-charts.csv: a kaggle-hot-100-csv file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)lastfm-weekly-chart.json: a lastfm-weekly-chart file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "skipped: \(samples)uk-singles-chart-2024.csv: a uk-chart-csv file, and"
        + " \(samples)regional-global-daily-2017-01-01.csv\(sameFolder)"
        + "warning: \(samples)charts.csv: top200-global 2017-01-07 rank 2"
        + " 'Starboy': published MOVE_UP, derived unchanged\n"
        + "warning: \(samples)spotify-charts-regional-gb-weekly.json:"
        + " regional-gb-weekly 2024-03-21 rank 5 'Gravity Well': published MOVED_UP, derived down 4\n"
        + "warning: 2 published trends disagree with the derived movement\n")
    let weekly = try chartArchive([
      "import", "Tests/ChartFormatsTests/Samples/hot-100-weeks.csv", "--chart", "hot-100-weekly",
      "--db", archive, "--quiet",
    ])
    #expect(weekly.status == 0)
    #expect(weekly.error == "")
    let show = try chartArchive(["show", "Samples", "2017-01-01", "--db", archive, "--limit", "2"])
    #expect(
      show.output.hasSuffix(
        """
        RANK  MOVE  LAST  PEAK  WKS  STREAMS  TITLE    ARTIST
           1  NEW            1    1  3135625  Starboy  The Weeknd
           2  NEW            2    1  3015525  Closer   The Chainsmokers

        """))
    let formats = try chartArchive(["formats", "--format", "csv"])
    // A header, a line per format, and the empty string after the last CRLF.
    #expect(
      formats.output.components(separatedBy: "\r\n").count == ChartFormat.allCases.count + 2)
  }

  @Test func skipInvalidStoresTheValidFilesAndListsTheRest() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let good = try folder.write("c/2024-01-13.json", validWeek)
    let bad = try folder.write("c/2024-01-20.json", #"{"date":"2024-01-20","data":[]}"#)
    let worse = try folder.write(
      "c/2024-01-27.json",
      #"{"date":"2024-01-27","data":[{"song":"","artist":"X","this_week":0,"last_week":null}]}"#)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c").path, "--chart", "c", "--db", archive,
      "--skip-invalid",
    ])
    #expect(run.status == 0)
    // Every problem of a skipped file says it was skipped.
    #expect(
      run.error
        == "skipped: \(bad): the chart has no entries\n"
        + "skipped: \(worse): entry 1 (rank 0), field 'this_week': rank must be 1 or more, found 0\n"
        + "skipped: \(worse): entry 1 (rank 0), field 'song': blank\n")
    #expect(
      run.output
        == "imported  c 2024-01-13  2 entries  \(good)\n"
        + "Imported 1 of 3 files into \(archive): 1 new snapshot, 0 replaced, 0 unchanged; 2 entries"
        + " stored.\nSkipped 2 invalid files (listed on standard error).\n")
    // Nothing valid at all: nothing stored, as without the flag.
    let none = try chartArchive(["import", bad, "--chart", "d", "--db", archive, "--skip-invalid"])
    #expect(none.status == 65)
  }

  @Test func skipInvalidStoresNoneOfAFileWhoseLastSnapshotFailsAndAllOfTheOthers() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    /// A snapshot of two entries in ChartArchive's JSON, the first at `rank`.
    func snapshot(_ chart: String, _ date: String, rank: Int = 1, _ titles: String = "AB") -> String
    {
      #"{"chart": "\#(chart)", "chart_date": "\#(date)", "entries": ["#
        + #"{"rank": \#(rank), "title": "\#(titles.first!)", "artist": "X"}, "#
        + #"{"rank": 2, "title": "\#(titles.last!)", "artist": "Y"}]}"#
    }
    let header = "chart_week,current_week,title,performer,last_week,peak_pos,wks_on_chart\n"
    // Chart w's week of 2024-01-20, stored first.
    try folder.write("old/w/2024-01-20.csv", header + "2024-01-20,1,B,Y,-,1,1\n")
    // Two files of several snapshots each, stored whole, and two whose last snapshot fails:
    // one when it is read (a rank 0), one when it is stored (another snapshot of a stored date).
    let files = [
      try folder.write(
        "new/m/export.json",
        #"{"snapshots": ["# + snapshot("m", "2024-02-03") + ", " + snapshot("m", "2024-02-10")
          + ", " + snapshot("m", "2024-02-17", rank: 0) + "]}"),
      try folder.write(
        "new/n/export.json",
        #"{"snapshots": ["# + snapshot("n", "2024-02-03") + ", " + snapshot("n", "2024-02-10", "BA")
          + ", " + snapshot("n", "2024-02-17") + "]}"),
      try folder.write(
        "new/v/weeks.csv", header + "2024-01-06,1,A,X,-,1,1\n2024-01-13,1,A,X,1,1,2\n"),
      try folder.write(
        "new/w/weeks.csv",
        header + "2024-01-06,1,A,X,-,1,1\n2024-01-13,1,A,X,1,1,2\n2024-01-20,1,A,X,1,1,3\n"),
    ]
    #expect(try chartArchive(["import", folder.path + "/old", "--db", archive]).status == 0)
    let run = try chartArchive([
      "import", folder.path + "/new", "--db", archive, "--skip-invalid", "--quiet",
    ])
    #expect(run.status == 0)
    #expect(
      run.error
        == "skipped: \(files[0]): snapshot 3, entry 1 (rank 0), field 'rank': rank must be 1 or more,"
        + " found 0\nskipped: \(files[3]): w 2024-01-20 is already stored with different entries"
        + " (use --replace to replace it)\n")
    #expect(
      run.output
        == "Imported 2 of 4 files into \(archive): 5 new snapshots, 0 replaced, 0 unchanged; 8"
        + " entries stored.\nSkipped 2 invalid files (listed on standard error).\n")
    // Read back: every snapshot of n and v; of m none; of w only the week stored before.
    let charts = try chartArchive(["charts", "--db", archive, "--format", "csv"])
    #expect(
      charts.output
        == "chart,frequency,snapshots,first_chart_date,last_chart_date\r\n"
        + "n,,3,2024-02-03,2024-02-17\r\nv,weekly,2,2024-01-06,2024-01-13\r\n"
        + "w,weekly,1,2024-01-20,2024-01-20\r\n")
    let stored = try chartArchive(["snapshots", "w", "--db", archive, "--format", "csv"])
    #expect(
      stored.output
        == "chart,chart_date,entries,source\r\nw,2024-01-20,1,\(folder.path)/old/w/2024-01-20.csv\r\n"
    )
  }

  @Test func historyShowsTheTabsOfATitleAsReplacements() throws {
    // A tab is the one control character a title may hold: it cannot reach the terminal either.
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "c/2024-01-13.json",
      #"{"date":"2024-01-13","data":[{"song":"Red\t[31m Light","artist":"X","this_week":1}]}"#)
    #expect(try chartArchive(["import", file, "--chart", "c", "--db", archive]).status == 0)
    let run = try chartArchive(["history", "red", "--db", archive])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("Red\u{FFFD}[31m Light — X\n"))
  }

  @Test func aTitleWithAnEscapeSequenceIsRefused() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "c/2024-01-13.json",
      #"{"date":"2024-01-13","data":[{"song":"Red\u001b[31m Light","artist":"X","this_week":1}]}"#)
    let run = try chartArchive(["import", file, "--chart", "c", "--db", archive])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(file): entry 1 (rank 1), field 'song': contains a control character U+001B\n"
        + "Error: 1 of 1 file could not be imported; nothing was stored\n")
    #expect(!FileManager.default.fileExists(atPath: archive))
  }

  @Test func missingInputExits66() throws {
    let run = try chartArchive(["import", "/nonexistent/charts", "--db", "/tmp/unused.sqlite"])
    #expect(run.status == 66)
    #expect(run.error == "Error: /nonexistent/charts: no such file or folder\n")
  }

  @Test func historyListsCandidatesWhenSeveralSongsMatch() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try chartArchive(["import", "Sample-data", "--db", archive])
    let many = try chartArchive(["history", "christmas", "--db", archive])
    #expect(many.status == 1)
    #expect(
      many.error.hasSuffix(
        "songs match 'christmas'; narrow the search with --artist, --chart or a fuller title\n"))
    #expect(many.output.hasPrefix("SONG  TITLE"))
    let none = try chartArchive(["history", "no such song", "--db", archive])
    #expect(none.status == 1)
    #expect(none.error == "Error: no song matches 'no such song'\n")
    // --chart narrows the search.
    let elsewhere = try chartArchive([
      "history", "night sky", "--chart", "hot-100", "--db", archive,
    ])
    #expect(elsewhere.status == 1)
    #expect(elsewhere.error == "Error: no song matches 'night sky' on hot-100\n")
    let noChart = try chartArchive(["history", "night sky", "--chart", "nope", "--db", archive])
    #expect(noChart.status == 1)
    #expect(
      noChart.error
        == "Error: no chart named 'nope' in the archive (the archive's charts: app-daily, app-hourly,"
        + " app-monthly, app-total, app-weekly, hot-100)\n"
    )
    // Two exact titles are both candidates, listed before titles that only contain the query.
    // Frank Sinatra's credit changed between the sample's weeks: one song, first credit shown.
    let two = try chartArchive(["history", "jingle bells", "--db", archive, "--format", "csv"])
    #expect(two.status == 1)
    #expect(
      two.output.components(separatedBy: "\r\n").prefix(4) == [
        "song_id,title,artist,recording,first_chart_date,best_rank,entries",
        "20,Jingle Bells,Frank Sinatra With Orchestra Conducted By Gordon Jenkins,1,2023-12-23,16,3",
        "105,Jingle Bells,Meghan Trainor,1,2023-12-30,78,2", "",
      ])
    // One exact title wins over the titles that only contain the query.
    let exact = try chartArchive(["history", "jingle bell rock", "--db", archive])
    #expect(exact.status == 0)
    #expect(exact.output.hasPrefix("Jingle Bell Rock — Bobby Helms\n"))
    let one = try chartArchive(["history", "jingle bells", "--artist", "meghan", "--db", archive])
    #expect(one.status == 0)
    #expect(
      one.output.hasPrefix("Jingle Bells — Meghan Trainor\n\nhot-100\nCHART DATE  RANK  MOVE"))
  }

  @Test func aDateAndTimeWithoutAZoneNeedsTheTimezoneOption() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let file = try folder.write(
      "kr.json",
      #"{"chart": "kr-hourly", "chart_date": "2023-04-09 20:00:00", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    let refused = try chartArchive(["import", file, "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error
        == "\(file): field 'chart_date': '2023-04-09 20:00:00' is a date and time without a time"
        + " zone: pass --timezone ZONE (an IANA name such as Asia/Seoul)\n"
        + "Error: 1 of 1 file could not be imported; nothing was stored\n")
    let imported = try chartArchive(["import", file, "--db", archive, "--timezone", "Asia/Seoul"])
    #expect(imported.status == 0)
    #expect(imported.output.hasPrefix("imported  kr-hourly 2023-04-09T11:00:00Z  1 entry"))
    let badZone = try chartArchive(["import", file, "--db", archive, "--timezone", "Mars/Base"])
    #expect(badZone.status == 64)
    #expect(
      badZone.error.hasPrefix(
        "Error: --timezone 'Mars/Base' is not a time zone (an IANA name such as Asia/Seoul)\n"))
  }

  @Test func aFractionOfASecondIsRefusedAndAPeriodsFileTakesItsEnd() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let fraction = try folder.write(
      "f.json",
      #"{"chart": "c", "chart_date": "2024-01-06T13:00:00.5Z", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    let refused = try chartArchive(["import", fraction, "--db", archive])
    #expect(refused.status == 65)
    #expect(
      refused.error.hasPrefix(
        "\(fraction): field 'chart_date': '2024-01-06T13:00:00.5Z' has a fraction of a second;"
          + " chart dates are kept to the second\n"))
    let period = try folder.write(
      "spotify/regional-global-weekly-2019-12-27--2020-01-03.csv",
      "Position,\"Track Name\",Artist,Streams,URL\n1,A,X,100,https://open.spotify.com/track/a\n")
    let imported = try chartArchive(["import", period, "--db", archive])
    #expect(imported.output.hasPrefix("imported  spotify 2020-01-03  1 entry"))
    // Two dates that are no period: the first was taken.
    let twoDates = try folder.write(
      "feed-daily/2024-05-12_2024-05-13.json", #"[{"title": "A", "artist": "X"}]"#)
    let refused2 = try chartArchive(["import", twoDates, "--db", archive])
    #expect(refused2.status == 65)
    #expect(
      refused2.error
        == "\(twoDates): the file name holds more than one date (2024-05-12, 2024-05-13), and not"
        + " as a period START--END, whose end would be the chart date: pass --date YYYY-MM-DD or"
        + " name the file YYYY-MM-DD.json (or YYYY-MM-DDTHH-MM.json)\nError: 1 of 1 file could not"
        + " be imported; nothing was stored\n")
    #expect(
      try chartArchive(["import", twoDates, "--db", archive, "--date", "2024-05-13"]).status == 0)
  }

  @Test func aFrequencyOtherThanTheChartsIsRefused() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    _ = try chartArchive(["import", "Sample-data/app-daily", "--db", archive])
    let weekly = try folder.write(
      "w.json",
      #"{"chart": "app-daily", "chart_date": "2024-05-06", "frequency": "weekly", "entries": [{"rank": 1, "title": "A", "artist": "X"}]}"#
    )
    let run = try chartArchive(["import", weekly, "--db", archive])
    #expect(run.status == 65)
    #expect(
      run.error
        == "\(weekly): chart 'app-daily' is daily in the archive, and this snapshot is said to be"
        + " weekly (import it into another chart with --chart NAME, or give --frequency daily if"
        + " it is this chart)\nError: 1 of 1 file could not be imported; nothing was stored\n")
    #expect(
      try chartArchive(["import", weekly, "--db", archive, "--frequency", "daily"]).status == 0)
    // A file of a format of weekly charts alone is weekly, whatever the chart's name says: a week
    // of the Hot 100 given --chart app-daily went into the daily chart, and made a new archive's
    // app-daily daily.
    let hot100 = "Sample-data/hot-100/2024-01-13.json"
    let refused = try chartArchive(["import", hot100, "--chart", "app-daily", "--db", archive])
    #expect(refused.status == 65)
    #expect(refused.error.contains("chart 'app-daily' is daily in the archive, and this snapshot"))
    let other = folder.url.appendingPathComponent("b.sqlite").path
    #expect(
      try chartArchive(["import", hot100, "--chart", "app-daily", "--db", other, "--quiet"]).status
        == 0)
    #expect(try chartArchive(["charts", "--db", other]).output.contains("app-daily  weekly"))
  }
}

/// Chart names that name folders or reorder text.
struct ChartNameTests {
  @Test func aChartNamedLikeAFolderOrReorderingTextIsRefused() throws {
    let folder = try TemporaryFolder()
    let archive = folder.path + "/a.sqlite"
    let week = try folder.write(
      "2024-01-06.json",
      #"{"chart":"..","chart_date":"2024-01-06","entries":[{"rank":1,"title":"A","artist":"X"}]}"#)
    // Named by the file: the file is refused (bad input data, 65), nothing stored.
    let named = try chartArchive(["import", week, "--db", archive, "--quiet"])
    #expect(named.status == 65)
    #expect(
      named.error.hasPrefix(
        "\(week): field 'chart': the file's '..' is not a valid chart name (1 to 200 characters,"
          + " no control or bidirectional control characters, not . or ..)"))
    #expect(!FileManager.default.fileExists(atPath: archive))
    // Given as an option: a usage error (64), as for any option's bad value.
    for name in [".", "hot\u{202E}-100"] {
      let given = try chartArchive(["import", week, "--chart", name, "--db", archive, "--quiet"])
      #expect(given.status == 64)
      #expect(
        given.error.hasPrefix(
          "Error: --chart '\(name == "." ? "." : "hot\\u{202E}-100")' is not a valid chart name"))
    }
  }
}
