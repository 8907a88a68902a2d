/// How often a chart is published, when known.
public enum ChartFrequency: String, CaseIterable, Hashable, Sendable {
  /// Published every hour (chart dates carry a time).
  case hourly
  /// Published every day.
  case daily
  /// Published every week (the Billboard Hot 100).
  case weekly
  /// Published every month.
  case monthly
  /// Published once a year: a year-end chart (billboard.py's `year`), dated December 31 of its
  /// year.
  case yearly
  /// A running all-time chart (a chart app's "total" chart).
  case allTime = "all-time"

  /// Whether a chart date is one period after another, as the chart's dates follow each other: 7
  /// days for a weekly chart, 1 day for a daily one, 1 hour for an hourly one, the same day of the
  /// next month for a monthly one (the last day when the month is shorter), the same day of the
  /// next year for a yearly one (February 28 after a February 29); any for an all-time chart. A
  /// date off that rhythm is a chart missing between them, or one saved under the wrong
  /// date.
  ///
  /// - Parameters:
  ///   - previous: the chart's previous snapshot's date.
  ///   - next: the date after it.
  public func isOnRhythm(from previous: ChartDate, to next: ChartDate) -> Bool {
    let seconds = next.secondsSince1970 - previous.secondsSince1970
    switch self {
    case .hourly: return seconds == 3_600
    case .daily: return seconds == 86_400
    case .weekly: return seconds == 7 * 86_400
    case .allTime: return true
    case .yearly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      let leapDayMissing =
        from.month == 2 && from.day == 29 && to.day == 28
        && ChartDate.daysIn(month: 2, year: to.year) == 28
      return to.year == from.year + 1 && to.month == from.month
        && (to.day == from.day || leapDayMissing)
    case .monthly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      let month = from.month == 12 ? (from.year + 1, 1) : (from.year, from.month + 1)
      let lastDay = ChartDate.daysIn(month: month.1, year: month.0)
      return (to.year, to.month) == month
        && (to.day == from.day || from.day > lastDay && to.day == lastDay
          || from.day == ChartDate.daysIn(month: from.month, year: from.year) && to.day == lastDay)
    }
  }

  /// Whether `next` comes two periods or more after `previous`: a snapshot of the chart is
  /// missing between them (a weekly chart's dates 14 days apart, a daily chart's 2 days, a yearly
  /// chart's two calendar years). A date
  /// less than two periods on (the Hot 100's 12 days when it moved from Mondays to Saturdays)
  /// is not; an all-time chart has no period.
  ///
  /// - Parameters:
  ///   - previous: the chart's previous snapshot's date.
  ///   - next: the date after it.
  public func skipsAPeriod(from previous: ChartDate, to next: ChartDate) -> Bool {
    let seconds = next.secondsSince1970 - previous.secondsSince1970
    switch self {
    case .hourly: return seconds >= 2 * 3_600
    case .daily: return seconds >= 2 * 86_400
    case .weekly: return seconds >= 14 * 86_400
    case .allTime: return false
    case .yearly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      return to.year - from.year >= 2
    case .monthly:
      let from = ChartDate.civilDate(daysSince1970: Int(previous.secondsSince1970 / 86_400))
      let to = ChartDate.civilDate(daysSince1970: Int(next.secondsSince1970 / 86_400))
      return (to.year * 12 + to.month) - (from.year * 12 + from.month) >= 2
    }
  }

  /// Guesses the frequency from a chart's name: the last `-`, `_` or `/` separated word of
  /// `spotify-daily` or `app/total` names it (`total` and `all-time` mean ``allTime``, `yearly`
  /// and `annual` ``yearly``).
  ///
  /// - Returns: the frequency, or `nil` when the name does not say.
  public static func guessed(fromChartName name: String) -> ChartFrequency? {
    let lastWord = name.lowercased().split(whereSeparator: { "-_/ ".contains($0) }).last
    switch lastWord {
    case "hourly": return .hourly
    case "daily": return .daily
    case "weekly": return .weekly
    case "monthly": return .monthly
    case "yearly", "annual": return .yearly
    case "total", "alltime", "all-time": return .allTime
    default: return nil
    }
  }
}
