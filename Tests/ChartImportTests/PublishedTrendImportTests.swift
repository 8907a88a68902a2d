import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// The movements a source publishes are stored with the entries and checked as the figures are:
/// each disagreement a verdict, kept across imports in any order.
struct PublishedTrendImportTests {
  /// A kworb.net day: Run It Back at 2 with the marker given, Gravity Well at 1 unchanged.
  static func day(_ date: String, runItBack: String, wasAt rank: Int? = nil) -> ImportSource {
    let rows =
      rank == 6
      ? "1,=,KAIROS - Gravity Well,76,1,,\"5,990,000\",,,,\n"
        + "2,\(runItBack),Tomo & The Tides - Run It Back,30,2,,\"5,000,000\",,,,\n"
      : "1,=,KAIROS - Gravity Well,77,1,,\"5,990,000\",,,,\n"
        + "2,\(runItBack),Tomo & The Tides - Run It Back,31,2,,\"5,000,000\",,,,\n"
    let text =
      "Pos,P+,Artist and Title,Days,Pk,(x?),Streams,Streams+,7Day,7Day+,Total\n" + rows
    return .bytes(Data(text.utf8), name: "k/kworb-global-daily-\(date).csv")
  }

  /// Run It Back is at 2 on both days: unchanged, and the second day says "+1".
  static let first = day("2024-03-22", runItBack: "+4", wasAt: 6)
  static let second = day("2024-03-23", runItBack: "+1")

  @Test(arguments: [false, true])
  func aTrendThatDisagreesIsAVerdictWhateverTheOrder(newestFirst: Bool) throws {
    let (folder, archive) = try archiveInFolder()
    defer { _ = folder }
    let options = ImportOptions(chart: "k")
    let order = newestFirst ? [Self.second, Self.first] : [Self.first, Self.second]
    var reports: [ImportReport] = []
    for source in order {
      reports.append(try Importer.run([source], into: archive, options: options))
    }
    let audit = try archive.read { try $0.audit(of: "k") }
    #expect(audit.agreements[4] == FigureAgreement(figure: .movement, compared: 2, agreeing: 1))
    // (The days on chart, 76 and 77, are a source gap: the archive holds two.)
    let movements = audit.disagreements.filter { $0.figure == .movement }
    #expect(movements.map(\.chartDate.iso8601) == ["2024-03-23"])
    #expect(
      movements.map(\.entry.publishedTrend) == [
        PublishedTrend(.up(places: 1), text: "+1")
      ])
    #expect(movements.map(\.derivedMovement) == [.unchanged])
    #expect(movements.map(\.cause) == [.unexplained])
    // In date order, the second day's import tells it; newest first, the second day has no
    // previous snapshot when it is stored, and the first day's import decides it again.
    let told = reports.flatMap(\.trendDisagreements).map { "\($0.chartDate) \($0.published.text)" }
    #expect(told == (newestFirst ? [] : ["2024-03-23 +1"]))
    // The same file again is the same snapshot; the same day with another marker is another.
    #expect(try Importer.run([Self.second], into: archive, options: options).unchanged == 1)
    #expect(throws: ImportError.self) {
      try Importer.run([Self.day("2024-03-23", runItBack: "=")], into: archive, options: options)
    }
  }
}
