public import ChartFormats
public import ChartImport
public import ChartRanking
public import ChartStorage

/// What an import found, in the words every front end gives it (the command line prefixes each
/// line with `warning: `; the service lists them in its answer to an upload).
public enum ImportWords {
  /// A snapshot an import stored or found stored, as every front end's JSON gives it (an upload's
  /// answer, `import --move-to`'s report): `{"chart", "chart_date" (ISO 8601), "entries" (how
  /// many), "outcome" (imported, replaced or unchanged)}`.
  public static func json(of snapshot: ImportedSnapshot) -> JSONValue {
    .object([
      ("chart", .string(snapshot.chart)), ("chart_date", .string(snapshot.chartDate.iso8601)),
      ("entries", .int(snapshot.entryCount)), ("outcome", .string(snapshot.outcome.rawValue)),
    ])
  }

  /// "a", or "an" before a word that starts with a vowel sound, a format's or a frequency's name
  /// (`an apple-music-charts file`, `an hourly chart`, but `a uk-chart-csv file`).
  public static func article(_ word: String) -> String {
    word.hasPrefix("hour") || word.first.map { "aeio".contains($0) } == true ? "an" : "a"
  }

  /// What storing found, in a line: `hot-100 2024-01-13 holds the same entries as 2024-01-06: …`.
  /// Titles, artists, chart names and URLs are written as ``ChartFileError/printable(_:)``
  /// writes them (control and bidirectional characters as `\u{202E}`), so that the line stays
  /// one line and reads in its order.
  public static func describe(_ note: SnapshotNote) -> String {
    let snapshot = "\(printable(note.chart)) \(note.chartDate)"
    switch note.kind {
    case .figures(.previousRanksContradict(let previous, let disagreeing, let published)):
      return
        "\(snapshot): \(disagreeing) of \(published) published previous ranks disagree with the"
        + " archive's previous snapshot (\(previous)): a chart missing between them, or one of"
        + " them holding another date's chart"
    case .figures(.identicalToPrevious(let previous, let countsNoNewWeek)):
      return
        "\(snapshot) holds the same entries as \(previous): the same chart saved under two dates?"
        + (countsNoNewWeek ? " It counts no new week on chart." : "")
    case .figures(.lostPublishedFigures):
      return
        "\(snapshot): the source gives no previous rank, peak or weeks on chart for any entry,"
        + " after snapshots that had them; its movements are derived from the archive"
    case .figures(.correctedPreviousRank(let rank, let title, let published?, let given)):
      return
        "\(snapshot) rank \(rank) '\(printable(title))': the published previous rank \(published) cannot be"
        + " right (the source says the song is new, or the archive's previous snapshot has another"
        + " song there); the archive gives \(given.map { "\($0)" } ?? "none (not on it)")"
    case .figures(.correctedPreviousRank(let rank, let title, nil, let given)):
      return
        "\(snapshot) rank \(rank) '\(printable(title))': the source says the song was not on the previous"
        + " chart, and the archive's previous snapshot has it"
        + (given.map { " at \($0); the archive gives \($0)" } ?? "")
    case .offRhythm(let previous, let frequency):
      let seconds = note.chartDate.secondsSince1970 - previous.secondsSince1970
      // Days, or hours when the dates are not whole days apart (a daily chart's second snapshot
      // of one day, at noon, was "0 days after" the first).
      let apart =
        frequency == .hourly || seconds % 86_400 != 0
        ? "\(seconds / 3_600) hour\(seconds == 3_600 ? "" : "s")"
        : "\(seconds / 86_400) day\(seconds == 86_400 ? "" : "s")"
      let expected =
        switch frequency {
        case .hourly: "1 hour"
        case .daily: "1 day"
        case .weekly: "7 days"
        case .monthly: "a month"
        case .yearly: "a year"
        case .allTime: "any time"
        }
      return
        "\(snapshot) is \(apart) after the chart's previous snapshot (\(previous));"
        + " \(article(frequency.rawValue)) \(frequency.rawValue) chart's snapshots are"
        + " \(expected) apart: a snapshot missing, or"
        + " a date that is not the chart's?"
    case .sameSongURLTwice(let url, let ranks):
      return
        "\(snapshot): ranks \(ranks.map(String.init).joined(separator: ", ")) have the same song URL"
        + " (\(printable(url))), which names one recording"
    case .songURLOfAnotherCredit(let rank, let title, let artist, let url, let other, let by):
      return
        "\(snapshot) rank \(rank) '\(printable(title))' by \(printable(artist)) has the song URL of"
        + " '\(printable(other))' by \(printable(by)) (\(printable(url))): one recording, so one song; a wrong URL in the source?"
    case .newChartNamedLike(let names):
      return
        "\(snapshot) starts a new chart, named like the archive's"
        + " \(names.map(printable).joined(separator: ", ")): a misspelled chart name? (chart-archive charts lists"
        + " them)"
    }
  }

  /// An import committed into the write-ahead log that could not be copied into the archive file
  /// at `path` (``ImportReport/logNotCopied``): what to keep, and what to do next. A full disk or
  /// another write failure leaves the log to be copied in when the archive is next opened with
  /// room; a damaged file (SQLite's `SQLITE_CORRUPT` or `SQLITE_NOTADB`, met while copying) is for
  /// `chart-archive check`, not for more room. Paths as ``ChartFileError/printable(_:)`` writes
  /// them.
  public static func logNotCopied(_ error: ArchiveError, path: String) -> String {
    let path = printable(path)
    let failure: DatabaseError? =
      if case .database(_, let failure) = error { failure } else { nil }
    let next =
      failure?.isDamage == true
      ? "the archive may be damaged: chart-archive check tells what is wrong"
      : "it is copied in the next time the archive is opened with room to spare"
    return
      "the import is stored in \(path)-wal, the archive's write-ahead log, and could not be copied"
      + " into \(path) (\(failure?.message ?? error.description)): keep \(path)-wal beside the"
      + " archive, and never move or delete one without the other; \(next)"
  }

  /// A chart whose next page was not among the sources: stored as far as it goes.
  ///
  /// - Parameter sourceNames: the sources' names, by index, as the front end shows them.
  public static func unfinished(_ chart: UnfinishedChart, sourceNames: [String]) -> String {
    "\(printable(chart.chart)) \(chart.chartDate): the chart goes on after entry \(chart.entryCount), on a"
      + " page not among the files imported (offset \(chart.nextOffset), the next of"
      + " \(sourceNames[chart.sources.last!])); its first \(chart.entryCount) entries are stored"
  }

  /// A chart date given (`option`: `--date`, or `?date=`) that the file's own date or name
  /// disagrees with.
  public static func dateDisagreement(
    _ disagreement: ChartDateDisagreement, name: String, option: String
  ) -> String {
    disagreement.fileDateIsUsed
      ? "\(name) holds the chart of \(disagreement.file); \(option) \(disagreement.given) is not"
        + " used for it"
      : "\(name): \(option) \(disagreement.given) is used, while the file's name says"
        + " \(disagreement.file)"
  }

  /// A published trend (NEW, +3, ▲) that disagrees with the derived movement, with its places.
  public static func trendDisagreement(_ item: TrendDisagreement, sourceNames: [String])
    -> String
  {
    "\(sourceNames[item.source]): \(printable(item.chart)) \(item.chartDate) rank \(item.rank)"
      + " '\(printable(item.title))': published \(item.published.text), derived \(words(for: item.derived))"
  }

  /// A movement in words, a climb or a fall with its places: `up 2`, `down 1`, `unchanged`,
  /// `new`, `re-entry`.
  public static func words(for movement: Movement) -> String {
    movement.change.flatMap { $0 == 0 ? nil : "\(movement.kind) \(abs($0))" } ?? movement.kind
  }

  /// A title, artist, chart name or URL in a line (see ``describe(_:)``).
  private static func printable(_ text: String) -> String { ChartFileError.printable(text) }

  /// The count of published trends that disagree.
  public static func trendSummary(_ count: Int) -> String {
    "\(count) published" + (count == 1 ? " trend disagrees" : " trends disagree")
      + " with the derived movement"
  }

  /// Every warning of an import that a service answering one upload gives: unfinished charts,
  /// dates given that were not used, what storing found, trends that disagree (all of them, and
  /// their count).
  public static func warnings(
    of report: ImportReport, sourceNames: [String], dateOption: String
  ) -> [String] {
    var lines = report.unfinishedCharts.map { unfinished($0, sourceNames: sourceNames) }
    lines += report.dateDisagreements.map {
      dateDisagreement($0.1, name: sourceNames[$0.0], option: dateOption)
    }
    lines += report.notes.map(describe)
    let trends = report.trendDisagreements
    lines += trends.map { trendDisagreement($0, sourceNames: sourceNames) }
    if !trends.isEmpty { lines.append(trendSummary(trends.count)) }
    return lines
  }
}
