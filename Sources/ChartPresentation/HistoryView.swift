import ChartFormats
import ChartRanking
public import ChartStorage
import Foundation

/// How one song moved over time: per recording and chart, every chart date with rank and
/// movement, then peak position, weeks at peak, weeks on chart, debut and the credit changes the
/// run was joined across.
public struct HistoryView: Presentation {
  /// The recordings shown (one song, or the recordings of one title and artist), each with its
  /// history on every chart, oldest recording first.
  public var recordings: [SongRecording]
  /// The 0-based places of the entries the JSON and the CSV list, counted over every recording's
  /// history on every chart one after another, in the answer's order (a page of the service's);
  /// `nil` for all. The figures of each history (peak, weeks, runs, debut, credit changes) are the
  /// whole history's whatever it lists.
  public var entryWindow: Range<Int>?

  /// The view of a song's recordings, the entries of `entryWindow` listed (all when `nil`).
  ///
  /// - Precondition: `recordings` is not empty.
  public init(_ recordings: [SongRecording], entryWindow: Range<Int>? = nil) {
    precondition(!recordings.isEmpty, "a history shows a song")
    self.recordings = recordings
    self.entryWindow = entryWindow
  }

  /// How many entries the recordings have on every chart, together.
  public var entryCount: Int {
    recordings.reduce(0) { $0 + $1.histories.reduce(0) { $0 + $1.history.placements.count } }
  }

  /// The places of the entries listed of each recording's history on each chart, by recording
  /// and chart (see ``entryWindow``).
  private var listedEntries: [[Range<Int>]] {
    var start = 0
    return recordings.map { recording in
      recording.histories.map { item in
        let count = item.history.placements.count
        defer { start += count }
        guard let window = entryWindow else { return 0..<count }
        let lower = min(max(window.lowerBound - start, 0), count)
        return lower..<min(max(window.upperBound - start, lower), count)
      }
    }
  }

  /// The chart date, then the figures of ``placementColumns(_:)``, without title, artist and URLs
  /// (the figure details in JSON and CSV only, but the run in tables too when `showsRun`).
  static func columns(_ periods: Periods, showsRun: Bool = false) -> [Column] {
    [Column(key: "chart_date", heading: "CHART DATE")]
      + Array(placementColumns(periods).prefix(6))
      + figureDetailColumns.map { column in
        var column = column
        if column.key == "run", showsRun {
          column.shownInTable = true
          column.alignRight = true
        }
        return column
      }
  }

  /// Whether a table of a history shows each entry's run: when the song had several, or its
  /// source numbers them.
  static func showsRun(_ history: SongHistory) -> Bool {
    history.runs > 1 || history.placements.contains { $0.entry.publishedRun != nil }
  }

  static func rows(_ history: SongHistory) -> [[Cell]] {
    history.placements.map { placement in
      let cells = figureCells(placement.figures)
      return [
        .text(placement.chartDate.iso8601), .int(placement.rank), .movement(placement.movement),
        cells.previous, cells.peak, cells.weeks, .optional(placement.entry.streams),
      ] + figureDetailCells(placement.entry, placement.figures)
    }
  }

  /// How the recordings of one title and artist relate, as far as the data tells: the first; a
  /// later one, charting after the runs before it (a reissue or a remake); or one charting beside
  /// an earlier one (two versions at once).
  static func relations(_ recordings: [SongRecording]) -> [String] {
    var relations: [String] = []
    var lastDates: [ChartDate] = []
    for recording in recordings {
      let dates = recording.histories.flatMap { $0.history.placements.map(\.chartDate) }
      guard let first = dates.min(), let last = dates.max() else {
        relations.append("first")
        continue
      }
      relations.append(
        lastDates.isEmpty ? "first" : lastDates.contains { $0 >= first } ? "beside" : "later")
      lastDates.append(last)
    }
    return relations
  }

  public func rendered(as format: OutputFormat, style: Style) -> String {
    switch format {
    case .json: jsonText()
    case .csv: csvText(style: style)
    case .table: tableText(style: style)
    }
  }

  /// The JSON: the song's title and artist, then each recording with its relation to the others
  /// and its history on each chart (see ``json(_:)``).
  private func jsonText() -> String {
    let song = recordings[0].song
    let relations = Self.relations(recordings)
    let listed = listedEntries
    let list: [JSONValue] = recordings.enumerated().map { index, recording in
      .object([
        ("recording", .int(index + 1)), ("song_id", .int(Int(recording.song.id.rawValue))),
        ("relation", .string(relations[index])),
        ("first_chart_date", .string(recording.song.firstChartDate.iso8601)),
        (
          "charts",
          .array(zip(recording.histories, listed[index]).map { Self.json($0, listing: $1) })
        ),
      ])
    }
    return JSONValue.object([
      ("title", .string(song.title)), ("artist", .string(song.artist)),
      ("recordings", .array(list)),
    ]).encoded() + "\n"
  }

  /// The CSV: the song's title and artist, then one table of every entry, each with its
  /// recording, song ID and chart.
  private func csvText(style: Style) -> String {
    let song = recordings[0].song
    var document = Document()
    document.fields = [("title", .text(song.title)), ("artist", .text(song.artist))]
    var table = Table(
      columns: [
        Column(key: "recording", heading: ""), Column(key: "song_id", heading: ""),
        Column(key: "chart", heading: "CHART"),
      ] + Self.columns(Periods(nil)))
    let listed = listedEntries
    for (index, recording) in recordings.enumerated() {
      for (item, entries) in zip(recording.histories, listed[index]) {
        table.rows += Self.rows(item.history)[entries].map {
          [.int(index + 1), .int(Int(recording.song.id.rawValue)), .text(item.chart)] + $0
        }
      }
    }
    document.sections = [("entries", "", table)]
    return document.rendered(as: .csv, style: style)
  }

  /// The text for people: the song's title and artist (and how many recordings it has), then a
  /// block per recording and chart (see ``block(_:recording:relation:style:)``).
  private func tableText(style: Style) -> String {
    let song = recordings[0].song
    // Control characters and bidirectional controls in a title cannot reach the terminal, as in
    // tables.
    var blocks = [
      style.bold("\(Cell.text(song.title).display) — \(Cell.text(song.artist).display)")
    ]
    if recordings.count > 1 {
      blocks[0] +=
        "\n\(recordings.count) recordings with this title and artist charted as separate songs"
        + " (a reissue and a remake, or two versions at once); each has its own history."
    }
    let relations = Self.relations(recordings)
    for (index, recording) in recordings.enumerated() {
      for item in recording.histories {
        blocks.append(block(item, recording: index, relation: relations[index], style: style))
      }
    }
    return blocks.joined(separator: "\n\n") + "\n"
  }

  /// One recording's history on one chart, for people: the chart (with the recording's number
  /// and relation when there are several), the table of its entries, its facts (see
  /// ``facts(_:periods:)``) and the notes on the marks in the table.
  ///
  /// - Parameters:
  ///   - recording: the recording's 0-based index in ``recordings``.
  ///   - relation: how it relates to the others (see ``relations(_:)``).
  private func block(_ item: SongHistoryOnChart, recording: Int, relation: String, style: Style)
    -> String
  {
    let history = item.history
    let periods = Periods(item.frequency)
    let chart = terminalText(item.chart)
    var block = "\(chart)\n"
    if recordings.count > 1 {
      let words =
        switch relation {
        case "first": "the first"
        case "beside": "charting beside an earlier one"
        default: "after the earlier ones: a reissue or a remake"
        }
      block = "Recording \(recording + 1) (\(words)), \(chart)\n"
    }
    block += Table(
      columns: Self.columns(periods, showsRun: Self.showsRun(history)),
      rows: Self.rows(history)
    )
    .text(style: style)
    let facts = Self.facts(history, periods: periods) + Self.decisionFacts(item.decisions)
    // The values in one column, after the longest label ("Weeks on chart:" at least).
    let width = max(15, facts.map(\.0.count).max() ?? 0) + 1
    block += "\n"
    for (label, value) in facts {
      block += "\n" + label.padding(toLength: width, withPad: " ", startingAt: 0) + value
    }
    let notes = markNotes(history.placements.map(\.figures))
    if !notes.isEmpty { block += "\n\n" + notes.joined(separator: "\n") }
    return block
  }

  /// The facts under a history's table, each a label and its value: peak position and weeks at
  /// peak, weeks on chart, runs (when more than one), debut, and each credit change. A figure
  /// that is the source's is marked as the table marks the last entry's.
  private static func facts(_ history: SongHistory, periods: Periods) -> [(String, String)] {
    // Marked as the table marks the last entry's: where the figure is the source's.
    let peakMark = history.peakIsTheSources ? partialMark : ""
    let weeksMark = history.weeksOnChartAreTheSources ? partialMark : ""
    let capitalized = periods.plural.prefix(1).uppercased() + periods.plural.dropFirst()
    var facts = [
      (
        "Peak position:",
        "\(history.peakPosition.map(String.init) ?? "–")\(peakMark)"
          + " (\(periods.atPeak(history.weeksAtPeak)))"
      ),
      ("\(capitalized) on chart:", "\(history.weeksOnChart)\(weeksMark)"),
    ]
    // The source's count of runs, where the archive lacks the first ones.
    let runMark = history.placements.last.map { $0.figures.run != $0.figures.archiveRun }
    if history.runs > 1 {
      facts.append(("Runs:", "\(history.runs)\(runMark == true ? partialMark : "")"))
    }
    if let debut = history.debutDate, let rank = history.debutRank {
      facts.append(
        history.debutIsBeforeArchive
          ? ("Debut:", "before \(debut) (archived from \(debut) at \(rank))")
          : ("Debut:", "\(debut) at \(rank)"))
    }
    for change in history.creditChanges {
      facts.append(
        (
          "Credit change:",
          "\(change.chartDate) '\(terminalText(change.from))' → '\(terminalText(change.to))'"
            + " (one run)"
        ))
    }
    return facts
  }

  /// What decisions did to the song's entries on the chart, each a label and its value: `Joined
  /// by hand:` with the first entry of a song merged into this one, `Split by hand:` with the
  /// first entry split from the entries before (see `chart-archive songs`).
  static func decisionFacts(_ notes: [SongDecisionNote]) -> [(String, String)] {
    notes.map { note in
      (
        note.kind == .split ? "Split by hand:" : "Joined by hand:",
        (note.kind == .split ? "from " : "") + "\(note.chartDate) '\(terminalText(note.title))'"
          + " by '\(terminalText(note.artist))'"
          + " (decision \(note.number))"
      )
    }
  }

  private static func json(_ item: SongHistoryOnChart, listing entries: Range<Int>) -> JSONValue {
    .object([
      ("chart", .string(item.chart)),
      ("peak_position", JSONValue(item.history.peakPosition)),
      ("weeks_at_peak", .int(item.history.weeksAtPeak)),
      ("weeks_on_chart", .int(item.history.weeksOnChart)),
      ("runs", .int(item.history.runs)), ("partial_run", .bool(item.history.isPartial)),
      ("debut_date", JSONValue(item.history.debutDate?.iso8601)),
      ("debut_rank", JSONValue(item.history.debutRank)),
      ("debut_before_archive", .bool(item.history.debutIsBeforeArchive)),
      (
        "credit_changes",
        .array(
          item.history.creditChanges.map {
            .object([
              ("chart_date", .string($0.chartDate.iso8601)), ("from", .string($0.from)),
              ("to", .string($0.to)),
            ])
          })
      ),
      (
        "entries",
        Table(columns: columns(Periods(item.frequency)), rows: Array(rows(item.history)[entries]))
          .json
      ),
    ])
  }
}
