import ChartRanking
import ChartStorage

/// The mark of a figure that is the source's because the archive lacks the start of the song's
/// run, and of a previous rank the archive corrected.
let partialMark = "*"
let correctedMark = "!"

/// The lines under a table that explain its marks, for those that appear.
func markNotes(_ figures: some Sequence<EntryFigures>) -> [String] {
  var notes: [String] = []
  if figures.contains(where: { $0.previousRankSource == .corrected }) {
    notes.append(
      "\(correctedMark) the source's previous rank cannot be right; the archive's is given")
  }
  if figures.contains(where: \.isPartialRun) {
    notes.append(
      "\(partialMark) the source's figure: the archive does not hold the start of the song's run")
  }
  return notes
}

/// The columns of entries with their figures: rank, movement, previous rank, peak position, weeks
/// on chart, streams (in tables only when some entry has them), title and artist; in JSON and CSV
/// also where the previous rank comes from, the run, image and song URLs, and the published and
/// the archive's own figures (the run among them) where they differ from those given. ``HistoryView`` shows the first
/// six.
func placementColumns(_ periods: Periods) -> [Column] {
  [
    Column(key: "rank", heading: "RANK", alignRight: true),
    Column(key: "movement", heading: "MOVE"),
    Column(key: "previous_rank", heading: "LAST", alignRight: true),
    Column(key: "peak_position", heading: "PEAK", alignRight: true),
    Column(key: "weeks_on_chart", heading: periods.heading, alignRight: true),
    Column(key: "streams", heading: "STREAMS", alignRight: true, hiddenWhenEmpty: true),
    Column(key: "title", heading: "TITLE"),
    Column(key: "artist", heading: "ARTIST"),
    Column(key: "image_url", heading: "IMAGE", shownInTable: false),
    Column(key: "song_url", heading: "URL", shownInTable: false),
  ] + figureDetailColumns
}

/// Where the figures come from, for machines: in JSON and CSV only.
let figureDetailColumns = [
  Column(key: "previous_rank_source", heading: "SOURCE", shownInTable: false),
  Column(key: "run", heading: "RUN", shownInTable: false),
  Column(key: "partial_run", heading: "PARTIAL", shownInTable: false),
  Column(key: "published_previous_rank", heading: "PUBLISHED LAST", shownInTable: false),
  Column(key: "published_peak_position", heading: "PUBLISHED PEAK", shownInTable: false),
  Column(key: "published_weeks_on_chart", heading: "PUBLISHED WKS", shownInTable: false),
  Column(key: "archive_peak_position", heading: "ARCHIVE PEAK", shownInTable: false),
  Column(key: "archive_weeks_on_chart", heading: "ARCHIVE WKS", shownInTable: false),
  Column(key: "published_run", heading: "PUBLISHED RUN", shownInTable: false),
  Column(key: "archive_run", heading: "ARCHIVE RUN", shownInTable: false),
]

/// The cells of ``figureDetailColumns``: a published or archive figure only where it differs from
/// the one given.
func figureDetailCells(_ entry: ChartEntry, _ figures: EntryFigures) -> [Cell] {
  func differing(_ value: Int?, from given: Int?) -> Cell {
    value == given ? .null : .optional(value)
  }
  return [
    .text(figures.previousRankSource.rawValue),
    figures.run != figures.archiveRun ? .marked(figures.run, mark: partialMark) : .int(figures.run),
    .bool(figures.isPartialRun),
    figures.previousRankSource == .derived
      ? .null : differing(entry.publishedPreviousRank, from: figures.previousRank),
    differing(entry.publishedPeakPosition, from: figures.peakPosition),
    differing(entry.publishedWeeksOnChart, from: figures.weeksOnChart),
    differing(figures.archivePeakPosition, from: figures.peakPosition),
    differing(figures.archiveWeeksOnChart, from: figures.weeksOnChart),
    differing(entry.publishedRun, from: figures.run),
    differing(figures.archiveRun, from: figures.run),
  ]
}

/// The previous rank, peak and weeks cells of an entry, marked where they are not the archive's
/// own.
func figureCells(_ figures: EntryFigures) -> (previous: Cell, peak: Cell, weeks: Cell) {
  let previous: Cell =
    figures.previousRankSource == .corrected
    ? figures.previousRank.map { .marked($0, mark: correctedMark) }
      ?? .markedNull(mark: correctedMark)
    : .optional(figures.previousRank)
  let partial = figures.isPartialRun
  return (
    previous,
    figures.peakPosition != figures.archivePeakPosition
      ? .marked(figures.peakPosition, mark: partialMark) : .int(figures.peakPosition),
    partial && figures.weeksOnChart != figures.archiveWeeksOnChart
      ? .marked(figures.weeksOnChart, mark: partialMark) : .int(figures.weeksOnChart)
  )
}

/// A placement's cells under ``placementColumns(_:)``.
func placementRow(_ placement: Placement) -> [Cell] {
  let cells = figureCells(placement.figures)
  return [
    .int(placement.rank), .movement(placement.movement), cells.previous, cells.peak, cells.weeks,
    .optional(placement.entry.streams), .text(placement.entry.title),
    .text(placement.entry.artist), .optional(placement.entry.imageURL),
    .optional(placement.entry.songURL),
  ] + figureDetailCells(placement.entry, placement.figures)
}

/// A table of placements.
func placementTable(_ placements: some Sequence<Placement>, periods: Periods) -> Table {
  Table(columns: placementColumns(periods), rows: placements.map(placementRow))
}

/// A table of drop-outs: their rank on the older snapshot (under the given key and heading),
/// title and artist.
func dropOutTable(_ entries: [ArchivedEntry], rankKey: String, heading: String) -> Table {
  Table(
    columns: [
      Column(key: rankKey, heading: heading, alignRight: true),
      Column(key: "title", heading: "TITLE"),
      Column(key: "artist", heading: "ARTIST"),
    ],
    rows: entries.map { [.int($0.entry.rank), .text($0.entry.title), .text($0.entry.artist)] })
}
