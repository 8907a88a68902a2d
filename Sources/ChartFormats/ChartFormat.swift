import ChartRanking

/// The chart file formats the importer reads. Each is detected from a file's content; `--format`
/// names one to skip detection.
public enum ChartFormat: String, CaseIterable, Hashable, Sendable {
  /// ChartArchive's own snapshot JSON: `{"chart", "chart_date", "frequency"?, "entries": [{"rank",
  /// "previous_rank"?, "title", "artist", "image_url"?, "song_url"?, "peak_position"?,
  /// "weeks_on_chart"?, "streams"?}]}`.
  case native = "chart-archive"
  /// A weekly chart file as collected from Billboard: `{"date", "data": [{"song", "artist",
  /// "this_week", "last_week", "peak_position", "weeks_on_chart"}]}`; `last_week` null means not on
  /// last week's chart. The chart is weekly.
  case billboardWeekly = "billboard-weekly"
  /// billboard.py's `ChartData.json()`: `{"name", "date", "entries": [{"title", "artist", "image",
  /// "rank", "lastPos", "peakPos", "weeks", "isNew"}], …}`; `lastPos` 0 means none.
  case billboardPy = "billboard-py"
  /// A chart app's feed: a JSON array of entries in rank order (rank = position + 1), each with
  /// `title`, `artist`, `image`, `url` and `last` (previous rank; 0 or missing = not on the
  /// previous chart); other fields are ignored.
  case appFeed = "app-feed"
  /// A streaming service's top-200 CSV as downloaded (a note line, then `Position,"Track
  /// Name",Artist,Streams,URL`), or its cleaned form (`track_position, track_name, artist_name,
  /// stream_count, track_url, region_name, date`).
  case streamingCSV = "streaming-csv"
  /// A weekly chart CSV: `chart_week, current_week, title, performer, last_week, peak_pos,
  /// wks_on_chart` (`-` for no previous week, or `New` and `RE` as the UK chart writes them), one
  /// week or many in one file.
  case weeklyCSV = "weekly-chart-csv"
  /// Many charts and dates in one CSV: `title, rank, date, artist, url, region, chart, trend,
  /// streams`; chart and region name the chart, `trend` is MOVE_UP, MOVE_DOWN, SAME_POSITION or
  /// NEW_ENTRY.
  case chartsCSV = "charts-csv"
  /// ChartArchive's own CSV, as `export --format csv` writes it: `chart, chart_date, rank,
  /// previous_rank, peak_position, weeks_on_chart, title, artist, image_url, song_url, streams`;
  /// `previous_rank` is `-` for "not on the previous chart" and empty when the source published
  /// none.
  case nativeCSV = "chart-archive-csv"
  /// Spotify's charts as downloaded from charts.spotify.com since 2022, daily or weekly:
  /// `rank, uri, artist_names, track_name, source, peak_rank, previous_rank, weeks_on_chart`
  /// (`days_on_chart` in a daily file)`, streams`; `previous_rank` -1 for a new or re-entering
  /// song; the chart and the date from the file's name (`regional-global-weekly-2024-03-21.csv`).
  case spotifyChartsCSV = "spotify-charts-csv"
  /// A chart as Spotify's charts site serves it to its pages: `{"displayChart": {"date",
  /// "chartMetadata": {"uri"}}, "entries": [{"chartEntryData": {"currentRank", "previousRank",
  /// "peakRank", "appearancesOnChart", "rankingMetric", "entryStatus"}, "trackMetadata":
  /// {"trackName", "trackUri", "displayImageUri", "artists": [{"name"}]}}]}`; `entryStatus`
  /// (NEW_ENTRY, RE_ENTRY, MOVED_UP, MOVED_DOWN, NO_CHANGE) is checked against the derived movement.
  case spotifyChartsJSON = "spotify-charts-json"
  /// The UK Official Charts as collectors keep them in CSV: `chart_date, chart_position,
  /// chart_artist, chart_title, chart_movement, chart_peak, chart_weeks`, dates written D/M/YYYY
  /// (or YYYYMMDD, or ISO 8601), `chart_movement` holding last week's position, `New` or `RE`.
  case ukChartCSV = "uk-chart-csv"
  /// A listener's weekly track chart from Last.fm's API (`user.getWeeklyTrackChart`):
  /// `{"weeklytrackchart": {"track": [{"name", "artist": {"#text"}, "url", "playcount", "image",
  /// "@attr": {"rank"}}], "@attr": {"from", "to"}}}`, numbers written as text; the chart date is
  /// `to` (seconds since 1970), the play counts are the week's plays.
  case lastFMWeeklyTrackChart = "lastfm-weekly-chart"
  /// Apple Music's catalog charts (`GET /v1/catalog/{storefront}/charts`): `{"results": {"songs":
  /// [{"chart", "next", "data": [{"attributes": {"name", "artistName", "url", "artwork"}}]}]}}`,
  /// the rank each song's place in the list; a chart of several pages (20 songs each, `next`
  /// naming the following one) is joined when its pages are imported together.
  case appleMusicCharts = "apple-music-charts"
  /// A kworb.net chart table saved as CSV: `Pos, P+, Artist and Title, Days (or Wks), Pk, (x?),
  /// Streams, …`; "Artist - Title" split at the first " - ", numbers with thousands separators,
  /// `P+` (`=`, `+3`, `-2`, `NEW`, `RE`) checked against the derived movement.
  case kworbCSV = "kworb-csv"
  /// A kworb.net chart page saved as HTML: its table with the columns of ``kworbCSV``, read with
  /// libxml2's HTML parser.
  case kworbHTML = "kworb-html"
  /// The Billboard Hot 100 as the "Hot Stuff" dataset keeps it (data.world; TidyTuesday's
  /// `billboard.csv`), every week in one file, rows in any order: `url, week_id, week_position,
  /// song, performer, song_id, instance, previous_week_position, peak_position, weeks_on_chart`
  /// (or data.world's spelling, `url, WeekID, Week Position, Song, Performer, SongID, Instance,
  /// Previous Week Position, Peak Position, Weeks on Chart`); dates written M/D/YYYY, an empty (or
  /// `NA`) previous position for a song not on last week's chart, `instance` the song's run.
  case hotStuffCSV = "hot-stuff-csv"
  /// The Billboard Hot 100 as Kaggle's "Billboard The Hot 100 Songs" dataset keeps it
  /// (`charts.csv`), every week in one file, newest first: `date, rank, song, artist, last-week,
  /// peak-rank, weeks-on-board`; `last-week` empty for a song not on last week's chart, and
  /// numbers may be written as pandas writes floats (`1.0`).
  case kaggleHot100CSV = "kaggle-hot-100-csv"

  /// One line that says what the format is, for `--help` and `formats`.
  public var summary: String {
    switch self {
    case .native: "ChartArchive snapshot JSON: {chart, chart_date, entries: [{rank, title, …}]}"
    case .billboardWeekly:
      "weekly chart JSON: {date, data: [{song, artist, this_week, last_week, …}]}"
    case .billboardPy: "billboard.py ChartData.json(): {name, date, entries: [{rank, lastPos, …}]}"
    case .appFeed: "chart app feed: JSON array of {title, artist, image, url, last} in rank order"
    case .streamingCSV: "top-200 CSV: Position,Track Name,Artist,Streams,URL (or its cleaned form)"
    case .weeklyCSV: "weekly chart CSV: chart_week,current_week,title,performer,last_week,…"
    case .chartsCSV: "charts CSV: title,rank,date,artist,url,region,chart,trend,streams"
    case .nativeCSV: "ChartArchive CSV (export): chart,chart_date,rank,previous_rank,…"
    case .spotifyChartsCSV: "Spotify charts download: rank,uri,artist_names,track_name,source,…"
    case .ukChartCSV: "UK chart CSV: chart_date,chart_position,chart_artist,chart_title,…"
    case .appleMusicCharts:
      "Apple Music charts JSON: {results: {songs: [{chart, next, data: […]}]}}"
    case .kworbCSV: "kworb table as CSV: Pos,P+,Artist and Title,Days,Pk,(x?),Streams,…"
    case .kworbHTML: "kworb chart page as HTML: its table of Pos, P+, Artist and Title, …"
    case .hotStuffCSV: "Hot Stuff Hot 100 CSV: url,week_id,week_position,song,performer,…"
    case .kaggleHot100CSV: "Kaggle Hot 100 CSV: date,rank,song,artist,last-week,peak-rank,…"
    case .lastFMWeeklyTrackChart:
      "Last.fm weekly track chart JSON: {weeklytrackchart: {track: [{name, …}]}}"
    case .spotifyChartsJSON:
      "Spotify charts site JSON: {displayChart, entries: [{chartEntryData, …}]}"
    }
  }

  /// What a file of a format is written in.
  public enum Kind: String, Hashable, Sendable {
    /// JSON (RFC 8259).
    case json = "JSON"
    /// CSV (RFC 4180).
    case csv = "CSV"
    /// An HTML document holding a table.
    case html = "HTML"
  }

  /// What files of the format are written in.
  public var kind: Kind {
    switch self {
    case .native, .billboardWeekly, .billboardPy, .appFeed, .spotifyChartsJSON,
      .lastFMWeeklyTrackChart, .appleMusicCharts:
      .json
    case .kworbHTML: .html
    default: .csv
    }
  }

  /// Whether files of the format are JSON.
  public var isJSON: Bool { kind == .json }

  /// Whether files of the format are tables, rows under a header: CSV, or a table of an HTML
  /// document.
  var isTable: Bool { kind != .json }

  /// How often charts of the format are published when nothing else says.
  var impliedFrequency: ChartFrequency? {
    switch self {
    case .billboardWeekly, .billboardPy, .weeklyCSV, .ukChartCSV, .hotStuffCSV, .kaggleHot100CSV:
      .weekly
    default: nil
    }
  }

  /// Whether a previous rank of 0 means "not on the previous chart".
  var zeroPreviousRankMeansNone: Bool { self == .appFeed || self == .billboardPy }

  /// Whether a null previous rank means "not available" rather than "not on the previous chart":
  /// billboard.py writes `lastPos` 0 for a song that was not on last week's chart and `null`
  /// where the chart has no last-week figures (its year-end charts, a chart page without the
  /// column). Such an entry does not make its snapshot publish previous ranks.
  var nullPreviousRankIsUnknown: Bool { self == .billboardPy }

  /// Whether the chart's name is in the file's name, before its date
  /// (`regional-global-weekly-2024-03-21.csv` is chart `regional-global-weekly`).
  var namesTheChartInTheFileName: Bool { self == .spotifyChartsCSV }

  /// Whether the format's source can publish a chart of no entries, which is then stored as a
  /// snapshot with none (the songs of the chart after it re-enter): a Last.fm listener's week
  /// without plays (`weeklytrackchart.track` an empty list), and ChartArchive's own JSON, which
  /// exports such a snapshot as `"entries": []`. A file of any other format with no entries is
  /// refused (docs/formats.md, "A chart of no entries").
  public var publishesEmptyCharts: Bool { self == .native || self == .lastFMWeeklyTrackChart }

  /// Whether a file of the format holds every week of one weekly chart, so that two of its dates
  /// less than 7 days apart are one week split across two dates (the Hot 100 datasets'; the
  /// Hot 100's chart dates are 7 days apart, or 12 once, when they moved from Monday to
  /// Saturday in 1962).
  var holdsWeeksOfOneChart: Bool { self == .hotStuffCSV || self == .kaggleHot100CSV }
}
