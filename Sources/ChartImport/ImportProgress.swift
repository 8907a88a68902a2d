/// How far an import is, reported before each source is stored, after each part of a dataset
/// stored a few weeks at a time, and once at the end.
public struct ImportProgress: Hashable, Sendable {
  /// Sources stored (or refused) so far.
  public var done: Int
  /// Sources in all.
  public var total: Int
  /// The fraction of the source being stored that is stored, when it is a dataset of many weeks
  /// stored a few weeks at a time (0 to 1); 0 before each source.
  public var fractionOfSource = 0.0

  /// Whether every source is done.
  public var isFinished: Bool { done == total }
}
