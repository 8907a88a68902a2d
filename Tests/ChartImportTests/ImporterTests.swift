import ChartFormats
import ChartRanking
import ChartStorage
import Foundation
import Synchronization
import Testing

@testable import ChartImport

/// A weekly chart file in the billboard format: `titles` at ranks 1, 2, …, each by "Artist".
func weeklyFile(_ date: String, _ titles: [String], lastWeek: [Int?]? = nil) -> Data {
  let entries = titles.enumerated().map { index, title in
    let last = (lastWeek?[index]).map { $0.map(String.init) ?? "null" } ?? "null"
    return #"{"song": "\#(title)", "artist": "Artist", "this_week": \#(index + 1), "#
      + #""last_week": \#(last), "peak_position": null, "weeks_on_chart": null}"#
  }
  return Data(#"{"date": "\#(date)", "data": [\#(entries.joined(separator: ", "))]}"#.utf8)
}

/// A folder removed when the value is released.
final class TemporaryFolder {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "chart-import-tests-\(UUID().uuidString)")
  var path: String { url.path }

  init() throws {
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

struct ImporterTests {
  @Test func importsUploadedBytesWithoutTheCommandLine() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let sources: [ImportSource] = [
      .bytes(weeklyFile("2024-01-06", ["A", "B"]), name: "upload/hot-100/2024-01-06.json"),
      .bytes(weeklyFile("2024-01-13", ["B", "C"], lastWeek: [2, nil]), name: "upload/x.json"),
    ]
    var progress: [ImportProgress] = []
    let report = try Importer.run(
      sources, into: archive, options: ImportOptions(chart: "hot-100"),
      progress: { progress.append($0) })
    #expect(progress.map(\.done) == [0, 1, 2])
    #expect(progress.allSatisfy { $0.total == 2 })
    #expect(report.sourceCount == 2)
    #expect((report.imported, report.replaced, report.unchanged) == (2, 0, 0))
    #expect(report.entriesStored == 4)
    #expect(report.snapshots.map(\.chartDate.iso8601) == ["2024-01-06", "2024-01-13"])
    #expect(report.snapshots.map(\.outcome) == [.imported, .imported])
    let placements = try archive.read { reader in
      try reader.placements(of: reader.snapshot(of: "hot-100", at: nil))
    }
    #expect(placements.map(\.entry.title) == ["B", "C"])
    #expect(placements.map(\.movement) == [.up(1), .debut])
    // The same bytes again: nothing new.
    let again = try Importer.run(sources, into: archive, options: ImportOptions(chart: "hot-100"))
    #expect((again.imported, again.unchanged, again.entriesStored) == (0, 2, 0))
  }

  @Test func anInvalidUploadIsRefusedWithItsProblemsAndNothingIsStored() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let sources: [ImportSource] = [
      .bytes(weeklyFile("2024-01-06", ["A"]), name: "c/2024-01-06.json"),
      .bytes(Data(#"{"date": "2024-01-13", "data": [{"song": "A"}]}"#.utf8), name: "bad.json"),
    ]
    #expect {
      try Importer.run(sources, into: archive, options: ImportOptions(chart: "c"))
    } throws: { error in
      guard case .refused(let refused, let count) = error as? ImportError,
        case .invalid(let problems) = refused.first?.reason
      else { return false }
      return count == 2 && refused.map(\.source) == [1]
        && problems.description
          == "bad.json: entry 1, field 'this_week': missing\nbad.json: entry 1, field 'artist':"
          + " missing"
    }
    #expect(try archive.read { try $0.charts() }.isEmpty)
    // Skipping it, the valid one is stored and the invalid one reported.
    let report = try Importer.run(
      sources, into: archive, options: ImportOptions(chart: "c", skippingInvalid: true))
    #expect(report.imported == 1)
    #expect(report.skipped.map(\.name) == ["bad.json"])
  }

  @Test func aReplacedSnapshotKeepsItsIDAndItsSongsTheirs() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let options = ImportOptions(chart: "c", replacing: true)
    _ = try Importer.run(
      [.bytes(weeklyFile("2024-01-06", ["A", "B", "C"]), name: "a.json")], into: archive,
      options: options)
    func stored() throws -> (SnapshotID, [String: SongID]) {
      try archive.read { reader in
        let snapshot = try reader.snapshot(of: "c", at: nil)
        let entries = try reader.entries(of: snapshot.id)
        return (
          snapshot.id,
          Dictionary(uniqueKeysWithValues: entries.map { ($0.entry.title, $0.song) })
        )
      }
    }
    let (before, songsBefore) = try stored()
    let report = try Importer.run(
      [.bytes(weeklyFile("2024-01-06", ["C", "A", "D"]), name: "b.json")], into: archive,
      options: options)
    #expect(report.replaced == 1)
    let (after, songsAfter) = try stored()
    #expect(after == before)
    #expect(songsAfter["A"] == songsBefore["A"])
    #expect(songsAfter["C"] == songsBefore["C"])
    #expect(songsAfter["D"] != nil && songsAfter["D"] != songsBefore["B"])
    // B's song went with its only entry.
    #expect(try archive.read { try $0.songs(matching: "B") }.isEmpty)
  }
}

/// Many readers while an import writes: every read sees one state of the archive.
struct ConcurrentReadTests {
  /// A week of chart `c`: 40 to 46 songs (as many as the version says), each title carrying the
  /// version of the file it came from, so that a read can tell whether a snapshot's entries, and
  /// its entry count read by another query, are all of one version.
  static func week(_ index: Int, version: Int) -> ImportSource {
    let size = 40 + version % 7
    let date = Date(timeIntervalSince1970: TimeInterval(index) * 7 * 86_400)
    let text = ISO8601DateFormatter.string(
      from: date, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
    // Songs rotate by one place a week, so that each moves and some drop out.
    let titles = (0..<size).map { "Song \(($0 + index) % (size + 10)) v\(version)" }
    return .bytes(weeklyFile(text, titles), name: "c/\(text).json")
  }

  /// The version of every entry's title, which must be one.
  static func versions(_ titles: some Sequence<String>) -> Set<Substring> {
    Set(titles.map { $0.split(separator: "v").last ?? "" })
  }

  @Test func eightReadersSeeWholeSnapshotsWhileAnotherThreadImportsAndReplaces() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    let weeks = 20
    _ = try Importer.run(
      (0..<weeks).map { Self.week($0, version: 0) }, intoArchiveAt: path,
      options: ImportOptions(chart: "c"))
    let writer = try Archive(path: path, access: .write)
    let readers = try Archive(path: path, access: .read)
    let failures = Failures()
    let stop = Flag()
    var threads: [Thread] = []
    let finished = DispatchGroup()
    // The writer: replaces the latest week with a new version, again and again, and adds a week
    // every tenth time.
    let writes = Counter()
    let added = Counter()
    finished.enter()
    threads.append(
      Thread {
        defer { finished.leave() }
        var version = 1
        let start = Date()
        while Date().timeIntervalSince(start) < 3 {
          do {
            if version.isMultiple(of: 10) {
              _ = try Importer.run(
                [Self.week(weeks + added.value, version: version)], into: writer,
                options: ImportOptions(chart: "c"))
              added.increment()
            } else {
              _ = try Importer.run(
                [Self.week(weeks + added.value - 1, version: version)], into: writer,
                options: ImportOptions(chart: "c", replacing: true))
            }
          } catch {
            failures.add("write \(version): \(error)")
          }
          version += 1
          writes.increment()
        }
        stop.set()
      })
    // Eight readers: show, history, diff and report in turn, checking each result is whole.
    let reads = Counter()
    for reader in 0..<8 {
      finished.enter()
      threads.append(
        Thread {
          defer { finished.leave() }
          var round = reader
          while !stop.isSet {
            round += 1
            do {
              try readers.read { archive in
                switch round % 4 {
                case 0:
                  let snapshot = try archive.chartSnapshot(of: "c", at: nil)
                  let versions = Self.versions(snapshot.placements.map(\.entry.title))
                  if versions.count != 1 { failures.add("show mixed versions \(versions)") }
                  // Three queries of one read: the snapshot, its entries and their figures.
                  let entries = try archive.entries(of: snapshot.summary.id)
                  if snapshot.summary.entryCount != snapshot.placements.count
                    || entries.map(\.entry) != snapshot.placements.map(\.entry)
                  {
                    failures.add("show read two versions of a snapshot")
                  }
                case 1:
                  let songs = try archive.songs(matching: "Song \(round % 50)")
                  for recording in try archive.recordings(of: songs) {
                    for chart in recording.histories
                    where Self.versions(chart.history.placements.map(\.entry.title)).count != 1 {
                      failures.add("history of \(recording.song.title) mixed versions")
                    }
                  }
                case 2:
                  let (older, newer) = try archive.snapshotsToCompare(of: "c", nil, nil)
                  let diff = try archive.diff(from: older, to: newer)
                  let newerTitles = diff.lines.map(\.entry.entry.title)
                  if Self.versions(newerTitles).count != 1 || diff.lines.count != newer.entryCount {
                    failures.add("diff saw a partial snapshot")
                  }
                default:
                  let snapshot = try archive.snapshot(of: "c", at: nil)
                  let (report, _) = try archive.report(on: snapshot, limit: 5)
                  if report.numberOne.count != 1 { failures.add("report without a number one") }
                }
              }
              reads.increment()
            } catch {
              failures.add("read \(round): \(error)")
            }
          }
        })
    }
    for thread in threads { thread.start() }
    finished.wait()
    #expect(failures.all.isEmpty, "\(failures.all.count) failures: \(failures.all.prefix(5))")
    #expect(writes.value > 5)
    #expect(reads.value > 50)
    // Every version the writer stored is whole too.
    let snapshots = try readers.read { try $0.snapshots(of: "c") }
    #expect(snapshots.count == weeks + added.value)
    for snapshot in snapshots {
      let titles = try readers.read { try $0.entries(of: snapshot.id) }.map(\.entry.title)
      #expect(Self.versions(titles).count == 1)
    }
  }
}

extension ConcurrentReadTests {
  /// Readers on other threads while an import stores ten files into an archive of two: each read
  /// after the import stored its first snapshot, and until it returned, is asked for by its
  /// progress (called inside its write transaction, before each next file) and waited for, so that
  /// it overlaps the import for certain; another reader reads all the time, from before the import
  /// to after it.
  @Test func aReaderDuringAnImportSeesTheArchiveBeforeItOrAfterIt() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("archive.sqlite").path
    _ = try Importer.run(
      (0..<2).map { Self.week($0, version: 0) }, intoArchiveAt: path,
      options: ImportOptions(chart: "c"))
    let readers = try Archive(path: path, access: .read)
    /// Each snapshot's entry count, from a query of the snapshots and one of each's entries, in
    /// one read.
    let read: @Sendable () throws -> [Int] = {
      try readers.read { reader in
        try reader.snapshots(of: "c").map { try reader.entries(of: $0.id).count }
      }
    }
    let before = [40, 40]
    let after = Array(repeating: 40, count: 12)
    #expect(try read() == before)
    let failures = Failures()
    let stop = Flag()
    let finished = DispatchGroup()
    // The reader asked by the import's progress.
    let asked = DispatchSemaphore(value: 0)
    let answered = DispatchSemaphore(value: 0)
    let answers = Mutex<[[Int]]>([])
    // The reader reading all the time, and what it saw, in order, without repeats.
    let started = DispatchSemaphore(value: 0)
    let seen = Mutex<[[Int]]>([])
    finished.enter()
    Thread.detachNewThread {
      defer { finished.leave() }
      while true {
        asked.wait()
        if stop.isSet { return }
        do {
          let counts = try read()
          answers.withLock { $0.append(counts) }
        } catch {
          failures.add("asked read: \(error)")
        }
        answered.signal()
      }
    }
    finished.enter()
    Thread.detachNewThread {
      defer { finished.leave() }
      var first = true
      repeat {
        do {
          let counts = try read()
          seen.withLock { if $0.last != counts { $0.append(counts) } }
        } catch {
          failures.add("read: \(error)")
        }
        if first { started.signal() }
        first = false
        // Not to take a core from the import the whole time.
        usleep(500)
      } while !stop.isSet
    }
    started.wait()
    let report = try Importer.run(
      (2..<12).map { Self.week($0, version: 0) }, intoArchiveAt: path,
      options: ImportOptions(chart: "c"),
      progress: { progress in
        guard progress.done >= 1 else { return }
        asked.signal()
        answered.wait()
      })
    #expect(report.imported == 10)
    // Once the reader reading all the time has seen the import, both stop.
    waitUntil { seen.withLock { $0.last } == after }
    stop.set()
    asked.signal()
    finished.wait()
    #expect(failures.all.isEmpty, "\(failures.all)")
    // Done 1 to 9 before the next file, 10 at the end: every file stored, nothing committed.
    #expect(answers.withLock { $0 } == Array(repeating: before, count: 10))
    #expect(seen.withLock { $0 } == [before, after])
  }

  /// Waits until `condition` holds, looking every millisecond (at most a minute: only a broken
  /// build would wait that long).
  private func waitUntil(_ condition: () -> Bool) {
    for _ in 0..<60_000 {
      if condition() { return }
      usleep(1000)
    }
  }
}

/// What went wrong on any thread.
final class Failures: Sendable {
  private let list = Mutex<[String]>([])
  func add(_ failure: String) { list.withLock { $0.append(failure) } }
  var all: [String] { list.withLock { $0 } }
}

/// A flag threads can read while another sets it.
final class Flag: Sendable {
  private let value = Mutex(false)
  func set() { value.withLock { $0 = true } }
  var isSet: Bool { value.withLock { $0 } }
}

/// A count threads add to.
final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

/// A dataset of many weeks read in parts (see `ReadAhead.weeksPerPart`): stored whole, or, when a
/// later part has a problem or a conflict, not at all, the parts stored before it undone.
struct DatasetPartsTests {
  /// Kaggle's Hot 100 CSV of `weeks` weeks from 2024-01-06 (newest first), ranks 1 to 3 held by
  /// songs "A", "B" and "C" every week; `edit` changes a week's lines (0 is the first week).
  private func kaggle(weeks: Int, edit: (Int, String) -> String = { $1 }) -> Data {
    var text = "date,rank,song,artist,last-week,peak-rank,weeks-on-board\n"
    let start = try! ChartDate(iso8601: "2024-01-06")
    for week in (0..<weeks).reversed() {
      let date = ChartDate(secondsSince1970: start.secondsSince1970 + Int64(week) * 7 * 86_400)!
      for (index, title) in ["A", "B", "C"].enumerated() {
        let last = week == 0 ? "" : "\(index + 1).0"
        text += edit(
          week, "\(date.iso8601),\(index + 1),\(title),Artist,\(last),\(index + 1),\(week + 1)\n")
      }
    }
    return Data(text.utf8)
  }

  private func hot100Dates(in archive: Archive) throws -> [String] {
    try archive.read { reader in
      try reader.charts().isEmpty
        ? [] : try reader.snapshots(of: "hot-100").map(\.chartDate.iso8601)
    }
  }

  @Test func aDatasetReadInPartsIsStoredWhole() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    var progress: [ImportProgress] = []
    let report = try Importer.run(
      [.bytes(kaggle(weeks: 20), name: "charts.csv")], into: archive,
      options: ImportOptions(chart: "hot-100", listingSnapshots: true),
      progress: { progress.append($0) })
    // Before the file, after each of its parts of 8 weeks, and at the end.
    #expect(progress.map(\.done) == [0, 0, 0, 0, 1])
    #expect(progress.map(\.fractionOfSource) == [0, 0.4, 0.8, 1, 0])
    #expect((report.imported, report.entriesStored) == (20, 60))
    #expect(report.snapshots.first?.chartDate.iso8601 == "2024-01-06")
    #expect(report.snapshots.last?.chartDate.iso8601 == "2024-05-18")
    #expect(try hot100Dates(in: archive).count == 20)
    let placements = try archive.read { reader in
      try reader.placements(of: reader.snapshot(of: "hot-100", at: nil))
    }
    #expect(placements.map(\.movement) == [.unchanged, .unchanged, .unchanged])
  }

  @Test func theWeeksOfADatasetAnImportStoppedReadingAreNotKept() throws {
    let readAhead = ReadAhead(
      sources: [.bytes(kaggle(weeks: 40), name: "charts.csv")], reader: ChartFileReader(chart: "c"),
      depth: 1)
    let first = try readAhead.file(at: 0).get()
    #expect(first.continues)
    #expect(first.file.snapshots.count == ReadAhead.weeksPerPart)
    readAhead.cancel()
    // The rest of the file is read, and dropped: nobody will take it.
    #expect(readAhead.partsWaitingWhenTheReaderEnds() == 0)
  }

  @Test func theReaderIsWokenOnceHalfItsRoomIsFree() throws {
    // 40 one-week files, 4 ahead at most. Each file is taken once the reader waits for room:
    // it is woken after every second file, when 2 wait, and reads 2 more; never after the first.
    let sources: [ImportSource] = (0..<40).map { week in
      let day = ChartDate.daysSince1970(year: 2024, month: 1, day: 6) + 7 * week
      let date = ChartDate(secondsSince1970: Int64(day) * 86_400)!.iso8601
      return .bytes(weeklyFile(date, ["A"]), name: "\(date).json")
    }
    let readAhead = ReadAhead(sources: sources, reader: ChartFileReader(chart: "c"), depth: 4)
    var dates: [String] = []
    for index in sources.indices {
      readAhead.waitUntilTheReaderWaits()
      let file = try readAhead.file(at: index).get()
      dates.append(contentsOf: file.file.snapshots.map(\.chartDate.iso8601))
    }
    #expect(dates.count == 40)
    #expect(dates.first == "2024-01-06")
    #expect(dates.last == "2024-10-05")
    // Waits before reading files 4, 6, ..., 38; files 38 and 39 end it.
    #expect(readAhead.wakeUpsOfTheReader == 18)
    #expect(readAhead.partsWaitingWhenTheReaderEnds() == 0)
  }

  @Test func aProblemInALaterWeekStoresNoneOfTheDataset() throws {
    // The 19th week's rank 2 has no title.
    let data = kaggle(weeks: 20) { week, line in
      week == 18 ? line.replacingOccurrences(of: ",2,B,", with: ",2,,") : line
    }
    let sources: [ImportSource] = [
      .bytes(data, name: "charts.csv"),
      .bytes(weeklyFile("2024-01-06", ["A"]), name: "other/2024-01-06.json"),
    ]
    for skipping in [false, true] {
      let archive = try Archive(path: ":memory:", access: .create)
      let options = ImportOptions(chart: "hot-100", skippingInvalid: skipping)
      var refused: [RefusedSource] = []
      do {
        let report = try Importer.run(sources, into: archive, options: options)
        #expect(skipping)
        #expect(report.imported == 1)
        refused = report.skipped
      } catch {
        #expect(!skipping)
        if case .refused(let list, _) = error { refused = list }
      }
      #expect(refused.map(\.name) == ["charts.csv"])
      guard case .invalid(let problems) = refused.first?.reason else {
        Issue.record("not refused as invalid: \(refused)")
        continue
      }
      #expect(problems.description == "charts.csv: row 6 (rank 2), field 'song': missing")
      // Only the other file's snapshot, when the invalid are skipped.
      #expect(try hot100Dates(in: archive) == (skipping ? ["2024-01-06"] : []))
    }
  }

  @Test func aDatasetWithAConflictAndAProblemInALaterWeekIsRefusedForTheProblem() throws {
    // The first week stored already, with other entries; the 19th week's rank 2 has no title.
    let data = kaggle(weeks: 20) { week, line in
      week == 18 ? line.replacingOccurrences(of: ",2,B,", with: ",2,,") : line
    }
    for skipping in [false, true] {
      let archive = try Archive(path: ":memory:", access: .create)
      _ = try Importer.run(
        [.bytes(weeklyFile("2024-01-06", ["X"]), name: "2024-01-06.json")], into: archive,
        options: ImportOptions(chart: "hot-100"))
      var refused: [RefusedSource] = []
      do {
        _ = try Importer.run(
          [.bytes(data, name: "charts.csv")], into: archive,
          options: ImportOptions(chart: "hot-100", skippingInvalid: skipping))
        Issue.record("imported")
      } catch {
        if case .refused(let list, _) = error { refused = list }
      }
      // As the file read whole is refused: for its problem, before any week is stored.
      guard case .invalid(let problems) = refused.first?.reason else {
        Issue.record("not refused as invalid: \(refused)")
        continue
      }
      #expect(refused.count == 1)
      #expect(problems.description == "charts.csv: row 6 (rank 2), field 'song': missing")
      #expect(try hot100Dates(in: archive) == ["2024-01-06"])
    }
  }

  @Test(.timeLimit(.minutes(1)))
  func aDatasetRefusedForAnotherFormatInItsFolderIsReadToItsEnd() throws {
    // More parts than the reading thread hands over before they are taken: it waited for the
    // refused dataset's parts to be taken, and the import for the next source, for ever.
    let valid = kaggle(weeks: 200)
    let invalid = kaggle(weeks: 200) { week, line in
      week == 150 ? line.replacingOccurrences(of: ",2,B,", with: ",2,,") : line
    }
    for data in [valid, invalid] {
      let archive = try Archive(path: ":memory:", access: .create)
      let report = try Importer.run(
        [
          .bytes(weeklyFile("2020-01-04", ["A"]), name: "hot-100/2020-01-04.json"),
          .bytes(data, name: "hot-100/charts.csv"),
          .bytes(weeklyFile("2020-01-11", ["A"]), name: "hot-100/2020-01-11.json"),
        ], into: archive, options: ImportOptions(skippingInvalid: true))
      #expect(report.imported == 2)
      #expect(report.skipped.map(\.name) == ["hot-100/charts.csv"])
      switch report.skipped.first?.reason {
      case .otherFormatInFolder(let chart, let format, let other, let otherFormat):
        #expect(data == valid)
        #expect(chart == "hot-100")
        #expect(format == .kaggleHot100CSV)
        #expect(other == "hot-100/2020-01-04.json")
        #expect(otherFormat == .billboardWeekly)
      case .invalid(let problems):
        // As the file read whole is refused: for its problem.
        #expect(data == invalid)
        #expect(
          problems.description == "hot-100/charts.csv: row 150 (rank 2), field 'song': missing")
      default:
        Issue.record("refused for another reason: \(report.skipped)")
      }
      #expect(try hot100Dates(in: archive) == ["2020-01-04", "2020-01-11"])
    }
  }

  @Test func aConflictInALaterWeekUndoesTheDatasetsEarlierWeeks() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    // The 20th week stored already, with other entries.
    _ = try Importer.run(
      [.bytes(weeklyFile("2024-05-18", ["X"]), name: "2024-05-18.json")], into: archive,
      options: ImportOptions(chart: "hot-100"))
    // A file of another chart, so that the import stores something.
    let report = try Importer.run(
      [
        .bytes(kaggle(weeks: 20), name: "charts.csv"),
        .bytes(weeklyFile("2024-01-06", ["A"]), name: "other/2024-01-06.json"),
      ], into: archive,
      options: ImportOptions(chart: "hot-100", skippingInvalid: true))
    #expect(report.skipped.map(\.name) == ["charts.csv"])
    #expect(report.imported == 1)
    guard case .conflict(let conflict) = report.skipped.first?.reason,
      case .conflictingSnapshot = conflict
    else {
      Issue.record("not refused as a conflict: \(report.skipped)")
      return
    }
    #expect(try hot100Dates(in: archive) == ["2024-01-06", "2024-05-18"])
    #expect(
      try archive.read { reader in
        try reader.entries(of: reader.snapshot(of: "hot-100", at: nil).id).map(\.entry.title)
      } == ["X"])
  }
}
