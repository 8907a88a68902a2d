import ChartFormats
public import ChartRanking

/// A chart app's feed: the top entries of a chart's latest snapshot as the app decodes them, a
/// JSON array in rank order of `{"title", "artist", "image", "url", "last", "rank", "movement",
/// "peak_position", "weeks_on_chart"}`. The first five are the app's and never change: `last` is
/// the previous rank the archive gives (1-based) and 0 for a new or re-entering song, `image` and
/// `url` empty when the source gave none. The others were added for apps that want more: the rank
/// (1-based), the movement's kind (`up`, `down`, `unchanged`, `new`, `re-entry`, which tells a
/// re-entry from a debut where `last` cannot), the peak position and the weeks on chart (in the
/// chart's periods: days for a daily chart).
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
          ("rank", .int(placement.rank)),
          ("movement", .string(placement.movement.kind)),
          ("peak_position", .int(placement.peakPosition)),
          ("weeks_on_chart", .int(placement.weeksOnChart)),
        ])
      }
    ).encoded(.compact) + "\n"
  }
}
