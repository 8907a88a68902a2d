/// What storing a snapshot did.
public enum ImportOutcome: String, Hashable, Sendable {
  /// The snapshot was new and is now stored.
  case imported
  /// An identical snapshot was already stored; nothing changed.
  case unchanged
  /// A different snapshot of the same chart and chart date was replaced.
  case replaced
}
