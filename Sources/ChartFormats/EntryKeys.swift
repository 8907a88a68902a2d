/// The names an entry's fields have in one format (`nil`: the format has no such field).
struct EntryKeys {
  var rank: String
  var title: String
  var artist: String
  var previousRank: String
  var peakPosition: String
  var weeksOnChart: String
  var imageURL: String?
  var songURL: String?
  var streams: String?
  /// The song's run as the source numbers it (the native `run`, the "Hot Stuff" dataset's
  /// `instance`).
  var run: String? = nil
  /// What the format writes for "not on the previous chart", for messages: `null` in JSON, `-`
  /// or `-1` in a CSV.
  var previousRankNone = "null"
  /// The field that marks an entry tied with another at its rank (`tie`, the native format's).
  var tie: String? = nil
  /// The movement the source published, in ``PublishedTrend/notation`` (the native `trend`).
  var trend: String? = nil
  /// The recording's ISRC (the native `isrc`, Apple Music's `attributes.isrc`).
  var isrc: String? = nil

  static let native = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "previous_rank",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: "image_url",
    songURL: "song_url", streams: "streams", run: "run", tie: "tie", trend: "trend", isrc: "isrc")
  static let billboardWeekly = EntryKeys(
    rank: "this_week", title: "song", artist: "artist", previousRank: "last_week",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: nil, songURL: nil)
  static let billboardPy = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "lastPos",
    peakPosition: "peakPos",
    weeksOnChart: "weeks", imageURL: "image", songURL: nil)
  static let appFeed = EntryKeys(
    rank: "rank", title: "title", artist: "artist", previousRank: "last",
    peakPosition: "peak_position", weeksOnChart: "weeks_on_chart", imageURL: "image",
    songURL: "url")

  /// The names of a JSON format's entry fields; a CSV file's are those of its header
  /// (``CSVLayout/keys``).
  static func forFormat(_ format: ChartFormat) -> EntryKeys {
    switch format {
    case .billboardWeekly: .billboardWeekly
    case .billboardPy: .billboardPy
    case .appFeed: .appFeed
    default: .native
    }
  }
}
