import ChartFormats
public import ChartRanking
public import ChartStorage

/// A chart app's feed: the top entries of a chart's latest snapshot as the app decodes them, a
/// JSON array in rank order of `{"title", "artist", "image", "url", "last"}`, where `last` is the
/// previous rank the archive gives (1-based) and 0 for a new or re-entering song, `image` and `url`
/// empty when the source gave none.
public struct FeedView: Presentation {
  /// The placements shown, in rank order.
  public var placements: [Placement]

  /// The feed of a snapshot's first `limit` placements.
  public init(_ placements: [Placement], limit: Int) {
    self.placements = Array(placements.prefix(limit))
  }

  /// The JSON array, on one line (the feed is for apps, not people); every format gives it.
  public func rendered(as format: OutputFormat, style: Style) -> String {
    JSONValue.array(
      placements.map { placement in
        .object([
          ("title", .string(placement.entry.title)),
          ("artist", .string(placement.entry.artist)),
          ("image", .string(placement.entry.imageURL ?? "")),
          ("url", .string(placement.entry.songURL ?? "")),
          ("last", .int(placement.previousRank ?? 0)),
        ])
      }
    ).encoded(.compact) + "\n"
  }
}

/// What the front ends add to an archive error's own words, alike for each: the closest chart
/// name and the list of charts, the chart dates nearest a date without a snapshot.
public enum ErrorHints {
  /// The hint for an error, or `nil` when there is none to give.
  ///
  /// - Returns: `did you mean hot-100? the archive's charts: app-daily, hot-100`,
  ///   `the nearest are 2024-01-06 and 2024-01-13`, `the latest is …`, `the first is …`.
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
    default:
      return nil
    }
  }
}
