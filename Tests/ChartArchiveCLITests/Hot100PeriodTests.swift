import ChartRanking
import ChartStorage
import Foundation
import Testing

/// Billboard's published year-end lists (Tests/Fixtures/billboard-year-end-hot-100.tsv): year →
/// rank → title.
private let yearEnd: [Int: [Int: String]] = {
  let path = packageRoot.appendingPathComponent("Tests/Fixtures/billboard-year-end-hot-100.tsv")
    .path
  let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  var years: [Int: [Int: String]] = [:]
  for line in text.split(separator: "\n") where !line.hasPrefix("#") {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 5, let year = Int(fields[0]), let rank = Int(fields[1]) else { continue }
    years[year, default: [:]][rank] = String(fields[2])
  }
  return years
}()

/// A title as the year-end lists and the weekly charts both write it: lower case, without a
/// leading "The", the part before a slash (a double A-side), without parentheses (unless that
/// leaves nothing), letters and digits only.
private func titleKey(_ title: String) -> String {
  var text = title.lowercased().replacingOccurrences(of: "&", with: "and")
  text = String(text.drop { !$0.isLetter && !$0.isNumber })
  if text.hasPrefix("the ") { text = String(text.dropFirst(4)) }
  text = String(text.split(separator: "/", omittingEmptySubsequences: false).first ?? "")
  let bare = text.replacingOccurrences(of: #"\([^)]*\)"#, with: "", options: .regularExpression)
  if bare.contains(where: { $0.isLetter || $0.isNumber }) { text = bare }
  return String(text.unicodeScalars.filter(CharacterSet.alphanumerics.contains))
}

/// Whether a published title and an archive's title name one song: equal keys, or one key the
/// start of the other ("Maggie May" and "Maggie May / Reason To Believe").
private func sameSong(_ published: String, _ archived: String) -> Bool {
  let (one, other) = (titleKey(published), titleKey(archived))
  return !one.isEmpty && !other.isEmpty && (one.hasPrefix(other) || other.hasPrefix(one))
}

/// The archive's year chart of the whole Hot 100 against Billboard's published year-end lists,
/// 1960–2024: how often the number one agrees, and how many of the published top 10 are in the
/// archive's top 10 (docs/rules.md, "Periods").
@Suite(.enabled(if: hot100IsPresent, hot100Absent))
struct Hot100PeriodTests {
  /// The agreement of a scoring: (years whose number one agrees, published top-10 songs in the
  /// archive's top 10, published top-10 songs recorded).
  ///
  /// - Parameter calendar: whether the year is the calendar year rather than Billboard's.
  static func agreement(_ scoring: PeriodScoring, calendar: Bool = false) throws -> (Int, Int, Int)
  {
    _ = try Hot100Tests.firstImport.get()
    let archive = try Archive(path: Hot100Tests.archive, access: .read)
    var (numberOnes, topTens, recorded) = (0, 0, 0)
    for year in 1960...2024 {
      let period = try archive.read {
        try $0.periodChart(
          of: "hot-100", span: .year(year, frequency: calendar ? nil : .weekly), scoring: scoring,
          limit: 10)
      }
      let published = try #require(yearEnd[year])
      if let first = period.songs.first, sameSong(try #require(published[1]), first.title) {
        numberOnes += 1
      }
      for title in published.values {
        recorded += 1
        if period.songs.contains(where: { sameSong(title, $0.title) }) { topTens += 1 }
      }
    }
    return (numberOnes, topTens, recorded)
  }

  @Test func theDefaultScoringAgreesWithBillboardsNumberOneIn44Of65Years() throws {
    let (numberOnes, topTens, recorded) = try Self.agreement(.root)
    #expect(numberOnes == 44)
    #expect(topTens == 269)
    #expect(recorded == 337)
  }

  @Test func theOtherScoringsAgreeLess() throws {
    let linear = try Self.agreement(.linear)
    #expect(linear.0 == 21)
    #expect(linear.1 == 231)
    let billboard = try Self.agreement(.billboard)
    #expect(billboard.0 == 37)
    #expect(billboard.1 == 267)
    // The calendar year agrees less than Billboard's December to November.
    let calendar = try Self.agreement(.root, calendar: true)
    #expect(calendar.0 == 38)
    #expect(calendar.1 == 246)
  }

  /// Years a fan knows, by the default: the year's number one with its weeks at number one.
  @Test func knownYearNumberOnes() throws {
    _ = try Hot100Tests.firstImport.get()
    for (year, title, atPeak) in [
      (1984, "When Doves Cry", 5), (2019, "Old Town Road", 19), (1983, "Every Breath You Take", 8),
    ] {
      let run = try chartArchive([
        "period", "hot-100", "--year", String(year), "--limit", "1", "--db", Hot100Tests.archive,
        "--format", "json",
      ])
      let first = try #require((try json(run.output)["entries"] as? [[String: Any]])?.first)
      #expect(first["title"] as? String == title)
      #expect(first["peak"] as? Int == 1)
      #expect(first["at_peak"] as? Int == atPeak)
    }
  }

  /// The issue's own example: 101 − rank over the calendar year 1985 puts Take On Me first, which
  /// Billboard ranked 10th; the default puts Careless Whisper (Billboard's number one) second.
  @Test func linearScoringOf1985FavoursLongRunsLowOnTheChart() throws {
    _ = try Hot100Tests.firstImport.get()
    let run = try chartArchive([
      "period", "hot-100", "--from", "1985-01-01", "--to", "1985-12-31", "--scoring", "linear",
      "--limit", "1", "--db", Hot100Tests.archive, "--format", "csv",
    ])
    #expect(run.status == 0)
    #expect(
      run.output
        == "chart,from,to,scoring,rank,movement,previous_rank,title,artist,points,peak,at_peak,"
        + "periods\r\nhot-100,1985-01-01,1985-12-31,linear,1,new,,Take On Me,a-ha,1605,1,1,25\r\n")
    let year = try chartArchive([
      "period", "hot-100", "--year", "1985", "--limit", "2", "--db", Hot100Tests.archive,
    ])
    #expect(year.output.contains("   2  NEW         Careless Whisper"))
  }
}
