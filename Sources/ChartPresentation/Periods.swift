import ChartRanking

/// What a chart's periods are called: weeks for a weekly chart, days for a daily one, hours for
/// an hourly one, months for a monthly one, years for a yearly one, and snapshots for an all-time one, whose snapshots
/// are each a new state of one list, at no fixed interval (the JSON and CSV keys stay
/// `weeks_on_chart`).
struct Periods {
  /// The column heading: `WKS`, `DAYS`, `HRS`, `MOS`, `YRS` or `SNAPS`.
  var heading: String
  /// The word, plural and singular: `weeks` and `week`.
  var plural: String
  var singular: String

  init(_ frequency: ChartFrequency?) {
    switch frequency {
    case .daily: (heading, plural, singular) = ("DAYS", "days", "day")
    case .hourly: (heading, plural, singular) = ("HRS", "hours", "hour")
    case .monthly: (heading, plural, singular) = ("MOS", "months", "month")
    case .yearly: (heading, plural, singular) = ("YRS", "years", "year")
    case .allTime: (heading, plural, singular) = ("SNAPS", "snapshots", "snapshot")
    default: (heading, plural, singular) = ("WKS", "weeks", "week")
    }
  }

  /// `1 week`, `2 weeks`.
  func count(_ number: Int) -> String { "\(number) \(number == 1 ? singular : plural)" }

  /// How long a song held its peak, in words: "2 weeks at peak", or, when the peak is the
  /// source's from before the archive's first entry of the song (no entry held there holds it),
  /// "reached before the archive's entries".
  func atPeak(_ number: Int) -> String {
    number == 0 ? "reached before the archive's entries" : "\(count(number)) at peak"
  }
}
