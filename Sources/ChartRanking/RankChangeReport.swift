/// The rank-change report of one snapshot: the summary a chart editor writes each week.
///
/// Sections, each in the order a reader expects: number one; debuts and re-entries by rank;
/// climbers by places gained, then rank; fallers by places lost, then rank; drop-outs by their rank
/// on the previous snapshot.
public struct RankChangeReport: Sendable {
  /// The entries at rank 1 (more than one only on a tie).
  public let numberOne: [Placement]
  /// First appearances on the chart, by rank.
  public let debuts: [Placement]
  /// Returns to the chart, by rank.
  public let reentries: [Placement]
  /// The biggest climbs, most places first (at most the limit).
  public let climbers: [Placement]
  /// The biggest falls, most places first (at most the limit).
  public let fallers: [Placement]
  /// Entries of the previous snapshot whose song is not on this one, by their rank there; `nil`
  /// when the archive holds no previous snapshot (the chart's first): unknown, not none.
  public let dropOuts: [ArchivedEntry]?

  /// Builds the report.
  ///
  /// - Parameters:
  ///   - placements: the snapshot's placements, in rank order.
  ///   - dropOuts: the previous snapshot's entries that left the chart, in rank order; `nil` when
  ///     there is no previous snapshot.
  ///   - limit: how many climbers and how many fallers to keep (at least 0).
  public init(placements: [Placement], dropOuts: [ArchivedEntry]?, limit: Int) {
    numberOne = placements.filter { $0.rank == 1 }
    debuts = placements.filter { $0.movement == .debut }
    reentries = placements.filter { $0.movement == .reentry }
    let limit = max(0, limit)
    climbers = Array(
      placements.filter { ($0.movement.change ?? 0) > 0 }
        .sorted { ($0.movement.change!, -$0.rank) > ($1.movement.change!, -$1.rank) }
        .prefix(limit))
    fallers = Array(
      placements.filter { ($0.movement.change ?? 0) < 0 }
        .sorted { ($0.movement.change!, $0.rank) < ($1.movement.change!, $1.rank) }
        .prefix(limit))
    self.dropOuts = dropOuts
  }
}
