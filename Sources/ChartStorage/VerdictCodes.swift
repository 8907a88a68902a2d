import ChartRanking

/// The numbers the `verdicts` table stores for a figure and a cause
/// (Migrations/0002_decided_figures.sql, 0004_published_runs.sql, 0008_published_trends.sql), the one place they are written.
enum VerdictCodes {
  /// The figures by their codes in `verdicts.figure`: 0 previous rank, 1 peak position, 2 weeks on
  /// chart, 3 run, 4 movement.
  static let figures: [AuditFigure] = [
    .previousRank, .peakPosition, .weeksOnChart, .run, .movement,
  ]

  /// The code of a figure in `verdicts.figure`.
  static func code(_ figure: AuditFigure) -> Int {
    switch figure {
    case .previousRank: 0
    case .peakPosition: 1
    case .weeksOnChart: 2
    case .run: 3
    case .movement: 4
    }
  }

  /// The code of a cause in `verdicts.cause`: its place in ``DisagreementCause``'s order.
  static func code(_ cause: DisagreementCause) -> Int {
    DisagreementCause.allCases.firstIndex(of: cause)!
  }

  /// The cause of a code in `verdicts.cause`; ``DisagreementCause/unexplained`` for a code this
  /// build does not know.
  static func cause(code: Int) -> DisagreementCause {
    DisagreementCause.allCases.indices.contains(code)
      ? DisagreementCause.allCases[code] : .unexplained
  }
}
