public import ChartRanking

extension ArchiveWriter {
  // MARK: - Charts

  /// Inserts a chart.
  ///
  /// - Parameters:
  ///   - name: its name, valid (see ``Snapshot/isValidChartName(_:)``).
  ///   - frequency: how often it is published, when known.
  /// - Returns: its ID.
  public func insertChart(named name: String, frequency: ChartFrequency?) throws(ArchiveError)
    -> ChartID
  {
    try writing { () throws(DatabaseError) in
      try database.run(
        "INSERT INTO charts (name, frequency) VALUES (?, ?)", name, frequency?.rawValue)
      return ChartID(database.lastInsertedRowID)
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
}
