import ChartRanking
import ChartStorage
import Foundation
import Testing

/// The real Hot 100 history, 1958–2026, imported once for every test of this suite.
@Suite(.enabled(if: hot100IsPresent, "../shared/data/billboard-hot-100 is absent: skipped"))
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
    #expect(agreement.compactMap { $0["compared"] as? Int } == [354_887, 354_887, 354_887])
    #expect(agreement.compactMap { $0["agreeing"] as? Int } == [354_800, 354_766, 354_874])
    let causes = try #require(audit["causes"] as? [[String: Any]])
    #expect(
      causes.compactMap { $0["cause"] as? String } == [
        "source gap", "rank shift", "credit change", "two recordings", "tie", "unexplained",
      ])
    #expect(causes.compactMap { $0["disagreements"] as? Int } == [135, 30, 0, 47, 9, 0])
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
      let decided = ChartFigures.decideAll(try reader.auditedSnapshots(of: "hot-100"))
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
        == "hot-100,1976-12-11,1976-12-04,22,up,42,22,8,,Car Wash,Rose Royce,,,published,1,false,,,,,"
    )
    let diff = try chartArchive([
      "diff", "hot-100", "1976-12-04", "1976-12-11", "--db", Self.archive, "--format", "csv",
    ])
    #expect(
      diff.output.components(separatedBy: "\r\n").first { $0.contains(",Car Wash,") }
        == "hot-100,1976-12-04,1976-12-11,movements,22,up,42,Car Wash,Rose Royce")
  }
}
