import ChartRanking

/// The rank axis: from 1 at the top to the first multiple of a round step (1, 2, 5, 10, 20, 25,
/// 50, …) at or below the lowest rank drawn, with a tick at 1 and at each multiple of the step:
/// fitted to the ranks drawn (ranks 1 to 4 get an axis to 4, not to 10), and never shorter than
/// ranks 1 to 2.
struct RankScale {
  /// The rank at the bottom of the plot.
  let bottom: Int
  /// The ranks with a tick and a line across, top first.
  let ticks: [Int]

  init(largest: Int) {
    let largest = max(largest, 2)
    var step = 1
    let steps = [1, 2, 5, 10, 20, 25, 50]
    var magnitude = 1
    search: while true {
      for candidate in steps where candidate * magnitude * 5 >= largest {
        step = candidate * magnitude
        break search
      }
      magnitude *= 10
    }
    bottom = max(2, (largest + step - 1) / step * step)
    ticks = [1] + stride(from: step, through: bottom, by: step).filter { $0 > 1 }
  }
}

/// The chart-date axis: ticks at round moments (years, months, days or hours, whichever gives at
/// most seven, or the limit given, between the first and last chart date), labelled in ISO 8601's order (`1990`,
/// `2024-01`, `2024-05-01`, `05-01 20:00`), all in UTC, as chart dates are.
struct TimeTicks {
  /// A moment with its label.
  struct Tick: Equatable {
    var seconds: Int64
    var label: String
  }

  let ticks: [Tick]

  private static let day: Int64 = 86_400

  /// The ticks between two moments.
  ///
  /// - Parameter limit: the most ticks (at least 2), so that their labels do not overlap.
  init(start: Int64, end: Int64, limit: Int = 7) {
    if end <= start {
      ticks = [
        Tick(
          seconds: start,
          label: start % Self.day != 0 ? Self.hourLabel(start) : Self.dayLabel(start))
      ]
      return
    }
    let span = end - start
    // Years, every 1, 2, 5, 10, 20, 25, 50 or 100.
    let firstYear = Self.civil(Self.floorDiv(start, Self.day)).year
    let lastYear = Self.civil(Self.floorDiv(end, Self.day)).year
    if lastYear - firstYear >= 3 {
      let steps: [Int64] = [1, 2, 5, 10, 20, 25, 50, 100]
      for step in steps {
        var found: [Tick] = []
        var year = (firstYear + step - 1) / step * step
        while year <= lastYear {
          let seconds = Self.daysFromCivil(year: year, month: 1, day: 1) * Self.day
          if seconds >= start, seconds <= end {
            found.append(Tick(seconds: seconds, label: String(year)))
          }
          year += step
        }
        if found.count <= limit {
          ticks = found
          return
        }
      }
    }
    // Months, every 1, 2, 3, 6 or 12.
    if span >= 60 * Self.day {
      let steps: [Int64] = [1, 2, 3, 6, 12]
      for step in steps {
        var found: [Tick] = []
        var (year, month, _) = Self.civil(Self.floorDiv(start, Self.day))
        while true {
          let seconds = Self.daysFromCivil(year: year, month: month, day: 1) * Self.day
          if seconds > end { break }
          if seconds >= start, (month - 1) % step == 0 {
            found.append(Tick(seconds: seconds, label: "\(year)-\(Self.two(month))"))
          }
          month += 1
          if month > 12 { (year, month) = (year + 1, 1) }
        }
        if found.count <= limit {
          ticks = found
          return
        }
      }
    }
    // Hours, every 1, 3, 6 or 12 below two days; days, every 1, 2, 7, 14 or 28.
    let hourSteps: [Int64] = span < 2 * Self.day ? [3_600, 3 * 3_600, 6 * 3_600, 12 * 3_600] : []
    let daySteps: [Int64] = [1, 2, 7, 14, 28].map { $0 * Self.day }
    for step in hourSteps + daySteps {
      var found: [Int64] = []
      // Hours at multiples of the step; days from the first chart date's, so that a weekly
      // chart's ticks fall on its chart dates.
      let base = step < Self.day ? 0 : (Self.floorDiv(start - 1, Self.day) + 1) * Self.day
      var moment = base + (Self.floorDiv(start - base - 1, step) + 1) * step
      while moment <= end, found.count <= limit {
        found.append(moment)
        moment += step
      }
      if found.count <= limit {
        ticks = found.map {
          Tick(seconds: $0, label: step < Self.day ? Self.hourLabel($0) : Self.dayLabel($0))
        }
        return
      }
    }
    ticks = []
  }

  /// `2024-05-01`: a moment's date.
  private static func dayLabel(_ seconds: Int64) -> String {
    let date = civil(floorDiv(seconds, day))
    return "\(date.year)-\(two(date.month))-\(two(date.day))"
  }

  /// `05-01 20:00`: a moment's month, day and hour.
  private static func hourLabel(_ seconds: Int64) -> String {
    let date = civil(floorDiv(seconds, day))
    let hour = (seconds - floorDiv(seconds, day) * day) / 3_600
    return "\(two(date.month))-\(two(date.day)) \(two(hour)):00"
  }

  private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }

  private static func floorDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
  }

  /// The date of a count of days since 1970-01-01 (see ``ChartDate/civilDate(daysSince1970:)``).
  static func civil(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let date = ChartDate.civilDate(daysSince1970: Int(days))
    return (Int64(date.year), Int64(date.month), Int64(date.day))
  }

  /// The count of days since 1970-01-01 of a date (see
  /// ``ChartDate/daysSince1970(year:month:day:)``).
  static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    Int64(ChartDate.daysSince1970(year: Int(year), month: Int(month), day: Int(day)))
  }
}
