/// How an entry moved since the previous snapshot of its chart.
///
/// The chart rule (as Billboard and streaming charts print it): with a previous rank, a smaller
/// rank is a climb (`up`), a larger one a fall (`down`), the same one `unchanged`; without one, the
/// entry is a re-entry when the song was on an earlier snapshot of the chart, else a debut
/// (printed "NEW").
public enum Movement: Hashable, Sendable {
  /// Climbed by this many places (always positive).
  case up(Int)
  /// Fell by this many places (always positive).
  case down(Int)
  /// The same rank as on the previous snapshot.
  case unchanged
  /// First appearance on this chart.
  case debut
  /// Back on the chart after at least one snapshot away.
  case reentry

  /// Applies the movement rule.
  ///
  /// - Parameters:
  ///   - rank: the rank now, 1-based.
  ///   - previousRank: the rank on the previous snapshot, 1-based, or `nil` when not on it.
  ///   - wasOnChartBefore: whether the song was on any earlier snapshot of the chart.
  public init(rank: Int, previousRank: Int?, wasOnChartBefore: Bool) {
    guard let previousRank else {
      self = wasOnChartBefore ? .reentry : .debut
      return
    }
    if rank < previousRank {
      self = .up(previousRank - rank)
    } else if rank > previousRank {
      self = .down(rank - previousRank)
    } else {
      self = .unchanged
    }
  }

  /// Places gained since the previous snapshot: positive for a climb, negative for a fall, 0 when
  /// unchanged, `nil` for a debut or re-entry.
  public var change: Int? {
    switch self {
    case .up(let places): places
    case .down(let places): -places
    case .unchanged: 0
    case .debut, .reentry: nil
    }
  }

  /// The chart marker: `▲3`, `▼2`, `–`, `NEW` or `RE`.
  public var marker: String {
    switch self {
    case .up(let places): "▲\(places)"
    case .down(let places): "▼\(places)"
    case .unchanged: "–"
    case .debut: "NEW"
    case .reentry: "RE"
    }
  }

  /// A plain word for machines (JSON and CSV output): `up`, `down`, `unchanged`, `new` or
  /// `re-entry`.
  public var kind: String {
    switch self {
    case .up: "up"
    case .down: "down"
    case .unchanged: "unchanged"
    case .debut: "new"
    case .reentry: "re-entry"
    }
  }
}
