import Foundation
import Testing

/// Lookups that forgive the user: accents, misspellings, chart names, dates without a snapshot.
/// The charts of Sample-data and the made-up one of `LookupTests.archive()`, as the hint lists them.
private let allCharts =
  "the archive's charts: app-daily, app-hourly, app-monthly, app-total, app-weekly, hot-100,"
  + " one-week"

struct LookupTests {
  /// Sample-data and a chart of two made-up weeks with accented and misspellable names.
  static func archive() throws -> (TemporaryFolder, String) {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("a.sqlite").path
    #expect(try chartArchive(["import", "Sample-data", "--db", archive, "--quiet"]).status == 0)
    let entries =
      #"[{"rank": 1, "title": "Blinding Lights", "artist": "The Weeknd"}, "#
      + #"{"rank": 2, "title": "Halo", "artist": "Beyoncé"}]"#
    let file = try folder.write(
      "one.json", #"{"chart": "one-week", "chart_date": "2020-03-07", "entries": \#(entries)}"#)
    #expect(try chartArchive(["import", file, "--db", archive, "--quiet"]).status == 0)
    return (folder, archive)
  }

  @Test func caseAndAccentsDoNotMatterAndWordsBeginWords() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    for (query, found) in [
      ("cafe", "Café de Flore — Élodie Marchand"), ("BEYONCE", "Halo — Beyoncé"),
      ("night sky", "밤하늘 (Night Sky) — LUNAR"), ("blind", "Blinding Lights — The Weeknd"),
      // Part of the title as written, as the command reference (docs/commands.md) says.
      ("ight sky", "밤하늘 (Night Sky) — LUNAR"),
    ] {
      let run = try chartArchive(["history", query, "--db", archive])
      #expect(run.status == 0, "\(query): \(run.error)")
      #expect(run.output.hasPrefix(found + "\n"), "\(query)")
    }
    let artist = try chartArchive([
      "history", "--artist", "elodie", "--db", archive, "--format", "csv",
    ])
    #expect(artist.output.contains(",Café de Flore,Élodie Marchand,"))
  }

  @Test func eachChartCountsItsOwnPeriodsWithTheFiguresInOneColumn() throws {
    // A monthly chart's "Months on chart:" pushed its figure a column to the right of the others,
    // and the all-time chart, a list restated at no fixed interval, counted weeks.
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["history", "Neon Harbor", "--db", archive])
    #expect(run.status == 0)
    let blocks = run.output.components(separatedBy: "\n\n")
    #expect(
      blocks.filter { $0.hasPrefix("Peak position:") }.dropFirst(2).prefix(2) == [
        """
        Peak position:   1 (1 month at peak)
        Months on chart: 2
        Debut:           2024-04-01 at 1
        """,
        """
        Peak position:      2 (2 snapshots at peak)
        Snapshots on chart: 2
        Debut:              2024-05-04 at 2
        """,
      ])
    #expect(run.output.contains("CHART DATE  RANK  MOVE  LAST  PEAK  SNAPS\n"))
  }

  @Test func aPeakAndDebutFromBeforeTheArchiveAreSaidToBe() throws {
    // Snooze's source counts 55 weeks and a peak of 2 by its third entry in the archive: it read
    // "2* (0 weeks at peak)" and "Debut: 2023-12-23 at 16", the archive's first entry.
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["history", "Snooze", "--db", archive])
    #expect(
      run.output.hasSuffix(
        """
        Peak position:  2* (reached before the archive's entries)
        Weeks on chart: 55*
        Runs:           2
        Debut:          before 2023-12-23 (archived from 2023-12-23 at 16)

        * the source's figure: the archive does not hold the start of the song's run

        """))
  }

  @Test func aMisspeltSearchGetsWhatItMayHaveMeant() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["history", "blindng lights", "--db", archive])
    #expect(run.status == 1)
    #expect(
      run.error
        == "Error: no song matches 'blindng lights' (did you mean 'blinding lights'? Blinding"
        + " Lights by The Weeknd)\n")
    let swapped = try chartArchive(["history", "nigth sky", "--db", archive])
    #expect(
      swapped.error
        == "Error: no song matches 'nigth sky' (did you mean 'night sky'? 밤하늘 (Night Sky) by"
        + " LUNAR)\n")
    let nothing = try chartArchive(["history", "xyzzy plugh", "--db", archive])
    #expect(nothing.error == "Error: no song matches 'xyzzy plugh'\n")
  }

  @Test(arguments: [
    ("hot100", "did you mean hot-100? \(allCharts)"),
    ("Hot-100", "did you mean hot-100? \(allCharts)"),
    ("app-dialy", "did you mean app-daily? \(allCharts)"),
    ("spotify", allCharts),
  ])
  func anUnknownChartGetsTheClosestAndTheList(name: String, hint: String) throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["show", name, "--db", archive])
    #expect(run.status == 1)
    #expect(run.error == "Error: no chart named '\(name)' in the archive (\(hint))\n")
  }

  @Test(arguments: [
    ("2024-01-07", "the nearest are 2024-01-06 and 2024-01-13"),
    ("2030-01-01", "the latest is 2024-01-13"),
    ("2020-01-01", "the first is 2023-12-23"),
  ])
  func aDateWithoutASnapshotGetsTheNearest(date: String, hint: String) throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["show", "hot-100", date, "--db", archive])
    #expect(run.status == 1)
    #expect(run.error == "Error: chart 'hot-100' has no snapshot dated \(date) (\(hint))\n")
  }

  @Test func aQueryLongerThanAnyTitleMatchesNothing() throws {
    // 50,000 characters made SQLite's LIKE fail: "cannot use the archive", exit 74.
    let (folder, archive) = try Self.archive()
    _ = folder
    let long = String(repeating: "a", count: 50_000)
    for (arguments, said) in [([long], "no song matches"), (["--artist", long], "no song by")] {
      let run = try chartArchive(["history"] + arguments + ["--db", archive])
      #expect(run.status == 1)
      #expect(run.error.hasPrefix("Error: \(said) '\(long)'"))
    }
  }

  @Test func twoDatesOfOneSnapshotAreAUsageErrorWithItsUsageLine() throws {
    // Found once the archive is read: the usage line was missing, which exit status 64 promises.
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive(["diff", "hot-100", "latest", "2024-01-13", "--db", archive])
    #expect(run.status == 64)
    #expect(
      run.error
        == "Error: both dates name the snapshot of hot-100 on 2024-01-13: give two different chart"
        + " dates\nUsage: chart-archive diff <chart> [<older>] [<newer>] [--format <format>]"
        + " [--db <path>]\n  See 'chart-archive diff --help' for more information.\n")
  }

  @Test func anAuditSummaryInCSVGivesTheAgreementPerFigure() throws {
    // It gave the header of the disagreements alone.
    let (folder, archive) = try Self.archive()
    _ = folder
    let run = try chartArchive([
      "audit", "hot-100", "--summary", "--format", "csv", "--db", archive,
    ])
    #expect(run.status == 0)
    #expect(
      run.output.split(separator: "\r\n") == [
        "chart,figure,compared,agreeing,percentage", "hot-100,previous_rank,400,318,79.500",
        "hot-100,peak_position,400,143,35.750", "hot-100,weeks_on_chart,400,63,15.750",
        "hot-100,run,0,0,", "hot-100,movement,0,0,",
      ])
  }

  @Test func latestAndPreviousStandForDates() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    let previous = try chartArchive([
      "show", "hot-100", "previous", "--db", archive, "--limit", "1",
    ])
    #expect(previous.output.hasPrefix("hot-100 · 2024-01-06 (previous: 2023-12-30)\n"))
    let latest = try chartArchive(["report", "hot-100", "latest", "--db", archive])
    #expect(latest.output == (try chartArchive(["report", "hot-100", "--db", archive])).output)
    let diff = try chartArchive(["diff", "hot-100", "previous", "latest", "--db", archive])
    #expect(diff.status == 0)
    #expect(diff.output == (try chartArchive(["diff", "hot-100", "--db", archive])).output)
    let export = try chartArchive([
      "export", "hot-100", "latest", "--db", archive, "--format", "csv",
    ])
    #expect(
      export.output.components(separatedBy: "\r\n").dropFirst().first?.hasPrefix(
        "hot-100,2024-01-13,") == true)
    let tooFew = try chartArchive(["show", "one-week", "previous", "--db", archive])
    #expect(tooFew.status == 1)
    #expect(tooFew.error == "Error: chart 'one-week' has 1 snapshot; 2 are needed\n")
  }
}
