import ChartRanking
import ChartStorage

/// A chart's snapshots in the archive, answering what deciding a snapshot asks of the earlier ones
/// (see ``ChartHistoryLookup``), with what an import asks again and again remembered.
///
/// The lookup protocol does not throw, so a failed query answers as if the archive held nothing
/// and keeps its error in ``error``: whoever decides with this lookup throws it afterwards
/// (``checked()``), so that no figure decided from a failed query is stored.
final class StoredChartHistory: ChartHistoryLookup {
  let reader: ArchiveReader
  let chart: ChartID
  /// The first error a query met, if any.
  private(set) var error: ArchiveError?
  /// Where each song's last entry on the chart is, for the songs of the snapshots an import
  /// appended after the chart's latest one (see ``rememberAppended(_:songs:)``): a
  /// re-entry's standing is then read by its key, not searched among all the song's entries.
  /// At most ``lastEntriesLimit`` songs: when it is full, it starts again (older songs are then
  /// searched), so that an import of many charts keeps a few hundred kilobytes per chart.
  private var lastEntries = SongMap<(snapshot: SnapshotID, position: Int32)>()
  /// How many songs ``lastEntries`` holds at most.
  static let lastEntriesLimit = 4_096
  /// The largest snapshot before a chart time, remembered: an import asks for later and later
  /// times.
  private var largest: (before: Int64, count: Int)?
  /// The first snapshot that follows a missing one, found before a chart time (or none before
  /// it), remembered for the same reason.
  private var firstMissing: (before: Int64, found: FlaggedSnapshot?)?
  /// Songs that have no entry before the snapshot being decided: just created by linking.
  var newSongs = SongLinking.SongSet(capacity: 0)

  init(reader: ArchiveReader, chart: ChartID) {
    self.reader = reader
    self.chart = chart
  }

  /// The chart's frequency as stored, read once (`nil` when it has none, or the query failed:
  /// its error is kept in ``error``).
  lazy var frequency: ChartFrequency? = answer(nil) { () throws(ArchiveError) in
    try reader.frequency(ofChart: chart)
  }

  /// The answer of a query, or `fallback` when it fails (its error kept in ``error``).
  private func answer<Answer>(_ fallback: Answer, _ query: () throws(ArchiveError) -> Answer)
    -> Answer
  {
    do {
      return try query()
    } catch {
      self.error = self.error ?? error
      return fallback
    }
  }

  /// Throws the error a query met, if any, and forgets it.
  ///
  /// - Throws: ``ArchiveError``.
  func checked() throws(ArchiveError) {
    if let error {
      self.error = nil
      throw error
    }
  }

  /// Remembers where the entries of a snapshot just stored after the chart's latest one are:
  /// each one is its song's last entry on the chart. Call ``forgetAppended()`` when the chart's
  /// entries change any other way (a snapshot stored before the chart's latest, a replacement, a
  /// relinking, a rollback).
  func rememberAppended(_ snapshot: SnapshotID, songs: [SongID]) {
    if lastEntries.count + songs.count > Self.lastEntriesLimit { lastEntries.removeAll() }
    // In reverse, so that a song's first position wins.
    for position in songs.indices.reversed() {
      lastEntries[songs[position]] = (snapshot, Int32(position))
    }
  }

  /// Forgets where the last entries are (see ``rememberAppended(_:songs:)``).
  func forgetAppended() { lastEntries.removeAll() }

  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding? {
    if newSongs.contains(song) { return nil }
    return answer(nil) { () throws(ArchiveError) -> SongStanding? in
      // The entry: remembered (when it is before the date), or found in the index of entries by
      // song alone (it holds the snapshot and position).
      if let known = lastEntries[song],
        let standing = try reader.standing(
          ofEntryAt: Int(known.position), in: known.snapshot),
        standing.chartDate < chartDate
      {
        return standing
      }
      guard
        let (snapshot, position) = try reader.lastEntry(
          of: song, onChart: chart, before: chartDate.secondsSince1970)
      else { return nil }
      return try reader.standing(ofEntryAt: position, in: snapshot)
    }
  }

  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  {
    // The first one following a missing snapshot, asked for every song new to the chart.
    if start == nil, chartSize == 0 {
      let time = end.secondsSince1970
      if let firstMissing, let found = firstMissing.found {
        return found.chartDate.secondsSince1970 < time ? [found] : []
      }
      if let firstMissing, time <= firstMissing.before { return [] }
      let found = answer([]) { () throws(ArchiveError) in
        try reader.flaggedSnapshots(
          ofChart: chart, from: firstMissing?.before ?? .min, before: time, chartSize: 0)
      }.first
      firstMissing = (max(time, firstMissing?.before ?? .min), found)
      return found.map { [$0] } ?? []
    }
    return answer([]) { () throws(ArchiveError) in
      try reader.flaggedSnapshots(
        ofChart: chart, from: start?.secondsSince1970 ?? .min, before: end.secondsSince1970,
        chartSize: chartSize)
    }
  }

  func largestSnapshot(before chartDate: ChartDate) -> Int {
    let time = chartDate.secondsSince1970
    if let largest, largest.before <= time {
      // Only the snapshots since the last answer.
      let more: Int? = answer(nil) { () throws(ArchiveError) in
        try reader.largestEntryCount(ofChart: chart, from: largest.before, before: time)
      }
      self.largest = (time, max(largest.count, more ?? 0))
    } else {
      let count: Int? = answer(nil) { () throws(ArchiveError) in
        try reader.largestEntryCount(ofChart: chart, from: .min, before: time)
      }
      largest = (time, count ?? 0)
    }
    return largest?.count ?? 0
  }

  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID> {
    let candidates: [SongID]
    if let credit = identity.foldedCredit {
      candidates = answer([]) { () throws(ArchiveError) in try reader.songs(withCredit: credit) }
    } else if identity.isSongURL {
      candidates = answer([]) { () throws(ArchiveError) in
        try reader.songs(withIdentity: identity.key)
      }
    } else {
      return []
    }
    return onChart(candidates, before: chartDate)
  }

  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID> {
    let parts = key.split(separator: "\u{1F}", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2 else { return [] }
    let candidates = answer([]) { () throws(ArchiveError) in
      try reader.songs(withBaseTitle: String(parts[0]), primaryArtist: String(parts[1]))
    }
    return onChart(candidates, before: chartDate)
  }

  /// Those of `songs` with an entry on the chart before a chart date.
  private func onChart(_ songs: [SongID], before chartDate: ChartDate) -> Set<SongID> {
    var found: Set<SongID> = []
    for song in songs {
      let charted = answer(false) { () throws(ArchiveError) in
        try reader.hasEntry(of: song, onChart: chart, before: chartDate.secondsSince1970)
      }
      if charted { found.insert(song) }
    }
    return found
  }

  /// Read once, when a disagreement's cause is first looked for: a chart without decisions costs
  /// one query per import, and nothing per entry.
  lazy var handDecidedEntries: [HandDecidedEntry] = answer([]) { () throws(ArchiveError) in
    try reader.handDecidedEntries(ofChart: chart)
  }

  func song(holding entry: HandDecidedEntry, before chartDate: ChartDate) -> SongID? {
    guard entry.chartDate < chartDate else { return nil }
    return answer(nil) { () throws(ArchiveError) in
      try reader.song(holding: entry, onChart: chart)
    }
  }

  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int> {
    Set(
      answer([]) { () throws(ArchiveError) in
        try reader.ranksOnMissingSnapshots(
          of: song, onChart: chart, before: chartDate.secondsSince1970)
      })
  }
}
