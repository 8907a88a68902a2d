public import ChartStorage

extension Archive {
  /// Runs `body` in one write transaction with the import engine: snapshots it stores are
  /// committed when it returns, settled first (``SnapshotStore/finish()``), and nothing is when
  /// it throws.
  ///
  /// ```swift
  /// let archive = try Archive(path: "archive.sqlite", access: .create)
  /// try archive.importing { try $0.store(snapshot) }
  /// ```
  ///
  /// - Parameters:
  ///   - beforeCommit: runs last before the commit (see ``Archive/write(beforeCommit:_:)``).
  ///   - body: receives the ``SnapshotStore`` to store snapshots with; it must not keep it past
  ///     the import.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` or `beforeCommit` throws, or ``ArchiveError`` (see
  ///   ``Archive/write(beforeCommit:_:)``).
  /// - Precondition: the archive was not opened for reading only.
  @discardableResult
  public func importing<Result>(
    beforeCommit: () throws -> Void = {}, _ body: (SnapshotStore) throws -> Result
  ) throws -> Result {
    try write(beforeCommit: beforeCommit) { writer in
      let store = SnapshotStore(writer: writer)
      let result = try body(store)
      try store.finish()
      return result
    }
  }
}

extension ArchiveUpgrade {
  /// The upgrade the product opens archives with: the figures of an archive stored before the
  /// archive kept them are decided as an import decides them, chart by chart from its first
  /// snapshot (see ``FigureLedger``).
  public static let decidingFigures = ArchiveUpgrade { chart, writer in
    try FigureLedger.redecide(chart: chart, from: .min, writer: writer)
  }
}
