public import Foundation

/// One leaderboard of a chart's records: what it ranks and which way. Every leaderboard is read
/// from the figures the archive stored for each entry when its snapshot was stored (rank, previous
/// rank, weeks on chart, run and whether the song charted before); none is decided again
/// (docs/rules.md, "Records").
///
/// The song leaderboards come first; the by-artist leaderboards after them are those of
/// ``ArtistLeaderboard`` (their ``subject`` is ``RecordSubjectKind/artist``, their rows hold
/// ``RecordHolder/artist(_:)``), ranked by its own rules.
public enum RecordKind: String, CaseIterable, Hashable, Sendable {
  /// Most periods at number one in all, over every stay: the figure is the periods, the dates
  /// the first and last at number one.
  case weeksAtNumberOne = "weeks-at-number-one"
  /// The longest unbroken stay at number one: consecutive snapshots at rank 1, each with the
  /// previous rank 1. The figure is its periods (the last week on chart less the first, plus
  /// one), the dates its first and last.
  case longestStayAtNumberOne = "longest-stay-at-number-one"
  /// Most periods on the chart in all (the stored weeks on chart, the source's count where the
  /// archive lacks the start of a run): the dates the first and last entry. In a span with a
  /// first date, the periods counted in it: the last weeks on chart in it less the first, plus
  /// one.
  case weeksOnChart = "weeks-on-chart"
  /// The longest single run (the entries of one `run`, from a debut or re-entry to the last
  /// snapshot before the song left): the dates its first and last entry.
  case longestRun = "longest-run"
  /// The highest debuts: entries new to the chart (not re-entries) on any snapshot but the
  /// chart's first, whose entries are all new only because the archive starts there. The figure
  /// is the rank, the date the debut's.
  case highestDebut = "highest-debut"
  /// The biggest climb from one snapshot to the next: the previous rank less the rank (a debut
  /// or re-entry has no previous rank and is no climb). The date is the snapshot's, the from and
  /// to ranks the previous rank and the rank.
  case biggestClimb = "biggest-climb"
  /// The biggest fall from one snapshot to the next: the rank less the previous rank.
  case biggestFall = "biggest-fall"
  /// The fastest rise to number one: the song's charts from its debut to its first week at
  /// number one, both counted (its weeks on chart at that week): 1 for a debut at number one.
  /// The dates are the first entry's and the first at number one's. A song at number one on the
  /// chart's first snapshot has none: the archive cannot tell that was its first week there.
  case fastestRiseToNumberOne = "fastest-rise-to-number-one"
  /// The longest road to number one: as ``fastestRiseToNumberOne``, most first.
  case longestRoadToNumberOne = "longest-road-to-number-one"
  /// Artists with the most songs at number one (``ArtistLeaderboard/Figure/numberOnes``); the
  /// dates the first and last chart date counted.
  case artistNumberOnes = "artist-number-ones"
  /// Artists with the most songs in the top 10 (``ArtistLeaderboard/Figure/topTens``).
  case artistTopTens = "artist-top-10s"
  /// Artists with the most songs on the chart (``ArtistLeaderboard/Figure/entries``).
  case artistEntries = "artist-entries"
  /// Artists with the most periods with one of their songs at number one
  /// (``ArtistLeaderboard/Figure/weeksAtNumberOne``).
  case artistWeeksAtNumberOne = "artist-weeks-at-number-one"
  /// Artists with the most songs on one snapshot (``ArtistLeaderboard/Figure/entriesAtOnce``);
  /// the dates the first and last snapshot with that many.
  case artistEntriesAtOnce = "artist-entries-at-once"

  /// The artist leaderboard's figure, for a by-artist kind; `nil` for a song leaderboard.
  public var artistFigure: ArtistLeaderboard.Figure? {
    switch self {
    case .artistNumberOnes: .numberOnes
    case .artistTopTens: .topTens
    case .artistEntries: .entries
    case .artistWeeksAtNumberOne: .weeksAtNumberOne
    case .artistEntriesAtOnce: .entriesAtOnce
    default: nil
    }
  }

  /// What the leaderboard's rows hold.
  public var subject: RecordSubjectKind { artistFigure == nil ? .song : .artist }

  /// Whether a larger figure ranks higher (a smaller one for a debut's rank and the fastest
  /// rise).
  public var largerIsBetter: Bool {
    switch self {
    case .highestDebut, .fastestRiseToNumberOne: false
    default: true
    }
  }

  /// The date a record was set, which orders equal figures: the first date (a stay's first
  /// week, the debut, the climb), or for a rise to number one its first week at number one.
  public func dateSet(_ record: RecordCandidate) -> ChartDate {
    switch self {
    case .fastestRiseToNumberOne, .longestRoadToNumberOne: record.lastDate
    default: record.firstDate
    }
  }

  /// Whether the figure is a number of the chart's periods (weeks, days, hours); otherwise it is
  /// a rank, a number of places or (by artist) of songs.
  public var countsPeriods: Bool {
    switch self {
    case .highestDebut, .biggestClimb, .biggestFall, .artistNumberOnes, .artistTopTens,
      .artistEntries, .artistEntriesAtOnce:
      false
    default: true
    }
  }
}

/// What a leaderboard's rows are about.
public enum RecordSubjectKind: String, Hashable, Sendable {
  /// Songs: each row one song, with its title and credit as first imported.
  case song
  /// Artists, as the artist credits split them.
  case artist
}

/// A song as a record names it: the archive's number, its title and credit as first imported.
public struct RecordSong: Hashable, Sendable {
  /// The archive's number for the song.
  public var id: SongID
  /// The title as first imported.
  public var title: String
  /// The artist credit as first imported.
  public var artist: String

  /// A song as a record names it.
  public init(id: SongID, title: String, artist: String) {
    self.id = id
    self.title = title
    self.artist = artist
  }
}

/// An artist as a record names it: an opaque number and the name.
public struct RecordArtist: Hashable, Sendable {
  /// The archive's number for the artist.
  public var id: Int64
  /// The artist's name.
  public var name: String

  /// An artist as a record names it.
  public init(id: Int64, name: String) {
    self.id = id
    self.name = name
  }
}

/// Who holds a record: a song, or an artist.
public enum RecordHolder: Hashable, Sendable {
  case song(RecordSong)
  case artist(RecordArtist)
}

/// One record before it is ranked: its holder, figure and the dates and ranks that make it.
public struct RecordCandidate: Hashable, Sendable {
  /// The song or artist.
  public var holder: RecordHolder
  /// The figure: periods, a rank or places (see ``RecordKind``).
  public var figure: Int
  /// The first date that makes it (the first week of a stay, the debut, the climb's date).
  public var firstDate: ChartDate
  /// The last date that makes it (the last week of a stay); the first for a single snapshot.
  public var lastDate: ChartDate
  /// The rank it moved from (a climb or fall), `nil` otherwise.
  public var fromRank: Int?
  /// The rank it moved to (a climb or fall), `nil` otherwise.
  public var toRank: Int?

  /// A record before it is ranked.
  public init(
    holder: RecordHolder, figure: Int, firstDate: ChartDate, lastDate: ChartDate? = nil,
    fromRank: Int? = nil, toRank: Int? = nil
  ) {
    self.holder = holder
    self.figure = figure
    self.firstDate = firstDate
    self.lastDate = lastDate ?? firstDate
    self.fromRank = fromRank
    self.toRank = toRank
  }
}

/// One row of a leaderboard: its place and the record.
public struct RecordRow: Hashable, Sendable {
  /// 1-based; rows with equal figures share one (standard competition ranking: 1, 1, 3).
  public var rank: Int
  /// The record.
  public var record: RecordCandidate

  /// A row as ranked.
  public init(rank: Int, record: RecordCandidate) {
    self.rank = rank
    self.record = record
  }
}

/// A leaderboard: its kind and its rows, best first.
public struct Leaderboard: Hashable, Sendable {
  /// What it ranks.
  public var kind: RecordKind
  /// The rows, best first, at most the limit asked for (a by-artist leaderboard lists more
  /// where artists tie at the last rank, as ``ArtistLeaderboard`` does).
  public var rows: [RecordRow]

  /// A leaderboard with its rows as ranked elsewhere (a by-artist one's, by
  /// ``ArtistLeaderboard/ranked(_:limit:)``).
  public init(_ kind: RecordKind, rows: [RecordRow]) {
    self.kind = kind
    self.rows = rows
  }

  /// Ranks candidates: the best figure first (``RecordKind/largerIsBetter``), equal figures by
  /// the date the record was set (``RecordKind/dateSet(_:)``: who did it first), then the
  /// holder's order of storing; rows with equal figures share a rank (standard
  /// competition ranking, 1, 1, 3); at most `limit` rows, so that ties at the end are cut by date.
  ///
  /// - Parameters:
  ///   - kind: the leaderboard.
  ///   - candidates: every record that may be among the best `limit` (more are ignored).
  ///   - limit: at most this many rows, 1 or more.
  public init(_ kind: RecordKind, ranking candidates: [RecordCandidate], limit: Int) {
    self.kind = kind
    let sorted = candidates.sorted { one, other in
      if one.figure != other.figure {
        return kind.largerIsBetter ? one.figure > other.figure : one.figure < other.figure
      }
      let (oneDate, otherDate) = (kind.dateSet(one), kind.dateSet(other))
      if oneDate != otherDate { return oneDate < otherDate }
      return one.holder.order < other.holder.order
    }
    var rows: [RecordRow] = []
    for (index, record) in sorted.prefix(max(0, limit)).enumerated() {
      let rank =
        index > 0 && rows[index - 1].record.figure == record.figure
        ? rows[index - 1].rank : index + 1
      rows.append(RecordRow(rank: rank, record: record))
    }
    self.rows = rows
  }
}

extension RecordHolder {
  /// The order of holders whose records tie on figure and date: the archive's numbers.
  var order: Int64 {
    switch self {
    case .song(let song): song.id.rawValue
    case .artist(let artist): artist.id
    }
  }
}

/// The span of chart dates records are limited to: what happened from `from` to `to`, both
/// included. A stay or run that began before the span counts its periods in the span only.
public struct RecordSpan: Hashable, Sendable {
  /// The first chart date counted, `nil` for the chart's first.
  public var from: ChartDate?
  /// The last chart date counted, `nil` for the chart's last.
  public var to: ChartDate?

  /// A span; `nil` for an open end.
  public init(from: ChartDate? = nil, to: ChartDate? = nil) {
    self.from = from
    self.to = to
  }

  /// The whole chart.
  public static let all = RecordSpan()

  /// The instants the span covers in a chart's time zone, in seconds since 1970-01-01T00:00:00Z,
  /// both ends included: from the first second of `from`'s day in the zone to the last of `to`'s
  /// (a date given with its time of day is that instant: ``ChartDate/instants(in:)``);
  /// `Int64.min` or `Int64.max` for an open end. A chart cut at 00:30 in Seoul has its `2024-06-08` snapshot at `2024-06-07T15:30:00Z`,
  /// and an hourly chart's `--to 2024-05-05` takes every hour of that day.
  ///
  /// - Parameter zone: the chart's time zone; UTC for a chart that has none.
  public func instants(in zone: TimeZone) -> (from: Int64, to: Int64) {
    (
      from?.instants(in: zone).lowerBound ?? Int64.min,
      to?.instants(in: zone).upperBound ?? Int64.max
    )
  }
}

extension RecordCandidate {
  /// The records of each holder summed: one candidate a holder, its figure the sum of its
  /// records' figures, its dates the first record's first and the last record's last (a song's
  /// weeks at number one in all, from its stays). In the order each holder first appears.
  ///
  /// - Parameter records: records of periods (stays, runs), any order.
  public static func totals(of records: [RecordCandidate]) -> [RecordCandidate] {
    var order: [RecordHolder] = []
    var totals: [RecordHolder: RecordCandidate] = [:]
    for record in records {
      guard var total = totals[record.holder] else {
        order.append(record.holder)
        totals[record.holder] = record
        continue
      }
      total.figure += record.figure
      total.firstDate = min(total.firstDate, record.firstDate)
      total.lastDate = max(total.lastDate, record.lastDate)
      totals[record.holder] = total
    }
    return order.map { totals[$0]! }
  }
}
