import Foundation
import Testing

/// The week of 2024-01-06: two entries, both new.
private let week6 = """
  {"date":"2024-01-06","data":[{"song":"A","artist":"X","this_week":1,"last_week":null},\
  {"song":"B","artist":"Y","this_week":2,"last_week":null}]}
  """

/// The week of 2024-01-13: the two entries swapped.
private let week13 = """
  {"date":"2024-01-13","data":[{"song":"B","artist":"Y","this_week":1,"last_week":2},\
  {"song":"A","artist":"X","this_week":2,"last_week":1}]}
  """

/// The week of 2024-01-20, with a rank of 0: refused.
private let brokenWeek20 =
  #"{"date":"2024-01-20","data":[{"song":"A","artist":"X","this_week":0}]}"#

/// `chart-archive import SPOOL --move-to DONE`, run as contrib/chart-archive-import.service runs
/// it.
struct SpoolTests {
  /// A spool, its destination and an archive in a temporary folder.
  struct Setup {
    let folder: TemporaryFolder
    var spool: String { folder.path + "/spool" }
    var done: String { folder.path + "/done" }
    var archive: String { folder.path + "/archive.sqlite" }

    init() throws {
      folder = try TemporaryFolder()
      try FileManager.default.createDirectory(
        atPath: folder.path + "/spool", withIntermediateDirectories: true)
    }

    /// Runs the spool as the service does, with more arguments.
    func run(_ more: [String] = []) throws -> Run {
      try chartArchive(
        ["import", spool, "--chart", "hot-100", "--move-to", done, "--db", archive] + more)
    }

    /// The files under the destination (and the spool), relative to the temporary folder.
    func files() -> [String] {
      let base = folder.url.resolvingSymlinksInPath().path + "/"
      let walker = FileManager.default.enumerator(atPath: folder.path)
      return (walker?.allObjects as? [String] ?? []).filter { path in
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: base + path, isDirectory: &isFolder)
        return exists && !isFolder.boolValue && !path.hasPrefix("archive.sqlite")
      }.sorted()
    }

    func text(_ path: String) throws -> String {
      try String(contentsOfFile: folder.path + "/" + path, encoding: .utf8)
    }
  }

  /// Good, duplicate (twice under two names, and once imported before), broken and temporary
  /// files: each good file stored in an import of its own, each file moved where its import says,
  /// a file already in the destination kept, the temporary ones left; then a second run does
  /// nothing.
  @Test func movesEachFileWhereItsImportSaysAndLeavesTemporaryNames() throws {
    let setup = try Setup()
    let (spool, done, archive) = (setup.spool, setup.done, setup.archive)
    let earlier = try setup.folder.write("earlier/2024-01-06.json", week6)
    #expect(
      try chartArchive(["import", earlier, "--chart", "hot-100", "--db", archive]).status == 0)
    try setup.folder.write("spool/2024-01-06.json", week6)
    try setup.folder.write("spool/2024-01-13.json", week13)
    try setup.folder.write("spool/again-2024-01-13.json", week13)
    try setup.folder.write("spool/2024-01-20.json", brokenWeek20)
    try setup.folder.write("spool/2024-01-27.json.part", "{\"date\":\"2024-01-2")
    try setup.folder.write("spool/.2024-02-03.json", "{")
    // A file of the destination with the name a moved file would take: kept as it is.
    try setup.folder.write("done/unchanged/2024-01-06.json", "kept")

    let run = try setup.run()
    #expect(run.status == 65)
    #expect(
      run.output
        == """
        unchanged \(spool)/2024-01-06.json  moved to \(done)/unchanged/2024-01-06.2.json
        imported  \(spool)/2024-01-13.json  moved to \(done)/imported/2024-01-13.json
        unchanged \(spool)/again-2024-01-13.json  moved to \(done)/unchanged/again-2024-01-13.json
        rejected  \(spool)/2024-01-20.json  moved to \(done)/rejected/2024-01-20.json\
         (why: \(done)/rejected/2024-01-20.json.report.txt)
        Spool \(spool): 1 imported, 2 unchanged, 1 rejected (each with NAME.report.txt beside it\
         in \(done)/rejected); moved into \(done).

        """)
    let problem =
      "\(spool)/2024-01-20.json: entry 1 (rank 0), field 'this_week': rank must be 1 or more,"
      + " found 0"
    #expect(run.error == problem + "\n")
    #expect(
      setup.files() == [
        "done/imported/2024-01-13.json", "done/rejected/2024-01-20.json",
        "done/rejected/2024-01-20.json.report.txt", "done/unchanged/2024-01-06.2.json",
        "done/unchanged/2024-01-06.json", "done/unchanged/again-2024-01-13.json",
        "earlier/2024-01-06.json", "spool/.2024-02-03.json", "spool/2024-01-27.json.part",
      ])
    // What `chart-archive import` prints for the file, word for word.
    #expect(
      try setup.text("done/rejected/2024-01-20.json.report.txt")
        == problem + "\nError: 1 of 1 file could not be imported; nothing was stored\n")
    #expect(try setup.text("done/unchanged/2024-01-06.json") == "kept")
    #expect(try setup.text("done/imported/2024-01-13.json") == week13)
    #expect(try setup.text("done/rejected/2024-01-20.json") == brokenWeek20)
    try expectArchive(archive, spool: spool, earlier: earlier)

    // Nothing new: nothing moved, nothing stored, status 0.
    let again = try setup.run()
    #expect(again.status == 0)
    #expect(again.output == "Nothing new in \(spool).\n")
    #expect(again.error == "")
    #expect(setup.files().count == 9)
    try expectArchive(archive, spool: spool, earlier: earlier)
  }

  /// The archive after the spool: the earlier week and the spool's good one, with its figures.
  private func expectArchive(_ archive: String, spool: String, earlier: String) throws {
    let snapshots = try chartArchive(["snapshots", "hot-100", "--db", archive, "--format", "csv"])
    #expect(
      snapshots.output
        == "chart,chart_date,entries,source\r\nhot-100,2024-01-06,2,\(earlier)\r\n"
        + "hot-100,2024-01-13,2,\(spool)/2024-01-13.json\r\n")
    let show = try chartArchive(
      ["show", "hot-100", "2024-01-13", "--db", archive, "--format", "json"])
    let entries = try #require(try json(show.output)["entries"] as? [[String: Any]])
    #expect(entries.map { $0["title"] as? String } == ["B", "A"])
    #expect(entries.map { $0["movement"] as? String } == ["up", "down"])
    #expect(entries.map { $0["previous_rank"] as? Int } == [2, 1])
  }

  /// A machine that stopped after a file's import committed and before it was moved: the next
  /// run finds everything in it stored, and moves it into unchanged/.
  @Test func aFileImportedBeforeItsMoveEndsInUnchanged() throws {
    let setup = try Setup()
    let file = try setup.folder.write("spool/2024-01-06.json", week6)
    // The import the stopped run committed.
    #expect(
      try chartArchive(["import", file, "--chart", "hot-100", "--db", setup.archive]).status == 0)
    let run = try setup.run(["--output-format", "json"])
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(
      run.output
        == """
        {
          "spool": "\(setup.spool)",
          "move_to": "\(setup.done)",
          "files": [
            {
              "file": "\(file)",
              "went": "unchanged",
              "moved_to": "\(setup.done)/unchanged/2024-01-06.json",
              "report": null,
              "snapshots": [
                {
                  "chart": "hot-100",
                  "chart_date": "2024-01-06",
                  "entries": 2,
                  "outcome": "unchanged"
                }
              ]
            }
          ],
          "imported": 0,
          "unchanged": 1,
          "rejected": 0,
          "left": []
        }

        """)
    #expect(setup.files() == ["done/unchanged/2024-01-06.json"])
  }

  /// An empty spool: nothing is made, not even the destination's folders.
  @Test func anEmptySpoolMakesNothing() throws {
    let setup = try Setup()
    try setup.folder.write("spool/notes.txt", "not a chart")
    let run = try setup.run(["--quiet"])
    #expect(run.status == 0)
    #expect(run.output == "Nothing new in \(setup.spool).\n")
    #expect(
      run.error
        == "warning: left \(setup.spool)/notes.txt in the spool: its name is not a chart file's"
        + " (*.json, *.csv, *.html or *.htm), nor a temporary one (a dot first, or .part last)\n")
    #expect(!FileManager.default.fileExists(atPath: setup.done))
    #expect(!FileManager.default.fileExists(atPath: setup.archive))
  }

  /// A spool's options that do not fit: usage errors, or no spool.
  @Test func refusesWhatASpoolCannotTake() throws {
    let setup = try Setup()
    let (spool, done) = (setup.spool, setup.done)
    for (arguments, message) in [
      (
        ["import", spool, spool, "--move-to", done],
        "Error: --move-to takes one spool folder, not 2 paths"
      ),
      (
        ["import", spool, "--move-to", done, "--skip-invalid"],
        "Error: --skip-invalid goes without --move-to: a spool imports each file on its own"
      ),
      (
        ["import", spool, "--output-format", "json"],
        "Error: --output-format goes with --move-to (where each file of a spool went)"
      ),
      (
        ["import", spool, "--move-to", done, "--output-format", "csv"],
        "Error: unknown format 'csv' (expected text, json)"
      ),
    ] {
      let run = try chartArchive(arguments + ["--db", setup.archive])
      #expect(run.status == 64, "\(arguments)")
      #expect(run.error.hasPrefix(message + "\nUsage: chart-archive import"), "\(arguments)")
    }
    let missing = try chartArchive(
      ["import", spool + "/nothing", "--move-to", done, "--db", setup.archive])
    #expect(missing.status == 66)
    #expect(missing.error == "Error: \(spool)/nothing: no such folder (the spool)\n")
  }

  /// A move that fails after the import committed (here into /proc, which takes no file, even
  /// from root): the file stays in the spool and the status says so; the next run finds it stored
  /// and moves it into unchanged/.
  @Test func aMoveThatFailsLeavesTheFileInTheSpool() throws {
    let setup = try Setup()
    try setup.folder.write("spool/2024-01-06.json", week6)
    try FileManager.default.createDirectory(atPath: setup.done, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: setup.done + "/imported", withDestinationPath: "/proc")
    let run = try setup.run()
    #expect(run.status == 74)
    #expect(
      run.error
        == "Error: cannot move \(setup.spool)/2024-01-06.json into \(setup.done)/imported"
        + " (No such file or directory)\n")
    #expect(run.output == "")
    #expect(setup.files() == ["spool/2024-01-06.json"])
    try FileManager.default.removeItem(atPath: setup.done + "/imported")
    let next = try setup.run(["--quiet"])
    #expect(next.status == 0)
    #expect(
      next.output
        == "Spool \(setup.spool): 0 imported, 1 unchanged, 0 rejected; moved into \(setup.done).\n")
    #expect(setup.files() == ["done/unchanged/2024-01-06.json"])
  }

  /// A destination folder that is a file: nothing is imported, and the file stays.
  @Test func aDestinationThatIsNoFolderStopsTheRunFirst() throws {
    let setup = try Setup()
    try setup.folder.write("spool/2024-01-06.json", week6)
    try setup.folder.write("done/rejected", "a file")
    let run = try setup.run()
    #expect(run.status == 74)
    #expect(
      run.error == "Error: cannot make the folder \(setup.done)/rejected (Not a directory)\n")
    #expect(!FileManager.default.fileExists(atPath: setup.archive))
    #expect(setup.files() == ["done/rejected", "spool/2024-01-06.json"])
  }
}
