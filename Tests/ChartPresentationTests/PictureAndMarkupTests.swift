import ChartRanking
import Testing

@testable import ChartPresentation

/// The pieces of the pages and pictures: escaping, addresses, the rank and date axes, the line.
struct PictureAndMarkupTests {
  @Test func textIsEscapedEverywhereAndWhatXMLRefusesReplaced() {
    #expect(Markup.escaped("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
    #expect(Markup.escaped(#""Q" & 'S'"#) == "&quot;Q&quot; &amp; &#39;S&#39;")
    // A control character (an escape, a NUL) and the non-characters U+FFFE and U+FFFF.
    #expect(Markup.escaped("a\u{1B}[31mb\u{0}c") == "a\u{FFFD}[31mb\u{FFFD}c")
    #expect(Markup.escaped("x\u{FFFE}y\u{FFFF}") == "x\u{FFFD}y\u{FFFD}")
    // Tab and line feed stay; other characters whose UTF-8 begins with 0xEF too (U+FF71).
    #expect(Markup.escaped("a\tb\nc ｱ 🔥 Élodie") == "a\tb\nc ｱ 🔥 Élodie")
  }

  @Test func bidiControlsCannotReorderWhatFollowsATitleOnAPage() {
    // A title holding U+202E was written as it is: the link after it and the rest of its line
    // showed reversed.
    #expect(Markup.escaped("\u{202E}") == "\u{FFFD}")
    for control in TableTests.bidiControls {
      #expect(
        Markup.escaped("a\(control)b") == "a\u{FFFD}b", "U+\(String(control.value, radix: 16))")
    }
    // A title or an artist in a page's text is isolated; a stray pop (U+2069) would end the
    // isolate, an override would reverse what follows, so those are replaced even so, while a
    // mark (U+200F) stays with the Hebrew it orders.
    #expect(
      Markup.isolated("<Evil> \u{202E}Title\u{2069}")
        == "<bdi>&lt;Evil&gt; \u{FFFD}Title\u{FFFD}</bdi>")
    #expect(Markup.isolated("אהבה \u{200F}") == "<bdi>אהבה \u{200F}</bdi>")
    #expect(
      PagePieces.songLink(SongID(7), "Evil \u{202E}Title", .served)
        == "<a href=\"/songs/7\"><bdi>Evil \u{FFFD}Title</bdi></a>")
    #expect(
      PagePieces.songLink(SongID(7), "Evil \u{202E}Title", .file)
        == "<span><bdi>Evil \u{FFFD}Title</bdi></span>")
  }

  @Test func onlyWebAddressesBecomeLinksAndSegmentsStayOne() {
    #expect(Markup.webURL("javascript:alert(1)") == nil)
    #expect(Markup.webURL("data:text/html,<b>") == nil)
    #expect(Markup.webURL(" https://a.example/x") == nil)
    #expect(Markup.webURL("https://a.example/x y") == nil)
    #expect(Markup.webURL("HTTPS://a.example/x") == "HTTPS://a.example/x")
    #expect(Markup.pathSegment(#"a/b <c>"&"#) == "a%2Fb%20%3Cc%3E%22%26")
    #expect(Markup.pathSegment("2024-05-01T20:00:00Z") == "2024-05-01T20:00:00Z")
    #expect(Markup.pathSegment("밤") == "%EB%B0%A4")
  }

  // Ranks 1 to 4 were drawn on an axis to 10, their lines squeezed into its top third.
  @Test(arguments: [
    (1, 2, [1, 2]), (3, 3, [1, 2, 3]), (4, 4, [1, 2, 3, 4]), (7, 8, [1, 2, 4, 6, 8]),
    (100, 100, [1, 20, 40, 60, 80, 100]),
    (200, 200, [1, 50, 100, 150, 200]), (37, 40, [1, 10, 20, 30, 40]),
  ])
  func theRankAxisEndsAtARoundRank(largest: Int, bottom: Int, ticks: [Int]) {
    let scale = RankScale(largest: largest)
    #expect(scale.bottom == bottom)
    #expect(scale.ticks == ticks)
  }

  @Test func aWeeklyChartsTicksFallOnItsChartDates() throws {
    // The smallest input that showed ticks on Thursdays (days since 1970 in sevens).
    let start = try ChartDate(iso8601: "2023-12-23").secondsSince1970
    let end = try ChartDate(iso8601: "2024-01-13").secondsSince1970
    #expect(
      TimeTicks(start: start, end: end).ticks.map(\.label)
        == ["2023-12-23", "2023-12-30", "2024-01-06", "2024-01-13"])
    let hot100 = TimeTicks(
      start: try ChartDate(iso8601: "1958-08-04").secondsSince1970,
      end: try ChartDate(iso8601: "2024-01-13").secondsSince1970)
    #expect(hot100.ticks.map(\.label) == ["1960", "1970", "1980", "1990", "2000", "2010", "2020"])
    let year = TimeTicks(
      start: try ChartDate(iso8601: "2019-12-14").secondsSince1970,
      end: try ChartDate(iso8601: "2021-11-27").secondsSince1970)
    #expect(year.ticks.map(\.label) == ["2020-01", "2020-07", "2021-01", "2021-07"])
    let hours = TimeTicks(
      start: try ChartDate(iso8601: "2024-05-01T20:00:00Z").secondsSince1970,
      end: try ChartDate(iso8601: "2024-05-02T02:00:00Z").secondsSince1970)
    #expect(
      hours.ticks.map(\.label)
        == [
          "05-01 20:00", "05-01 21:00", "05-01 22:00", "05-01 23:00", "05-02 00:00", "05-02 01:00",
          "05-02 02:00",
        ])
  }

  @Test func theLineBreaksAtAReentryAndThePeakIsNamed() throws {
    let dates = try ["2024-03-02", "2024-03-09", "2024-03-23", "2024-03-30"].map {
      try ChartDate(iso8601: $0)
    }
    let chart = RankChart(
      title: "<b>T</b>",
      series: [
        RankChart.Series(
          label: "c",
          points: [
            .init(chartDate: dates[0], rank: 20, run: 1),
            .init(chartDate: dates[1], rank: 3, run: 1),
            .init(chartDate: dates[2], rank: 8, run: 2),
            .init(chartDate: dates[3], rank: 5, run: 2),
          ])
      ])
    let svg = chart.svg(.file)
    let path = try #require(svg.firstMatch(of: /<path d="([^"]+)"/)?.1)
    #expect(path.filter { $0 == "M" || $0 == "L" } == "MLML")
    #expect(svg.contains("<title>&lt;b&gt;T&lt;/b&gt;</title>"))
    #expect(svg.contains(">peak 3</text>"))
    #expect(chart.summary == "c: 4 chart dates from 2024-03-02 to 2024-03-30, peak 3 on 2024-03-09")
    // The source's better peak, from before the archive's first chart date, is named.
    var partial = chart
    partial.series[0].sourcePeak = 1
    #expect(partial.svg(.inline).contains(">best 3 (peak position 1*)</text>"))
  }
}

/// The pictures of many lines: a panel per chart, colours, labels at the lines' ends.
struct ManyLinesPictureTests {
  /// A line of a chart, from ISO 8601 dates and ranks, in one run.
  static func line(_ chart: String, _ points: [(String, Int)]) throws -> RankChart.Series {
    RankChart.Series(
      label: chart,
      points: try points.map { .init(chartDate: try ChartDate(iso8601: $0.0), rank: $0.1, run: 1) },
      chart: chart)
  }

  @Test func eachChartHasAPanelWithItsOwnTimeSpanAndRanks() throws {
    // A song on a monthly chart and a daily one was drawn on one time axis from the month's
    // start: the daily points piled into the last days, on a rank axis to 10 for ranks 1 to 3.
    let chart = RankChart(
      title: "Night Sky",
      series: [
        try Self.line("m", [("2024-04-01", 2), ("2024-05-01", 3)]),
        try Self.line("d", [("2024-05-01", 2), ("2024-05-02", 1), ("2024-05-03", 1)]),
      ])
    let svg = chart.svg(.inline)
    #expect(
      svg.hasPrefix(
        "<svg class=\"rc\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 720 514\""))
    let paths = svg.matches(of: /<path d="([^"]+)"/).map { String($0.1) }
    #expect(paths == ["M48,151L700,226", "M48,474L374,324L700,324"])
    // Each panel's heading, its ranks (1 to 3, then 1 to 2) and its dates.
    #expect(
      svg.contains(
        "<text class=\"lt\" x=\"48\" y=\"36\" fill=\"#1f2328\" font-weight=\"bold\">m</text>"))
    #expect(
      svg.contains(
        "<text class=\"lt\" x=\"48\" y=\"284\" fill=\"#1f2328\" font-weight=\"bold\">d</text>"))
    let ranks = svg.matches(of: /text-anchor="end">(\d+)<\/text>/).map { Int($0.1)! }
    #expect(ranks == [1, 2, 3, 1, 2])
    // One line a panel: each peak is labelled there, and no legend repeats the charts.
    #expect(svg.contains(">peak 2</text>"))
    #expect(svg.contains(">peak 1</text>"))
    #expect(!svg.contains("class=\"legend\""))
    #expect(!svg.contains("class=\"el\""))
  }

  @Test func twelveLinesHaveTwelveColoursAndTheirNamesAtTheirEnds() throws {
    // Twelve songs were drawn in six colours, the last six dashed.
    let series = try (0..<13).map { index in
      var line = try Self.line("hot-100", [("2024-01-06", index + 1), ("2024-01-13", index + 2)])
      line.label = "Song \(index) — Artist"
      line.endLabel = index == 12 ? "A title longer than twenty characters" : "Song \(index)"
      return line
    }
    let svg = RankChart(title: "13 songs", series: series).svg(.file)
    let strokes = svg.matches(of: /<g class="s s\d+" stroke="(#[0-9a-f]{6})"/).map { String($0.1) }
    #expect(strokes == RankChart.colors + [RankChart.colors[0]])
    #expect(Set(RankChart.colors).count == 12)
    // The 13th line, and only it, is dashed (its path and its legend's line).
    #expect(svg.matches(of: /stroke-dasharray="6 3"/).count == 2)
    let ends = svg.matches(
      of: /<text class="el" x="578" y="([0-9.]+)" fill="(#[0-9a-f]{6})">([^<]+)</
    )
    .map { "\($0.1) \($0.2) \($0.3)" }
    // Ranks 2 to 14 on an axis to 15, 240 high from 58: each label at its rank, 17.1 apart.
    #expect(ends.count == 13)
    #expect(ends.first == "79.1 #0072b2 Song 0")
    #expect(ends.last == "284.9 #0072b2 A title longer than…")
    #expect(svg.contains(">Song 12 — Artist · peak 13</text>"))
  }

  @Test func labelsAtTheLinesEndsAreMovedApartAndKeptInThePlot() {
    #expect(
      RankChart.spread([10, 12, 50, 300], gap: 13, top: 0, bottom: 100) == [10, 23, 50, 100])
    #expect(RankChart.spread([90, 95, 99], gap: 13, top: 0, bottom: 100) == [74, 87, 100])
    #expect(RankChart.spread([-5], gap: 13, top: 0, bottom: 100) == [0])
  }
}
