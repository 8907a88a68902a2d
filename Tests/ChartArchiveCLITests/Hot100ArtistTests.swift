import ChartRanking
import ChartStorage
import Foundation
import Testing

/// Artists on the real Hot 100: careers and leaderboards a fan can check. The counts are the
/// data's: Billboard's own counts differ where the data credits an artist under another name
/// (docs/rules.md, "Artists").
@Suite(.enabled(if: hot100IsPresent, hot100Absent))
struct Hot100ArtistTests {
  /// The number ones, top 10s and songs `artist NAME --chart hot-100` gives.
  static func totals(_ name: String) throws -> [Int] {
    _ = try Hot100Tests.firstImport.get()
    let run = try chartArchive([
      "artist", name, "--chart", "hot-100", "--format", "json", "--db", Hot100Tests.archive,
    ])
    #expect(run.status == 0, "\(name): \(run.error)")
    let json = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    let chart = (json?["charts"] as? [[String: Any]])?.first
    return ["number_ones", "top_10s", "entries"].map { chart?[$0] as? Int ?? -1 }
  }

  @Test func numberOnesOfWellKnownArtists() throws {
    // Billboard's counts: The Beatles 20, Mariah Carey 19, Rihanna 14, Michael Jackson 13,
    // Madonna 12, Whitney Houston 11; Elvis Presley's 7 of the Hot 100's era (from August 1958).
    #expect(try Self.totals("The Beatles")[0] == 20)
    #expect(try Self.totals("Mariah Carey")[0] == 19)
    #expect(try Self.totals("Rihanna")[0] == 14)
    #expect(try Self.totals("Michael Jackson")[0] == 13)
    #expect(try Self.totals("Madonna")[0] == 12)
    #expect(try Self.totals("Whitney Houston")[0] == 11)
    #expect(try Self.totals("Elvis Presley")[0] == 7)
    // Janet Jackson's 10 are 7 under her name and 3 credited "Janet".
    #expect(try Self.totals("Janet Jackson")[0] == 7)
    #expect(try Self.totals("Janet")[0] == 3)
  }

  @Test func theLeaderboardsOfTheWholeHistory() throws {
    _ = try Hot100Tests.firstImport.get()
    let archive = try Archive(path: Hot100Tests.archive, access: .read)
    let ones = try archive.read {
      try $0.artistLeaderboard(.numberOnes, chart: "hot-100", limit: 2)
    }
    #expect(
      ones.rows.map { "\($0.rank) \($0.artist.name) \($0.figure)" } == [
        "1 The Beatles 20", "2 Mariah Carey 19",
      ])
    #expect(ones.rows[0].firstDate.iso8601 == "1964-02-01")
    #expect(ones.rows[0].lastDate.iso8601 == "1970-06-20")
    let entries = try archive.read {
      try $0.artistLeaderboard(.entries, chart: "hot-100", limit: 1)
    }
    #expect(entries.rows.map(\.artist.name) == ["Drake"])
  }
}
