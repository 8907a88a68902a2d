public import ChartRanking

/// Writes snapshots in ChartArchive's own formats, JSON (``ChartFormat/native``) and CSV
/// (``ChartFormat/nativeCSV``), so that importing what it writes gives back the same snapshots,
/// entry for entry.
///
/// JSON: one object `{"snapshots": [{"chart", "chart_date", "frequency"?, "entries": […]}, …]}`;
/// an entry has `previous_rank` (a rank or `null`) when its snapshot publishes previous ranks and
/// no `previous_rank` when it does not, `isrc` when its source gave the recording's ISRC
/// (``ISRC/code``: `USRC17607839`), `run` when its source numbered the song's run, and `trend`
/// when its source published its movement (``PublishedTrend/notation``: `up 3: +3`). CSV:
/// ``csvHeader(isrcs:runs:trends:)``, then a row per entry; `previous_rank` is `-` for "not on the
/// previous chart" and empty when previous ranks are not published; a column `isrc` holds the
/// ISRCs of a chart whose entries have them, a column `run` the run numbers of a chart whose
/// source gives them, and a last column `trend` the published trends of a chart whose source
/// gives them. Entries
/// that share a rank (a tie) are marked so that the reader takes them back: `"tie": true` in JSON,
/// the rank written `=8` in CSV. The CSV's text cells (chart, title, artist, image and song URL)
/// that start like a spreadsheet's formula get an apostrophe before them (see
/// ``CSVWriter/text(_:)``), which the reader of ChartArchive's CSV takes off again.
public enum NativeFormatWriter {
  /// The first line of the CSV, with its CRLF.
  ///
  /// - Parameters:
  ///   - isrcs: whether the rows have an `isrc` column (see ``csv(_:isrcs:runs:trends:)``).
  ///   - runs: whether the rows have a `run` column.
  ///   - trends: whether the rows have a `trend` column, last.
  public static func csvHeader(isrcs: Bool = false, runs: Bool = false, trends: Bool = false)
    -> String
  {
    CSVWriter.record(
      CSVLayout.nativeHeader + (isrcs ? ["isrc"] : []) + (runs ? ["run"] : [])
        + (trends ? ["trend"] : []))
  }

  /// The JSON text that opens an export, before the first snapshot.
  public static let jsonOpening = "{\"snapshots\": [\n"

  /// The JSON text that opens an export carrying decisions: `{"decisions": [...],` with each
  /// merge or split a person made on one line, then ``jsonOpening``'s. Without decisions it is
  /// ``jsonOpening``.
  public static func jsonOpening(decisions: [SongDecision]) -> String {
    guard !decisions.isEmpty else { return jsonOpening }
    let lines = decisions.map { json($0).encoded(.singleLine) }
    return "{\"decisions\": [\n" + lines.joined(separator: ",\n") + "\n],\n\"snapshots\": [\n"
  }

  /// A decision as an export carries it: `{"kind": "merge", "made_at": …, "songs": [[entry,
  /// …], …]}`, each entry `{"chart", "chart_date", "title", "artist", "song_url"}` (the URL
  /// only when the entry has one).
  static func json(_ decision: SongDecision) -> JSONValue {
    .object([
      ("kind", .string(decision.kind.rawValue)), ("made_at", .string(decision.madeAt)),
      (
        "songs",
        .array(
          decision.songs.map { entries in
            .array(
              entries.map { entry in
                var fields: [(String, JSONValue)] = [
                  ("chart", .string(entry.chart)), ("chart_date", .string(entry.chartDate.iso8601)),
                  ("title", .string(entry.title)), ("artist", .string(entry.artist)),
                ]
                if let url = entry.songURL { fields.append(("song_url", .string(url))) }
                return .object(fields)
              })
          })
      ),
    ])
  }
  /// The JSON text that closes an export.
  public static let jsonClosing = "\n]}\n"
  /// What goes between two snapshots.
  public static let jsonSeparator = ",\n"

  /// A snapshot as one JSON object on one line.
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot.
  ///   - frequency: the chart's frequency, written when known.
  public static func json(_ snapshot: Snapshot, frequency: ChartFrequency?) -> String {
    var members: [(String, JSONValue)] = [
      ("chart", .string(snapshot.chart)), ("chart_date", .string(snapshot.chartDate.iso8601)),
    ]
    if let frequency { members.append(("frequency", .string(frequency.rawValue))) }
    let tied = tiedRanks(of: snapshot)
    let entries = snapshot.entries.map { entry -> JSONValue in
      var fields: [(String, JSONValue)] = [("rank", .int(entry.rank))]
      if tied.contains(entry.rank) { fields.append(("tie", .bool(true))) }
      if snapshot.publishesPreviousRank {
        fields.append(("previous_rank", JSONValue(entry.publishedPreviousRank)))
      }
      fields.append(("title", .string(entry.title)))
      fields.append(("artist", .string(entry.artist)))
      if let value = entry.publishedPeakPosition { fields.append(("peak_position", .int(value))) }
      if let value = entry.publishedWeeksOnChart { fields.append(("weeks_on_chart", .int(value))) }
      if let value = entry.imageURL { fields.append(("image_url", .string(value))) }
      if let value = entry.songURL { fields.append(("song_url", .string(value))) }
      if let value = entry.streams { fields.append(("streams", .int(value))) }
      if let value = entry.isrc { fields.append(("isrc", .string(value.code))) }
      if let value = entry.publishedRun { fields.append(("run", .int(value))) }
      if let value = entry.publishedTrend { fields.append(("trend", .string(value.notation))) }
      return .object(fields)
    }
    members.append(("entries", .array(entries)))
    return JSONValue.object(members).encoded(.singleLine)
  }

  /// A snapshot's CSV rows, each with its CRLF; a rank shared by several entries is written
  /// `=8`, a text that starts like a formula with an apostrophe before it (`'=1+1`, see
  /// ``CSVWriter/text(_:)``).
  ///
  /// - Parameters:
  ///   - snapshot: the snapshot.
  ///   - isrcs: whether to write each entry's ISRC (``ISRC/code``) in a column of its own (empty
  ///     when the source gave none), under the header ``csvHeader(isrcs:runs:trends:)`` writes
  ///     with `isrcs`.
  ///   - runs: whether to write each entry's published run number in a column of its own (empty
  ///     when the source gave none), under the header ``csvHeader(isrcs:runs:trends:)`` writes with
  ///     `runs`.
  ///   - trends: whether to write each entry's published trend (``PublishedTrend/notation``) in
  ///     a last column (empty when the source gave none).
  public static func csv(
    _ snapshot: Snapshot, isrcs: Bool = false, runs: Bool = false, trends: Bool = false
  ) -> String {
    let tied = tiedRanks(of: snapshot)
    let chart = CSVWriter.text(snapshot.chart)
    return snapshot.entries.map { entry in
      let previous =
        snapshot.publishesPreviousRank ? entry.publishedPreviousRank.map(String.init) ?? "-" : ""
      var fields: [String] = [
        chart, snapshot.chartDate.iso8601,
        (tied.contains(entry.rank) ? "=" : "") + String(entry.rank), previous,
        entry.publishedPeakPosition.map(String.init) ?? "",
        entry.publishedWeeksOnChart.map(String.init) ?? "", CSVWriter.text(entry.title),
        CSVWriter.text(entry.artist), entry.imageURL.map(CSVWriter.text) ?? "",
        entry.songURL.map(CSVWriter.text) ?? "", entry.streams.map(String.init) ?? "",
      ]
      if isrcs { fields.append(entry.isrc?.code ?? "") }
      if runs { fields.append(entry.publishedRun.map(String.init) ?? "") }
      if trends { fields.append(entry.publishedTrend.map { CSVWriter.text($0.notation) } ?? "") }
      return CSVWriter.record(fields)
    }.joined()
  }
}

/// The ranks two or more entries of a snapshot share: ties, which the archive holds only where
/// the source marked them or the import allowed them.
private func tiedRanks(of snapshot: Snapshot) -> Set<Int> {
  var tied: Set<Int> = []
  for index in snapshot.entries.indices.dropFirst()
  where snapshot.entries[index].rank == snapshot.entries[index - 1].rank {
    tied.insert(snapshot.entries[index].rank)
  }
  return tied
}
