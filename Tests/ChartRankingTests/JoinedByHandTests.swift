import Testing

@testable import ChartRanking

/// The cause "joined by hand" from the entries a chart's decisions name, found on the snapshots
/// in memory as in the archive.
struct JoinedByHandTests {
  /// A chart's history that holds nothing before the snapshots decided but the entries its
  /// decisions name.
  final class DecisionsOnly: ChartHistoryLookup {
    let handDecidedEntries: [HandDecidedEntry]
    let frequency: ChartFrequency? = .weekly
    init(_ entries: [HandDecidedEntry]) { handDecidedEntries = entries }
    func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding? { nil }
    func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
      -> [FlaggedSnapshot]
    { [] }
    func largestSnapshot(before chartDate: ChartDate) -> Int { 0 }
    func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID> {
      []
    }
    func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID> { [] }
    func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int> { [] }
    func song(holding entry: HandDecidedEntry, before chartDate: ChartDate) -> SongID? { nil }
  }

  /// The causes of the second week's "Drift" on its previous rank and weeks on chart. The first
  /// week's "Drift" is song 2, the first entry of the other song of a split (decision 1); the
  /// second week's is song 1, the song the split parted it from (as linking a later import may
  /// tie it), whose previous rank the source gives as 1, the other song's entry.
  private static func causes(_ lookup: DecisionsOnly) throws -> [DisagreementCause?] {
    let first = LinkedSnapshot(
      id: SnapshotID(1), chartDate: try ChartDate(iso8601: "2024-01-06"),
      publishesPreviousRank: true,
      entries: [
        ChartEntry(
          rank: 1, title: "Drift", artist: "Ana", publishedPeakPosition: 1,
          publishedWeeksOnChart: 1),
        ChartEntry(
          rank: 2, title: "Filler", artist: "Y", publishedPeakPosition: 2,
          publishedWeeksOnChart: 1),
      ], songs: [SongID(2), SongID(3)])
    let second = LinkedSnapshot(
      id: SnapshotID(2), chartDate: try ChartDate(iso8601: "2024-01-13"),
      publishesPreviousRank: true,
      entries: [
        ChartEntry(
          rank: 1, title: "Drift", artist: "Ana", publishedPreviousRank: 1,
          publishedPeakPosition: 1, publishedWeeksOnChart: 2),
        ChartEntry(
          rank: 2, title: "Filler", artist: "Y", publishedPreviousRank: 2,
          publishedPeakPosition: 2, publishedWeeksOnChart: 2),
      ], songs: [SongID(1), SongID(3)])
    let previous = ChartFigures.decide(first, previous: nil, next: second, lookup: lookup)
    let decided = ChartFigures.decide(second, previous: previous, next: nil, lookup: lookup)
    #expect(decided.figures[1].previousRankVerdict == nil)
    return [
      decided.figures[0].previousRankVerdict?.cause, decided.figures[0].weeksOnChartVerdict?.cause,
    ]
  }

  @Test func aPreviousRankNamingTheEntryASplitPartedIsJoinedByHand() throws {
    let split = HandDecidedEntry(
      decision: 1, kind: .split, group: 0, chartDate: try ChartDate(iso8601: "2024-01-06"),
      title: "Drift", artist: "Ana", songURL: nil)
    // The split names the previous snapshot's entry, found there. The weeks on chart, fewer than
    // the source's, are not the split's doing: song 1 holds no entry a decision names.
    #expect(try Self.causes(DecisionsOnly([split])) == [.joinedByHand, .twoRecordings])
    // Without the decision: two songs of one title and credit.
    #expect(try Self.causes(DecisionsOnly([])) == [.twoRecordings, .twoRecordings])
  }
}
