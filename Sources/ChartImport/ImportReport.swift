public import ChartFormats
public import ChartRanking
public import ChartStorage

/// One snapshot an import stored, or found stored already.
public struct ImportedSnapshot: Hashable, Sendable {
  /// The index of its source in the import's list.
  public var source: Int
  /// The chart's name.
  public var chart: String
  /// The chart date.
  public var chartDate: ChartDate
  /// How many entries it has.
  public var entryCount: Int
  /// What storing it did.
  public var outcome: ImportOutcome
  /// The indices of the sources of its other pages, in page order, when it is a chart published
  /// in pages joined from several files (``source`` is its first page's); empty otherwise.
  public var otherPages: [Int] = []
}

/// A chart published in pages whose first pages were imported and whose next page was not: it is
/// stored as far as its pages go.
public struct UnfinishedChart: Hashable, Sendable {
  /// The indices of the sources of its pages, in page order.
  public var sources: [Int]
  /// The chart's name.
  public var chart: String
  /// The chart date.
  public var chartDate: ChartDate
  /// How many entries its pages hold (ranks 1 to this).
  public var entryCount: Int
  /// The 0-based offset of the page that is missing, as the last page imported names it.
  public var nextOffset: Int
}

/// A source an import did not store, and why.
public struct RefusedSource: Error, Sendable {
  /// The index of the source in the import's list.
  public var source: Int
  /// The source's path or name.
  public var name: String
  /// Why it was refused.
  public var reason: Reason

  /// Why a source is refused.
  public enum Reason: Sendable {
    /// The file is not a valid chart file: every problem found in it.
    case invalid(ChartFileError)
    /// One of its snapshots conflicts with a stored one, or with another source's:
    /// ``ArchiveError/conflictingSnapshot(chart:chartDate:)``,
    /// ``ArchiveError/conflictingSnapshotsInOneImport(chart:chartDate:otherSource:)``,
    /// ``ArchiveError/frequencyConflict(chart:stored:given:)`` or
    /// ``ArchiveError/timeZoneConflict(chart:stored:given:)``.
    case conflict(ArchiveError)
    /// Its chart is named after its folder, and another file of the import that goes to that
    /// chart the same way is of another format (a weekly chart's CSV and a streaming chart's in
    /// one folder): they are most likely different charts.
    case otherFormatInFolder(
      chart: String, format: ChartFormat, otherSource: String, otherFormat: ChartFormat)
    /// A snapshot of it is of another chart than the one required
    /// (``ImportOptions/chartIsRequired``): `named` is the chart its content names (or the one it
    /// would go to, a row's region added), `required` the chart given.
    case otherChart(named: String, required: String)
  }
}

/// An entry whose movement, as its source published it, is not the one the archive derives.
public struct TrendDisagreement: Hashable, Sendable {
  /// The index of the entry's source in the import's list.
  public var source: Int
  /// The chart's name.
  public var chart: String
  /// The snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry's rank, 1-based.
  public var rank: Int
  /// The entry's title.
  public var title: String
  /// The movement the source published.
  public var published: PublishedTrend
  /// The movement the archive derives.
  public var derived: Movement
}

/// What an import did: each snapshot's outcome, the sources refused (with ``ImportOptions/skippingInvalid``),
/// the warnings, and the totals.
public struct ImportReport: Sendable {
  /// How many sources the import was given.
  public var sourceCount: Int
  /// Each snapshot stored or found unchanged, in the order stored, when the options ask for them.
  public var snapshots: [ImportedSnapshot] = []
  /// How many snapshots were new.
  public var imported = 0
  /// How many replaced a different snapshot of their chart date.
  public var replaced = 0
  /// How many were stored already, with the same entries.
  public var unchanged = 0
  /// How many entries were stored (those of new and replacing snapshots).
  public var entriesStored = 0
  /// The sources skipped as invalid (only with ``ImportOptions/skippingInvalid``; without it, an
  /// invalid source fails the import).
  public var skipped: [RefusedSource] = []
  /// Charts published in pages whose last pages were not imported, stored as far as they go.
  public var unfinishedCharts: [UnfinishedChart] = []
  /// How many of the merges and splits the imported exports carry were new to the archive, and
  /// kept as its decisions (one that decides the same as a decision of the archive is not kept
  /// twice).
  public var decisionsKept = 0
  /// Published movements that disagree with the derived ones.
  public var trendDisagreements: [TrendDisagreement] = []
  /// Sources whose own chart date (in the file or in its name) differs from the one given
  /// (``ImportOptions/chartDate``), by the source's index in the import's list.
  public var dateDisagreements: [(source: Int, disagreement: ChartDateDisagreement)] = []
  /// What storing found that a reader should look at: snapshots identical to the previous one,
  /// dates off the chart's rhythm, previous ranks that contradict the archive or were corrected,
  /// a song URL repeated in one snapshot.
  public var notes: [SnapshotNote] = []
  /// Why the import, committed, could not be copied from the archive's write-ahead log (the
  /// `-wal` file beside it) into the archive file, if it could not (see ``Archive/checkpoint()``):
  /// the log holds it and must be kept with the archive.
  public var logNotCopied: ArchiveError?
  /// What a new archive found at its path and renamed aside (see ``NewArchive/setAside``).
  public var setAside: [SetAsideFile] = []

  /// Whether the import stored or replaced anything.
  public var changedTheArchive: Bool { imported + replaced + decisionsKept > 0 }
}
