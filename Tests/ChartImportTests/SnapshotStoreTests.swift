import ChartRanking
import Foundation
import Testing

@testable import ChartImport
@testable import ChartStorage

/// The import engine storing snapshots: new, unchanged, replaced and conflicting snapshots,
/// savepoints, songs linked and linked again, figures decided.
struct SnapshotStoreTests {
  @Test func storesSnapshotsAndReadsThemBack() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let first = try snapshot(
      "2024-01-06", [(1, "A", "X"), (2, "B", "Y")], previousRanks: [2, nil])
    #expect(
      try archive.importing { try $0.store(first, frequency: .weekly, source: "a.json") }
        == .imported)
    let charts = try archive.charts()
    #expect(charts.map(\.name) == ["c"])
    #expect(charts.map(\.frequency) == [.weekly])
    #expect(charts.map(\.snapshotCount) == [1])
    let stored = try archive.snapshot(of: "c", at: nil)
    #expect(stored.chartDate.iso8601 == "2024-01-06")
    #expect(stored.entryCount == 2)
    #expect(stored.publishesPreviousRank)
    #expect(stored.source == "a.json")
    #expect(try archive.entries(of: stored.id).map(\.entry) == first.entries)
  }

  @Test func eachEntryKeepsItsOwnValuesWhereTheEntryBeforeAtItsPositionHadOthers() throws {
    // The entry at position 0 of each snapshot goes through the same parameters of one INSERT:
    // a number, then NULL, then the same number, a text where NULL was, and NULL again.
    let weeks = [
      ChartEntry(
        rank: 1, title: "A", artist: "X", publishedPreviousRank: 3, publishedPeakPosition: 1,
        publishedWeeksOnChart: 4, imageURL: "https://i/a", songURL: nil, streams: 5,
        publishedRun: 2),
      ChartEntry(rank: 1, title: "B", artist: "Y"),
      ChartEntry(
        rank: 1, title: "A", artist: "X", publishedPreviousRank: 3, publishedPeakPosition: 1,
        publishedWeeksOnChart: 4, imageURL: nil, songURL: "https://s/a", streams: 0,
        publishedRun: 2),
      ChartEntry(rank: 2, title: "C", artist: "Z", publishedWeeksOnChart: 1),
    ]
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      for (week, entry) in weeks.enumerated() {
        try batch.store(
          Snapshot(
            chart: "c", chartDate: try ChartDate(iso8601: "2024-01-0\(1 + week)"),
            publishesPreviousRank: false, entries: [entry]))
      }
    }
    let stored = try archive.database.rows(
      "SELECT rank, published_previous_rank, published_peak_position, published_weeks_on_chart,"
        + " image_url, song_url, streams, published_run FROM entries ORDER BY snapshot_id", [],
      { row in
        (0..<8).map { column in
          row.isNull(at: column) ? "NULL" : row.string(at: column)
        }.joined(separator: " ")
      })
    #expect(
      stored == [
        "1 3 1 4 https://i/a NULL 5 2", "1 NULL NULL NULL NULL NULL NULL NULL",
        "1 3 1 4 NULL https://s/a 0 2", "2 NULL NULL 1 NULL NULL NULL NULL",
      ])
  }

  @Test func textIsStoredWholeEvenWithANULInside() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let entry = ChartEntry(
      rank: 1, title: "A", artist: "X", imageURL: "https://i.example.com/a\u{0}b",
      songURL: "https://m.example.com/a\u{0}b")
    let snapshot = try Snapshot(
      chart: "c", chartDate: ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: [entry])
    try archive.importing { try $0.store(snapshot) }
    let stored = try archive.snapshot(of: "c", at: nil)
    #expect(try archive.entries(of: stored.id).map(\.entry) == [entry])
  }

  @Test func longTextsOfManyEntriesAreStoredWhole() throws {
    // 250 entries of 2,000-byte titles and artists: more text than one INSERT's arena holds at
    // first, in more than one INSERT, with empty texts and URLs among them.
    let archive = try Archive(path: ":memory:", access: .create)
    let entries = (1...250).map { rank in
      ChartEntry(
        rank: rank, title: rank == 7 ? "" : String(repeating: "é\(rank % 10)", count: 667),
        artist: String(repeating: "a", count: 2_000 - rank),
        imageURL: rank.isMultiple(of: 3) ? "https://i.example.com/\(rank)" : nil,
        songURL: rank == 200 ? "" : nil)
    }
    let snapshot = try Snapshot(
      chart: "c", chartDate: ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: false,
      entries: entries)
    try archive.importing { try $0.store(snapshot) }
    let stored = try archive.entries(of: try archive.snapshot(of: "c", at: nil).id)
    #expect(stored.map(\.entry) == entries)
    #expect(stored[0].entry.title.utf8.count == 2_001)
  }

  @Test func anIdenticalSnapshotIsUnchangedAndADifferentOneIsRefusedUnlessReplacing() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let original = try snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])
    let changed = try snapshot("2024-01-06", [(1, "B", "Y"), (2, "A", "X")])
    try archive.importing { try $0.store(original) }
    #expect(try archive.importing { try $0.store(original) } == .unchanged)
    #expect(throws: ArchiveError.conflictingSnapshot(chart: "c", chartDate: changed.chartDate)) {
      try archive.importing { try $0.store(changed) }
    }
    #expect(
      try archive.entries(of: archive.snapshot(of: "c", at: nil).id).map(\.entry.title) == [
        "A", "B",
      ])
    #expect(try archive.importing { try $0.store(changed, replacing: true) } == .replaced)
    #expect(try archive.snapshots(of: "c").count == 1)
    #expect(
      try archive.entries(of: archive.snapshot(of: "c", at: nil).id).map(\.entry.title) == [
        "B", "A",
      ])
    // The replaced snapshot's entries went with it (a batch deletes them itself: foreign keys,
    // and their cascade, are off while it writes).
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.rows("PRAGMA foreign_key_check", [], { $0.string(at: 0) }) == [])
  }

  @Test func aBatchChecksWhatItsRowsReferToBeforeItCommits() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")])) }
    // A song deleted under the batch's entries: what a fault in linking could do.
    #expect(throws: Self.missingSong(3)) {
      try archive.importing { batch in
        try batch.store(snapshot("2024-01-13", [(1, "C", "Z"), (2, "A", "X")]))
        try archive.database.run("DELETE FROM songs WHERE id = 3")
      }
    }
    // Nothing of that batch is kept, and enforcement is on again outside a batch.
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06"])
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.row("PRAGMA foreign_keys", [], { $0.int(at: 0) }) == 1)
    // A song deleted once no row refers to it is no failure.
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-13", [(1, "C", "Z"), (2, "A", "X")]))
      try archive.database.run("DELETE FROM entries WHERE song_id = 3")
      try archive.database.run("DELETE FROM songs WHERE id = 3")
    }
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 3)
    // A song missing inside a run of new songs (checked by runs of consecutive IDs) is found.
    #expect(throws: Self.missingSong(5)) {
      try archive.importing { batch in
        try batch.store(snapshot("2024-01-20", [(1, "D", "Z"), (2, "E", "Z"), (3, "F", "Z")]))
        try archive.database.run("DELETE FROM songs WHERE id = 5")
      }
    }
  }

  /// The error of a batch whose entry refers to a song that is not in an in-memory archive.
  private static func missingSong(_ id: Int) -> ArchiveError {
    .database(
      path: ":memory:",
      DatabaseError(
        extendedResultCode: DatabaseError.constraintForeignKey,
        message:
          "FOREIGN KEY constraint failed: an entry refers to song \(id), which is not in the archive"
      ))
  }

  @Test func aWriteThatThrowsStoresNothing() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try archive.importing { batch in
        try batch.store(snapshot("2024-01-06", [(1, "A", "X")]))
        throw Stop()
      }
    }
    #expect(try archive.charts().isEmpty)
  }

  @Test func aSavepointUndoesItsFileAndTheBatchGoesOn() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    struct Invalid: Error {}
    try archive.importing { batch in
      #expect(throws: Invalid.self) {
        try batch.inSavepoint {
          // A new chart and its snapshot, then the file turns out bad.
          try batch.store(snapshot("2024-01-06", [(1, "A", "X")], chart: "gone"))
          throw Invalid()
        }
      }
      try batch.inSavepoint {
        try batch.store(snapshot("2024-01-06", [(1, "B", "Y")], chart: "kept"))
      }
      // The undone chart can be created again in the same batch.
      try batch.store(snapshot("2024-01-13", [(1, "C", "Z")], chart: "gone"))
    }
    #expect(try archive.charts().map(\.name) == ["gone", "kept"])
    #expect(try archive.snapshots(of: "gone").map(\.chartDate.iso8601) == ["2024-01-13"])
  }

  /// A write's first snapshot is inserted 10 entries per statement, later ones 100 (see
  /// ``EntryInserter/rowsPerFirstInsert``): every entry is stored, in its place, whatever the
  /// statements' sizes and the rows left over.
  @Test func entriesAreStoredWholeWhateverTheStatementsSizes() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    func entries(_ count: Int) -> [(Int, String, String)] {
      (1...count).map { ($0, "T\($0)", "A\($0 % 7)") }
    }
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", entries(23)))
      try batch.store(snapshot("2024-01-13", entries(150)))
    }
    try archive.importing { try $0.store(snapshot("2024-01-20", entries(101))) }
    for (date, count) in [("2024-01-06", 23), ("2024-01-13", 150), ("2024-01-20", 101)] {
      let stored = try archive.entries(
        of: archive.snapshot(of: "c", at: ChartDate(iso8601: date)).id)
      #expect(stored.map(\.entry.rank) == Array(1...count), "\(date)")
      #expect(stored.map(\.entry.title) == (1...count).map { "T\($0)" }, "\(date)")
      #expect(stored.map(\.entry.artist) == (1...count).map { "A\($0 % 7)" }, "\(date)")
    }
  }

  /// 150 entries of chart `c` whose 51st breaks a CHECK constraint (previous rank 0): found as the
  /// first INSERT statement is bound, after the snapshot's row and songs are written.
  func snapshotFailingMidStatement(_ date: String) throws -> Snapshot {
    var previousRanks = [Int?](repeating: nil, count: 150)
    previousRanks[50] = 0
    return try snapshot(
      date, (1...150).map { ($0, "T\($0)", "A") }, previousRanks: previousRanks)
  }

  /// Whether `error` is SQLite's refusal of that entry.
  static func isFailedCheck(_ error: (any Error)?) -> Bool {
    guard case .database(":memory:", let failure) = error as? ArchiveError else { return false }
    return failure.extendedResultCode == 275  // SQLITE_CONSTRAINT_CHECK
      && failure.message == "CHECK constraint failed: published_previous_rank >= 1"
  }

  @Test func anEntryThatBreaksAConstraintUndoesTheWholeWrite() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    let failing = try snapshotFailingMidStatement("2024-01-20")
    #expect {
      try archive.importing { batch in
        try batch.store(snapshot("2024-01-13", [(1, "B", "Y")]))
        try batch.store(failing)
      }
    } throws: {
      Self.isFailedCheck($0)
    }
    // Neither the snapshot before it nor the 50 rows its statement wrote (INSERT OR FAIL keeps
    // them until the transaction is rolled back).
    #expect(try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06"])
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 1)
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 1)
  }

  @Test(arguments: [
    (ChartEntry(rank: 0, title: "T", artist: "A"), "rank >= 1"),
    (
      ChartEntry(rank: 1, title: "T", artist: "A", publishedPeakPosition: 0),
      "published_peak_position >= 1"
    ),
    (
      ChartEntry(rank: 1, title: "T", artist: "A", publishedWeeksOnChart: 0),
      "published_weeks_on_chart >= 1"
    ),
    (ChartEntry(rank: 1, title: "T", artist: "A", streams: -1), "streams >= 0"),
    (ChartEntry(rank: 1, title: "T", artist: "A", publishedRun: 0), "published_run >= 1"),
  ])
  func eachCheckedColumnIsNamedAsSQLiteNamesIt(entry: ChartEntry, constraint: String) throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let chartDate = try ChartDate(iso8601: "2024-01-06")
    #expect {
      try archive.importing { batch in
        try batch.store(
          Snapshot(chart: "c", chartDate: chartDate, publishesPreviousRank: false, entries: [entry])
        )
      }
    } throws: { error in
      guard case .database(_, let failure) = error as? ArchiveError else { return false }
      return failure.extendedResultCode == 275
        && failure.message == "CHECK constraint failed: \(constraint)"
    }
    #expect(try archive.database.row("SELECT count(*) FROM snapshots", [], { $0.int(at: 0) }) == 0)
  }

  @Test func songsOfOneNewIdentityInOneSnapshotAreNumberedRecordings() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(
        snapshot("2024-01-06", [(1, "Same", "X"), (2, "Same", "X"), (3, "Other", "Y")]))
      try batch.store(
        snapshot("2024-01-13", [(1, "Other", "Y"), (2, "Same", "X"), (3, "Same", "X")]))
      // Linked to nothing stored: a third recording.
      try batch.store(
        snapshot("2024-01-20", [(1, "Same", "X"), (2, "Same", "X"), (3, "Same", "X")]))
    }
    let recordings = try archive.database.rows(
      "SELECT identity, recording FROM songs ORDER BY id", [],
      { "\($0.string(at: 0)) \($0.int(at: 1))" })
    #expect(
      recordings == [
        "song:same\u{1F}x 1", "song:same\u{1F}x 2", "song:other\u{1F}y 1", "song:same\u{1F}x 3",
      ])
  }

  @Test func aSnapshotWithVerdictsIsReplaced() throws {
    // Weeks on chart 5 in the archive's first week: a verdict (a source gap) on that figure.
    let archive = try Archive(path: ":memory:", access: .create)
    let chartDate = try ChartDate(iso8601: "2024-01-06")
    func week(_ title: String) -> Snapshot {
      Snapshot(
        chart: "c", chartDate: chartDate, publishesPreviousRank: false,
        entries: [ChartEntry(rank: 1, title: title, artist: "A", publishedWeeksOnChart: 5)])
    }
    try archive.importing { try $0.store(week("T")) }
    #expect(try archive.database.row("SELECT count(*) FROM verdicts", [], { $0.int(at: 0) }) == 1)
    let outcome = try archive.importing { try $0.store(week("T2"), replacing: true) }
    #expect(outcome == .replaced)
    #expect(
      try archive.database.rows(
        "SELECT e.title, v.figure FROM entries e JOIN verdicts v"
          + " USING (snapshot_id, position)", [], { "\($0.string(at: 0)) \($0.int(at: 1))" })
        == ["T2 2"])
  }

  @Test func aSongIDTakenAgainInAnUndoneFileIsSearchableOnce() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing {
      try $0.store(snapshot("2024-01-06", [(1, "Keeper", "K"), (2, "Zeta", "Z")]))
    }
    try archive.importing { batch in
      try batch.inSavepoint {
        try batch.store(snapshot("2024-02-03", [(1, "Keeper", "K")]), replacing: true)
      }
      #expect(throws: ArchiveError.self) {
        try batch.inSavepoint {
          // Zeta (song 2) goes with the week it was on; Omega takes its ID; then a conflict
          // undoes the file, Zeta with its row in the full-text index included.
          try batch.store(snapshot("2024-01-06", [(1, "Keeper", "K")]), replacing: true)
          try batch.store(snapshot("2024-01-13", [(1, "Keeper", "K"), (2, "Omega", "O")]))
          try batch.store(snapshot("2024-02-03", [(1, "Omega", "O")]), replacing: true)
        }
      }
    }
    #expect(
      try archive.database.rows(
        "SELECT song_id, title FROM song_search ORDER BY song_id", [],
        { "\($0.int(at: 0)) \($0.string(at: 1))" }) == ["1 Keeper", "2 Zeta"])
  }

  @Test func sqlitesOwnChecksAreBackOnAfterAWrite() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { try $0.store(snapshot("2024-01-06", [(1, "A", "X")])) }
    #expect(throws: DatabaseError.self) {
      try archive.database.run("UPDATE entries SET rank = 0")
    }
    #expect(try archive.database.row("SELECT rank FROM entries", [], { $0.int(at: 0) }) == 1)
  }

  @Test func anEntryThatBreaksAConstraintInASavepointUndoesOnlyItsFile() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let failing = try snapshotFailingMidStatement("2024-01-13")
    var failure: (any Error)?
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X")]))
      do {
        try batch.inSavepoint { try batch.store(failing) }
      } catch {
        failure = error
      }
      // The transaction is still open: the batch goes on and commits.
      try batch.inSavepoint { try batch.store(snapshot("2024-01-20", [(1, "B", "Y")])) }
    }
    #expect(Self.isFailedCheck(failure))
    #expect(
      try archive.snapshots(of: "c").map(\.chartDate.iso8601) == ["2024-01-06", "2024-01-20"])
    #expect(try archive.database.row("SELECT count(*) FROM entries", [], { $0.int(at: 0) }) == 2)
    #expect(try archive.database.row("SELECT count(*) FROM songs", [], { $0.int(at: 0) }) == 2)
  }

  @Test func aBatchRetiresAChartsPreviousSnapshotWhenItStoresTheNext() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    var retired: [SongLinking.PreviousSnapshot] = []
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y")]))
      try batch.store(snapshot("2024-01-06", [(1, "C", "Z")], chart: "other"))
      #expect(batch.takeRetiredSnapshots().linked.isEmpty)
      try batch.store(snapshot("2024-01-13", [(1, "B", "Y"), (2, "D", "W")]))
      retired = batch.takeRetiredSnapshots().linked
      #expect(batch.takeRetiredSnapshots().isEmpty)
    }
    // Chart c's first week, once its second is stored; the other chart's only week stays.
    #expect(retired.count == 1)
    #expect(retired.first?.ranks == [1, 2])
    #expect(retired.first?.songs.map(\.rawValue) == [1, 2])
    #expect(retired.first?.keys.map(\.foldedTitle) == ["a", "b"])
  }

  @Test func songIdentityFoldsTitleAndArtistButKeepsBothEntriesOfOneSnapshot() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "Blinding Lights", "The Weeknd")]))
      try batch.store(
        snapshot(
          "2024-01-13",
          [
            (1, "blinding  lights", "THE WEEKND"), (2, "Unchained Melody", "X"),
            (3, "Unchained Melody", "X"),
          ]))
    }
    let week = try archive.snapshot(of: "c", at: nil)
    let entries = try archive.entries(of: week.id)
    #expect(entries.count == 3)
    // Two entries of one snapshot are never one song: two recordings.
    #expect(entries[1].song != entries[2].song)
    let before = try #require(try archive.snapshot(before: week))
    let previous = try archive.entries(of: before.id)
    #expect(previous[0].song == entries[0].song)
    // Entries keep the text as published.
    #expect(entries[0].entry.title == "blinding  lights")
  }

  @Test func aSnapshotImportedOutOfOrderRelinksTheLaterOnes() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    // Weeks 1 and 3 first: "Hit" by "Ann, Bo" in week 3 is a new song (its previous rank, 2,
    // is not on week 1).
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "Hit", "Ann")], previousRanks: [nil]))
      try batch.store(snapshot("2024-01-20", [(1, "Hit", "Ann, Bo")], previousRanks: [2]))
    }
    let third = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-20"))
    let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
    #expect(try archive.entries(of: third.id)[0].song != archive.entries(of: first.id)[0].song)
    #expect(try archive.songs(matching: "hit").count == 2)
    // Week 2 arrives: its previous rank joins week 1's song, and week 3 then joins it too.
    try archive.importing { batch in
      try batch.store(
        snapshot(
          "2024-01-13", [(1, "Other", "Z"), (2, "Hit", "Ann & Bo")], previousRanks: [nil, 1]))
    }
    let song = try archive.entries(of: first.id)[0].song
    #expect(try archive.entries(of: third.id)[0].song == song)
    #expect(try archive.songs(matching: "hit").map(\.entryCount) == [3])
    #expect(
      try archive.history(of: song)[0].history.creditChanges.map(\.to) == ["Ann & Bo", "Ann, Bo"])
  }

  /// A snapshot of chart "c" that publishes previous ranks.
  private func week(_ date: String, _ entries: [ChartEntry]) throws -> Snapshot {
    Snapshot(
      chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
      entries: entries)
  }

  /// New archives holding `snapshots`, stored in their order in one write (`separately` false)
  /// and in one write each.
  private func stored(_ snapshots: [Snapshot], frequency: ChartFrequency? = nil) throws -> [(
    separately: Bool, archive: Archive
  )] {
    try [false, true].map { separately in
      let archive = try Archive(path: ":memory:", access: .create)
      if separately {
        for snapshot in snapshots {
          try archive.importing { try $0.store(snapshot, frequency: frequency) }
        }
      } else {
        try archive.importing { batch in
          for snapshot in snapshots { try batch.store(snapshot, frequency: frequency) }
        }
      }
      return (separately, archive)
    }
  }

  /// A week stored in a write of its own reads the week before it from the archive, taking the
  /// keys of its entries from the entries spelled alike in the new week (the same title, artist
  /// and song URL): it links them as a write holding both weeks does.
  @Test func aWeekStoredAloneLinksAsBesideTheWeekBefore() throws {
    // A chart without previous ranks: linking matches each entry to the week before by its keys.
    func week(_ date: String, _ entries: [ChartEntry]) throws -> Snapshot {
      Snapshot(
        chart: "d", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: false,
        entries: entries)
    }
    let first = try week(
      "2024-01-06",
      [
        ChartEntry(rank: 1, title: "One", artist: "A"),
        ChartEntry(rank: 2, title: "Two", artist: "B"),
        ChartEntry(rank: 3, title: "Song", artist: "A", songURL: "https://x.test/1"),
      ])
    let second = try week(
      "2024-01-13",
      [
        ChartEntry(rank: 1, title: "Two", artist: "B"),
        ChartEntry(rank: 2, title: "One", artist: "A"),
        ChartEntry(rank: 3, title: "Song", artist: "A", songURL: "https://x.test/1"),
        ChartEntry(rank: 4, title: "Song", artist: "A", songURL: "https://x.test/2"),
      ])
    for (separately, archive) in try stored([first, second]) {
      let latest = try archive.snapshot(of: "d", at: ChartDate(iso8601: "2024-01-13"))
      #expect(
        try archive.entries(of: latest.id).map(\.song.rawValue) == [2, 1, 3, 4],
        "separately: \(separately)")
    }
  }

  @Test func anEarlierWeekImportedAfterTheLaterOneKeepsTheLaterOnesSongs() throws {
    // "Debut" enters in the earlier week (weeks on chart 1); "Late" enters in the later week only.
    // The later week stored first made both songs; the earlier week, linked after it, took
    // neither (a first week took no song this chart had, even one only after it), so that
    // linking the later week again replaced both with new recordings: new IDs, and recording 2
    // with no first.
    let earlier = try week(
      "2024-01-06",
      [ChartEntry(rank: 1, title: "Debut", artist: "X", publishedWeeksOnChart: 1)])
    let later = try week(
      "2024-01-13",
      [
        ChartEntry(
          rank: 1, title: "Debut", artist: "X", publishedPreviousRank: 1, publishedWeeksOnChart: 2),
        ChartEntry(rank: 2, title: "Late", artist: "Y", publishedWeeksOnChart: 1),
      ])
    for (separately, archive) in try stored([later, earlier]) {
      let songs = try archive.database.rows(
        "SELECT id, recording, title FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
      #expect(songs == ["1 1 Debut", "2 1 Late"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.entries(of: second.id).map(\.song.rawValue) == [1, 2])
      #expect(
        try archive.placements(of: second).map(\.figures.weeksOnChart) == [2, 1])
    }
  }

  @Test func anEarlierWeekUnderAnotherCreditKeepsTheSongOfTheLaterWeek() throws {
    // "Tune" by Nat "King" Cole, last week 1, continues "Tune" by Nat King Cole of the week before,
    // its debut. The later week stored first made song 1; the earlier week, stored after it, made
    // a song of its own (a debut continues no song the chart had before it), which the later week
    // then joined by its previous rank: song 1 deleted, the song known by ID 2.
    func week(_ date: String, _ entry: ChartEntry) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: [entry])
    }
    let earlier = try week(
      "2024-01-06",
      ChartEntry(rank: 1, title: "Tune", artist: "Nat King Cole", publishedWeeksOnChart: 1))
    let later = try week(
      "2024-01-13",
      ChartEntry(
        rank: 1, title: "Tune", artist: "Nat \"King\" Cole", publishedPreviousRank: 1,
        publishedWeeksOnChart: 2))
    for (separately, archive) in try stored([later, earlier]) {
      let songs = try archive.database.rows(
        "SELECT id, recording, artist FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
      #expect(songs == ["1 1 Nat \"King\" Cole"], "separately: \(separately)")
      let credits = try archive.database.rows(
        "SELECT song_id, artist FROM song_credits", [], { "\($0.int64(at: 0)) \($0.string(at: 1))" }
      )
      #expect(credits == ["1 Nat King Cole"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-06"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2])
    }
  }

  @Test func aReplacedWeekWithACreditChangedKeepsTheSongOfTheNextWeek() throws {
    // The earlier of two weeks replaced with its entry's credit written another way: the entry
    // made a new song, which the next week joined by its previous rank, song 1 deleted.
    func week(_ date: String, _ entry: ChartEntry) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: [entry])
    }
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(
        week(
          "2024-01-06",
          ChartEntry(rank: 1, title: "Tune", artist: "Ann & Bo", publishedWeeksOnChart: 1)))
      try batch.store(
        week(
          "2024-01-13",
          ChartEntry(
            rank: 1, title: "Tune", artist: "Ann & Bo", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2)))
    }
    let outcome = try archive.importing { batch in
      try batch.store(
        week(
          "2024-01-06",
          ChartEntry(rank: 1, title: "Tune", artist: "Ann And Bo", publishedWeeksOnChart: 1)),
        replacing: true)
    }
    #expect(outcome == .replaced)
    let songs = try archive.database.rows(
      "SELECT id, artist FROM songs ORDER BY id", [], { "\($0.int64(at: 0)) \($0.string(at: 1))" })
    #expect(songs == ["1 Ann & Bo"])
    let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2024-01-13"))
    #expect(try archive.placements(of: second).map(\.song.rawValue) == [1])
    #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2])
  }

  @Test func aRepeatedWeekOrAMissingOneShiftsNoRanksOfTheWeekBefore() throws {
    // The next snapshot's previous ranks were read as saying this week's ranks were shifted: from
    // a copy of this week saved under the next date (its previous ranks are this week's own), or
    // from the week after a missing one (theirs are the missing week's). The week's peaks were
    // then worse than its ranks: Filler Song at 1 with peak 2.
    func week(_ date: String, _ songs: [(String, Int?, Int)]) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: songs.enumerated().map { index, song in
          ChartEntry(
            rank: index + 1, title: song.0, artist: "X", publishedPreviousRank: song.1,
            publishedWeeksOnChart: song.2)
        })
    }
    let first = try week("2020-01-04", [("Amber", nil, 1), ("Filler", nil, 1), ("Kite", nil, 1)])
    let second = [("Filler", 2, 2), ("Kite", 3, 2), ("Amber", 1, 2)]
    let repeated = try Archive(path: ":memory:", access: .create)
    try repeated.importing { batch in
      for snapshot in [first, try week("2020-01-11", second), try week("2020-01-18", second)] {
        try batch.store(snapshot, frequency: .weekly)
      }
    }
    let middle = try repeated.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-11"))
    #expect(try repeated.placements(of: middle).map(\.figures.peakPosition) == [1, 2, 1])
    let missing = try Archive(path: ":memory:", access: .create)
    try missing.importing { batch in
      try batch.store(first, frequency: .weekly)
      try batch.store(
        week("2020-01-18", [("Filler", 3, 3), ("Amber", 2, 3), ("Kite", 1, 3)]),
        frequency: .weekly)
    }
    let before = try missing.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
    #expect(try missing.placements(of: before).map(\.figures.peakPosition) == [1, 2, 3])
  }

  /// A week stored in a write of its own decides the week before it again only when it tells more
  /// about it (ranks it says were shifted, a peak that disagrees), as a write of several weeks
  /// does: stored one write per week or all in one, every week has the same figures.
  @Test func weeksStoredOneWriteEachHaveTheFiguresOfOneWrite() throws {
    func week(_ date: String, _ songs: [(String, Int?, Int, Int?)]) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: date), publishesPreviousRank: true,
        entries: songs.enumerated().map { index, song in
          ChartEntry(
            rank: index + 1, title: song.0, artist: "X", publishedPreviousRank: song.1,
            publishedPeakPosition: song.3, publishedWeeksOnChart: song.2)
        })
    }
    let weeks = [
      try week("2020-01-04", [("Amber", nil, 1, 1), ("Filler", nil, 1, 2), ("Kite", nil, 1, 3)]),
      // Filler's peak of 1 disagrees with the archive's (2), until the next week.
      try week("2020-01-11", [("Filler", 2, 2, 1), ("Kite", 3, 2, 2), ("Amber", 1, 2, 1)]),
      // A copy of the week before under the next date.
      try week("2020-01-18", [("Filler", 2, 2, 1), ("Kite", 3, 2, 2), ("Amber", 1, 2, 1)]),
      // After a missing week.
      try week("2020-02-01", [("Kite", 3, 4, 1), ("Amber", 2, 4, 1), ("Filler", 1, 4, 1)]),
      try week("2020-02-08", [("Amber", 2, 5, 1), ("Kite", 1, 5, 1), ("New", nil, 1, 3)]),
      // Says the week before's ranks were each one lower than it printed them.
      try week("2020-02-15", [("Kite", 3, 6, 1), ("New", 4, 2, 2), ("Amber", 2, 6, 1)]),
    ]
    var figures: [[[EntryFigures]]] = []
    for (_, archive) in try stored(weeks, frequency: .weekly) {
      figures.append(
        try weeks.map { snapshot in
          try archive.placements(of: archive.snapshot(of: "c", at: snapshot.chartDate))
            .map(\.figures)
        })
    }
    #expect(figures[0] == figures[1])
    #expect(
      figures[1].map { $0.map(\.peakPosition) } == [
        [1, 2, 3], [1, 2, 1], [1, 2, 1], [1, 1, 1], [1, 1, 3], [1, 2, 1],
      ])
    // New's debut, decided again once the last week said the ranks before it were each one lower:
    // at 4 in truth, it disagrees with the peak of 3 it published, and its run is partial.
    let debut = figures[1][4][2]
    #expect(debut.peakPositionVerdict == FigureVerdict(derived: 4, cause: .sourceGap))
    #expect(debut.isPartialRun)
    // The last week's previous ranks then agree with the true ranks of the week before.
    #expect(figures[1][5].map(\.previousRankVerdict) == [nil, nil, nil])
  }

  @Test func aReentryUnderACreditTakenWithinTheRunJoinsIt() throws {
    // "Otto Brandt" becomes "Otto Brand" within the run (joined by the previous rank), and the
    // song re-enters as "Otto Brand". In date order the re-entry found no song by its identity
    // (the song's is its first credit's) nor by its lead artist ("ottobrandt"): a new song, run 1
    // and partial. Stored newest first, the song was made with the later credit and the run
    // joined: the split depended on the import order.
    let weeks = [
      try week(
        "2020-01-04",
        [ChartEntry(rank: 1, title: "Glass River", artist: "Otto Brandt", publishedWeeksOnChart: 1)]
      ),
      try week(
        "2020-01-11",
        [
          ChartEntry(
            rank: 1, title: "Glass River", artist: "Otto Brand", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2)
        ]),
      try week(
        "2020-01-18",
        [ChartEntry(rank: 1, title: "Filler", artist: "Z", publishedWeeksOnChart: 1)]),
      try week(
        "2020-01-25",
        [
          ChartEntry(rank: 1, title: "Glass River", artist: "Otto Brand", publishedWeeksOnChart: 3),
          ChartEntry(
            rank: 2, title: "Filler", artist: "Z", publishedPreviousRank: 1,
            publishedWeeksOnChart: 2),
        ]),
    ]
    for order in [[0, 1, 2, 3], [3, 2, 1, 0]] {
      let archive = try Archive(path: ":memory:", access: .create)
      for index in order { try archive.importing { try $0.store(weeks[index]) } }
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let last = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-25"))
      let reentry = try archive.placements(of: last)[0]
      #expect(reentry.song == (try archive.entries(of: first.id)[0].song), "\(order)")
      #expect(reentry.figures.movement == .reentry, "\(order)")
      #expect(reentry.figures.run == 2, "\(order)")
      #expect(reentry.figures.weeksOnChart == 3, "\(order)")
      #expect(!reentry.figures.isPartialRun, "\(order)")
      #expect(try archive.songs(matching: "glass river").count == 1, "\(order)")
    }
  }

  @Test func anEarlierWeekKeepsTheIDsOfTwoRecordingsTheLaterWeekMade() throws {
    // An original in its second week at 1 and a remake with its title and artist debuting at 2.
    // The later week stored first made song 1 (the original) and song 2 (the remake); the
    // earlier week's debut of the original, stored after it, took the latest recording of the
    // two, so that song 1 then named the remake and song 2 the original.
    let earlier = try week(
      "2020-01-04",
      [ChartEntry(rank: 1, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1)])
    let later = try week(
      "2020-01-11",
      [
        ChartEntry(
          rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
          publishedWeeksOnChart: 2),
        ChartEntry(rank: 2, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1),
      ])
    for (separately, archive) in try stored([later, earlier]) {
      let songs = try archive.database.rows(
        "SELECT id, recording FROM songs ORDER BY id", [],
        { "\($0.int64(at: 0)) \($0.int(at: 1))" })
      #expect(songs == ["1 1", "2 2"], "separately: \(separately)")
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let second = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-11"))
      #expect(try archive.entries(of: first.id).map(\.song.rawValue) == [1])
      #expect(try archive.placements(of: second).map(\.song.rawValue) == [1, 2])
      #expect(try archive.placements(of: second).map(\.figures.weeksOnChart) == [2, 1])
    }
  }

  @Test func twoRecordingsOnTheChartsFirstSnapshotEachSayWhatTheArchiveLacks() throws {
    // The original in its second week (last week 1) beside a remake debuting, on the first
    // snapshot the archive holds of the chart: the original's weeks on chart were the archive's
    // (1, then 2) as if the two recordings explained the source's 2, not the source's 2 and 3.
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { batch in
      try batch.store(
        week(
          "2020-01-11",
          [
            ChartEntry(
              rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
              publishedWeeksOnChart: 2),
            ChartEntry(rank: 2, title: "Tide", artist: "Corvins", publishedWeeksOnChart: 1),
          ]))
      try batch.store(
        week(
          "2020-01-18",
          [
            ChartEntry(
              rank: 1, title: "Tide", artist: "Corvins", publishedPreviousRank: 1,
              publishedWeeksOnChart: 3),
            ChartEntry(
              rank: 2, title: "Tide", artist: "Corvins", publishedPreviousRank: 2,
              publishedWeeksOnChart: 2),
          ]))
    }
    for (date, weeks) in [("2020-01-11", [2, 1]), ("2020-01-18", [3, 2])] {
      let placements = try archive.placements(
        of: archive.snapshot(of: "c", at: ChartDate(iso8601: date)))
      #expect(placements.map(\.figures.weeksOnChart) == weeks, "\(date)")
      #expect(placements.map(\.figures.isPartialRun) == [true, false], "\(date)")
    }
  }

  @Test func aReentryUnderAnotherCreditJoinsItsSongWhateverTheImportOrder() throws {
    // "Song" by A back after a week away (weeks on chart 2, no previous rank) is the re-entry of
    // "Song (Remix)" by A Featuring B. Stored first, it made a song of its own, and linked again
    // after the earlier weeks it found that song by its identity before looking for the run it
    // re-enters: run 1 of its own, partial, instead of run 2.
    let weeks = [
      try week(
        "2020-01-04",
        [
          ChartEntry(
            rank: 1, title: "Song (Remix)", artist: "A Featuring B", publishedWeeksOnChart: 1),
          ChartEntry(rank: 2, title: "F", artist: "Z", publishedWeeksOnChart: 1),
        ]),
      try week(
        "2020-01-11",
        [
          ChartEntry(
            rank: 1, title: "F", artist: "Z", publishedPreviousRank: 2, publishedWeeksOnChart: 2)
        ]
      ),
      try week(
        "2020-01-18",
        [
          ChartEntry(rank: 1, title: "Song", artist: "A", publishedWeeksOnChart: 2),
          ChartEntry(
            rank: 2, title: "F", artist: "Z", publishedPreviousRank: 1, publishedWeeksOnChart: 3),
        ]),
    ]
    for order in [[0, 1, 2], [2, 0, 1], [2, 1, 0]] {
      let archive = try Archive(path: ":memory:", access: .create)
      for index in order { try archive.importing { try $0.store(weeks[index]) } }
      let first = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-04"))
      let last = try archive.snapshot(of: "c", at: ChartDate(iso8601: "2020-01-18"))
      let reentry = try archive.placements(of: last)[0]
      #expect(reentry.song == (try archive.entries(of: first.id)[0].song), "\(order)")
      #expect(reentry.figures.run == 2, "\(order)")
      #expect(reentry.figures.movement == .reentry, "\(order)")
      #expect(!reentry.figures.isPartialRun, "\(order)")
    }
  }

  @Test func aReplacedSnapshotsDebutKeepsItsSong() throws {
    // The chart's latest week replaced, another entry's title corrected: the debut took a new
    // song (ID 3, recording 2) and its song 2 was deleted.
    func week(_ title: String) throws -> Snapshot {
      Snapshot(
        chart: "c", chartDate: try ChartDate(iso8601: "2024-01-06"), publishesPreviousRank: true,
        entries: [
          ChartEntry(rank: 1, title: title, artist: "X", publishedWeeksOnChart: 3),
          ChartEntry(rank: 2, title: "Debut", artist: "Y", publishedWeeksOnChart: 1),
        ])
    }
    let archive = try Archive(path: ":memory:", access: .create)
    try archive.importing { try $0.store(week("Typo")) }
    #expect(try archive.importing { try $0.store(week("Title"), replacing: true) } == .replaced)
    let songs = try archive.database.rows(
      "SELECT id, recording, title FROM songs ORDER BY id", [],
      { "\($0.int64(at: 0)) \($0.int(at: 1)) \($0.string(at: 2))" })
    #expect(songs == ["2 1 Debut", "3 1 Title"])
  }

  @Test func aBatchOfEarlierSnapshotsRelinksTheLaterOnesOnceAsSeparateBatchesWould() throws {
    let later = [
      try snapshot(
        "2024-01-27", [(1, "Hit", "Ann, Bo"), (2, "Tune", "Cy")], previousRanks: [2, 1]),
      try snapshot(
        "2024-02-03", [(1, "Hit", "Ann, Bo"), (2, "Tune", "Cy")], previousRanks: [1, 2]),
      try snapshot(
        "2024-02-10", [(1, "Tune", "Cy"), (2, "Hit", "Ann, Bo")], previousRanks: [2, 1]),
    ]
    let earlier = [
      try snapshot("2024-01-06", [(1, "Hit", "Ann")], previousRanks: [nil]),
      try snapshot("2024-01-13", [(1, "Tune", "Cy"), (2, "Hit", "Ann")], previousRanks: [nil, 1]),
      try snapshot(
        "2024-01-20", [(1, "Tune", "Cy"), (2, "Hit", "Ann & Bo")], previousRanks: [1, 2]),
    ]
    // Each entry's song, numbered by first appearance in chart-date order.
    func songsByDate(_ archive: Archive) throws -> [[Int]] {
      var numbers: [SongID: Int] = [:]
      return try archive.snapshots(of: "c").map { summary in
        try archive.entries(of: summary.id).map { entry in
          if numbers[entry.song] == nil { numbers[entry.song] = numbers.count }
          return numbers[entry.song]!
        }
      }
    }
    let together = try Archive(path: ":memory:", access: .create)
    try together.importing { batch in for snapshot in later { try batch.store(snapshot) } }
    let batch = try together.importing { batch in
      for snapshot in earlier { try batch.store(snapshot) }
      return batch
    }
    // The three later snapshots once each, at the end: not three times each.
    #expect(batch.relinkedSnapshotCount == 3)
    let apart = try Archive(path: ":memory:", access: .create)
    try apart.importing { batch in for snapshot in later { try batch.store(snapshot) } }
    for snapshot in earlier { try apart.importing { try $0.store(snapshot) } }
    // "Hit" is one song through its credit changes, and so is "Tune".
    #expect(try songsByDate(together) == [[0], [1, 0], [1, 0], [0, 1], [0, 1], [1, 0]])
    #expect(try songsByDate(apart) == songsByDate(together))
    #expect(try together.songs(matching: "hit").map(\.entryCount) == [6])
    #expect(try together.check().allSatisfy(\.passed))
  }

}

struct TiedEntriesTests {
  @Test func anEntryThatFollowsTheSecondOfATieKeepsItsCreditAsItWas() throws {
    let file = TemporaryArchive()
    let archive = try Archive(path: file.path, access: .create)
    // Songs B and C tie at 2; the next week B and C name 2 as their previous rank.
    try archive.importing { batch in
      try batch.store(snapshot("2024-01-06", [(1, "A", "X"), (2, "B", "Y"), (2, "C", "Z")]))
      try batch.store(
        snapshot(
          "2024-01-13", [(1, "C", "Z"), (2, "B", "Y"), (3, "A", "X")], previousRanks: [2, 2, 1]))
    }
    // Each is its own song, under the credit it had: no credit change is recorded for C (the
    // second entry of the tie), which was compared with B's credit before.
    #expect(
      try archive.database.rows("SELECT song_id, title FROM song_credits") { $0.string(at: 1) }
        == [])
    let placements = try archive.read { reader in
      try reader.placements(of: try reader.snapshot(of: "c", at: nil))
    }
    #expect(placements.map(\.movement) == [.up(1), .unchanged, .down(2)])
    #expect(Set(placements.map(\.song)).count == 3)
  }
}
