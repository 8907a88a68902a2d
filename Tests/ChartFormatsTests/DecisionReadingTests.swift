import ChartRanking
import Foundation
import Testing

@testable import ChartFormats

/// The decisions an export carries, read whole, read as the export streams by (a file too large
/// to be read whole), and read by the streaming reader and the tree alike.
struct DecisionReadingTests {
  private static let merge = SongDecision(
    kind: .merge, madeAt: "2026-11-30T10:00:00Z",
    songs: [
      [
        DecisionEntry(
          chart: "lastfm-weekly", chartDate: try! ChartDate(iso8601: "2024-01-07"),
          title: "Paper Moons", artist: "Mara Vey",
          songURL: "https://www.last.fm/music/Mara+Vey/_/Paper+Moons")
      ],
      [
        DecisionEntry(
          chart: "lastfm-weekly", chartDate: try! ChartDate(iso8601: "2024-01-14"),
          title: "Paper Moons (Live)", artist: "Mara Vey", songURL: nil)
      ],
    ])
  private static let split = SongDecision(
    kind: .split, madeAt: "2026-11-30T10:05:00Z",
    songs: [
      [
        DecisionEntry(
          chart: "lastfm-weekly", chartDate: try! ChartDate(iso8601: "2024-01-21"),
          title: "Night Drive", artist: "Sol", songURL: nil)
      ]
    ])

  /// An export of `weeks` one-entry snapshots with the two decisions, as `export` writes it.
  private static func export(weeks: Int) -> Data {
    var text = NativeFormatWriter.jsonOpening(decisions: [merge, split])
    for week in 0..<weeks {
      if week > 0 { text += NativeFormatWriter.jsonSeparator }
      let date = ChartDate(secondsSince1970: Int64(1_704_585_600 + week * 7 * 86_400))!
      text += NativeFormatWriter.json(
        Snapshot(
          chart: "lastfm-weekly", chartDate: date, publishesPreviousRank: false,
          entries: [ChartEntry(rank: 1, title: "Paper Moons", artist: "Mara Vey")]),
        frequency: .weekly)
    }
    return Data((text + NativeFormatWriter.jsonClosing).utf8)
  }

  @Test func anExportsDecisionsAreReadWholeAndInParts() throws {
    let data = Self.export(weeks: 20)
    let whole = try ChartFileReader().decode(data, path: "export.json")
    #expect(whole.decisions == [Self.merge, Self.split])
    #expect(whole.snapshots.count == 20)
    var reader = ChartFileReader()
    reader.largeFileSize = 1_000
    var parts: [DecodedChartFile] = []
    try reader.decode(data, path: "export.json", weeksPerPart: 8) { part, _ in
      parts.append(part)
      return true
    }
    #expect(parts.map(\.snapshots.count) == [8, 8, 4])
    #expect(parts.map(\.decisions) == [[Self.merge, Self.split], [], []])
    #expect(parts.flatMap(\.snapshots) == whole.snapshots)
  }

  @Test func theStreamingReaderReadsDecisionsAsTheTreeDoes() throws {
    let data = Self.export(weeks: 2)
    let streamed = try #require(data.withUnsafeBytes(StreamingReader.fileFields))
    let tree = try data.withUnsafeBytes { try JSONTree.parse($0) }
    #expect(streamed == JSONFileFields(json: tree, forced: nil))
    #expect(streamed.decisions == [Self.merge, Self.split])
  }

  /// A decision with a problem is left to the tree, which names it; a split naming two entries
  /// and a merge naming one song are refused.
  @Test func aDecisionWithAProblemIsNamed() throws {
    let cases: [(String, String)] = [
      (
        #"{"kind": "split", "made_at": "x", "songs": [[{"chart": "c", "chart_date": "2024-01-06","#
          + #" "title": "A", "artist": "B"}, {"chart": "c", "chart_date": "2024-01-13", "title": "A","#
          + #" "artist": "B"}]]}"#,
        "decision 1: songs: a split names one song by one entry"
      ),
      (
        #"{"kind": "merge", "made_at": "x", "songs": [[{"chart": "c", "chart_date": "2024-01-06","#
          + #" "title": "A", "artist": "B"}]]}"#,
        "decision 1: songs: a merge names two songs or more"
      ),
      (
        #"{"kind": "merge", "made_at": "x", "songs": [[{"chart": "c", "chart_date": "06/01/2024","#
          + #" "title": "A", "artist": "B"}], [{"chart": "c", "title": "A", "artist": "B"}]]}"#,
        "decision 1: song 1, entry 1: chart_date '06/01/2024': "
      ),
      (
        #"{"kind": "merge", "made_at": "x", "songs": [[{"chart": "c", "chart_date": "2024-01-06","#
          + #" "title": "A", "artist": "B"}], [{"chart": "c", "title": "A", "artist": "B"}]]}"#,
        "decision 1: song 2, entry 1: chart_date: missing"
      ),
    ]
    for (decision, message) in cases {
      let data = Data(
        (#"{"decisions": ["# + decision + #"], "snapshots": [{"chart": "c","#
          + #" "chart_date": "2024-01-06", "entries": [{"rank": 1, "title": "A", "artist": "B"}]}]}"#)
          .utf8)
      #expect(data.withUnsafeBytes(StreamingReader.fileFields) == nil)
      #expect(throws: ChartFileError.self) { try ChartFileReader().decode(data, path: "e.json") }
      do {
        _ = try ChartFileReader().decode(data, path: "e.json")
      } catch {
        #expect(error.problems.map(\.description).contains { $0.contains(message) }, "\(error)")
      }
    }
  }
}
