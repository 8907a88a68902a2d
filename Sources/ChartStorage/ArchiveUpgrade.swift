/// What bringing an archive of an older schema version up to date needs that SQL cannot do:
/// deciding the figures of entries stored before the archive kept them (schema version 1), which
/// is the import engine's work, not storage's (ChartImport gives it:
/// `ArchiveUpgrade.decidingFigures`).
///
/// An archive of the latest version, or a new one, needs no upgrade; an archive that needs one
/// and is opened without it is a programming error, which stops the program (see
/// ``Archive/init(path:access:maximumReaders:upgrade:)``).
public struct ArchiveUpgrade: Sendable {
  /// Decides the figures of every snapshot of a chart, from its first, and writes them with the
  /// writer, inside the migration's transaction.
  public var decideFigures: @Sendable (ChartID, ArchiveWriter) throws -> Void

  /// An upgrade.
  ///
  /// - Parameter decideFigures: decides the figures of every snapshot of a chart (its ID), from
  ///   its first, and writes them with the writer.
  public init(decideFigures: @escaping @Sendable (ChartID, ArchiveWriter) throws -> Void) {
    self.decideFigures = decideFigures
  }
}
