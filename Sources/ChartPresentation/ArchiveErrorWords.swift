import ChartRanking
public import ChartStorage

/// What the front ends add to an archive error's own words, alike for each: the closest chart
/// name and the list of charts, the chart dates nearest a date without a snapshot.
public enum ArchiveErrorWords {
  /// The hint for an error, or `nil` when there is none to give.
  ///
  /// - Returns: `did you mean hot-100? the archive's charts: app-daily, hot-100`,
  ///   `the nearest are 2024-01-06 and 2024-01-13`, `the latest is …`, `the first is …`, or the
  ///   snapshots of a day: `give one of 2024-06-01T03:00:00Z, 2024-06-01T09:00:00Z`.
  public static func hint(for error: ArchiveError) -> String? {
    switch error {
    case .noSuchChart(let name, let charts):
      if charts.isEmpty { return "the archive has no chart yet" }
      return
        (Suggestions.closest(to: name, among: charts).first.map { "did you mean \($0)? " } ?? "")
        + "the archive's charts: " + charts.joined(separator: ", ")
    case .noSuchSnapshot(_, _, let before, let after):
      switch (before, after) {
      case (let before?, let after?): return "the nearest are \(before) and \(after)"
      case (let before?, nil): return "the latest is \(before)"
      case (nil, let after?): return "the first is \(after)"
      case (nil, nil): return nil
      }
    case .severalSnapshotsOnDay(_, _, _, let chartDates):
      return "give one of " + chartDates.map(\.iso8601).joined(separator: ", ")
    default:
      return nil
    }
  }
}
