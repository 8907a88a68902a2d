public import ChartRanking

extension ArchiveWriter {
  // MARK: - Charts

  /// Inserts a chart.
  ///
  /// - Parameters:
  ///   - name: its name, valid (see ``Snapshot/isValidChartName(_:)``).
  ///   - frequency: how often it is published, when known.
  ///   - timeZone: the IANA time zone its snapshots are cut in (`Asia/Seoul`), `nil` for UTC.
  /// - Returns: its ID.
  public func insertChart(
    named name: String, frequency: ChartFrequency?, timeZone: String? = nil
  ) throws(ArchiveError) -> ChartID {
    try writing { () throws(DatabaseError) in
      let mayLogEntries = !(try hasUserTriggers())
      try database.run(
        "INSERT INTO charts (name, frequency, time_zone) VALUES (?, ?, ?)", name,
        frequency?.rawValue, timeZone)
      let id = database.lastInsertedRowID
      // Its entries are logged from the start (``ChartEntryLog``): none are stored yet, unless a
      // snapshot was given its ID before it was made.
      if mayLogEntries,
        try database.row("SELECT 1 FROM snapshots WHERE chart_id = ? LIMIT 1", [id], { _ in true })
          == nil
      {
        entryLogs[id] = ChartEntryLog()
      }
      return ChartID(id)
    }
  }

  /// Records a chart's frequency when it has none; a frequency stored already stays.
  public func setFrequency(_ frequency: ChartFrequency, ofChart chart: ChartID)
    throws(ArchiveError)
  {
    try writing { () throws(DatabaseError) in
      try database.run(
        "UPDATE charts SET frequency = ? WHERE id = ? AND frequency IS NULL", frequency.rawValue,
        chart.rawValue)
    }
  }

  /// Records the time zone a chart's snapshots are cut in when it has none; a zone stored already
  /// stays (the snapshots' instants were read in it).
  ///
  /// - Parameter timeZone: an IANA time zone (`Asia/Seoul`).
  public func setTimeZone(_ timeZone: String, ofChart chart: ChartID) throws(ArchiveError) {
    try writing { () throws(DatabaseError) in
      try database.run(
        "UPDATE charts SET time_zone = ? WHERE id = ? AND time_zone IS NULL", timeZone,
        chart.rawValue)
    }
  }
}
