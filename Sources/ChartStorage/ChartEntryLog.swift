import ChartRanking

/// The snapshots and entries a write stored on a chart it created, in chart order, as the artist
/// totals count them (each entry's song, its rank up to 255, and the weeks on chart of those at
/// number 1): the chart's totals are then added up from them before the commit
/// (``ArchiveReader/artistScores(of:)``), not read back from the rows just written. Some
/// 5 bytes an entry.
///
/// A log follows its entries' songs linked again and their figures decided again, as the write
/// changes their rows; anything else ends it (``ArchiveWriter/endLog(ofChart:)``): a snapshot
/// inserted before the chart's latest, entries inserted into another than its latest, a
/// snapshot's entries deleted or its row rewritten. A savepoint rolled back ends them all. A write
/// logs nothing when a trigger of the user's is on the archive's tables: it could change rows
/// behind the writer's back.
struct ChartEntryLog {
  /// The snapshots' IDs and chart dates, in chart order.
  private(set) var snapshotIDs: [Int64] = []
  private(set) var chartDates: [ChartDate] = []
  /// Where each snapshot's entries start in ``songs`` and ``ranks``; one more for the end.
  private var starts: [Int] = [0]
  /// Each entry's song ID and rank (255 for any rank from 255 on: the totals ask only whether an
  /// entry is at number 1 or in the top 10).
  private(set) var songs: [Int32] = []
  private(set) var ranks: [UInt8] = []
  /// The weeks on chart of the entries at number 1, by their index in ``songs``.
  private(set) var weeksAtNumberOne: [Int: Int64] = [:]

  /// The index in ``snapshotIDs`` of each, by ID.
  private var snapshotIndexes: [Int64: Int] = [:]

  /// Adds a snapshot, which has no entries yet, when it comes after the latest.
  ///
  /// - Returns: `false`, adding nothing, when it does not: the log then ends.
  mutating func append(snapshot: Int64, chartDate: ChartDate) -> Bool {
    if let latest = chartDates.last, chartDate.secondsSince1970 <= latest.secondsSince1970 {
      return false
    }
    snapshotIDs.append(snapshot)
    snapshotIndexes[snapshot] = snapshotIDs.count - 1
    chartDates.append(chartDate)
    starts.append(songs.count)
    return true
  }

  /// The index in ``songs`` of a logged snapshot's entry at `position` (0-based), `nil` when the
  /// snapshot is not logged or has no entry there.
  private func index(ofEntryAt position: Int, in snapshot: Int64) -> Int? {
    guard let at = snapshotIndexes[snapshot], position >= 0,
      position < starts[at + 1] - starts[at]
    else { return nil }
    return starts[at] + position
  }

  /// Ties a logged entry to another song, as the write did its row.
  ///
  /// - Returns: `false` when the entry is not logged or the song's ID is beyond 32 bits: the log
  ///   then ends.
  mutating func setSong(_ song: SongID, ofEntryAt position: Int, in snapshot: Int64) -> Bool {
    guard let index = index(ofEntryAt: position, in: snapshot), song.rawValue >= 0,
      song.rawValue <= Int64(Int32.max)
    else { return false }
    songs[index] = Int32(song.rawValue)
    return true
  }

  /// Takes a logged entry's figures decided again, as the write did its row: its weeks on chart,
  /// when it is at number 1.
  ///
  /// - Returns: `false` when the entry is not logged: the log then ends.
  mutating func setFigures(_ figures: EntryFigures, ofEntryAt position: Int, in snapshot: Int64)
    -> Bool
  {
    guard let index = index(ofEntryAt: position, in: snapshot) else { return false }
    if ranks[index] == 1 { weeksAtNumberOne[index] = Int64(figures.weeksOnChart) }
    return true
  }

  /// Adds a snapshot's entries, in rank order, when it is the latest.
  ///
  /// - Returns: `false`, adding none, when the snapshot is not the latest or a song's ID is beyond
  ///   32 bits: the log then ends.
  mutating func append(
    _ entries: [ChartEntry], of snapshot: Int64, songs entrySongs: [SongID],
    figures: [EntryFigures]
  ) -> Bool {
    guard snapshot == snapshotIDs.last,
      entrySongs.allSatisfy({ $0.rawValue >= 0 && $0.rawValue <= Int64(Int32.max) })
    else { return false }
    for index in entries.indices {
      let rank = entries[index].rank
      if rank == 1 { weeksAtNumberOne[songs.count] = Int64(figures[index].weeksOnChart) }
      songs.append(Int32(entrySongs[index].rawValue))
      ranks.append(UInt8(clamping: rank))
    }
    starts[starts.count - 1] = songs.count
    return true
  }

  /// The indexes in ``songs`` and ``ranks`` of the entries of the snapshot at `index` (in
  /// ``snapshotIDs``).
  func entries(ofSnapshotAt index: Int) -> Range<Int> { starts[index]..<starts[index + 1] }
}
