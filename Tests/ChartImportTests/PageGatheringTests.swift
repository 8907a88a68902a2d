import ChartFormats
import ChartImport
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// One page of an Apple Music chart: `titles` in order, with its own offset in its address and
/// the next page's when `next` is given.
private func page(_ titles: [String], offset: Int?, next: Int?) -> Data {
  let data = titles.map { #"{"attributes": {"name": "\#($0)", "artistName": "A"}}"# }
  var members = [#""chart": "most-played""#, #""data": [\#(data.joined(separator: ", "))]"#]
  if let offset {
    members.append(#""href": "/v1/catalog/us/charts?chart=most-played&offset=\#(offset)""#)
  }
  if let next {
    members.append(#""next": "/v1/catalog/us/charts?chart=most-played&offset=\#(next)""#)
  }
  return Data(#"{"results": {"songs": [{\#(members.joined(separator: ", "))}]}}"#.utf8)
}

/// The pages of a chart imported together are joined into one snapshot, whatever their order.
struct PageGatheringTests {
  private func run(_ pages: [Data], skipping: Bool = false) throws -> (Archive, ImportReport) {
    let archive = try Archive(path: ":memory:", access: .create)
    let sources = pages.enumerated().map { index, data in
      ImportSource.bytes(data, name: "apple/2024-03-21-\(index + 1).json")
    }
    let report = try Importer.run(
      sources, into: archive, options: ImportOptions(skippingInvalid: skipping))
    return (archive, report)
  }

  private func ranksAndTitles(_ archive: Archive) throws -> [String] {
    try archive.read { reader in
      let snapshot = try reader.snapshot(of: "apple", at: nil)
      return try reader.entries(of: snapshot.id).map { "\($0.entry.rank) \($0.entry.title)" }
    }
  }

  @Test func pagesImportedInAnyOrderAreOneChart() throws {
    // The last page names no offset of its own: it takes the place the others leave.
    let (archive, report) = try run([
      page(["E"], offset: nil, next: nil), page(["C", "D"], offset: 2, next: 4),
      page(["A", "B"], offset: nil, next: 2),
    ])
    #expect(try ranksAndTitles(archive) == ["1 A", "2 B", "3 C", "4 D", "5 E"])
    #expect(report.imported == 1)
    // The first page's source, then the others in page order.
    #expect(report.snapshots.map { [$0.source] + $0.otherPages } == [[2, 1, 0]])
    #expect(report.snapshots.map(\.entryCount) == [5])
    #expect(report.unfinishedCharts.isEmpty)
  }

  @Test func aChartWhoseLastPagesAreMissingIsStoredAsFarAsItGoesAndSaidSo() throws {
    let (archive, report) = try run([page(["A", "B"], offset: 0, next: 2)])
    #expect(try ranksAndTitles(archive) == ["1 A", "2 B"])
    #expect(
      report.unfinishedCharts.map {
        "\($0.sources) \($0.chart) \($0.chartDate) \($0.entryCount) \($0.nextOffset)"
      } == ["[0] apple 2024-03-21 2 2"])
  }

  @Test(arguments: [
    (
      [page(["C", "D"], offset: 2, next: nil)],
      [
        "apple/2024-03-21-1.json: entries 3 to 4 of chart 'apple' of 2024-03-21: its entries 1 to 2"
          + " are on a page not among the files imported (import every page of a chart together)"
      ]
    ),
    (
      [page(["A", "B"], offset: 0, next: 2), page(["A2", "B2"], offset: 0, next: 2)],
      [
        "apple/2024-03-21-1.json: entries 1 to 2 of chart 'apple' of 2024-03-21:"
          + " apple/2024-03-21-1.json holds entry 1 too (import every page of a chart together)",
        "apple/2024-03-21-2.json: entries 1 to 2 of chart 'apple' of 2024-03-21:"
          + " apple/2024-03-21-1.json holds entry 1 too (import every page of a chart together)",
      ]
    ),
    (
      [page(["A"], offset: nil, next: nil), page(["B"], offset: nil, next: nil)],
      [
        "apple/2024-03-21-1.json: a page of 1 entry that tells no offset of chart 'apple' of"
          + " 2024-03-21: two of its pages say neither where they start nor where the next one does (import every"
          + " page of a chart together)",
        "apple/2024-03-21-2.json: a page of 1 entry that tells no offset of chart 'apple' of"
          + " 2024-03-21: two of its pages say neither where they start nor where the next one does (import every"
          + " page of a chart together)",
      ]
    ),
  ])
  func pagesThatDoNotJoinAreRefused(pages: [Data], problems: [String]) throws {
    do {
      _ = try run(pages)
      Issue.record("expected the import to be refused")
    } catch let error as ImportError {
      guard case .refused(let refused, _) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(
        refused.flatMap { source -> [String] in
          guard case .invalid(let error) = source.reason else { return ["\(source.reason)"] }
          return error.description.components(separatedBy: "\n")
        } == problems)
    }
  }
}
