public import ChartRanking

/// Snapshots an import no longer needs, whose memory the taker frees (see
/// ``SnapshotStore/takeRetiredSnapshots()``).
public struct RetiredSnapshots: Sendable {
  /// Previous snapshots as song linking kept them.
  public var linked: [SongLinking.PreviousSnapshot] = []
  /// Snapshots with their decided figures, as deciding the next one kept them.
  public var decided: [DecidedSnapshot] = []

  /// None.
  public init() {}

  /// Whether there is none.
  public var isEmpty: Bool { linked.isEmpty && decided.isEmpty }
}
