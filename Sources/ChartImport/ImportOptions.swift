public import ChartFormats
public import ChartRanking
public import Foundation

/// How an import reads and stores its sources.
public struct ImportOptions: Sendable {
  /// The chart's name for every source, overriding the file's and the folder's (but see
  /// ``chartIsRequired``).
  public var chart: String?
  /// Whether ``chart`` is the chart every snapshot must be of, rather than a name that overrides
  /// the file's: a source whose content names another chart (the native format's `chart`,
  /// billboard.py's `name`, a charts CSV's `chart` column, a chart address, a service's chart,
  /// with a row's region after it) is refused with
  /// ``RefusedSource/Reason/otherChart(named:required:)``, as is one whose snapshots would go to
  /// another chart (a row's region added to the name). Names a file's or a folder's name gives
  /// never count. An upload to a chart's address is read so; `--chart` is an override.
  public var chartIsRequired: Bool
  /// The chart date for sources that carry none.
  public var chartDate: ChartDate?
  /// The time zone of the sources' dates and times that give none.
  public var timeZone: TimeZone?
  /// The format every source is read in, instead of detecting it.
  public var format: ChartFormat?
  /// How often the chart is published, overriding what the file or the chart's name says.
  public var frequency: ChartFrequency?
  /// Whether a different snapshot of a stored chart date replaces it (otherwise it is refused).
  public var replacing: Bool
  /// Whether the valid sources are stored, each whole, when others are invalid (otherwise one
  /// invalid source and nothing is stored).
  public var skippingInvalid: Bool
  /// Whether the report lists each snapshot (``ImportReport/snapshots``); the counts are always
  /// there.
  public var listingSnapshots: Bool
  /// Whether two entries of a snapshot may share a rank though the source does not mark the tie
  /// (see ``ChartFileReader/allowsTies``).
  public var allowingTies: Bool

  /// Options; by default every source must be valid, and nothing stored is replaced.
  public init(
    chart: String? = nil, chartIsRequired: Bool = false, chartDate: ChartDate? = nil,
    timeZone: TimeZone? = nil,
    format: ChartFormat? = nil,
    frequency: ChartFrequency? = nil, replacing: Bool = false, skippingInvalid: Bool = false,
    listingSnapshots: Bool = true, allowingTies: Bool = false
  ) {
    self.allowingTies = allowingTies
    self.chart = chart
    self.chartIsRequired = chartIsRequired
    self.chartDate = chartDate
    self.timeZone = timeZone
    self.format = format
    self.frequency = frequency
    self.replacing = replacing
    self.skippingInvalid = skippingInvalid
    self.listingSnapshots = listingSnapshots
  }
}
