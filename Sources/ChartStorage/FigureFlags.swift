public import ChartRanking

/// An entry's `figure_flags` column (Migrations/0002_decided_figures.sql), the one place its bit
/// layout is written: the two low bits are the previous rank's source (0 published, 1 derived,
/// 2 corrected), 4 marks a partial run (the archive lacks the start of the song's run, so the
/// peak position and weeks on chart are the source's) and 8 marks an entry whose song charted
/// before (the entry is not a debut): the decided movement is read back from the previous rank
/// and this bit alone.
///
/// The views of migration 0003 spell the same bits out in SQL (`chart_entries`, `song_runs`); a
/// shipped migration is never edited, so their SQL stays as it is and tests compare the two.
public struct FigureFlags: Hashable, Sendable {
  /// The column's value, 0 through 15, never with both low bits set.
  public var rawValue: Int

  /// The bits of the previous rank's source.
  static let sourceMask = 3
  /// The bit of a partial run.
  static let partialRunBit = 4
  /// The bit of an entry whose song charted before.
  static let chartedBeforeBit = 8

  /// Flags as stored.
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// The flags of an entry's decided figures.
  public init(_ figures: EntryFigures) {
    let source =
      switch figures.previousRankSource {
      case .published: 0
      case .derived: 1
      case .corrected: 2
      }
    rawValue =
      source + (figures.isPartialRun ? Self.partialRunBit : 0)
      + (figures.movement == .debut ? 0 : Self.chartedBeforeBit)
  }

  /// Where the previous rank comes from.
  public var previousRankSource: PreviousRankSource {
    switch rawValue & Self.sourceMask {
    case 0: .published
    case 2: .corrected
    default: .derived
    }
  }

  /// Whether the archive lacks the start of the song's run.
  public var isPartialRun: Bool { rawValue & Self.partialRunBit != 0 }

  /// Whether the song charted before this entry (it is no debut).
  public var chartedBefore: Bool { rawValue & Self.chartedBeforeBit != 0 }

  // MARK: - In SQL

  /// The SQL condition that the entry aliased `alias` is part of a partial run.
  static func isPartialRunSQL(_ alias: String) -> String {
    "\(alias).figure_flags & \(partialRunBit) != 0"
  }

  /// The SQL condition that the previous rank of the entry aliased `alias` was not derived (the
  /// source published it, or the archive corrected it).
  static func previousRankNotDerivedSQL(_ alias: String) -> String {
    "\(alias).figure_flags & \(sourceMask) != 1"
  }

  /// The schema's CHECK constraint on the column, as Migrations/0002 writes it.
  static let checkConstraint = checkConstraint(of: nil)

  /// The schema's CHECK constraint on the column of the row aliased `alias`.
  static func checkConstraint(of alias: String?) -> String {
    let column = (alias.map { $0 + "." } ?? "") + "figure_flags"
    return "\(column) BETWEEN 0 AND 15 AND \(column) & \(sourceMask) != \(sourceMask)"
  }
}
