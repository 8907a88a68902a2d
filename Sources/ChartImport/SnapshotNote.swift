public import ChartRanking

/// Something storing a snapshot found that an import should report: the data was stored, but a
/// reader should look at it.
public struct SnapshotNote: Hashable, Sendable {
  /// The chart's name.
  public var chart: String
  /// The snapshot's chart date.
  public var chartDate: ChartDate
  /// What was found.
  public var kind: Kind

  /// What storing a snapshot can find.
  public enum Kind: Hashable, Sendable {
    /// What deciding its figures found (see ``ChartFigures/Note``).
    case figures(ChartFigures.Note)
    /// Its chart date is not one period after the chart's previous snapshot (of `previous`): a
    /// chart missing between them, or a date off the chart's rhythm (see
    /// ``ChartFrequency/isOnRhythm(from:to:)``).
    case offRhythm(previous: ChartDate, frequency: ChartFrequency)
    /// Two or more of its entries (at `ranks`) have the same song URL, which names one recording:
    /// a scraper's repeated row.
    case sameSongURLTwice(url: String, ranks: [Int])
    /// It is the first snapshot of a chart the import created, whose name is close to those of
    /// charts the archive held (`names`, closest first; see ``Suggestions/closest(to:among:)``):
    /// a misspelled chart name makes a second chart of the same snapshots.
    case newChartNamedLike(names: [String])
    /// The entry at `rank` (`title` by `artist`) has the song URL (`url`) of a song that charted
    /// as `otherTitle` by `otherArtist` only: one recording, says the URL, so one song, though
    /// neither its title nor its artist is one the song had.
    case songURLOfAnotherCredit(
      rank: Int, title: String, artist: String, url: String, otherTitle: String,
      otherArtist: String)
  }
}
