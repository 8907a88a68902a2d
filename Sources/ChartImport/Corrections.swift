public import ChartRanking
public import ChartStorage

/// A correction a person asks of the archive, kept as a ``Decision`` (docs/rules.md,
/// "Corrections").
public enum Correction: Hashable, Sendable {
  /// These songs are one song: the first keeps its ID, the others' entries become its.
  case merge([SongID])
  /// The song's entries on the chart from the chart date on are another song.
  case split(SongID, chart: String, from: ChartDate)
  /// The chart is named otherwise.
  case renameChart(String, to: String)
  /// The chart's snapshot at the chart date goes, its later snapshots' figures decided again.
  case deleteSnapshot(chart: String, chartDate: ChartDate)
}

/// Why a correction, or undoing one, was refused. Nothing was written.
public enum CorrectionError: Error, Equatable, Sendable {
  /// No song has this ID.
  case noSuchSong(SongID)
  /// A merge names fewer than two songs, or one song twice.
  case fewerThanTwoSongs
  /// Two of the songs to merge are both on one snapshot (at these ranks): one song is never two
  /// entries of one snapshot.
  case sameSnapshot(chart: String, chartDate: ChartDate, ranks: [Int])
  /// The song has no entry on the chart from the date on (`before` false), or none before it
  /// (`before` true): a split would leave a song without entries there.
  case nothingToSplit(song: SongID, chart: String, from: ChartDate, before: Bool)
  /// No decision has this number.
  case noSuchDecision(Int)
  /// The decision cannot be undone, for this reason.
  case cannotUndo(Int, UndoRefusal)
  /// Another chart has the name already.
  case chartNameTaken(String)

  /// Why a decision cannot be undone.
  public enum UndoRefusal: Equatable, Sendable {
    /// A deleted snapshot's rows are not kept: the file it came from (when known) is imported
    /// again instead.
    case snapshotDeleted(source: String?)
    /// The renamed chart is no longer named so (a later decision renamed it again).
    case chartRenamedSince(String)
    /// The chart's old name is another chart's now.
    case nameTaken(String)
  }
}

extension Archive {
  /// Makes a correction, keeps it as a decision and applies it at once: every figure it touches
  /// is decided again in the same write, so that every query agrees when it returns.
  ///
  /// - Returns: the decision as kept.
  /// - Throws: ``CorrectionError`` when it is refused, ``ArchiveError`` (a chart or snapshot
  ///   not found, SQLite's errors).
  /// - Precondition: the archive was not opened for reading only.
  @discardableResult
  public func correct(_ correction: Correction) throws -> Decision {
    try write { writer in
      let keeper = DecisionKeeper(writer: writer)
      let number = try keeper.make(correction)
      guard let decision = try writer.reader.decisions().first(where: { $0.number == number })
      else { preconditionFailure("decision \(number) was just inserted") }
      return decision
    }
  }

  /// Undoes a decision: the archive as it was before it when nothing changed its songs since,
  /// else as the rules and the other decisions tie the entries (docs/rules.md, "Corrections").
  ///
  /// - Returns: the decision undone.
  /// - Throws: ``CorrectionError/noSuchDecision(_:)``, ``CorrectionError/cannotUndo(_:_:)``,
  ///   ``ArchiveError``.
  @discardableResult
  public func undoDecision(_ number: Int) throws -> Decision {
    try write { writer in try DecisionKeeper(writer: writer).undo(number) }
  }
}

extension SnapshotStore {
  /// Keeps the merges and splits an export carries that the archive has no decision for yet
  /// (one deciding the same, ``SongDecision/decidesTheSame(as:)``, is kept once), with the time
  /// each was made; ``finish()`` applies them with the archive's own.
  ///
  /// - Returns: how many were kept.
  /// - Throws: ``ArchiveError``.
  func keep(_ decisions: [SongDecision]) throws -> Int {
    var known = try reader.decisions().compactMap(\.songDecision)
    var kept = 0
    for decision in decisions where !known.contains(where: { $0.decidesTheSame(as: decision) }) {
      _ = try writer.insertDecision(
        decision.kind == .merge ? .merge : .split, songs: decision.songs,
        madeAt: decision.madeAt.isEmpty ? nil : decision.madeAt)
      known.append(decision)
      kept += 1
    }
    return kept
  }

  /// Applies the archive's decisions again after this import linked its songs (a re-import, a
  /// replacement or an import out of date order may have tied the entries otherwise), and has
  /// the figures of what they changed decided again when the import settles.
  func applyDecisions() throws {
    let touched = try DecisionKeeper(writer: writer).applyAll()
    for (chart, chartTime) in touched {
      ledger.state.redecideFrom[chart] =
        ledger.state.redecideFrom[chart].map { min($0, chartTime) } ?? chartTime
    }
  }
}
