/// The chart file formats the importer reads. Each is detected from a file's content; `--format`
/// names one to skip detection.
public enum ChartFormat: String, CaseIterable, Hashable, Sendable {
  /// ChartArchive's own snapshot JSON: `{"chart", "chart_date", "frequency"?, "entries": [{"rank",
  /// "previous_rank"?, "title", "artist", "image_url"?, "song_url"?, "peak_position"?,
  /// "weeks_on_chart"?}]}`.
  case native = "chart-archive"
  /// A weekly chart file as collected from Billboard: `{"date", "data": [{"song", "artist",
  /// "this_week", "last_week", "peak_position", "weeks_on_chart"}]}`; `last_week` null means not on
  /// last week's chart. The chart is weekly.
  case billboardWeekly = "billboard-weekly"
  /// A chart app's feed: a JSON array of entries in rank order (rank = position + 1), each with
  /// `title`, `artist`, `image`, `url` and `last` (previous rank; 0 or missing = not on the
  /// previous chart); other fields are ignored.
  case appFeed = "app-feed"

  /// One line that says what the format is, for `--help`.
  public var summary: String {
    switch self {
    case .native: "ChartArchive snapshot JSON (chart, chart_date, entries)"
    case .billboardWeekly:
      "weekly chart JSON: {date, data: [{song, artist, this_week, last_week, …}]}"
    case .appFeed: "chart app feed: JSON array of {title, artist, image, url, last} in rank order"
    }
  }
}
