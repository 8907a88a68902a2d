/// A song's figures at its last entry on a chart before a snapshot: what deciding its next entry
/// continues from.
public struct SongStanding: Hashable, Sendable {
  /// The chart date of that entry.
  public var chartDate: ChartDate
  /// The peak position the source published with that entry, 1-based, if any.
  public var publishedPeakPosition: Int?
  /// The weeks on chart the source published with that entry, if any.
  public var publishedWeeksOnChart: Int?
  /// The run number the source published with that entry, if any.
  public var publishedRun: Int?
  /// The entry's title and artist, as published: its credit, by which a source that numbers runs
  /// numbers them.
  public var title: String
  public var artist: String
  /// Its figures.
  public var figures: EntryFigures

  /// A standing: the entry's chart date, what the source published of it, and its figures.
  public init(chartDate: ChartDate, entry: ChartEntry, figures: EntryFigures) {
    self.chartDate = chartDate
    publishedPeakPosition = entry.publishedPeakPosition
    publishedWeeksOnChart = entry.publishedWeeksOnChart
    publishedRun = entry.publishedRun
    title = entry.title
    artist = entry.artist
    self.figures = figures
  }
}

/// A chart's earlier snapshot that the source lacks something of: the source's previous chart is
/// missing from the archive, or the snapshot holds fewer entries than the chart's size.
public struct FlaggedSnapshot: Hashable, Sendable {
  /// Its chart date.
  public var chartDate: ChartDate
  /// Whether the source's previous chart is missing from the archive.
  public var followsMissingSnapshot: Bool
  /// How many entries it holds.
  public var entryCount: Int

  /// A flagged snapshot.
  public init(chartDate: ChartDate, followsMissingSnapshot: Bool, entryCount: Int) {
    self.chartDate = chartDate
    self.followsMissingSnapshot = followsMissingSnapshot
    self.entryCount = entryCount
  }
}

/// An entry of a chart that a person's merge or split names (docs/rules.md, "Corrections"): by
/// its chart date, title, credit and song URL as published, as the decision names it, so that it
/// is found again on a snapshot in memory as in the archive.
public struct HandDecidedEntry: Hashable, Sendable {
  /// What the decision decided of the entry's song.
  public enum Kind: Hashable, Sendable {
    /// The songs whose first entries on the chart the merge names are one song.
    case merge
    /// The song holding the entry is, on the chart from its chart date on, another song than the
    /// one holding the entries before.
    case split
  }

  /// The decision's number.
  public var decision: Int
  public var kind: Kind
  /// For a merge, which of its songs the entry is the first of on the chart (0-based, the song
  /// kept first); 0 for a split.
  public var group: Int
  /// The entry's snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry's title, credit and song URL as published.
  public var title: String
  public var artist: String
  public var songURL: String?

  /// An entry a decision names.
  public init(
    decision: Int, kind: Kind, group: Int, chartDate: ChartDate, title: String, artist: String,
    songURL: String?
  ) {
    self.decision = decision
    self.kind = kind
    self.group = group
    self.chartDate = chartDate
    self.title = title
    self.artist = artist
    self.songURL = songURL
  }

  /// Whether it is this entry of a snapshot of its chart date.
  public func names(_ entry: ChartEntry) -> Bool {
    entry.title == title && entry.artist == artist && entry.songURL == songURL
  }
}

/// What deciding a snapshot's figures asks of the chart's earlier snapshots (the archive, or a
/// list in memory). Every question is about the snapshots before a chart date, which
/// ``ChartFigures/decide(_:previous:next:lookup:)`` gives as its previous snapshot's (that one
/// and the snapshot decided are known to it already), so that the answers do not depend on the
/// order snapshots were imported in, nor on later ones.
public protocol ChartHistoryLookup {
  /// The song's last entry on the chart before `chartDate`, or `nil` when it has none.
  func standing(of song: SongID, before chartDate: ChartDate) -> SongStanding?
  /// The chart's snapshots from `start` (the first ever when `nil`) and before `end`, those that
  /// follow a missing snapshot or hold fewer than `chartSize` entries, in chart-date order.
  func flaggedSnapshots(from start: ChartDate?, before end: ChartDate, chartSize: Int)
    -> [FlaggedSnapshot]
  /// The most entries a snapshot of the chart before `chartDate` holds (0 for none).
  func largestSnapshot(before chartDate: ChartDate) -> Int
  /// The chart's songs with an entry before `chartDate` whose entries have this identity.
  func songs(withIdentity identity: SongIdentity, before chartDate: ChartDate) -> Set<SongID>
  /// The chart's songs with an entry before `chartDate` of this base title and lead artist (see
  /// ``SongIdentity/baseTitle(_:)`` and ``SongIdentity/primaryArtist(_:)``).
  func songs(withTitleKey key: String, before chartDate: ChartDate) -> Set<SongID>
  /// The ranks the song had on charts missing from the archive before `chartDate`: its
  /// published previous ranks on the snapshots that follow one.
  func ranksOnMissingSnapshots(of song: SongID, before chartDate: ChartDate) -> Set<Int>
  /// The chart's entries that a person's merges and splits name, in the order the decisions were
  /// made: empty for a chart no decision names (most), and then no other question about them is
  /// asked. The list does not depend on the chart date: the entries of the snapshot decided and
  /// of its previous one are found in them.
  var handDecidedEntries: [HandDecidedEntry] { get }
  /// The song holding an entry a decision names, when the entry's chart date is before
  /// `chartDate`; `nil` when the chart has no such entry before it (its snapshot deleted, or
  /// replaced by one without it).
  func song(holding entry: HandDecidedEntry, before chartDate: ChartDate) -> SongID?
  /// How often the chart is published, when known: a snapshot two periods or more after its
  /// previous one follows a missing snapshot (see ``ChartFrequency/skipsAPeriod(from:to:)``).
  var frequency: ChartFrequency? { get }
}
