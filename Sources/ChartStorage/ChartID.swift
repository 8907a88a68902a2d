/// A chart as the archive knows it: the row ID of its `charts` row.
public struct ChartID: Hashable, Comparable, Sendable {
  /// The archive's number for the chart.
  public var rawValue: Int64

  /// Wraps an archive's chart number.
  public init(_ rawValue: Int64) { self.rawValue = rawValue }

  public static func < (lhs: ChartID, rhs: ChartID) -> Bool { lhs.rawValue < rhs.rawValue }
}
