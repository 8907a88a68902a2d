import ChartRanking

/// A chart file of any format as decoded, before its snapshots are checked: its format, the
/// names of its entry fields, each snapshot's worth of entries as written, and the problems found
/// so far. ``ChartFileReader`` checks it into a ``DecodedChartFile``.
struct UncheckedChartFile {
  var format: ChartFormat
  var keys: EntryKeys
  /// The file's snapshots, in the file's order.
  var snapshots: [UncheckedSnapshot]
  var problems: [ChartFileProblem]
  /// An export's merges and splits (its `decisions`), each read and checked.
  var decisions: [SongDecision] = []
}

/// One snapshot of a file before it is checked: its chart and date as the file (or the options,
/// or the folder) gives them, and its entries as written. Checking it makes a ``Snapshot``.
struct UncheckedSnapshot {
  /// Where the chart's name comes from.
  enum ChartSource { case option, file, folder }
  var chart: String
  var chartSource: ChartSource
  /// The charts' names the file's content gives the snapshot (its chart field or column, a chart
  /// address, with a row's region after it), each once, in the order found: one, or none when
  /// the content gives none, or several when rows the chart given gathers name several; read only
  /// when asked (``ChartFileReader/readsChartNamesInContent``).
  var contentCharts: [String] = []
  /// The chart date as written (ISO 8601 in most formats), if the file gives one.
  var date: String?
  /// The field the date is in, for messages.
  var dateField: String
  /// Whether the date field itself had a problem (a wrong type), already reported.
  var dateFieldProblem: Bool
  var entries: [RawEntry]
  /// Whether the file had its list of entries (so that an empty one is a problem of its own).
  var listPresent: Bool
  /// How often the chart is published, as the file says (a ``ChartFrequency`` name), if it does.
  var frequency: String?
  /// Whether the format publishes previous ranks; `nil` to decide from the entries.
  var publishesPreviousRank: Bool? = nil
  /// The row of the snapshot's first entry, in a CSV file.
  var firstRow: Int? = nil
  /// The snapshot's 1-based number in the file, when the file holds several (an export, a
  /// service's file of several charts): its problems name it.
  var number: Int? = nil
  /// The page of the chart the entries are, when the chart is published in pages.
  var page: ChartPage? = nil
}

/// The rows of a table (or of part of one) gathered into snapshots by chart and chart date, in
/// the order of each snapshot's first row.
struct RowsBySnapshot {
  var snapshots: [UncheckedSnapshot] = []
  /// Each snapshot's chart and date, and its index in `snapshots`.
  private var index: [String: Int] = [:]
  /// Each snapshot's chart and date, in the order of `snapshots`.
  private var keys: [String] = []
  var problems: [ChartFileProblem] = []
  /// Each snapshot's date as the file writes it, for messages.
  var writtenDates: [String] = []

  /// Adds an entry to the snapshot of `key` (a chart and a date), which is `snapshot` (without
  /// entries) when the entry is its first.
  mutating func add(
    _ entry: RawEntry, key: String, snapshot: @autoclosure () -> UncheckedSnapshot,
    writtenDate: @autoclosure () -> String, contentChart: String? = nil
  ) {
    if let position = index[key] {
      snapshots[position].entries.append(entry)
      if let contentChart, !snapshots[position].contentCharts.contains(contentChart) {
        snapshots[position].contentCharts.append(contentChart)
      }
    } else {
      index[key] = snapshots.count
      keys.append(key)
      var new = snapshot()
      new.entries = [entry]
      if let contentChart { new.contentCharts = [contentChart] }
      snapshots.append(new)
      writtenDates.append(writtenDate())
    }
  }

  /// Adds the snapshots of the rows after these: a snapshot begun here takes their entries after
  /// its own.
  mutating func append(_ later: RowsBySnapshot) {
    for (position, snapshot) in later.snapshots.enumerated() {
      let key = later.keys[position]
      if let existing = index[key] {
        snapshots[existing].entries += snapshot.entries
        for name in snapshot.contentCharts where !snapshots[existing].contentCharts.contains(name) {
          snapshots[existing].contentCharts.append(name)
        }
      } else {
        index[key] = snapshots.count
        keys.append(key)
        snapshots.append(snapshot)
        writtenDates.append(later.writtenDates[position])
      }
    }
    problems += later.problems
  }
}
