import ChartRanking
import Foundation
import Testing

struct ChartDateTests {
  @Test(arguments: [
    ("2024-01-06", "2024-01-06", Int64(1_704_499_200)),
    ("2024-02-29", "2024-02-29", Int64(1_709_164_800)),
    ("1958-08-04", "1958-08-04", Int64(-360_115_200)),
    ("2024-01-06T13:00:00Z", "2024-01-06T13:00:00Z", Int64(1_704_546_000)),
    ("2024-01-06T13:00Z", "2024-01-06T13:00:00Z", Int64(1_704_546_000)),
    ("2024-01-06 13:00:00Z", "2024-01-06T13:00:00Z", Int64(1_704_546_000)),
    ("2024-01-06T13:00:00.000Z", "2024-01-06T13:00:00Z", Int64(1_704_546_000)),
    ("2024-01-06T15:00:00+02:00", "2024-01-06T13:00:00Z", Int64(1_704_546_000)),
    ("2024-01-06T01:30:00-0130", "2024-01-06T03:00:00Z", Int64(1_704_510_000)),
    // Proleptic Gregorian, as ISO 8601 prescribes: no Julian calendar before October 1582.
    ("1582-10-10", "1582-10-10", Int64(-12_219_724_800)),
    ("0001-01-01", "0001-01-01", Int64(-62_135_596_800)),
    ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z", Int64(253_402_300_799)),
    ("2000-02-29", "2000-02-29", Int64(951_782_400)),
  ])
  func parsesAndNormalizes(text: String, normalized: String, seconds: Int64) throws {
    let date = try ChartDate(iso8601: text)
    #expect(date.iso8601 == normalized)
    #expect(date.secondsSince1970 == seconds)
  }

  @Test(arguments: [
    "2023-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-1-6", "2024-01-06x", "24-01-06",
    "2024-01-06T25:00Z", "2024-01-06T12:60Z", "2024-01-06T12", "2024-01-06T12:00:00+25:00", "",
    "next tuesday", "1900-02-29", "0000-01-01",
    // Years outside 0001–9999 once converted to UTC.
    "9999-12-31T23:00:00-05:00", "0001-01-01T00:30:00+01:00",
  ])
  func refusesInvalidDates(text: String) {
    #expect(throws: ChartDateError.invalid(text)) { try ChartDate(iso8601: text) }
  }

  @Test func aLocalTimeTheClocksSkippedOrShowedTwiceIsRefused() throws {
    // Both were taken: 02:30 of the day New York's clocks went from 02:00 to 03:00 as 06:30Z,
    // 01:30 of the day they went back from 02:00 to 01:00 as its first, summer time.
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    #expect(
      throws: ChartDateError.skippedLocalTime("2024-03-10T02:30:00", zone: "America/New_York")
    ) {
      try ChartDate(iso8601: "2024-03-10T02:30:00", timeZone: newYork)
    }
    #expect(
      throws: ChartDateError.repeatedLocalTime("2024-11-03T01:30:00", zone: "America/New_York")
    ) {
      try ChartDate(iso8601: "2024-11-03T01:30:00", timeZone: newYork)
    }
    #expect(
      ChartDateError.skippedLocalTime("2024-03-10T02:30:00", zone: "America/New_York").description
        == "'2024-03-10T02:30:00' is no time in America/New_York: its clocks skipped it (a change"
        + " to summer time)")
    #expect(
      ChartDateError.repeatedLocalTime("2024-11-03T01:30:00", zone: "America/New_York").description
        == "'2024-11-03T01:30:00' happened twice in America/New_York, whose clocks went back:"
        + " write it with its offset (+HH:MM) to say which")
    // The hours around the changes are one instant each; with its offset a repeated one is too.
    #expect(
      try [
        "2024-03-10T01:59:00", "2024-03-10T03:00:00", "2024-11-03T00:59:00", "2024-11-03T02:00:00",
      ]
      .map { try ChartDate(iso8601: $0, timeZone: newYork).iso8601 } == [
        "2024-03-10T06:59:00Z", "2024-03-10T07:00:00Z", "2024-11-03T04:59:00Z",
        "2024-11-03T07:00:00Z",
      ])
    #expect(
      try ChartDate(iso8601: "2024-11-03T01:30:00-05:00", timeZone: newYork).iso8601
        == "2024-11-03T06:30:00Z")
  }

  @Test func aYearlyChartsDatesAreAYearApart() throws {
    func date(_ text: String) throws -> ChartDate { try ChartDate(iso8601: text) }
    let yearly = ChartFrequency.yearly
    #expect(yearly.isOnRhythm(from: try date("2022-12-31"), to: try date("2023-12-31")))
    #expect(yearly.isOnRhythm(from: try date("2024-02-29"), to: try date("2025-02-28")))
    #expect(!yearly.isOnRhythm(from: try date("2022-12-31"), to: try date("2023-12-30")))
    #expect(!yearly.isOnRhythm(from: try date("2022-12-31"), to: try date("2024-12-31")))
    #expect(!yearly.skipsAPeriod(from: try date("2022-12-31"), to: try date("2023-12-31")))
    #expect(yearly.skipsAPeriod(from: try date("2021-12-31"), to: try date("2023-12-31")))
    #expect(ChartFrequency.guessed(fromChartName: "hot-100-yearly") == .yearly)
  }

  @Test func aDayInAZoneRunsFromItsMidnightToTheNext() throws {
    let day = try ChartDate(iso8601: "2024-06-08")
    let seoul = ChartDate.instants(ofDay: day, in: TimeZone(identifier: "Asia/Seoul")!)
    #expect(seoul == 1_717_772_400..<1_717_858_800)
    #expect(ChartDate(secondsSince1970: seoul.lowerBound)?.iso8601 == "2024-06-07T15:00:00Z")
    // A day the clocks went forward in New York is 23 hours long.
    let spring = ChartDate.instants(
      ofDay: try ChartDate(iso8601: "2024-03-10"), in: TimeZone(identifier: "America/New_York")!)
    #expect(spring.count == 23 * 3_600)
  }

  /// A date asked for is its whole day in the chart's zone; a date and time, that instant.
  @Test func aDateAskedForIsItsDayInTheZoneAndADateAndTimeItsInstant() throws {
    let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
    let day = try ChartDate(iso8601: "2024-06-08")
    #expect(day.instants(in: seoul) == 1_717_772_400...1_717_858_799)
    let instant = try ChartDate(iso8601: "2024-06-08T03:00:00Z")
    #expect(instant.instants(in: seoul) == instant.secondsSince1970...instant.secondsSince1970)
    #expect(day.instants(in: .gmt) == 1_717_804_800...1_717_891_199)
  }

  @Test func aDateAndTimeWithoutAZoneNeedsOne() throws {
    // A Korean hourly chart's local time.
    #expect(throws: ChartDateError.noTimeZone("2023-04-09 20:00:00")) {
      try ChartDate(iso8601: "2023-04-09 20:00:00")
    }
    let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
    #expect(
      try ChartDate(iso8601: "2023-04-09 20:00:00", timeZone: seoul).iso8601
        == "2023-04-09T11:00:00Z")
    // Summer and winter time in one zone.
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    #expect(
      try ChartDate(iso8601: "2024-07-01T12:00", timeZone: berlin).iso8601 == "2024-07-01T10:00:00Z"
    )
    #expect(
      try ChartDate(iso8601: "2024-01-01T12:00", timeZone: berlin).iso8601 == "2024-01-01T11:00:00Z"
    )
    // A zone in the text wins; a calendar date has none to take.
    #expect(
      try ChartDate(iso8601: "2023-04-09T20:00:00Z", timeZone: seoul).iso8601
        == "2023-04-09T20:00:00Z")
    #expect(try ChartDate(iso8601: "2023-04-09", timeZone: seoul).iso8601 == "2023-04-09")
    #expect(
      ChartDateError.noTimeZone("2023-04-09 20:00:00").description
        == "'2023-04-09 20:00:00' is a date and time without a time zone: give its zone (an IANA"
        + " name such as Asia/Seoul), or write it with Z or an offset")
  }

  @Test func aFractionOfASecondIsRefusedNotDropped() {
    #expect(throws: ChartDateError.fractionalSeconds("2024-01-06T13:00:00.250Z")) {
      try ChartDate(iso8601: "2024-01-06T13:00:00.250Z")
    }
    #expect(
      ChartDateError.fractionalSeconds("2024-01-06T13:00:00.250Z").description
        == "'2024-01-06T13:00:00.250Z' has a fraction of a second; chart dates are kept to the"
        + " second")
  }

  @Test func aFileNamedWithAPeriodTakesItsEnd() {
    #expect(
      ChartDate.inFileName("regional-global-weekly-2019-12-27--2020-01-03.csv")?.iso8601
        == "2020-01-03")
    #expect(ChartDate.inFileName("top-2024-01-06.json")?.iso8601 == "2024-01-06")
  }

  @Test func aTimeInAFileNameIsInTheZoneGiven() throws {
    // --timezone was ignored for a time taken from a file name: 12:00 in Seoul was stored as
    // 12:00Z.
    let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
    #expect(ChartDate.inFileName("2024-05-05T12-00.json")?.iso8601 == "2024-05-05T12:00:00Z")
    #expect(
      ChartDate.inFileName("2024-05-05T12-00.json", timeZone: seoul)?.iso8601
        == "2024-05-05T03:00:00Z")
    // A date alone is the day, whatever the zone; a local time the clocks skipped is none.
    #expect(ChartDate.inFileName("2024-05-05.json", timeZone: seoul)?.iso8601 == "2024-05-05")
    let newYork = try #require(TimeZone(identifier: "America/New_York"))
    #expect(ChartDate.inFileName("2024-03-10T02-30.json", timeZone: newYork) == nil)
    // And is said to be, not "no chart date".
    #expect(
      ChartDate.problem(inFileName: "2024-03-10T02-30.json", timeZone: newYork)
        == "the file name's '2024-03-10T02:30:00' is no time in America/New_York: its clocks"
        + " skipped it (a change to summer time)")
    #expect(ChartDate.problem(inFileName: "2024-03-10T02-30.json") == nil)
  }

  @Test func ordersDatesAndTimesAsInstants() throws {
    let dates = try ["2024-01-06T13:00:00Z", "2024-01-06", "2024-01-05T23:00:00Z", "2023-12-30"]
      .map { try ChartDate(iso8601: $0) }
    #expect(
      dates.sorted().map(\.iso8601) == [
        "2023-12-30", "2024-01-05T23:00:00Z", "2024-01-06", "2024-01-06T13:00:00Z",
      ])
  }

  @Test(arguments: [
    ("2024-01-06.json", "2024-01-06"),
    ("top50-2024-05-01.json", "2024-05-01"),
    ("2024-01-06T13-00.json", "2024-01-06T13:00:00Z"),
    ("chart_2024-01-06T0930.json", "2024-01-06T09:30:00Z"),
    ("2023-02-30.json", nil),
    // An hourly chart's invalid time never falls back to the calendar date.
    ("2024-01-06T25-00.json", nil),
    ("2024-01-06T13-99.json", nil),
    ("12024-01-06.json", nil),
    ("chart.json", nil),
  ])
  func findsDatesInFileNames(name: String, expected: String?) {
    #expect(ChartDate.inFileName(name)?.iso8601 == expected)
  }

  /// A name whose date the import would take is refused when it is not one date, rather than
  /// its first date taken (or none, and the user told only that there is no date).
  @Test(arguments: [
    ("2023-02-30.json", "'2023-02-30' in the file name is not a valid date"),
    ("2024-13-01.json", "'2024-13-01' in the file name is not a valid date"),
    ("2024-05-11T25-00.json", "'2024-05-11T25-00' in the file name is not a valid date and time"),
    (
      "2024-05-09--2024-05-08.json",
      "the period in the file name ends (2024-05-08) before it starts (2024-05-09)"
    ),
    (
      "2024-05-12_2024-05-13.json",
      "the file name holds more than one date (2024-05-12, 2024-05-13), and not as a period"
        + " START--END, whose end would be the chart date"
    ),
    (
      "x-2024-05-14-y-2024-05-15T10-00.json",
      "the file name holds more than one date (2024-05-14, 2024-05-15T10-00), and not as a"
        + " period START--END, whose end would be the chart date"
    ),
    ("regional-global-weekly-2019-12-27--2020-01-03.csv", nil),
    ("top200-2024-05-19.json", nil),
    ("2024-05-18T13-00.json", nil),
    ("12024-01-06.json", nil),
    ("chart.json", nil),
  ])
  func aFileNameGivesOneDateOrSaysWhatIsWrong(name: String, problem: String?) {
    #expect(ChartDate.problem(inFileName: name) == problem)
  }
}

struct SongIdentityTests {
  @Test(arguments: [
    ("Blinding  Lights ", "blinding lights"),
    ("\tTHE\nWeeknd", "the weeknd"),
    ("Beyoncé", "beyonce"),
    // NFD (e + combining acute) folds to the same text as NFC.
    ("Beyonce\u{301}", "beyonce"),
    ("STRASSE  Ünter", "strasse unter"),
  ])
  func foldsText(text: String, folded: String) {
    #expect(SongIdentity.fold(text) == folded)
  }

  @Test func songURLIsTheIdentityWhenGiven() {
    let first = SongIdentity(title: "Flowers", artist: "Miley Cyrus", songURL: "https://x/1")
    let renamed = SongIdentity(title: "Flowers (Live)", artist: "Miley", songURL: " https://x/1 ")
    let other = SongIdentity(title: "Flowers", artist: "Miley Cyrus", songURL: "https://x/2")
    #expect(first == renamed)
    #expect(first != other)
    #expect(first.key == "url:https://x/1")
  }

  @Test func titleAndArtistAreTheIdentityOtherwise() {
    let first = SongIdentity(title: "Flowers", artist: "Miley Cyrus", songURL: nil)
    let spaced = SongIdentity(title: " FLOWERS", artist: "miley  cyrus", songURL: "  ")
    #expect(first == spaced)
    #expect(first.key == "song:flowers\u{1F}miley cyrus")
    #expect(first != SongIdentity(title: "Flowers", artist: "Miley Cyrus & X", songURL: nil))
  }

  @Test(arguments: [
    ("spotify-daily", ChartFrequency.daily), ("app_total", .allTime), ("hourly", .hourly),
    ("charts/weekly", .weekly), ("hot-100", nil), ("dailymix", nil),
  ])
  func guessesFrequencyFromChartName(name: String, frequency: ChartFrequency?) {
    #expect(ChartFrequency.guessed(fromChartName: name) == frequency)
  }

  @Test(arguments: [
    (Int64(1_710_676_800), "2024-03-17T12:00:00Z"), (1_710_633_600, "2024-03-17"),
    (0, "1970-01-01"),
    (-1, "1969-12-31T23:59:59Z"), (-62_135_596_800, "0001-01-01"),
    (253_402_300_799, "9999-12-31T23:59:59Z"),
  ])
  func anInstantIsADateAtMidnightAndADateAndTimeOtherwise(seconds: Int64, iso: String) throws {
    let date = try #require(ChartDate(secondsSince1970: seconds))
    #expect(date.iso8601 == iso)
    #expect(date.secondsSince1970 == seconds)
  }

  @Test(arguments: [Int64(-62_135_596_801), 253_402_300_800, .max, .min])
  func anInstantOutsideTheYearsOfADateIsNone(seconds: Int64) {
    #expect(ChartDate(secondsSince1970: seconds) == nil)
  }
}
