/// A chart's decided snapshots in memory, answering what deciding the next one asks. A chart
/// decided in memory is decided from its snapshots alone: no decision of a person names its
/// entries.
final class InMemoryChartHistory: ChartHistoryLookup {
  let frequency: ChartFrequency?
  let handDecidedEntries: [HandDecidedEntry] = []
  private var standings: [SongID: SongStanding] = [:]
  private var flagged: [FlaggedSnapshot] = []
  private var sizes: [(chartDate: ChartDate, entryCount: Int)] = []
  private var largest = 0
  private var byIdentity: [SongIdentity: Set<SongID>] = [:]
  private var byTitle: [String: Set<SongID>] = [:]
  private var ranksOnMissing: [SongID: Set<Int>] = [:]

  init(frequency: ChartFrequency?) { self.frequency = frequency }

  /// Adds a decided snapshot, later than every one added before.
  func add(_ decided: DecidedSnapshot) {
    let snapshot = decided.snapshot
    for index in snapshot.entries.indices
    where standings[snapshot.songs[index]]?.chartDate != snapshot.chartDate {
      let entry = snapshot.entries[index]
      let song = snapshot.songs[index]
      standings[song] = SongStanding(
        chartDate: snapshot.chartDate, entry: entry, figures: decided.figures[index])
      byIdentity[entry.songIdentity, default: []].insert(song)
      byTitle[
        SongIdentity.baseTitle(entry.title) + "\u{1F}" + SongIdentity.primaryArtist(entry.artist),
        default: []
      ].insert(song)
      if decided.followsMissingSnapshot, let rank = entry.publishedPreviousRank {
        ranksOnMissing[song, default: []].insert(rank)
      }
    }
    largest = max(largest, snapshot.entries.count)
    flagged.append(
      FlaggedSnapshot(
        chartDate: snapshot.chartDate, followsMissingSnapshot: decided.followsMissingSnapshot,
        entryCount: snapshot.entries.count))
  }

  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding? {
    standings[song].flatMap { $0.chartDate < chartDate ? $0 : nil }
  }

  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  {
    flagged.filter { item in
      (start.map { item.chartDate >= $0 } ?? true) && item.chartDate < end
        && (item.followsMissingSnapshot || item.entryCount < chartSize)
    }
  }

  func largestSnapshot(before chartDate: ChartDate) -> Int { largest }

  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID> {
    byIdentity[identity] ?? []
  }

  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID> {
    byTitle[key] ?? []
  }

  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int> {
    ranksOnMissing[song] ?? []
  }

  func song(holding entry: HandDecidedEntry, before chartDate: ChartDate) -> SongID? { nil }
}
