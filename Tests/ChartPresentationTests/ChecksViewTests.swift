import ChartRanking
import ChartStorage
import Testing

@testable import ChartPresentation

/// The words of an archive check's findings, which storage gives as data.
struct ChecksViewTests {
  @Test func eachFindingIsOneLineNamingWhereItIs() {
    let findings: [(ArchiveFinding, String)] = [
      (
        .schemaUnreadable(message: "file is not a database"),
        "the schema cannot be read: file is not a database"
      ),
      (
        .notChecked(message: "database disk image is malformed"),
        "could not be checked: database disk image is malformed"
      ),
      (
        .notCheckedFurther(message: "disk I/O error"),
        "could not be checked further: disk I/O error"
      ),
      (
        .integrity("row 3 missing from index entries_by_song"),
        "row 3 missing from index entries_by_song"
      ),
      (
        .missingReference(table: "entries", rowID: 7, parent: "songs"),
        "entries row 7 refers to a missing songs row"
      ),
      (
        .rankOutOfOrder(chart: "c", chartDate: "2024-01-06", position: 2, rank: 2, previousRank: 5),
        "c 2024-01-06: entry 2 has rank 2, below the rank 5 of the entry before it"
      ),
      (
        .rankBelowOne(chart: "c", chartDate: "2024-01-06", rank: 0),
        "c 2024-01-06: rank 0 is below 1"
      ),
      (.emptySnapshot(chart: "c", chartDate: "2024-01-13"), "c 2024-01-13: no entries"),
      (
        .invalidChartDate(chart: "c", text: "2024-02-30"),
        "c '2024-02-30': not an ISO 8601 chart date"
      ),
      (
        .instantDisagrees(chart: "c", chartDate: "2024-01-06", stored: 1, dated: 1_704_499_200),
        "c 2024-01-06: stored as the instant 1, which is 1704499200"
      ),
      (
        .missingSong(chartDate: "2024-01-06", rank: 3, song: 9),
        "2024-01-06 rank 3: song 9 is missing"
      ),
      (
        .brokenConstraint(
          row: .entry(chart: "c", chartDate: "2024-01-06", position: 1), constraint: "streams >= 0"),
        "c 2024-01-06 entry 1: streams >= 0"
      ),
      (
        .brokenConstraint(row: .snapshot(4), constraint: "entry_count >= 0"),
        "snapshot 4: entry_count >= 0"
      ),
      (.brokenConstraint(row: .song(2), constraint: "recording >= 1"), "song 2: recording >= 1"),
      (
        .brokenConstraint(row: .chart(1), constraint: "length(name) > 0"),
        "chart 1: length(name) > 0"
      ),
      (
        .brokenConstraint(
          row: .verdict(snapshot: 4, position: 2), constraint: "cause BETWEEN 0 AND 6"),
        "verdict of snapshot 4 entry 2: cause BETWEEN 0 AND 6"
      ),
    ]
    for (finding, words) in findings { #expect(ChecksView.words(finding) == words) }
  }

  @Test func anArtistTotalThatDisagreesIsWorded() {
    let total = ArtistTotal(total: 12, firstDate: "2009-05-02", lastDate: "2023-01-07")
    #expect(
      ChecksView.words(
        .artistTotalDisagrees(
          chart: "hot-100", artist: "Drake", figure: .topTens, kept: total, counted: nil))
        == "hot-100, Drake, top-10s: kept 12 (2009-05-02 to 2023-01-07), counted none")
  }

  @Test func everyCheckHasItsName() {
    #expect(
      ArchiveCheck.Kind.allCases.map(ChecksView.name) == [
        "SQLite integrity", "foreign keys", "ranks positive and in order per snapshot",
        "snapshots dated, ordered and not empty", "every entry's song present",
        "numbers within CHECK constraints", "artist totals agree with the entries",
      ])
  }
}
