/// One snapshot of a chart with its entries linked to songs: what song linking gives and deciding
/// figures (and the audit) take. Its entries and, apart, their songs (so that the entries can be a
/// stored snapshot's own array, not copies).
public struct LinkedSnapshot: Sendable {
  /// The snapshot.
  public var id: SnapshotID
  /// Its chart date.
  public var chartDate: ChartDate
  /// Whether its source publishes previous ranks.
  public var publishesPreviousRank: Bool
  /// Its entries, in rank order.
  public var entries: [ChartEntry]
  /// Each entry's song, same order.
  public var songs: [SongID]

  /// A snapshot from its entries and their songs.
  ///
  /// - Precondition: one song per entry.
  public init(
    id: SnapshotID, chartDate: ChartDate, publishesPreviousRank: Bool, entries: [ChartEntry],
    songs: [SongID]
  ) {
    precondition(entries.count == songs.count, "one song per entry")
    self.id = id
    self.chartDate = chartDate
    self.publishesPreviousRank = publishesPreviousRank
    self.entries = entries
    self.songs = songs
  }

  /// A snapshot from its entries with their songs.
  public init(
    id: SnapshotID, chartDate: ChartDate, publishesPreviousRank: Bool, entries: [ArchivedEntry]
  ) {
    self.init(
      id: id, chartDate: chartDate, publishesPreviousRank: publishesPreviousRank,
      entries: entries.map(\.entry), songs: entries.map(\.song))
  }
}
