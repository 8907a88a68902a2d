import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation
import Testing

/// A chart's records on a made-up weekly chart of three places, with every edge the rules name:
///
///     2024-01-06  A B C   the chart's first snapshot: no debuts, no rises
///     2024-01-13  B A D   B climbs 2→1 (its first stay at number one), D debuts at 3
///     2024-01-20  E B A   E debuts at number one; B and A fall one place
///     2024-01-27  B C E   B back at number one (its second stay); C re-enters at 2, higher than
///                         it ever was, which is no climb; E falls 1→3
///     2024-02-03  B D C   B's second week of its second stay; D re-enters
///     2024-02-10  D F B   D reaches number one in its third week on the chart; F debuts at 2
@Suite struct RecordsTests {
  static let weeks: [(String, [String])] = [
    ("2024-01-06", ["A", "B", "C"]), ("2024-01-13", ["B", "A", "D"]),
    ("2024-01-20", ["E", "B", "A"]), ("2024-01-27", ["B", "C", "E"]),
    ("2024-02-03", ["B", "D", "C"]), ("2024-02-10", ["D", "F", "B"]),
  ]

  /// The made-up chart, weekly, or daily on consecutive days from 2024-01-06.
  static func archive(daily: Bool = false) throws -> (TemporaryFolder, Archive) {
    let (folder, archive) = try archiveInFolder()
    let files = weeks.enumerated().map { index, week in
      let date = daily ? "2024-01-\(String(format: "%02d", 6 + index))" : week.0
      let text = nativeSnapshot(
        "toy", date, week.1.map { ($0, "Singer \($0)", nil, nil) },
        frequency: daily ? "daily" : "weekly")
      return (name: "toy/\(date).json", text: text)
    }
    _ = try importFiles(files, into: archive)
    return (folder, archive)
  }

  /// Each row as `rank title figure first last`, with `from→to` for a move.
  static func rows(_ board: Leaderboard) -> [String] {
    board.rows.map { row in
      let record = row.record
      guard case .song(let song) = record.holder else { return "artist" }
      var text = "\(row.rank) \(song.title) \(record.figure) \(record.firstDate)"
      if record.lastDate != record.firstDate { text += " \(record.lastDate)" }
      if let from = record.fromRank, let to = record.toRank { text += " \(from)→\(to)" }
      return text
    }
  }

  static func board(
    _ kind: RecordKind, from: String? = nil, to: String? = nil, limit: Int = 10,
    in archive: Archive
  ) throws -> [String] {
    let span = RecordSpan(
      from: try from.map { try ChartDate(iso8601: $0) },
      to: try to.map { try ChartDate(iso8601: $0) })
    return rows(
      try archive.read { try $0.leaderboard(kind, of: "toy", span: span, limit: limit) })
  }

  @Test func weeksAtNumberOneAddUpEveryStay() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    #expect(
      try Self.board(.weeksAtNumberOne, in: archive) == [
        "1 B 3 2024-01-13 2024-02-03", "2 A 1 2024-01-06", "2 E 1 2024-01-20", "2 D 1 2024-02-10",
      ])
    #expect(
      try Self.board(.longestStayAtNumberOne, in: archive) == [
        "1 B 2 2024-01-27 2024-02-03", "2 A 1 2024-01-06", "2 B 1 2024-01-13",
        "2 E 1 2024-01-20", "2 D 1 2024-02-10",
      ])
  }

  @Test func aSpanCutsAStay() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    #expect(
      try Self.board(.weeksAtNumberOne, from: "2024-01-20", to: "2024-02-03", in: archive) == [
        "1 B 2 2024-01-27 2024-02-03", "2 E 1 2024-01-20",
      ])
    #expect(
      try Self.board(.longestStayAtNumberOne, from: "2024-02-03", in: archive) == [
        "1 B 1 2024-02-03", "1 D 1 2024-02-10",
      ])
  }

  @Test func weeksOnChartAndRuns() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    #expect(
      try Self.board(.weeksOnChart, in: archive) == [
        "1 B 6 2024-01-06 2024-02-10", "2 A 3 2024-01-06 2024-01-20",
        "2 C 3 2024-01-06 2024-02-03", "2 D 3 2024-01-13 2024-02-10",
        "5 E 2 2024-01-20 2024-01-27", "6 F 1 2024-02-10",
      ])
    #expect(
      try Self.board(.longestRun, limit: 5, in: archive) == [
        "1 B 6 2024-01-06 2024-02-10", "2 A 3 2024-01-06 2024-01-20",
        "3 E 2 2024-01-20 2024-01-27", "3 C 2 2024-01-27 2024-02-03",
        "3 D 2 2024-02-03 2024-02-10",
      ])
    // In a span, the weeks the song counted in it: the last weeks on chart in the span less the
    // last before it.
    #expect(
      try Self.board(.weeksOnChart, from: "2024-01-20", to: "2024-02-03", in: archive) == [
        "1 B 3 2024-01-20 2024-02-03", "2 E 2 2024-01-20 2024-01-27",
        "2 C 2 2024-01-27 2024-02-03", "4 A 1 2024-01-20", "4 D 1 2024-02-03",
      ])
  }

  /// A song the archive first holds mid-run (the source's weeks on chart say 51) counts 51 weeks
  /// on the chart in all, and, in a span from that date, the one week it spent there.
  @Test func aSpanCountsTheWeeksInItOfASongWhoseStartTheArchiveLacks() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    _ = try importFiles(
      [
        ("hot/2024-01-06.json", billboardWeek("2024-01-06", [("A", "X", nil, 1, 1)])),
        (
          "hot/2024-01-13.json",
          billboardWeek("2024-01-13", [("A", "X", 1, 1, 2), ("Old", "Y", nil, 3, 51)])
        ),
      ], into: archive)
    func board(from: String?) throws -> [String] {
      let span = RecordSpan(from: try from.map { try ChartDate(iso8601: $0) })
      return Self.rows(
        try archive.read { try $0.leaderboard(.weeksOnChart, of: "hot", span: span) })
    }
    #expect(try board(from: nil) == ["1 Old 51 2024-01-13", "2 A 2 2024-01-06 2024-01-13"])
    #expect(try board(from: "2024-01-13") == ["1 A 1 2024-01-13", "1 Old 1 2024-01-13"])
  }

  @Test func debutsAreNewEntriesAfterTheFirstSnapshot() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    // C and D re-enter: no debuts; A, B and C on the first snapshot are not counted.
    #expect(
      try Self.board(.highestDebut, in: archive) == [
        "1 E 1 2024-01-20", "2 F 2 2024-02-10", "3 D 3 2024-01-13",
      ])
  }

  @Test func aReEntryIsNoClimb() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    #expect(
      try Self.board(.biggestClimb, in: archive) == [
        "1 B 1 2024-01-13 2→1", "1 B 1 2024-01-27 2→1", "1 D 1 2024-02-10 2→1",
      ])
    #expect(
      try Self.board(.biggestFall, in: archive) == [
        "1 E 2 2024-01-27 1→3", "1 B 2 2024-02-10 1→3", "3 A 1 2024-01-13 1→2",
        "3 A 1 2024-01-20 2→3", "3 B 1 2024-01-20 1→2", "3 C 1 2024-02-03 2→3",
      ])
  }

  @Test func risesToNumberOne() throws {
    let (folder, archive) = try Self.archive()
    _ = folder
    // A was at number one on the chart's first snapshot: no rise is known.
    #expect(
      try Self.board(.fastestRiseToNumberOne, in: archive) == [
        "1 E 1 2024-01-20", "2 B 2 2024-01-06 2024-01-13", "3 D 3 2024-01-13 2024-02-10",
      ])
    #expect(
      try Self.board(.longestRoadToNumberOne, limit: 2, in: archive) == [
        "1 D 3 2024-01-13 2024-02-10", "2 B 2 2024-01-06 2024-01-13",
      ])
    #expect(
      try Self.board(.fastestRiseToNumberOne, from: "2024-01-27", in: archive) == [
        "1 D 3 2024-01-13 2024-02-10"
      ])
  }

  /// An hourly chart's `--to 2024-05-05` takes every hour of that day, not only its midnight.
  @Test func aSpanOfAnHourlyChartTakesEveryHourOfItsDays() throws {
    let (folder, archive) = try archiveInFolder()
    _ = folder
    let hours = ["2024-05-05T12:00:00Z", "2024-05-05T13:00:00Z", "2024-05-06T00:00:00Z"]
    _ = try importFiles(
      hours.map { hour in
        (
          name: "clock/\(hour.prefix(13)).json",
          text: nativeSnapshot(
            "clock", hour, [("A", "Singer A", nil, nil), ("B", "Singer B", nil, nil)],
            frequency: "hourly")
        )
      }, into: archive)
    let day = try ChartDate(iso8601: "2024-05-05")
    let board = try archive.read {
      try $0.leaderboard(.weeksAtNumberOne, of: "clock", span: RecordSpan(from: day, to: day))
    }
    #expect(Self.rows(board) == ["1 A 2 2024-05-05T12:00:00Z 2024-05-05T13:00:00Z"])
  }

  @Test func aDailyChartCountsDays() throws {
    let (folder, archive) = try Self.archive(daily: true)
    _ = folder
    let records = try archive.read { try $0.records(of: "toy", limit: 1) }
    let text = RecordsView(records).rendered(as: .table, style: .plain)
    #expect(
      text.split(separator: "\n").filter {
        !$0.hasPrefix("#") && !$0.hasPrefix(" ") && $0.first?.isNumber != true
      } == [
        "toy · records, all snapshots", "Most days at number one",
        "Longest stay at number one (days in a row)", "Most days on the chart",
        "Longest single run (days in a row on the chart)", "Highest debuts (rank)",
        "Biggest climbs (places up from one chart to the next)",
        "Biggest falls (places down from one chart to the next)",
        "Fastest rise to number one (days on the chart from debut to number one, both counted)",
        "Longest road to number one (days on the chart from debut to number one, both counted)",
        "Artists with the most number ones (songs at number one)",
        "Artists with the most top-10 songs (songs in the top 10)",
        "Artists with the most entries (songs on the chart)",
        "Artists with the most days at number one (days with a song at number one)",
        "Artists with the most entries at once (songs on one chart)",
      ])
    #expect(
      text.contains(
        "#  DAYS  TITLE  ARTIST    FIRST       LAST\n1     3  B      Singer B  2024-01-07  2024-01-10"
      ))
  }

  /// A made-up weekly chart of three places for the by-artist leaderboards: Ann's "P", Ann
  /// featuring Bo's "Q", Bo's "R" and Cy's "S".
  ///
  ///     2024-03-02  P Q S   Ann at number one; Ann has two songs on the chart
  ///     2024-03-09  Q P R   Ann and Bo at number one with one song; Bo has two songs on
  ///     2024-03-16  R S Q   Bo at number one
  ///     2024-03-23  R S Q   Bo's third week at number one
  static let artistWeeks: [(String, [String])] = [
    ("2024-03-02", ["P", "Q", "S"]), ("2024-03-09", ["Q", "P", "R"]),
    ("2024-03-16", ["R", "S", "Q"]), ("2024-03-23", ["R", "S", "Q"]),
  ]

  static func artistArchive() throws -> (TemporaryFolder, Archive) {
    let (folder, archive) = try archiveInFolder()
    let credits = ["P": "Ann", "Q": "Ann Featuring Bo", "R": "Bo", "S": "Cy"]
    let files = artistWeeks.map { date, titles in
      let text = nativeSnapshot(
        "duo", date, titles.map { ($0, credits[$0]!, nil, nil) }, frequency: "weekly")
      return (name: "duo/\(date).json", text: text)
    }
    _ = try importFiles(files, into: archive)
    return (folder, archive)
  }

  @Test func theByArtistLeaderboardsFollowTheSongsWithTiesSharingARank() throws {
    let (folder, archive) = try Self.artistArchive()
    _ = folder
    let records = try archive.read { try $0.records(of: "duo", limit: 2) }
    let artistBoards = records.leaderboards.filter { $0.kind.subject == .artist }
    #expect(records.leaderboards.count == 14)
    #expect(
      Array(records.leaderboards.suffix(5)) == artistBoards
        && artistBoards.map(\.kind.rawValue) == [
          "artist-number-ones", "artist-top-10s", "artist-entries", "artist-weeks-at-number-one",
          "artist-entries-at-once",
        ])
    let rows = artistBoards.map { board in
      board.rows.map { row in
        guard case .artist(let artist) = row.record.holder else { return "song" }
        let record = row.record
        return "\(row.rank) \(artist.name) \(record.figure) \(record.firstDate) \(record.lastDate)"
      }
    }
    #expect(
      rows == [
        ["1 Ann 2 2024-03-02 2024-03-09", "1 Bo 2 2024-03-09 2024-03-23"],
        ["1 Ann 2 2024-03-02 2024-03-23", "1 Bo 2 2024-03-02 2024-03-23"],
        [
          "1 Ann 2 2024-03-02 2024-03-23", "1 Bo 2 2024-03-02 2024-03-23",
        ],
        ["1 Bo 3 2024-03-09 2024-03-23", "2 Ann 2 2024-03-02 2024-03-09"],
        ["1 Ann 2 2024-03-02 2024-03-09", "1 Bo 2 2024-03-09 2024-03-23"],
      ])
    // With room for three, Cy's one song ranks third after the tie (1, 1, 3).
    let entries = try archive.read { try $0.leaderboard(.artistEntries, of: "duo", limit: 3) }
    #expect(
      entries.rows.map(\.rank) == [1, 1, 3] && entries.rows.map(\.record.figure) == [2, 2, 1])
    // Every artist tied at the last rank is listed, past the limit.
    let tied = try archive.read { try $0.leaderboard(.artistNumberOnes, of: "duo", limit: 1) }
    #expect(tied.rows.count == 2)
    // In a span, what happened in it.
    let span = RecordSpan(from: try ChartDate(iso8601: "2024-03-16"))
    let late = try archive.read {
      try $0.leaderboard(.artistWeeksAtNumberOne, of: "duo", span: span, limit: 10)
    }
    #expect(
      late.rows.map(\.record) == [try Self.record(in: tied, "Bo", 2, "2024-03-16", "2024-03-23")])
  }

  @Test func theByArtistLeaderboardsShowTheirUnitsAndArtists() throws {
    let (folder, archive) = try Self.artistArchive()
    _ = folder
    let records = try archive.read {
      try $0.records(of: "duo", limit: 1, kinds: [.artistTopTens, .artistWeeksAtNumberOne])
    }
    let view = RecordsView(records)
    #expect(
      view.rendered(as: .table, style: .plain) == """
        duo · records, all snapshots

        Artists with the most top-10 songs (songs in the top 10)
        #  SONGS  ARTIST  FIRST       LAST
        1      2  Ann     2024-03-02  2024-03-23
        1      2  Bo      2024-03-02  2024-03-23

        Artists with the most weeks at number one (weeks with a song at number one)
        #  WKS  ARTIST  FIRST       LAST
        1    3  Bo      2024-03-09  2024-03-23

        """)
    let ids = records.leaderboards[0].rows.map { row -> Int64 in
      guard case .artist(let artist) = row.record.holder else { return 0 }
      return artist.id
    }
    let (ann, bo) = (ids[0], ids[1])
    #expect(ann > 0 && bo > 0 && ann != bo)
    let csv = view.rendered(as: .csv, style: .plain).split(whereSeparator: \.isNewline).dropFirst()
    #expect(
      Array(csv) == [
        "duo,artist-top-10s,songs,1,2,artist,\(ann),,Ann,2024-03-02,2024-03-23,,",
        "duo,artist-top-10s,songs,1,2,artist,\(bo),,Bo,2024-03-02,2024-03-23,,",
        "duo,artist-weeks-at-number-one,weeks,1,3,artist,\(bo),,Bo,2024-03-09,2024-03-23,,",
      ])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(view.rendered(as: .json, style: .plain).utf8))
        as? [String: Any])
    let board = try #require((json["leaderboards"] as? [[String: Any]])?.last)
    #expect(board["kind"] as? String == "artist-weeks-at-number-one")
    #expect(board["holder"] as? String == "artist" && board["figure"] as? String == "weeks")
    let holder = try #require(
      (board["rows"] as? [[String: Any]])?.first?["holder"] as? [String: Any])
    #expect(holder.keys.sorted() == ["id", "name", "type"])
    #expect(
      holder["type"] as? String == "artist" && holder["id"] as? Int == Int(bo)
        && holder["name"] as? String == "Bo")
  }

  /// A by-artist row's record, the artist's ID taken from a leaderboard that lists them.
  static func record(
    in board: Leaderboard, _ name: String, _ figure: Int, _ first: String, _ last: String
  ) throws -> RecordCandidate {
    let holder = try #require(
      board.rows.map(\.record.holder).first {
        if case .artist(let artist) = $0 { return artist.name == name }
        return false
      })
    return RecordCandidate(
      holder: holder, figure: figure, firstDate: try ChartDate(iso8601: first),
      lastDate: try ChartDate(iso8601: last))
  }
}
