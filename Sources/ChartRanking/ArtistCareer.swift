/// How an artist is credited on a song.
public enum ArtistRole: Int, Sendable, Comparable {
  /// The first artist of one of the song's credits.
  case lead = 0
  /// Only ever named after the first: joined by `Featuring`, `With`, `&`, `and`, `x`, a comma,
  /// or in the title's `(feat. B)`.
  case featured = 1

  /// `lead` or `featured`, as the views, JSON and CSV write it.
  public var name: String { self == .lead ? "lead" : "featured" }

  public static func < (lhs: ArtistRole, rhs: ArtistRole) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An artist as search lists them: ID, name and how many songs credit them.
public struct ArtistSummary: Hashable, Sendable {
  /// The archive's number for the artist.
  public var id: ArtistID
  /// The name as the first song crediting the artist spelled it.
  public var name: String
  /// Songs credited to the artist, as lead or featured, on any chart.
  public var songCount: Int

  /// An artist with the number of songs that credit them.
  public init(id: ArtistID, name: String, songCount: Int) {
    self.id = id
    self.name = name
    self.songCount = songCount
  }
}

/// One entry of a song credited to an artist, as an artist's career is made from: the entry's
/// chart date, rank and the figures decided for it at import.
public struct ArtistEntry: Sendable, Equatable {
  /// The song.
  public var song: SongID
  /// The snapshot's chart date.
  public var chartDate: ChartDate
  /// The entry's rank, 1-based.
  public var rank: Int
  /// The entry's peak position (the source's where the run is partial and it says more).
  public var peakPosition: Int
  /// The entry's weeks on chart (snapshots of the chart, across re-entries).
  public var weeksOnChart: Int
  /// The entry's run: 1, one more after each re-entry.
  public var run: Int
  /// Whether the archive lacks the start of the entry's run.
  public var isPartialRun: Bool

  /// An entry with its stored figures.
  public init(
    song: SongID, chartDate: ChartDate, rank: Int, peakPosition: Int, weeksOnChart: Int,
    run: Int, isPartialRun: Bool
  ) {
    self.song = song
    self.chartDate = chartDate
    self.rank = rank
    self.peakPosition = peakPosition
    self.weeksOnChart = weeksOnChart
    self.run = run
    self.isPartialRun = isPartialRun
  }
}

/// A song credited to an artist, with its figures on one chart: what `song_runs` gives, from
/// the figures stored at import (never decided again).
public struct ArtistSong: Sendable, Equatable {
  /// A stretch of the song's chart dates in one run: from its first to its last entry of the run.
  public struct Span: Sendable, Equatable {
    /// The run's first and last chart dates.
    public var from: ChartDate
    public var to: ChartDate
    /// The best rank in the run, 1-based.
    public var bestRank: Int
  }

  /// The song.
  public var song: SongID
  /// The song's title and credit as first imported.
  public var title: String
  public var credit: String
  /// How the artist is credited on it.
  public var role: ArtistRole
  /// The chart date and rank of its first entry on the chart (the archive's first where
  /// ``isPartialRun``).
  public var debutDate: ChartDate
  public var debutRank: Int
  /// The chart date of its last entry on the chart.
  public var lastDate: ChartDate
  /// Its peak position, 1-based: its last entry's (the source's where the run is partial).
  public var peakPosition: Int
  /// Snapshots on which it held its peak position, counted as weeks on chart count them (see
  /// ``SongHistory/weeksAtPeak``).
  public var weeksAtPeak: Int
  /// Its weeks on chart: its last entry's (snapshots, across re-entries).
  public var weeksOnChart: Int
  /// Its runs: 1, plus one per re-entry.
  public var runs: Int
  /// Whether the archive lacks the start of a run.
  public var isPartialRun: Bool
  /// Its runs as spans of chart dates, in order: what the artist's picture draws.
  public var spans: [Span]

  /// Whether it reached the top 10 and number 1.
  public var isTopTen: Bool { peakPosition <= ArtistLeaderboard.Figure.lowestTopTenRank }
  public var isNumberOne: Bool { peakPosition == 1 }
}

/// An artist's career on one chart: every song credited to them as lead or featured with its
/// figures, by debut, and what they add up to.
public struct ArtistCareer: Sendable, Equatable {
  /// The chart's name.
  public var chart: String
  /// How often the chart is published, when known: the unit of its weeks on chart.
  public var frequency: ChartFrequency?
  /// The songs, by debut date, then rank, then song ID.
  public var songs: [ArtistSong]

  /// Songs (entries, as chart histories count an artist's entries).
  public var entryCount: Int { songs.count }
  /// Songs that peaked in the top 10.
  public var topTenCount: Int { songs.count(where: \.isTopTen) }
  /// Songs that reached number 1.
  public var numberOneCount: Int { songs.count(where: \.isNumberOne) }
  /// The songs' weeks on chart, added up.
  public var weeksOnChart: Int { songs.reduce(0) { $0 + $1.weeksOnChart } }
  /// The songs' weeks at number 1, added up (a week two of the artist's songs were at number 1
  /// together counts twice).
  public var weeksAtNumberOne: Int { songs.filter(\.isNumberOne).reduce(0) { $0 + $1.weeksAtPeak } }
  /// The first song to chart, and the latest (the one with the latest debut).
  public var firstEntry: ArtistSong? { songs.first }
  public var latestEntry: ArtistSong? { songs.last }

  /// A career from the entries of the artist's songs on one chart.
  ///
  /// - Parameters:
  ///   - chart: the chart's name.
  ///   - frequency: how often it is published, when known.
  ///   - entries: every entry on the chart of the songs credited to the artist, in any order.
  ///   - songs: each song's title, credit as first imported and the artist's role on it.
  public init(
    chart: String, frequency: ChartFrequency? = nil, entries: [ArtistEntry],
    songs: [SongID: (title: String, credit: String, role: ArtistRole)]
  ) {
    self.chart = chart
    self.frequency = frequency
    var bySong: [SongID: [ArtistEntry]] = [:]
    for entry in entries { bySong[entry.song, default: []].append(entry) }
    self.songs = bySong.compactMap { song, entries in
      guard let about = songs[song] else { return nil }
      return Self.song(song, about: about, entries: entries)
    }.sorted { ($0.debutDate, $0.debutRank, $0.song) < ($1.debutDate, $1.debutRank, $1.song) }
  }

  /// A career with its songs as given.
  public init(chart: String, frequency: ChartFrequency? = nil, songs: [ArtistSong]) {
    self.chart = chart
    self.frequency = frequency
    self.songs = songs
  }

  /// One song's figures from its entries on the chart, as `song_runs` gives them: first and last
  /// entries by chart date, then rank.
  static func song(
    _ song: SongID, about: (title: String, credit: String, role: ArtistRole),
    entries: [ArtistEntry]
  ) -> ArtistSong {
    let entries = entries.sorted { ($0.chartDate, $0.rank) < ($1.chartDate, $1.rank) }
    let first = entries[0]
    let last = entries[entries.count - 1]
    var weeksAtPeak: Set<Int> = []
    var spans: [ArtistSong.Span] = []
    var run = -1
    for entry in entries {
      if entry.rank == last.peakPosition { weeksAtPeak.insert(entry.weeksOnChart) }
      if entry.run == run, let open = spans.last {
        spans[spans.count - 1] = .init(
          from: open.from, to: entry.chartDate, bestRank: min(open.bestRank, entry.rank))
      } else {
        spans.append(.init(from: entry.chartDate, to: entry.chartDate, bestRank: entry.rank))
        run = entry.run
      }
    }
    return ArtistSong(
      song: song, title: about.title, credit: about.credit, role: about.role,
      debutDate: first.chartDate, debutRank: first.rank, lastDate: last.chartDate,
      peakPosition: last.peakPosition, weeksAtPeak: weeksAtPeak.count,
      weeksOnChart: last.weeksOnChart, runs: last.run,
      isPartialRun: entries.contains(where: \.isPartialRun), spans: spans)
  }
}
