import ChartRanking
import ChartStorage
import Foundation
import Testing

/// The real Hot 100 history, 1958–2026, imported once for every test of this suite.
@Suite(.enabled(if: hot100IsPresent, hot100Absent))
struct Hot100Tests {
  /// The archive, named after this process; archives left by earlier runs that have ended are
  /// removed first.
  static let archive: String = {
    let folder = FileManager.default.temporaryDirectory
    let prefix = "chart-archive-hot-100-"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where name.hasPrefix(prefix) {
      let pid = Int32(name.dropFirst(prefix.count).prefix(while: \.isNumber)) ?? 0
      if pid > 0, kill(pid, 0) != 0 {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
      }
    }
    return folder.appendingPathComponent("\(prefix)\(getpid()).sqlite").path
  }()

  /// Imports the whole folder (the first caller does it; it takes a few seconds).
  static let firstImport: Result<Run, any Error> = Result {
    try chartArchive(["import", hot100Folder, "--chart", "hot-100", "--db", archive, "--quiet"])
  }

  @Test func importsEverySnapshotAndEntryThenNothingMore() throws {
    let first = try Self.firstImport.get()
    #expect(first.status == 0)
    #expect(
      first.output
        == "Imported 3549 files into \(Self.archive): 3549 new snapshots, 0 replaced, 0 unchanged;"
        + " 354887 entries stored.\n")
    let again = try chartArchive([
      "import", hot100Folder, "--chart", "hot-100", "--db", Self.archive, "--quiet",
    ])
    #expect(again.status == 0)
    #expect(again.output == "Nothing new: all 3549 snapshots were already in \(Self.archive).\n")
    let snapshots = try json(
      chartArchive(["snapshots", "hot-100", "--db", Self.archive, "--format", "json"]).output)
    let list = try #require(snapshots["snapshots"] as? [[String: Any]])
    #expect(list.count == 3549)
    #expect(list.reduce(0) { $0 + ($1["entries"] as? Int ?? 0) } == 354_887)
    #expect(list.first?["chart_date"] as? String == "1958-08-04")
    #expect(list.last?["chart_date"] as? String == "2026-08-08")
  }

  /// The quick look every import takes at the archive's pages finds nothing in the whole Hot 100,
  /// so that an import into it never pays for `dbstat`'s walk; nor does `dbstat`.
  @Test func theWholeHot100HasNoSuspectPage() throws {
    _ = try Self.firstImport.get()
    #expect(PageHeaderScan.suspectPages(inFileAt: Self.archive) == [])
    #expect(try Archive(path: Self.archive, access: .read).read { try $0.damagedPages() } == [])
  }

  @Test func blindingLightsSpent90WeeksFromItsDebutAt11() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive([
      "history", "Blinding Lights", "--db", Self.archive, "--format", "json",
    ])
    #expect(run.status == 0)
    let history = try json(run.output)
    #expect(history["artist"] as? String == "The Weeknd")
    let recordings = try #require(history["recordings"] as? [[String: Any]])
    #expect(recordings.count == 1)
    let chart = try #require((recordings.first?["charts"] as? [[String: Any]])?.first)
    #expect(chart["weeks_on_chart"] as? Int == 90)
    #expect(chart["debut_date"] as? String == "2019-12-14")
    #expect(chart["debut_rank"] as? Int == 11)
    #expect(chart["peak_position"] as? Int == 1)
    #expect(chart["weeks_at_peak"] as? Int == 4)
    let entries = try #require(chart["entries"] as? [[String: Any]])
    #expect(entries.count == 90)
    #expect(entries.first?["movement"] as? String == "new")
    #expect(entries.last?["chart_date"] as? String == "2021-09-04")
  }

  /// `history halo` lists the two songs titled "Halo", the one that went further first, then the
  /// one with "Halo" as a whole word of its title; not "Broken Halos", "Nag" by The Halos nor
  /// "Shamrocks And Shenanigans (Boom Shalock Lock Boom)", which match only inside a word. `halos`
  /// finds those two as whole words (of the credit, for "Nag"); `dont stop believin`, which has
  /// none of the words of "Don't Stop Believin'" ("don", "t"), its three recordings as whole titles.
  @Test func aSearchListsWholeTitlesThenWholeWordsByPeakAndInsideWordsOnlyWithoutThem() throws {
    _ = try Self.firstImport.get()
    func matches(_ query: String) throws -> (status: Int32, rows: [String], error: String) {
      let run = try chartArchive(["history", query, "--db", Self.archive, "--format", "csv"])
      // Each row without its song ID: title, artist, recording, first chart date, best rank, entries.
      let rows = run.output.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
      return (run.status, rows.map { String($0.drop(while: { $0 != "," }).dropFirst()) }, run.error)
    }
    let halo = try matches("Halo")
    #expect(halo.status == 1)
    #expect(
      halo.rows == [
        "Halo,Beyonce,1,2009-02-07,5,31", "Halo,Jordan Smith,1,2015-11-28,88,1",
        "Halo / Walking On Sunshine,Glee Cast,1,2009-10-24,40,2",
      ])
    #expect(
      halo.error
        == "3 songs match 'Halo'; narrow the search with --artist, --chart or a fuller title\n")
    #expect(
      try matches("halos").rows == [
        "Nag,The Halos,1,1961-07-17,25,11", "Broken Halos,Chris Stapleton,1,2017-05-06,45,20",
      ])
    #expect(
      try matches("dont stop believin").rows == [
        "Don't Stop Believin',Glee Cast,1,2009-06-06,4,7",
        "Don't Stop Believin',Journey,1,1981-10-31,9,17",
        "Don't Stop Believin',Olivia Newton-John,1,1976-08-07,33,9",
      ])
  }

  @Test func theNewYearDiffHasEightArrivalsAndEightDropOuts() throws {
    _ = try Self.firstImport.get()
    let diff = try json(
      chartArchive([
        "diff", "hot-100", "2023-12-30", "2024-01-06", "--db", Self.archive, "--format", "json",
      ]).output)
    let arrivals = try #require(diff["arrivals"] as? [[String: Any]])
    let dropOuts = try #require(diff["drop_outs"] as? [[String: Any]])
    #expect(arrivals.count == 8)
    #expect(dropOuts.count == 8)
    #expect(arrivals.compactMap { $0["rank"] as? Int } == [37, 39, 41, 43, 46, 50, 96, 98])
    #expect(dropOuts.compactMap { $0["older_rank"] as? Int } == [20, 49, 74, 83, 93, 95, 97, 100])
    #expect((diff["movements"] as? [Any])?.count == 92)
  }

  @Test func unchainedMelodyKeepsThe1965RunAndTheTwo1990RecordingsApart() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive([
      "history", "Unchained Melody", "--artist", "Righteous", "--db", Self.archive, "--format",
      "json",
    ])
    #expect(run.status == 0)
    let recordings = try #require(try json(run.output)["recordings"] as? [[String: Any]])
    let charts = recordings.compactMap { ($0["charts"] as? [[String: Any]])?.first }
    #expect(
      charts.compactMap { $0["debut_date"] as? String } == [
        "1965-07-17", "1990-08-25", "1990-10-06",
      ])
    #expect(charts.compactMap { $0["weeks_on_chart"] as? Int } == [13, 19, 25])
    #expect(charts.compactMap { $0["peak_position"] as? Int } == [4, 13, 19])
    let table = try chartArchive([
      "history", "Unchained Melody", "--artist", "Righteous", "--db", Self.archive,
    ])
    #expect(
      table.output.contains(
        "3 recordings with this title and artist charted as separate songs (a reissue and a remake,"
          + " or two versions at once); each has its own history."))
  }

  @Test func aCreditChangeIsJoinedIntoOneRunAndSaidSo() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive([
      "history", "The Christmas Song (Merry Christmas To You)", "--artist", "cole", "--db",
      Self.archive,
    ])
    #expect(run.status == 0)
    #expect(
      run.output.contains(
        "Credit change:  2023-12-30 'Nat King Cole' → 'Nat \"King\" Cole' (one run)"))
  }

  @Test func theAuditAgreesOnMoreThan99Point95PercentAndExplainsEveryDisagreement() throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive([
      "audit", "hot-100", "--db", Self.archive, "--format", "json", "--summary",
    ])
    #expect(run.status == 0)
    let audit = try json(run.output)
    let agreement = try #require(audit["agreement"] as? [[String: Any]])
    // The Hot 100's files number no runs and publish no trend: nothing to compare the archive's
    // with.
    #expect(agreement.compactMap { $0["compared"] as? Int } == [354_887, 354_887, 354_887, 0, 0])
    #expect(agreement.compactMap { $0["agreeing"] as? Int } == [354_800, 354_766, 354_874, 0, 0])
    let causes = try #require(audit["causes"] as? [[String: Any]])
    #expect(
      causes.compactMap { $0["cause"] as? String } == [
        "source gap", "rank shift", "credit change", "two recordings", "tie", "joined by hand",
        "unexplained",
      ])
    // No decision names an entry of the Hot 100: nothing is joined by hand.
    #expect(causes.compactMap { $0["disagreements"] as? Int } == [134, 30, 1, 47, 9, 0, 0])
  }

  /// Weeks the audit is known for, with the figures recomputed for them and the cause it gives.
  struct NamedWeeks: Sendable, CustomTestStringConvertible {
    var first: String
    var last: String
    var figures: [String]
    var cause: String
    var testDescription: String { "\(first) to \(last)" }
  }

  /// The disagreements the audit reports for three stretches of weeks, recomputed from the source
  /// files alone (see ``recomputedDisagreements(_:)``): the 13 weeks of 99 rows in 1976–77, the
  /// weeks after the chart missing between 2017-12-30 and 2018-01-06 (whose weeks on chart count
  /// that chart, which no file holds, so only the previous ranks and peaks are recomputed), and
  /// the weeks of "Unchained Melody" in 1990, reissued and remade at once.
  @Test(arguments: [
    NamedWeeks(
      first: "1976-12-04", last: "1977-03-12", figures: Self.figures, cause: "source gap"),
    NamedWeeks(
      first: "2018-01-06", last: "2018-01-20", figures: ["previous_rank", "peak_position"],
      cause: "source gap"),
    NamedWeeks(
      first: "1990-08-25", last: "1990-12-29", figures: Self.figures, cause: "two recordings"),
  ])
  func theAuditsDisagreementsAreThoseOfTheSourceFiles(_ weeks: NamedWeeks) throws {
    _ = try Self.firstImport.get()
    let run = try chartArchive([
      "audit", "hot-100", "--from", weeks.first, "--to", weeks.last, "--db", Self.archive,
      "--format", "json",
    ])
    #expect(run.status == 0)
    let reported = try #require(try json(run.output)["disagreements"] as? [[String: Any]])
      .filter { weeks.figures.contains($0["figure"] as? String ?? "") }
    #expect(Set(reported.compactMap { $0["cause"] as? String }) == [weeks.cause])
    let lines = reported.map { disagreement in
      let number = { (key: String) in (disagreement[key] as? Int).map { "\($0)" } ?? "-" }
      return [
        disagreement["chart_date"] as? String ?? "", number("rank"),
        disagreement["figure"] as? String ?? "", number("published"), number("derived"),
      ].joined(separator: " ")
    }
    let recomputed = try Self.recomputedDisagreements(weeks)
    #expect(!recomputed.isEmpty)
    #expect(lines.sorted() == recomputed.sorted())
  }

  static let figures = ["previous_rank", "peak_position", "weeks_on_chart"]

  /// One row of a weekly file: the song (its title and artist), its rank and what the source
  /// published with it (last week, peak position, weeks on chart).
  struct SourceRow {
    var song: String
    var rank: Int
    var published: [Int?]
  }

  /// One weekly file: its date and its rows in file order.
  typealias SourceWeek = (date: String, rows: [SourceRow])

  /// Every weekly file of the Hot 100 folder, in date order, read with Foundation's JSON parser
  /// and none of the archive's code.
  static let sourceWeeks: Result<[SourceWeek], any Error> = Result {
    try FileManager.default.contentsOfDirectory(atPath: hot100Folder).filter {
      $0.hasSuffix(".json")
    }.sorted().map { name in
      let data = try Data(contentsOf: URL(fileURLWithPath: hot100Folder + "/" + name))
      let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let rows = try #require(file["data"] as? [[String: Any]]).map { row in
        SourceRow(
          song: "\(row["song"] ?? "") by \(row["artist"] ?? "")",
          rank: row["this_week"] as? Int ?? 0,
          published: ["last_week", "peak_position", "weeks_on_chart"].map { row[$0] as? Int })
      }
      return (try #require(file["date"] as? String), rows)
    }
  }

  /// The disagreements between the published figures and the ones recomputed with plain rules,
  /// as `DATE RANK FIGURE PUBLISHED DERIVED` (`-` for no derived previous rank). The rules:
  /// - a song is its title and artist; its previous rank is its rank on the week before, its peak
  ///   the best rank up to the week, its weeks on chart the weeks up to it;
  /// - a week of 99 rows lost one: a song's rank on it is the one the next week gives as its last,
  ///   else one more than its row when that is between the first and the last row the next week
  ///   shows one lower;
  /// - a song that is twice on one of the weeks (two recordings) is followed back through the
  ///   ranks each week gives as its last instead: its peak is the best of them, its weeks their
  ///   count.
  static func recomputedDisagreements(_ named: NamedWeeks) throws -> [String] {
    let weeks = try sourceWeeks.get()
    let first = try #require(weeks.firstIndex { $0.date == named.first })
    let last = try #require(weeks.firstIndex { $0.date == named.last })
    let twice = Set(
      weeks[first...last].flatMap { week in
        Dictionary(grouping: week.rows, by: \.song).filter { $1.count > 1 }.keys
      })
    var best: [String: Int] = [:]
    var count: [String: Int] = [:]
    var previous: [String: Int] = [:]
    var lines: [String] = []
    for index in 0...last {
      let ranks = ranksAsMeant(weeks, at: index)
      for row in weeks[index].rows {
        let rank = ranks[row.song] ?? row.rank
        best[row.song] = min(best[row.song] ?? rank, rank)
        count[row.song, default: 0] += 1
        guard index >= first else { continue }
        var derived = [previous[row.song], best[row.song], count[row.song]]
        if twice.contains(row.song) {
          var run = [row]
          while let lastWeek = run.last?.published[0] {
            run.append(try #require(weeks[index - run.count].rows.first { $0.rank == lastWeek }))
          }
          derived = [row.published[0], run.map(\.rank).min(), run.count]
        }
        for (figure, (published, derived)) in zip(figures, zip(row.published, derived))
        where named.figures.contains(figure) {
          guard let published, published != derived else { continue }
          let shown = derived.map { "\($0)" } ?? "-"
          lines.append("\(weeks[index].date) \(row.rank) \(figure) \(published) \(shown)")
        }
      }
      previous = ranks
    }
    return lines
  }

  /// Each song's rank on week `index` as the source meant it: on a week of 99 rows, the rank the
  /// next week gives as its last, else one more than its row when that is between the first and
  /// the last row the next week shows one lower.
  static func ranksAsMeant(_ weeks: [SourceWeek], at index: Int) -> [String: Int] {
    let rows = weeks[index].rows
    var ranks = Dictionary(rows.map { ($0.song, $0.rank) }, uniquingKeysWith: min)
    guard rows.count == 99, index + 1 < weeks.count else { return ranks }
    let next = Dictionary(
      weeks[index + 1].rows.compactMap { row in row.published[0].map { (row.song, $0) } },
      uniquingKeysWith: min)
    let shifted = rows.filter { next[$0.song] == $0.rank + 1 }.map(\.rank)
    guard let low = shifted.min(), let high = shifted.max() else { return ranks }
    for row in rows {
      ranks[row.song] = next[row.song] ?? (low...high ~= row.rank ? row.rank + 1 : row.rank)
    }
    return ranks
  }

  @Test(arguments: ["json", "csv"])
  func theWholeChartRoundTripsThroughExport(format: String) throws {
    _ = try Self.firstImport.get()
    let folder = try TemporaryFolder()
    let exported = try chartArchive(["export", "hot-100", "--format", format, "--db", Self.archive])
    #expect(exported.status == 0)
    let file = try folder.write("hot-100.\(format)", exported.output)
    let second = folder.url.appendingPathComponent("second.sqlite").path
    let imported = try chartArchive(["import", file, "--db", second, "--quiet"])
    #expect(
      imported.output
        == "Imported 1 file into \(second): 3549 new snapshots, 0 replaced, 0 unchanged;"
        + " 354887 entries stored.\n")
    let again = try chartArchive(["export", "hot-100", "--format", format, "--db", second])
    #expect(again.output == exported.output)
  }

  @Test func runNumbersCountedAsTheHotStuffDatasetCountsThemAreAllExplained() throws {
    _ = try Self.firstImport.get()
    let archive = try Archive(path: Self.archive, access: .read)
    var snapshots = try archive.read { try $0.linkedSnapshots(of: "hot-100") }
    // The "Hot Stuff" dataset's instance: the runs of each song and performer as written, one
    // more each time it is back after a week off the chart.
    var runs: [String: Int] = [:]
    var lastWeek: Set<String> = []
    for index in snapshots.indices {
      var thisWeek: Set<String> = []
      for position in snapshots[index].entries.indices {
        let entry = snapshots[index].entries[position]
        let key = entry.title + "\u{1F}" + entry.artist
        if !lastWeek.contains(key), !thisWeek.contains(key) { runs[key, default: 0] += 1 }
        thisWeek.insert(key)
        snapshots[index].entries[position].publishedRun = runs[key]
      }
      lastWeek = thisWeek
    }
    let audit = ChartAudit(snapshots: snapshots, frequency: .weekly)
    #expect(
      audit.agreements[3] == FigureAgreement(figure: .run, compared: 354_887, agreeing: 354_460))
    let causes = audit.disagreements.filter { $0.figure == .run }.reduce(into: [:]) {
      $0[$1.cause, default: 0] += 1
    }
    // The dataset numbers each credit's runs afresh where the archive joins a song across
    // credits; it counts one run where the archive keeps two recordings apart (a reissue).
    #expect(causes == [.creditChange: 245, .twoRecordings: 168, .sourceGap: 14])
  }

  @Test func showDiffAndTheViewsGiveEveryEntryOfEveryWeekTheFiguresDecidedForTheWholeChart()
    throws
  {
    _ = try Self.firstImport.get()
    // The views, read as an SQL tool would.
    let viewed = try rows(
      Self.archive,
      "SELECT snapshot_id, rank, movement, previous_rank, peak_position, weeks_on_chart, run"
        + " FROM chart_entries ORDER BY snapshot_id, position", separator: " ", null: "-")
    let runs = try rows(
      Self.archive,
      "SELECT song_id, first_chart_date, last_chart_date, debut_rank, peak_position, weeks_at_peak,"
        + " weeks_on_chart, runs FROM song_runs ORDER BY song_id", separator: " ", null: "-")
    let archive = try Archive(path: Self.archive, access: .read)
    let (pairs, differing, shownRows, songRows) = try archive.read { reader in
      var pairs = 0
      var differing: [String] = []
      var shownRows: [String] = []
      var placementsBySong: [SongID: [Placement]] = [:]
      let snapshots = try reader.snapshots(of: "hot-100")
      // The figures the import stored, a snapshot at a time, are those of the whole chart
      // decided at once.
      let decided = ChartFigures.decideAll(
        try reader.linkedSnapshots(of: "hot-100"), frequency: .weekly)
      #expect(decided.count == snapshots.count)
      for (index, newer) in snapshots.enumerated() {
        let shown = try reader.chartSnapshot(of: "hot-100", at: newer.chartDate)
        for placement in shown.placements {
          placementsBySong[placement.song, default: []].append(placement)
          shownRows.append(
            "\(newer.id.rawValue) \(placement.rank) \(placement.movement.kind)"
              + " \(placement.previousRank.map(String.init) ?? "-") \(placement.peakPosition)"
              + " \(placement.weeksOnChart) \(placement.figures.run)")
        }
        if shown.placements.map(\.figures) != decided[index].figures {
          differing.append(newer.chartDate.iso8601)
        }
        guard index > 0 else { continue }
        let older = snapshots[index - 1]
        let diff = try reader.diff(from: older, to: newer)
        let fromShow = shown.placements.map { "\($0.rank) \($0.movement) \($0.previousRank ?? 0)" }
        let fromDiff = diff.lines.map {
          "\($0.entry.entry.rank) \($0.movement) \($0.olderRank ?? 0)"
        }
        if fromShow != fromDiff || shown.previous?.id != older.id {
          differing.append(newer.chartDate.iso8601)
        }
        pairs += 1
      }
      // Each song's summary as `history` makes it (SongHistory).
      let songRows = placementsBySong.sorted { $0.key < $1.key }.map { song, placements in
        let history = SongHistory(placements: placements)
        return
          "\(song.rawValue) \(history.debutDate!.iso8601) \(history.placements.last!.chartDate.iso8601)"
          + " \(history.debutRank!) \(history.peakPosition!) \(history.weeksAtPeak)"
          + " \(history.weeksOnChart) \(history.runs)"
      }
      return (pairs, differing, shownRows, songRows)
    }
    #expect(viewed.count == 354_887)
    #expect(viewed == shownRows)
    #expect(runs.count == 32_616)
    #expect(runs == songRows)
    #expect(pairs == 3548)
    #expect(differing == [])
    // A week of 99 rows (1976-12-04), whose ranks below the lost row the archive corrects:
    // Car Wash came from 42 to 22 (▲20), in show and diff alike.
    let show = try chartArchive([
      "show", "hot-100", "1976-12-11", "--db", Self.archive, "--format", "csv",
    ])
    #expect(
      show.output.components(separatedBy: "\r\n").first { $0.contains(",Car Wash,") }
        == "hot-100,1976-12-11,1976-12-04,22,up,42,22,8,,Car Wash,Rose Royce,,,published,1,false,"
        + ",,,,,,")
    let diff = try chartArchive([
      "diff", "hot-100", "1976-12-04", "1976-12-11", "--db", Self.archive, "--format", "csv",
    ])
    #expect(
      diff.output.components(separatedBy: "\r\n").first { $0.contains(",Car Wash,") }
        == "hot-100,1976-12-04,1976-12-11,movements,22,up,42,Car Wash,Rose Royce")
  }
}
