import Foundation
import Testing

/// What SQL tools do to an archive does not stop ChartArchive, and what ChartArchive keeps for
/// them is what its commands print.
struct SQLToolsTests {
  @Test func everyCommandWorksAfterWhatSQLToolsAdd() throws {
    let (folder, archive) = try sampleArchive()
    // What the sqlite3 shell, sqlite-utils (its FTS naming, without triggers) and a user add.
    try sql(
      archive,
      """
      ANALYZE;
      CREATE VIEW my_number_ones AS SELECT chart, chart_date, title FROM chart_entries WHERE rank = 1;
      CREATE INDEX my_entries_by_title ON entries (title);
      CREATE TABLE my_notes (song_id INTEGER, note TEXT);
      CREATE VIRTUAL TABLE [songs_fts] USING FTS5 ([title], [artist], content=[songs]);
      INSERT INTO [songs_fts] ([songs_fts]) VALUES ('rebuild');
      PRAGMA optimize;
      VACUUM;
      """)
    let commands: [[String]] = [
      ["charts"], ["snapshots", "hot-100"], ["show", "hot-100"], ["history", "night sky"],
      ["diff", "hot-100"], ["report", "app-daily"], ["export", "app-daily"], ["check"],
      ["audit", "hot-100", "--summary"],
    ]
    for command in commands {
      let run = try chartArchive(command + ["--db", archive])
      #expect(run.status == 0, "\(command): \(run.error)")
    }
    let file = try folder.write(
      "more/app-daily/2024-05-06.json",
      #"[{"title": "New Song", "artist": "New Artist", "last": 0}]"#)
    let imported = try chartArchive(["import", file, "--db", archive, "--quiet"])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(
      try rows(
        archive,
        "SELECT title FROM my_number_ones WHERE chart = 'app-daily' ORDER BY chart_date DESC LIMIT 1"
      )
        == ["New Song"])
    #expect(try rows(archive, "SELECT count(*) FROM sqlite_stat1 WHERE tbl = 'entries'") != ["0"])
  }

  @Test func aUserTriggerThatStopsTheImportIsNamedAndTheArchiveIsLeftAsItWas() throws {
    let (folder, archive) = try sampleArchive()
    try sql(
      archive,
      "CREATE TRIGGER no_new_entries BEFORE INSERT ON entries BEGIN"
        + " SELECT RAISE(ABORT, 'no new entries today'); END;")
    let file = try folder.write("d/app-daily/2024-05-06.json", #"[{"title": "A", "artist": "B"}]"#)
    let run = try chartArchive(["import", file, "--db", archive])
    #expect(run.status == 74)
    #expect(run.error.hasPrefix("Error: cannot use the archive \(archive): SQLite error"))
    #expect(run.error.contains("no new entries today"))
    #expect(
      run.error.hasSuffix(
        " (the archive has trigger 'no_new_entries' on table entries, not ChartArchive's, which may"
          + " be why: drop or change it, for example with DROP TRIGGER no_new_entries)\n"))
    #expect(try rows(archive, "SELECT count(*) FROM snapshots") == ["18"])
  }

  @Test func aUserTriggerThatWorksStaysAndRuns() throws {
    let (folder, archive) = try sampleArchive()
    try sql(
      archive,
      """
      CREATE TABLE my_log (chart_date TEXT);
      CREATE TRIGGER my_logging AFTER INSERT ON snapshots BEGIN
        INSERT INTO my_log VALUES (new.chart_date);
      END;
      """)
    let file = try folder.write("d/app-daily/2024-05-06.json", #"[{"title": "A", "artist": "B"}]"#)
    #expect(try chartArchive(["import", file, "--db", archive, "--quiet"]).status == 0)
    #expect(try rows(archive, "SELECT chart_date FROM my_log") == ["2024-05-06"])
  }

  /// A song linked to its next entry by its song URL, under the same title and credit, is one
  /// row of the search index (it was two: the URL's entry added the song's own credit again).
  @Test func aSongLinkedByItsURLUnderItsOwnCreditIsSearchedOnce() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let entry = #"[{"title": "Ode", "artist": "Ana", "url": "https://m.example/1", "last": 1}]"#
    _ = try folder.write("c-daily/2024-05-01.json", entry)
    _ = try folder.write("c-daily/2024-05-02.json", entry)
    let run = try chartArchive([
      "import", folder.url.appendingPathComponent("c-daily").path, "--db", archive, "--quiet",
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(try rows(archive, "SELECT title, artist, song_id FROM song_search") == ["Ode|Ana|1"])
    #expect(try rows(archive, "SELECT count(*) FROM song_credits") == ["0"])
  }

  /// The full-text index holds the songs and credits an import stored, filled once before it
  /// commits (no trigger does it since migration 0005): not those of a file it skipped, and a
  /// credit a later import added to a song.
  @Test func theSearchIndexHoldsWhatAnImportStoredOnly() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    try folder.write(
      "c-weekly/2024-01-06.json",
      #"[{"title": "Ode", "artist": "Ana", "url": "https://m.example/1"}]"#)
    // Two entries at rank 1: refused, skipped whole.
    try folder.write(
      "c-weekly/2024-01-13.json",
      #"{"date": "2024-01-13", "data": [{"song": "Lost", "artist": "Bo", "this_week": 1},"#
        + #" {"song": "Gone", "artist": "Cy", "this_week": 1}]}"#)
    let first = try chartArchive([
      "import", folder.url.appendingPathComponent("c-weekly").path, "--chart", "c-weekly",
      "--skip-invalid", "--db", archive, "--quiet",
    ])
    #expect(first.status == 0, "\(first.error)")
    #expect(try rows(archive, "SELECT title, artist FROM song_search") == ["Ode|Ana"])
    // The same song under a new credit (linked by its URL): the credit is searchable too.
    let renamed = try folder.write(
      "d/2024-01-20.json",
      #"[{"title": "Ode (Remix)", "artist": "Ana & Dee", "url": "https://m.example/1"}]"#)
    let second = try chartArchive([
      "import", renamed, "--chart", "c-weekly", "--db", archive, "--quiet",
    ])
    #expect(second.status == 0, "\(second.error)")
    #expect(
      try rows(archive, "SELECT title, artist, song_id FROM song_search ORDER BY rowid")
        == ["Ode|Ana|1", "Ode (Remix)|Ana & Dee|1"])
    #expect(
      try rows(archive, "SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
        == ["song_credits_unsearchable", "songs_unsearchable", "songs_without_artists"])
  }

  /// Credits that one import adds to several songs come into the full-text index by song, not in
  /// the order of a set, which changes from one process to the next: the same files make the
  /// same archive.
  @Test func creditsComeIntoTheSearchIndexBySong() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    let songs = ["Ode", "Hymn", "Lay", "Air", "Jig", "Reel", "Rag", "Aria"]
    func week(_ date: String, retitled: Bool) throws -> String {
      let entries = songs.enumerated().map { index, title in
        #"{"title": "\#(title)\#(retitled ? " (Remix)" : "")", "artist": "Ana","#
          + #" "url": "https://m.example/\#(index + 1)"}"#
      }
      return try folder.write("c/\(date).json", "[" + entries.joined(separator: ", ") + "]")
    }
    for (date, retitled) in [("2024-01-06", false), ("2024-01-13", true)] {
      let run = try chartArchive([
        "import", try week(date, retitled: retitled), "--chart", "c-weekly", "--db", archive,
        "--quiet",
      ])
      #expect(run.status == 0, "\(run.error)")
    }
    #expect(
      try rows(archive, "SELECT song_id, title FROM song_search ORDER BY rowid")
        == songs.enumerated().map { "\($0 + 1)|\($1)" }
        + songs.enumerated().map { "\($0 + 1)|\($1) (Remix)" })
  }

  @Test func theViewsGiveWhatTheCommandsPrint() throws {
    let (folder, archive) = try sampleArchive()
    _ = folder
    // chart_entries: every entry of every snapshot as `show` gives it.
    for (chart, dates) in [
      ("hot-100", ["2023-12-23", "2023-12-30", "2024-01-06", "2024-01-13"]),
      ("app-daily", ["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-04", "2024-05-05"]),
    ] {
      for date in dates {
        let show = try json(
          chartArchive(["show", chart, date, "--db", archive, "--format", "json"]).output)
        let shown = try #require(show["entries"] as? [[String: Any]]).map { entry in
          ["rank", "movement", "previous_rank", "peak_position", "weeks_on_chart", "title", "run"]
            .map { key in entry[key].map { "\($0)" }.flatMap { $0 == "<null>" ? nil : $0 } ?? "" }
            .joined(separator: "|")
        }
        let viewed = try rows(
          archive,
          "SELECT rank, movement, previous_rank, peak_position, weeks_on_chart, title, run"
            + " FROM chart_entries WHERE chart = '\(chart)' AND chart_date = '\(date)' ORDER BY position"
        )
        #expect(viewed == shown, "\(chart) \(date)")
      }
    }
    // song_runs: every song's summary as `history` gives it.
    for row in try rows(archive, "SELECT song_id, chart FROM song_runs") {
      let (song, chart) = (
        String(row.split(separator: "|")[0]), String(row.split(separator: "|")[1])
      )
      let history = try json(
        chartArchive(["history", "--song", song, "--db", archive, "--format", "json"]).output)
      let recording = try #require((history["recordings"] as? [[String: Any]])?.first)
      let charted = try #require(
        (recording["charts"] as? [[String: Any]])?.first { $0["chart"] as? String == chart })
      let entries = try #require(charted["entries"] as? [[String: Any]])
      let fromHistory = [
        "\(entries.first?["chart_date"] ?? "")", "\(entries.last?["chart_date"] ?? "")",
        "\(charted["debut_rank"] ?? "")", "\(charted["peak_position"] ?? "")",
        "\(charted["weeks_at_peak"] ?? "")", "\(charted["weeks_on_chart"] ?? "")",
        "\(charted["runs"] ?? "")",
      ].joined(separator: "|")
      let fromView = try rows(
        archive,
        "SELECT first_chart_date, last_chart_date, debut_rank, peak_position, weeks_at_peak,"
          + " weeks_on_chart, runs FROM song_runs WHERE song_id = \(song) AND chart = '\(chart)'")
      #expect(fromView == [fromHistory], "song \(song) on \(chart)")
    }
    #expect(
      try rows(
        archive, "SELECT chart, chart_date, entry_count FROM latest_snapshots ORDER BY chart")
        == [
          "app-daily|2024-05-05|10", "app-hourly|2024-05-05T14:00:00Z|20",
          "app-monthly|2024-05-01|20", "app-total|2024-05-05|20", "app-weekly|2024-05-05|20",
          "hot-100|2024-01-13|100",
        ])
  }
}

/// Datasette, as people who keep chart archives open them (a test-only tool, installed by
/// `script/setup --test-tools`).
@Suite(
  .enabled(
    if: FileManager.default.isExecutableFile(
      atPath: packageRoot.appendingPathComponent(".build/test-tools/bin/python").path),
    "Datasette is not installed (run script/setup --test-tools): skipped"))
struct DatasetteTests {
  @Test func datasetteServesTheArchiveAsItsMetadataSaysAndTheImportGoesOnAfter() throws {
    let (folder, archive) = try sampleArchive()
    let check = try bash(
      #".build/test-tools/bin/python script/check-datasette "\#(archive)" contrib/datasette-metadata.json"#
    )
    #expect(check.status == 0, "\(check.error)")
    #expect(check.output.components(separatedBy: "\n").filter { $0.hasPrefix("ok: ") }.count == 18)
    let file = try folder.write("d/app-daily/2024-05-06.json", #"[{"title": "A", "artist": "B"}]"#)
    let run = try chartArchive(["import", file, "--db", archive, "--quiet"])
    #expect(run.status == 0, "\(run.error)")
  }
}
