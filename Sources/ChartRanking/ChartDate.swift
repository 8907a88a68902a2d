public import Foundation

/// The date, or date and time, at which a chart was published: the key that orders the snapshots
/// of one chart.
///
/// A chart date is written in ISO 8601 (RFC 3339 profile): either a calendar date `YYYY-MM-DD`
/// (weekly, daily and monthly charts) or a date and time `YYYY-MM-DDTHH:MM[:SS][Z|±HH:MM]`
/// (hourly charts). A date and time without a zone means nothing until a zone is given (an hourly
/// chart's local time): it is refused unless the caller names the time zone it is in. A fraction
/// of a second is refused unless it is zero: a chart date is kept to the second, and dropping
/// part of one would change it. Dates are compared as instants, a calendar date standing for its
/// midnight UTC, so that `2024-01-06` sorts before `2024-01-06T13:00:00Z` and after
/// `2024-01-05T23:00:00Z`.
///
/// Years run from 0001 to 9999 (RFC 3339), in the proleptic Gregorian calendar that ISO 8601
/// prescribes: `2023-02-30` and `2023-02-29` are refused, `2024-02-29` and `1582-10-10` are
/// accepted. Foundation's `Calendar` is not used here: its Gregorian calendar switches to the
/// Julian one before October 1582.
public struct ChartDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The normalized ISO 8601 text: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM:SSZ` in UTC.
  public let iso8601: String
  /// Seconds since 1970-01-01T00:00:00Z of the instant the date stands for.
  public let secondsSince1970: Int64

  /// Whether the chart date carries a time of day (an hourly chart) rather than a calendar date.
  public var hasTime: Bool { iso8601.utf8.count > 10 }

  /// The calendar date part, `YYYY-MM-DD`.
  public var day: String { String(iso8601.prefix(10)) }

  public var description: String { iso8601 }

  /// Parses an ISO 8601 date or date and time.
  ///
  /// - Parameters:
  ///   - text: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.000]][Z|±HH:MM|±HHMM]`; a space may stand for
  ///     the `T`.
  ///   - timeZone: the zone a date and time without one is in (an IANA zone, `Asia/Seoul`), or
  ///     `nil` when there is none to assume.
  /// - Throws: ``ChartDateError/invalid(_:)`` when the text is not of that shape or names a day or
  ///   time that does not exist (`2023-02-30`, `25:00`); ``ChartDateError/noTimeZone(_:)`` for a
  ///   date and time without a zone when none is given; ``ChartDateError/fractionalSeconds(_:)``
  ///   for a fraction of a second that is not zero;
  ///   ``ChartDateError/skippedLocalTime(_:zone:)`` and
  ///   ``ChartDateError/repeatedLocalTime(_:zone:)`` for a local time that `timeZone`'s clocks
  ///   skipped or showed twice.
  public init(iso8601 text: String, timeZone: TimeZone? = nil) throws(ChartDateError) {
    let bytes = Array(text.utf8)
    guard let parsed = Self.parse(bytes) else { throw .invalid(text) }
    if Self.hasNonZeroFraction(bytes) { throw .fractionalSeconds(text) }
    guard parsed.hasTime, !Self.hasZone(bytes) else {
      self = parsed
      return
    }
    guard let timeZone else { throw .noTimeZone(text) }
    // The local time's instants: for each offset the zone has within a day of it, the instant
    // that offset gives, if the zone has that offset then. None when the clocks skipped the time
    // (a change to summer time), two when they showed it twice (the change back).
    let local = parsed.secondsSince1970
    let offsets = Set(
      [local - 86_400, local + 86_400].map {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))))
      })
    let instants = Set(
      offsets.map { local - $0 }.filter {
        Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))))
          == local - $0
      })
    guard instants.count == 1, let instant = instants.first else {
      throw instants.isEmpty
        ? .skippedLocalTime(text, zone: timeZone.identifier)
        : .repeatedLocalTime(text, zone: timeZone.identifier)
    }
    guard let zoned = Self.make(seconds: instant, withTime: true) else { throw .invalid(text) }
    self = zoned
  }

  /// The instants of a calendar day in a time zone: from its first second to the next day's
  /// first, in seconds since 1970-01-01T00:00:00Z (`2024-06-08` in Asia/Seoul is
  /// `2024-06-07T15:00:00Z` up to `2024-06-08T15:00:00Z`). A day whose midnight the zone's clocks
  /// skipped starts at the first local time after it.
  ///
  /// - Parameters:
  ///   - day: a calendar date (its time, if any, is ignored).
  ///   - zone: the time zone.
  public static func instants(ofDay day: ChartDate, in zone: TimeZone) -> Range<Int64> {
    let midnight = day.secondsSinceMidnightUTC
    func start(_ local: Int64) -> Int64 {
      let first = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local))))
      let offset = Int64(
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(local - first))))
      return local - offset
    }
    return start(midnight)..<start(midnight + 86_400)
  }

  /// The instants a date asked for names in a chart's time zone, in seconds since
  /// 1970-01-01T00:00:00Z, both ends included: its whole calendar day there (a chart cut at 00:30
  /// in Seoul has its `2024-06-09` snapshot at `2024-06-08T15:30:00Z`), or, for a date with its
  /// time of day, that instant alone. What `show`, records, periods, audits and `songs split`
  /// read a date as (docs/rules.md, "Chart dates").
  ///
  /// - Parameter zone: the chart's time zone; UTC for a chart that has none.
  public func instants(in zone: TimeZone) -> ClosedRange<Int64> {
    guard !hasTime else { return secondsSince1970...secondsSince1970 }
    let day = Self.instants(ofDay: self, in: zone)
    return day.lowerBound...(day.upperBound - 1)
  }

  /// The instant of the midnight UTC that starts the date's calendar day.
  private var secondsSinceMidnightUTC: Int64 {
    secondsSince1970 - ((secondsSince1970 % 86_400) + 86_400) % 86_400
  }

  /// Whether a date and time gives its zone (`Z`, `+02:00`): the text is longer than its time of
  /// day and ends in one.
  private static func hasZone(_ bytes: [UInt8]) -> Bool {
    guard bytes.count > 16 else { return false }
    if bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z") { return true }
    // `±HH:MM` or `±HHMM` after the time.
    let tail = bytes[16...]
    return tail.contains(UInt8(ascii: "+")) || tail.contains(UInt8(ascii: "-"))
  }

  /// Whether the seconds have a fraction with a digit other than zero.
  private static func hasNonZeroFraction(_ bytes: [UInt8]) -> Bool {
    guard bytes.count > 20, bytes[19] == UInt8(ascii: ".") else { return false }
    return bytes[20...].prefix { isDigit($0) }.contains { $0 != UInt8(ascii: "0") }
  }

  /// Creates a chart date from values read back from an archive, without checking them.
  ///
  /// - Parameters:
  ///   - iso8601: normalized text as produced by ``init(iso8601:)``.
  ///   - secondsSince1970: the instant it stands for.
  public init(trustedISO8601 iso8601: String, secondsSince1970: Int64) {
    self.iso8601 = iso8601
    self.secondsSince1970 = secondsSince1970
  }

  /// The chart date of an instant given in seconds since 1970-01-01T00:00:00Z (a Unix time, as
  /// Last.fm gives the end of a chart's week): its calendar date when the instant is a midnight
  /// UTC, else its date and time in UTC (`YYYY-MM-DDTHH:MM:SSZ`).
  ///
  /// - Returns: the chart date, or `nil` outside the years 0001 to 9999.
  public init?(secondsSince1970 seconds: Int64) {
    let (days, remainder) = seconds.quotientAndRemainder(dividingBy: 86_400)
    guard days > -800_000, days < 3_000_000,
      let date = Self.make(seconds: seconds, withTime: remainder != 0)
    else { return nil }
    self = date
  }

  /// An instant as ISO 8601 in UTC to the second, with its time even at midnight
  /// (`YYYY-MM-DDTHH:MM:SSZ`): how the archive records when it was written (`imported_at`,
  /// `made_at`), the same text as Foundation's `Date.formatted(.iso8601)`, whose first use in a
  /// process sets up a calendar and the machine's time zone.
  ///
  /// - Parameter seconds: seconds since 1970-01-01T00:00:00Z.
  /// - Returns: the text, or `nil` outside the years 0001 to 9999.
  public static func timestamp(secondsSince1970 seconds: Int64) -> String? {
    let days = seconds.quotientAndRemainder(dividingBy: 86_400).quotient
    guard days > -800_000, days < 3_000_000 else { return nil }
    return make(seconds: seconds, withTime: true)?.iso8601
  }

  /// Finds a chart date in a file name, such as `2024-01-06.json`, `top-2024-01-06.json` or
  /// `2024-01-06T13-00.json` (an hourly chart; `-`, `:` or nothing between hours and minutes). A
  /// name that gives a period, `regional-global-weekly-2019-12-27--2020-01-03.csv`, gives its
  /// end, the date a chart of the period is published for.
  ///
  /// - Parameters:
  ///   - fileName: the last path component.
  ///   - timeZone: the zone of a time in the name (an IANA zone, `Asia/Seoul`), or `nil` for UTC.
  /// - Returns: the first valid date found (the end of the first period), or `nil` when there is
  ///   none, or when the time that follows it is not a valid one (`2024-01-06T25-00`, or a local
  ///   time the zone's clocks skipped or showed twice): an hourly chart never falls back to a
  ///   calendar date.
  public static func inFileName(_ fileName: String, timeZone: TimeZone? = nil) -> ChartDate? {
    let bytes = Array(fileName.utf8)
    guard bytes.count >= 10 else { return nil }
    for start in 0...(bytes.count - 10) {
      if start > 0, isDigit(bytes[start - 1]) { continue }
      let date = Array(bytes[start..<(start + 10)])
      guard var day = parse(date) else { continue }
      // The end of a period: `DATE--DATE`.
      let end = start + 12
      if end + 10 <= bytes.count, bytes[start + 10] == UInt8(ascii: "-"),
        bytes[start + 11] == UInt8(ascii: "-"), let last = parse(Array(bytes[end..<(end + 10)]))
      {
        day = last
        guard end + 10 == bytes.count || !isDigit(bytes[end + 10]) else { continue }
        return day
      }
      // An optional time: THH, THHMM, THH-MM or THH:MM.
      var rest = Array(bytes[(start + 10)...])
      guard rest.first == UInt8(ascii: "T"), rest.count >= 3, isDigit(rest[1]), isDigit(rest[2])
      else { return day }
      rest.removeFirst()
      var time = Array(rest[0..<2]) + Array(":".utf8)
      var index = 2
      if index < rest.count, rest[index] == UInt8(ascii: "-") || rest[index] == UInt8(ascii: ":") {
        index += 1
      }
      if index + 1 < rest.count, isDigit(rest[index]), isDigit(rest[index + 1]) {
        time += rest[index...(index + 1)]
      } else {
        time += Array("00".utf8)
      }
      guard let timeZone else { return parse(date + Array("T".utf8) + time + Array("Z".utf8)) }
      return try? ChartDate(
        iso8601: String(decoding: date + Array("T".utf8) + time, as: UTF8.self),
        timeZone: timeZone)
    }
    return nil
  }

  /// What is wrong with the chart date a file name gives, when its date is taken from it: a date
  /// (`YYYY-MM-DD`, four digits, two and two) that is no calendar date (`2023-02-30`), a time
  /// after it that is no time (`2024-05-11T25-00`), a period that ends before it starts
  /// (`2024-05-09--2024-05-08`), or more than one date that is not a period
  /// (`2024-05-12_2024-05-13`): ``inFileName(_:timeZone:)`` would take the first, and may be
  /// wrong; or a local time that `timeZone`'s clocks skipped or showed twice.
  ///
  /// - Parameters:
  ///   - fileName: the last path component.
  ///   - timeZone: the zone of a time in the name, as for ``inFileName(_:timeZone:)``.
  /// - Returns: the problem, as a short lowercase sentence, or `nil` when the name gives one valid
  ///   date or period, or none.
  public static func problem(inFileName fileName: String, timeZone: TimeZone? = nil) -> String? {
    let bytes = Array(fileName.utf8)
    guard bytes.count >= 10 else { return nil }
    func isDate(at start: Int) -> Bool {
      guard start >= 0, start + 10 <= bytes.count, start == 0 || !isDigit(bytes[start - 1]),
        start + 10 == bytes.count || !isDigit(bytes[start + 10])
      else { return false }
      return (0..<10).allSatisfy { offset in
        offset == 4 || offset == 7
          ? bytes[start + offset] == UInt8(ascii: "-") : isDigit(bytes[start + offset])
      }
    }
    func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    var dates: [String] = []
    var start = 0
    while start + 10 <= bytes.count {
      guard isDate(at: start) else {
        start += 1
        continue
      }
      guard let date = parse(Array(bytes[start..<(start + 10)])) else {
        return "'\(text(start..<(start + 10)))' in the file name is not a valid date"
      }
      var end = start + 10
      // A period: `DATE--DATE`, whose end is the chart date.
      if isDate(at: start + 12), bytes[start + 10] == UInt8(ascii: "-"),
        bytes[start + 11] == UInt8(ascii: "-")
      {
        guard let last = parse(Array(bytes[(start + 12)..<(start + 22)])) else {
          return "'\(text((start + 12)..<(start + 22)))' in the file name is not a valid date"
        }
        if last < date {
          return "the period in the file name ends (\(last)) before it starts (\(date))"
        }
        end = start + 22
        dates.append(last.iso8601)
      } else if end + 2 < bytes.count, bytes[end] == UInt8(ascii: "T"), isDigit(bytes[end + 1]),
        isDigit(bytes[end + 2])
      {
        // A time of day, which must be one.
        var stop = end + 3
        while stop < bytes.count,
          isDigit(bytes[stop]) || bytes[stop] == UInt8(ascii: "-")
            || bytes[stop] == UInt8(ascii: ":")
        {
          stop += 1
        }
        guard let utc = inFileName(text(start..<stop)) else {
          return "'\(text(start..<stop))' in the file name is not a valid date and time"
        }
        if let timeZone {
          do {
            _ = try ChartDate(iso8601: String(utc.iso8601.dropLast()), timeZone: timeZone)
          } catch {
            return "the file name's \(error.description)"
          }
        }
        dates.append(text(start..<stop))
        end = stop
      } else {
        dates.append(date.iso8601)
      }
      start = end
    }
    guard dates.count <= 1 else {
      return "the file name holds more than one date (\(dates.joined(separator: ", "))), and"
        + " not as a period START--END, whose end would be the chart date"
    }
    return nil
  }

  public static func < (lhs: ChartDate, rhs: ChartDate) -> Bool {
    (lhs.secondsSince1970, lhs.iso8601) < (rhs.secondsSince1970, rhs.iso8601)
  }

  // MARK: - Parsing

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
    guard range.upperBound <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[range] {
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }

  /// Days from 1970-01-01 to a proleptic Gregorian date (month 1 to 12, day 1 to 31; negative
  /// before 1970): Howard Hinnant's `days_from_civil`
  /// (<https://howardhinnant.github.io/date_algorithms.html#days_from_civil>).
  public static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date (month 1 to 12, day 1 to 31) of a day count from 1970-01-01
  /// (negative before it): Hinnant's `civil_from_days`.
  public static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The number of days in a month of the proleptic Gregorian calendar.
  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func parse(_ bytes: [UInt8]) -> ChartDate? {
    guard bytes.count >= 10, let year = number(bytes, 0..<4), bytes[4] == UInt8(ascii: "-"),
      let month = number(bytes, 5..<7), bytes[7] == UInt8(ascii: "-"),
      let dayOfMonth = number(bytes, 8..<10)
    else { return nil }
    guard year >= 1, (1...12).contains(month),
      (1...daysIn(month: month, year: year)).contains(dayOfMonth)
    else { return nil }
    let days = daysSince1970(year: year, month: month, day: dayOfMonth)
    guard bytes.count > 10 else {
      return make(seconds: Int64(days) * 86_400, withTime: false)
    }
    // Time of day.
    guard bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
      let hour = number(bytes, 11..<13), bytes.count > 13, bytes[13] == UInt8(ascii: ":"),
      let minute = number(bytes, 14..<16)
    else { return nil }
    var index = 16
    var second = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
      guard let value = number(bytes, (index + 1)..<(index + 3)) else { return nil }
      second = value
      index += 3
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        let fractionStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        guard index > fractionStart else { return nil }
      }
    }
    var offsetSeconds = 0
    if index < bytes.count {
      switch bytes[index] {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        index += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        guard let offsetHours = number(bytes, (index + 1)..<(index + 3)) else { return nil }
        index += 3
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
        guard let offsetMinutes = number(bytes, index..<(index + 2)), offsetHours < 24,
          offsetMinutes < 60
        else { return nil }
        index += 2
        offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
      default:
        return nil
      }
    }
    guard index == bytes.count, hour < 24, minute < 60, second < 60 else { return nil }
    let local = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    return make(seconds: local - Int64(offsetSeconds), withTime: true)
  }

  /// The chart date of an instant, written in UTC; `nil` outside years 0001 to 9999.
  private static func make(seconds: Int64, withTime: Bool) -> ChartDate? {
    let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    let secondOfDay = Int(seconds - Int64(days) * 86_400)
    let date = civilDate(daysSince1970: days)
    guard (1...9999).contains(date.year) else { return nil }
    func pad(_ value: Int, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text = "\(pad(date.year, 4))-\(pad(date.month, 2))-\(pad(date.day, 2))"
    if withTime {
      text +=
        "T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))Z"
    }
    return ChartDate(trustedISO8601: text, secondsSince1970: seconds)
  }
}

/// Why a text is not a chart date.
public enum ChartDateError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is not an ISO 8601 date or date and time, or names a day that does not exist.
  case invalid(String)
  /// A date and time without a zone, and none was given: which instant it names is not known.
  case noTimeZone(String)
  /// A fraction of a second that is not zero: chart dates are kept to the second.
  case fractionalSeconds(String)
  /// A local time the zone's clocks skipped (a change to summer time): no instant has it.
  case skippedLocalTime(String, zone: String)
  /// A local time the zone's clocks showed twice (the change back from summer time): two
  /// instants have it.
  case repeatedLocalTime(String, zone: String)

  public var description: String {
    switch self {
    case .invalid(let text):
      "'\(text)' is not a valid ISO 8601 date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM:SSZ)"
    case .noTimeZone(let text):
      "'\(text)' is a date and time without a time zone: give its zone (an IANA name such as"
        + " Asia/Seoul), or write it with Z or an offset"
    case .fractionalSeconds(let text):
      "'\(text)' has a fraction of a second; chart dates are kept to the second"
    case .skippedLocalTime(let text, let zone):
      "'\(text)' is no time in \(zone): its clocks skipped it (a change to summer time)"
    case .repeatedLocalTime(let text, let zone):
      "'\(text)' happened twice in \(zone), whose clocks went back: write it with its offset"
        + " (+HH:MM) to say which"
    }
  }
}
