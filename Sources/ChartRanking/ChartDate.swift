import Foundation

/// The date, or date and time, at which a chart was published: the key that orders the snapshots
/// of one chart.
///
/// A chart date is written in ISO 8601 (RFC 3339 profile): either a calendar date `YYYY-MM-DD`
/// (weekly, daily and monthly charts) or a date and time `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM]`
/// (hourly charts). A date and time without a zone is taken as UTC; fractions of a second are
/// dropped. Dates are compared as instants, a calendar date standing for its midnight UTC, so that
/// `2024-01-06` sorts before `2024-01-06T13:00:00Z` and after `2024-01-05T23:00:00Z`.
///
/// The calendar rules (month lengths, leap years) are Foundation's Gregorian calendar: `2023-02-30`
/// and `2023-02-29` are refused, `2024-02-29` is accepted.
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
  /// - Parameter text: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM|±HHMM]`; a space may
  ///   stand for the `T`.
  /// - Throws: ``ChartDateError/invalid(_:)`` when the text is not of that shape or names a day or
  ///   time that does not exist (`2023-02-30`, `25:00`).
  public init(iso8601 text: String) throws(ChartDateError) {
    guard let parsed = Self.parse(Array(text.utf8)) else { throw .invalid(text) }
    self = parsed
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

  /// Finds a chart date in a file name, such as `2024-01-06.json`, `top-2024-01-06.json` or
  /// `2024-01-06T13-00.json` (an hourly chart; `-`, `:` or nothing between hours and minutes).
  ///
  /// - Parameter fileName: the last path component.
  /// - Returns: the first valid date found, or `nil` when there is none.
  public static func inFileName(_ fileName: String) -> ChartDate? {
    let bytes = Array(fileName.utf8)
    guard bytes.count >= 10 else { return nil }
    for start in 0...(bytes.count - 10) {
      if start > 0, isDigit(bytes[start - 1]) { continue }
      let date = Array(bytes[start..<(start + 10)])
      guard let day = parse(date) else { continue }
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
      return parse(date + Array("T".utf8) + time + Array("Z".utf8)) ?? day
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

  private static let gregorian: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()

  private static func parse(_ bytes: [UInt8]) -> ChartDate? {
    guard bytes.count >= 10, let year = number(bytes, 0..<4), bytes[4] == UInt8(ascii: "-"),
      let month = number(bytes, 5..<7), bytes[7] == UInt8(ascii: "-"),
      let dayOfMonth = number(bytes, 8..<10)
    else { return nil }
    var components = DateComponents(
      calendar: gregorian, timeZone: gregorian.timeZone, year: year, month: month, day: dayOfMonth)
    guard bytes.count > 10 else {
      return make(components, offsetSeconds: 0, withTime: false)
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
    components.hour = hour
    components.minute = minute
    components.second = second
    return make(components, offsetSeconds: offsetSeconds, withTime: true)
  }

  private static func make(_ components: DateComponents, offsetSeconds: Int, withTime: Bool)
    -> ChartDate?
  {
    guard components.isValidDate(in: gregorian), let date = gregorian.date(from: components) else {
      return nil
    }
    let seconds = Int64(date.timeIntervalSince1970.rounded(.down)) - Int64(offsetSeconds)
    let utc = gregorian.dateComponents(
      [.year, .month, .day, .hour, .minute, .second],
      from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    func pad(_ value: Int?, _ width: Int) -> String {
      let text = String(value ?? 0)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    var text = "\(pad(utc.year, 4))-\(pad(utc.month, 2))-\(pad(utc.day, 2))"
    if withTime {
      text += "T\(pad(utc.hour, 2)):\(pad(utc.minute, 2)):\(pad(utc.second, 2))Z"
    }
    return ChartDate(trustedISO8601: text, secondsSince1970: seconds)
  }
}

/// Why a text is not a chart date.
public enum ChartDateError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is not an ISO 8601 date or date and time, or names a day that does not exist.
  case invalid(String)

  public var description: String {
    switch self {
    case .invalid(let text):
      "'\(text)' is not a valid ISO 8601 date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM:SSZ)"
    }
  }
}
