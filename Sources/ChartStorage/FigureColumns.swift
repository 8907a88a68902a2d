import ChartRanking

/// The columns of an entry's decided figures in `entries` (Migrations/0002), as every query that
/// reads them selects and reads them.
enum FigureColumns {
  /// The columns, from the table aliased `e`.
  static let sql = "e.previous_rank, e.peak_position, e.weeks_on_chart, e.run, e.figure_flags"

  /// How many columns ``sql`` has.
  static let count: Int32 = 5

  /// The figures of an entry read from ``sql`` at column `offset`, with the entry (for its rank)
  /// and its verdicts: the movement is the decided one, from the previous rank and whether the
  /// song charted before (see ``FigureFlags``).
  static func read(
    _ row: Statement, from offset: Int32, entry: ChartEntry, verdicts: [AuditFigure: FigureVerdict]
  ) -> EntryFigures {
    let previousRank = row.optionalInt(at: offset)
    let flags = FigureFlags(rawValue: row.int(at: offset + 4))
    return EntryFigures(
      previousRank: previousRank, previousRankSource: flags.previousRankSource,
      movement: Movement(
        rank: entry.rank, previousRank: previousRank, wasOnChartBefore: flags.chartedBefore),
      peakPosition: row.optionalInt(at: offset + 1) ?? entry.rank,
      weeksOnChart: row.optionalInt(at: offset + 2) ?? 1,
      run: row.optionalInt(at: offset + 3) ?? 1, isPartialRun: flags.isPartialRun,
      previousRankVerdict: verdicts[.previousRank], peakPositionVerdict: verdicts[.peakPosition],
      weeksOnChartVerdict: verdicts[.weeksOnChart], runVerdict: verdicts[.run],
      movementVerdict: verdicts[.movement])
  }
}
