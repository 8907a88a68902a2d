public import ChartRanking

/// A chart file read and checked: its snapshots, ready to store.
public struct DecodedChartFile: Sendable {
  /// The file's path, as given.
  public var path: String
  /// The format it was read as.
  public var format: ChartFormat
  /// Its snapshots (one for the formats that hold one chart date).
  public var snapshots: [Snapshot]
  /// How often the chart is published, when the file or the chart's name says.
  public var frequency: ChartFrequency?
  /// Whether a snapshot's chart is named after the file's folder (neither the file nor
  /// ``ChartFileReader/chart`` names it): files of other formats in that folder would go to the
  /// same chart without saying so.
  public var chartNamedAfterFolder = false
  /// The charts' names each snapshot's content gives (its chart field or column, a chart address,
  /// with a row's region after it; never a file's or a folder's name), in the order of
  /// ``snapshots``: none where it gives none, several where rows that ``ChartFileReader/chart``
  /// gathers into one snapshot name several. Read only when
  /// ``ChartFileReader/readsChartNamesInContent``, empty otherwise. With ``ChartFileReader/chart``
  /// set, a snapshot's ``Snapshot/chart`` is that name (and a row's region) whatever these say.
  public var chartsNamedInContent: [[String]] = []
  /// Whether the chart date of its snapshots is a date and time its name gave (`2024-06-01T12-00`)
  /// and no zone was given to read it in (``ChartFileReader/timeZone``): read as UTC, it is a local
  /// time that an import reads again in its chart's zone when the chart has one.
  public var dateIsLocalTimeReadAsUTC = false
  /// Where ``ChartFileReader/chartDate`` (`--date`) differs from a date the file gives, in the
  /// file or in its name.
  public var dateDisagreements: [ChartDateDisagreement] = []
  /// The page of its chart each snapshot is, in the order of ``snapshots``, when the format
  /// publishes charts in pages (Apple Music's); empty otherwise. A page's entries are ranked by
  /// their place in the whole chart when the page tells its offset, from 1 otherwise.
  public var pages: [ChartPage?] = []
  /// The merges and splits a person made that an export carries (its `decisions`, see
  /// ``SongDecision``), for the archive it is imported into to apply; empty for other files.
  public var decisions: [SongDecision] = []
}

/// Where a snapshot's entries stand in a chart published in pages (Apple Music's charts, 20
/// entries a page, each page pointing at the next): an import joins the pages of one chart and
/// chart date into one snapshot.
public struct ChartPage: Hashable, Sendable {
  /// The 0-based position of the page's first entry in the whole chart, when the page tells it
  /// (its own address, or its next page's offset less its entries); `nil` for a last page that
  /// names neither.
  public var offset: Int?
  /// The 0-based position of the next page's first entry (the `offset` of the page's `next`), or
  /// `nil` when the chart ends with this page.
  public var nextOffset: Int?

  /// A page.
  public init(offset: Int?, nextOffset: Int?) {
    self.offset = offset
    self.nextOffset = nextOffset
  }
}

/// A chart date given for a file (`--date`) that differs from one the file gives.
public struct ChartDateDisagreement: Hashable, Sendable {
  /// The date given.
  public var given: ChartDate
  /// The file's date: in its content, or in its name.
  public var file: ChartDate
  /// Whether the file's date is the snapshot's (a date in the content wins over the one given);
  /// otherwise the given date wins over the one in the file's name.
  public var fileDateIsUsed: Bool

  /// A disagreement between the given date and the file's.
  public init(given: ChartDate, file: ChartDate, fileDateIsUsed: Bool) {
    self.given = given
    self.file = file
    self.fileDateIsUsed = fileDateIsUsed
  }
}
