/// One line of a published chart: a song at a rank in one snapshot, with what the source said of it.
///
/// The published figures (`publishedPreviousRank`, `publishedPeakPosition`,
/// `publishedWeeksOnChart`, `publishedRun`, `publishedTrend`) are kept exactly as the source gave
/// them; what the
/// archive derives from its own snapshots lives in ``Placement`` and ``SongHistory``.
public struct ChartEntry: Hashable, Sendable {
  /// Position on the chart, 1-based (1 is the top).
  public var rank: Int
  /// The song's title as published in this snapshot.
  public var title: String
  /// The artist credit as published in this snapshot.
  public var artist: String
  /// The rank on the previous chart as the source published it, 1-based; `nil` when the source
  /// published none (see ``Snapshot/publishesPreviousRank`` for whether `nil` means "not on the
  /// previous chart" or "not published").
  public var publishedPreviousRank: Int?
  /// Best rank up to and including this snapshot, as the source published it; `nil` when not given.
  public var publishedPeakPosition: Int?
  /// Weeks (or periods) on the chart up to and including this snapshot, as the source published
  /// it; `nil` when not given.
  public var publishedWeeksOnChart: Int?
  /// URL of the cover image, as given in this snapshot.
  public var imageURL: String?
  /// URL of the song at the source, as given in this snapshot. When present it is the song's
  /// identity (see ``SongIdentity``).
  public var songURL: String?
  /// Plays in the chart's period, as the source counted them (streaming charts); `nil` when not
  /// given.
  public var streams: Int?
  /// The song's run on the chart the entry belongs to, as the source numbered it: 1 for its first
  /// time on the chart, 2 after its first re-entry, and so on (the "instance" of the Billboard
  /// "Hot Stuff" dataset); `nil` when not given.
  public var publishedRun: Int?
  /// The entry's movement as the source published it beside the entry (a charts CSV's `trend`,
  /// Spotify's `entryStatus`, kworb's `P+`, the UK chart's `New` and `RE`); `nil` when not given.
  @inlinable public var publishedTrend: PublishedTrend? {
    get { trend?.value }
    set { trend = newValue.map(TrendBox.init) }
  }
  /// ``publishedTrend``, kept out of line: most sources publish none, entries are copied often,
  /// and a reference in the entry takes 8 bytes where the value would take 32.
  @usableFromInline var trend: TrendBox?
  /// The recording's ISRC (ISO 3901) as the source gave it beside the entry (Apple Music's
  /// `attributes.isrc`, ChartArchive's own `isrc`); `nil` when not given. Linking joins entries
  /// with the same one into one song, on any chart (see ``SongLinking``).
  @inlinable public var isrc: ISRC? {
    get { isrcCode == 0 ? nil : ISRC(packed: isrcCode) }
    set { isrcCode = newValue?.packed ?? 0 }
  }
  /// ``isrc`` as ``ISRC/packed`` holds it, 0 for none: 8 bytes in the entry and nothing to
  /// retain when it is copied, where an optional ISRC would take 16 (a flag beside the number).
  @usableFromInline var isrcCode: UInt64

  /// Creates an entry.
  ///
  /// - Parameters:
  ///   - rank: 1-based position on the chart.
  ///   - title: the song's title.
  ///   - artist: the artist credit.
  ///   - publishedPreviousRank: the previous rank as published, 1-based, or `nil`.
  ///   - publishedPeakPosition: the peak position as published, 1-based, or `nil`.
  ///   - publishedWeeksOnChart: weeks on chart as published, or `nil`.
  ///   - imageURL: the cover image's URL, or `nil`.
  ///   - songURL: the song's URL at the source, or `nil`.
  ///   - streams: plays in the chart's period, or `nil`.
  ///   - publishedRun: the song's run as the source numbered it (1 for its first), or `nil`.
  ///   - publishedTrend: the movement the source published beside the entry, or `nil`.
  ///   - isrc: the recording's ISRC, or `nil`.
  public init(
    rank: Int, title: String, artist: String, publishedPreviousRank: Int? = nil,
    publishedPeakPosition: Int? = nil, publishedWeeksOnChart: Int? = nil, imageURL: String? = nil,
    songURL: String? = nil, streams: Int? = nil, publishedRun: Int? = nil,
    publishedTrend: PublishedTrend? = nil, isrc: ISRC? = nil
  ) {
    self.streams = streams
    self.publishedRun = publishedRun
    trend = publishedTrend.map(TrendBox.init)
    isrcCode = isrc?.packed ?? 0
    self.rank = rank
    self.title = title
    self.artist = artist
    self.publishedPreviousRank = publishedPreviousRank
    self.publishedPeakPosition = publishedPeakPosition
    self.publishedWeeksOnChart = publishedWeeksOnChart
    self.imageURL = imageURL
    self.songURL = songURL
  }

  /// Whether the source says the song was on the chart before this snapshot: its published weeks
  /// on chart are above 1 (the chart rule: weeks on chart count this week). A song the archive
  /// has not seen before that says so is a re-entry, not a debut, and linking looks for it under
  /// another credit.
  public var saysChartedBefore: Bool { (publishedWeeksOnChart ?? 0) > 1 }

  /// Whether the source published any of its figures for the entry: a previous rank, a peak
  /// position, weeks on chart or a run number.
  public var publishesAnyFigure: Bool {
    publishedPreviousRank != nil || publishedPeakPosition != nil || publishedWeeksOnChart != nil
      || publishedRun != nil
  }

  /// Whether the source says this is the song's first week on the chart (published weeks on chart
  /// 1): an entry with the identity of an earlier song is then a new recording (a reissue or a
  /// remake), not that song.
  public var saysFirstWeek: Bool { publishedWeeksOnChart == 1 }

  /// The identity that ties this entry to the same song in other snapshots.
  public var songIdentity: SongIdentity {
    SongIdentity(title: title, artist: artist, songURL: songURL)
  }
}

/// A published trend kept out of line in a ``ChartEntry``, equal and hashed by its value.
@usableFromInline final class TrendBox: Hashable, Sendable {
  @usableFromInline let value: PublishedTrend

  @usableFromInline init(_ value: PublishedTrend) { self.value = value }

  @usableFromInline static func == (lhs: TrendBox, rhs: TrendBox) -> Bool {
    lhs.value == rhs.value
  }

  @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
