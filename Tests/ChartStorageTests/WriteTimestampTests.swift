import ChartRanking
import Foundation
import Testing

@testable import ChartStorage

/// The time a write records on the snapshots it stores (`imported_at`) and the decisions it makes
/// (`made_at`): ISO 8601 in UTC to the second, the text Foundation's `Date.formatted(.iso8601)`
/// gave before the writer wrote it itself.
struct WriteTimestampTests {
  @Test func instantsAreWrittenInUTCToTheSecond() {
    #expect(ChartDate.timestamp(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
    #expect(ChartDate.timestamp(secondsSince1970: -1) == "1969-12-31T23:59:59Z")
    #expect(ChartDate.timestamp(secondsSince1970: 951_782_400) == "2000-02-29T00:00:00Z")
    #expect(ChartDate.timestamp(secondsSince1970: 1_700_000_000) == "2023-11-14T22:13:20Z")
    #expect(ChartDate.timestamp(secondsSince1970: 253_402_300_799) == "9999-12-31T23:59:59Z")
    #expect(ChartDate.timestamp(secondsSince1970: 253_402_300_800) == nil)
    #expect(ChartDate.timestamp(secondsSince1970: .max) == nil)
  }

  @Test func theTextIsFoundationsISO8601() {
    for seconds: Int64 in [
      -2_208_988_800, -86_401, 0, 59, 3_599, 86_399, 951_868_799, 1_234_567_890, 1_798_761_600,
      4_102_444_800,
    ] {
      let foundation = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
      #expect(ChartDate.timestamp(secondsSince1970: seconds) == foundation, "\(seconds)")
    }
  }

  @Test func aWriteRecordsWhenItBegan() throws {
    let archive = try Archive(path: ":memory:", access: .create)
    let before = Int64(Date.now.timeIntervalSince1970)
    let stamp = try archive.write { $0.importedAt }
    let after = Int64(Date.now.timeIntervalSince1970)
    let parsed = try Date(stamp, strategy: .iso8601)
    #expect((before...after).contains(Int64(parsed.timeIntervalSince1970)))
  }
}
