import ChartFormats
import ChartRanking
import Foundation
import Testing

@testable import ChartArchiveCLI

/// The malformed inputs of the chart file readers, each with the problems the command line
/// reports (`Tests/ChartFormatsTests/Malformed/expected-errors.tsv`: file name, a tab, one
/// problem per line, with remedies in the command line's words).
private let corpus = packageRoot.appendingPathComponent("Tests/ChartFormatsTests/Malformed")

private let expectations: [String: [String]] = {
  let text =
    (try? String(contentsOf: corpus.appendingPathComponent("expected-errors.tsv"), encoding: .utf8))
    ?? ""
  var expected: [String: [String]] = [:]
  for line in text.split(separator: "\n") {
    let parts = line.split(separator: "\t", maxSplits: 1)
    expected[String(parts[0]), default: []].append(String(parts[1]))
  }
  return expected
}()

struct MalformedCorpusTests {
  @Test func theCorpusHasSixtyInputsOrMoreEachWithItsExpectedErrors() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
      $0 != "expected-errors.tsv"
    }
    #expect(files.count >= 60)
    #expect(Set(files) == Set(expectations.keys))
  }

  @Test(arguments: expectations.keys.sorted())
  func eachMalformedInputIsRefusedWithItsExpectedErrors(name: String) {
    let path = corpus.appendingPathComponent(name).path
    do {
      let file = try ChartFileReader().read(contentsOf: path)
      Issue.record(
        "\(name) was read as \(file.format.rawValue) with \(file.snapshots.count) snapshots")
    } catch {
      #expect(error.path == path)
      #expect(
        error.problems.map { $0.description(wordingRemedy: RemedyWords.wording) }
          == expectations[name])
    }
  }

  /// A title of 1 MB is refused for its length; one of 10 MB for the bound on a field, before
  /// it is gathered.
  @Test func aTenMegabyteTitleIsRefusedWithoutTrouble() throws {
    func file(title: String) -> Data {
      Data(
        (#"{"date":"2024-01-06","data":[{"song":""# + title + #"","artist":"X","this_week":1}]}"#)
          .utf8)
    }
    #expect(
      throws: ChartFileError(
        path: "big.json",
        problems: [
          ChartFileProblem(
            entry: 1, rank: 1, field: "song",
            message: "1000000 characters long; at most 10000 are accepted")
        ])
    ) {
      try ChartFileReader().decode(
        file(title: String(repeating: "la", count: 500_000)), path: "big.json")
    }
    #expect(
      throws: ChartFileError(
        path: "big.json",
        problems: [
          ChartFileProblem(
            line: 1,
            message: "the string at column 39 is longer than 1,048,576 bytes (1 MiB), the bound on"
              + " a field", bound: .field(1 << 20))
        ])
    ) {
      try ChartFileReader().decode(
        file(title: String(repeating: "la", count: 5_000_000)), path: "big.json")
    }
  }

  @Test func aURLLongerThan64KiBIsRefused() throws {
    // A 60 MB song URL was stored. One of 65,536 bytes is kept.
    func feed(_ length: Int) -> Data {
      let url = "https://m.example/" + String(repeating: "a", count: length - 18)
      return Data(#"[{"title": "A", "artist": "X", "url": "\#(url)"}]"#.utf8)
    }
    #expect(
      throws: ChartFileError(
        path: "feed-daily/2024-05-06.json",
        problems: [
          ChartFileProblem(
            entry: 1, rank: 1, field: "url",
            message: "65537 bytes long; at most 65536 are accepted in a URL")
        ])
    ) { try ChartFileReader().decode(feed(65_537), path: "feed-daily/2024-05-06.json") }
    let kept = try ChartFileReader().decode(feed(65_536), path: "feed-daily/2024-05-06.json")
    #expect(kept.snapshots.first?.entries.first?.songURL?.utf8.count == 65_536)
  }
}
