import ChartRanking

/// The numbers the `verdicts` table stores for a figure and a cause
/// (Migrations/0002_decided_figures.sql, 0004_published_runs.sql, 0008_published_trends.sql,
/// 0012_joined_by_hand.sql), the one place they are written.
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

  /// The causes by their codes in `verdicts.cause`: 0 source gap, 1 rank shift, 2 credit change,
  /// 3 two recordings, 4 tie, 5 unexplained, 6 joined by hand (added by version 12, after
  /// unexplained, which ``DisagreementCause`` lists last).
  static let causes: [DisagreementCause] = [
    .sourceGap, .rankShift, .creditChange, .twoRecordings, .tie, .unexplained, .joinedByHand,
  ]

  /// The code of a cause in `verdicts.cause`.
  static func code(_ cause: DisagreementCause) -> Int {
    switch cause {
    case .sourceGap: 0
    case .rankShift: 1
    case .creditChange: 2
    case .twoRecordings: 3
    case .tie: 4
    case .unexplained: 5
    case .joinedByHand: 6
    }
  }

  /// The cause of a code in `verdicts.cause`; ``DisagreementCause/unexplained`` for a code this
  /// build does not know.
  static func cause(code: Int) -> DisagreementCause {
    causes.indices.contains(code) ? causes[code] : .unexplained
  }
}
