import ChartRanking
import ChartStorage
import Foundation

/// Makes, applies again and undoes the decisions of the archive (see ``Correction``): ties
/// entries to songs as a person decided, over what the rules of ``SongLinking`` tied, and has
/// the figures of the entries it moved decided again. Valid inside the write it was given.
///
/// A decision names entries by chart, chart date, title, credit and song URL, never by row IDs:
/// a merge "the songs holding each song's first entry on each chart are one song", a split "the
/// song holding this entry is, on this chart from this date on, another song". Applied again
/// after every import (``applyAll()``), it holds however the rules tie the entries a re-import
/// stores.
final class DecisionKeeper {
  let writer: ArchiveWriter
  var reader: ArchiveReader { writer.reader }
  /// Chart names by ID.
  private var chartNames: [ChartID: String] = [:]

  init(writer: ArchiveWriter) { self.writer = writer }

  /// Per chart, the earliest chart time from which entries moved to another song.
  typealias Touched = [ChartID: Int64]

  // MARK: - Making

  /// Makes a correction and applies it.
  ///
  /// - Returns: the decision's number.
  /// - Throws: ``CorrectionError``, ``ArchiveError``.
  func make(_ correction: Correction) throws -> Int {
    switch correction {
    case .merge(let songs): try merge(songs)
    case .split(let song, let chart, let date): try split(song, chart: chart, from: date)
    case .renameChart(let old, let new): try rename(old, to: new)
    case .deleteSnapshot(let chart, let date): try deleteSnapshot(of: chart, at: date)
    }
  }

  private func merge(_ songs: [SongID]) throws -> Int {
    guard songs.count >= 2, Set(songs).count == songs.count else {
      throw CorrectionError.fewerThanTwoSongs
    }
    var entries: [[LocatedEntry]] = []
    for song in songs {
      guard try reader.songRow(song) != nil else { throw CorrectionError.noSuchSong(song) }
      entries.append(try reader.entries(ofSong: song))
    }
    if let clash = try sameSnapshot(entries.joined()) { throw clash }
    let named = try entries.map { try firstOnEachChart($0) }
    let number = try writer.insertDecision(.merge, songs: named)
    let (undo, touched) = try mergeSongs(into: songs[0], others: Array(songs.dropFirst()))
    try writer.setUndo(
      undo, entryCount: try reader.entryCount(ofSongs: [songs[0]]), of: number)
    try redecide(touched, songs: [songs[0]])
    return number
  }

  private func split(_ song: SongID, chart name: String, from date: ChartDate) throws -> Int {
    guard try reader.songRow(song) != nil else { throw CorrectionError.noSuchSong(song) }
    guard let chart = try reader.chart(named: name) else {
      throw ArchiveError.noSuchChart(name, charts: try reader.chartNames().sorted())
    }
    let onChart = try reader.entries(ofSong: song).filter { $0.chart == chart.id }
    // A date is its day in the chart's zone (a chart cut at 00:30 in Seoul has its June 9 at 15:30
    // UTC on the 8th); a date and time, that instant.
    let zone = chart.timeZone.flatMap(TimeZone.init(identifier:)) ?? .gmt
    let time = date.instants(in: zone).lowerBound
    guard let first = onChart.first(where: { $0.chartDate.secondsSince1970 >= time }) else {
      throw CorrectionError.nothingToSplit(song: song, chart: name, from: date, before: false)
    }
    guard onChart.contains(where: { $0.chartDate.secondsSince1970 < time }) else {
      throw CorrectionError.nothingToSplit(song: song, chart: name, from: date, before: true)
    }
    let number = try writer.insertDecision(.split, songs: [[try named(first)]])
    let (undo, other) = try splitSong(song, from: first)
    try writer.setUndo(
      undo, entryCount: try reader.entryCount(ofSongs: [song, other]), of: number)
    try redecide([chart.id: time], songs: [song, other])
    return number
  }

  private func rename(_ old: String, to new: String) throws -> Int {
    guard Snapshot.isValidChartName(new) else { throw ArchiveError.invalidChartName(new) }
    guard let chart = try reader.chart(named: old) else {
      throw ArchiveError.noSuchChart(old, charts: try reader.chartNames().sorted())
    }
    guard old != new, try reader.chart(named: new) == nil else {
      throw CorrectionError.chartNameTaken(new)
    }
    try writer.renameChart(chart.id, to: new)
    try writer.renameChartInDecisions(old, to: new)
    return try writer.insertDecision(.rename, songs: [], chart: old, detail: new)
  }

  /// Deletes a snapshot and its songs left without entries, and decides the chart's later
  /// snapshots' figures again; the songs of the later entries stay as they were tied. A date
  /// names the snapshot of that day in the chart's time zone, as everywhere.
  private func deleteSnapshot(of name: String, at date: ChartDate) throws -> Int {
    guard let chart = try reader.chart(named: name) else {
      throw ArchiveError.noSuchChart(name, charts: try reader.chartNames().sorted())
    }
    let summary = try reader.snapshot(of: name, at: .on(date))
    let songs = try reader.entries(of: summary.id).map(\.song)
    try writer.deleteSnapshot(summary.id)
    for song in Set(songs) { try writer.deleteSongIfUnused(song) }
    let number = try writer.insertDecision(
      .delete, songs: [], chart: name, chartDate: summary.chartDate, detail: summary.source)
    try FigureLedger.redecide(
      chart: chart.id, from: summary.chartDate.secondsSince1970, writer: writer)
    return number
  }

  // MARK: - Moving entries

  /// Moves the entries of `others` to `target`, gives it their titles and credits, and deletes
  /// them.
  ///
  /// - Returns: what undoing it restores, and where entries moved.
  func mergeSongs(into target: SongID, others: [SongID]) throws -> (DecisionUndo, Touched) {
    var undo = DecisionUndo()
    var touched: Touched = [:]
    for other in others {
      guard let row = try reader.songRow(other) else { continue }
      let credits = try reader.creditRows(of: other)
      for entry in try reader.entries(ofSong: other) {
        try writer.setSong(target, ofEntryAt: entry.position, in: entry.snapshot)
        undo.moves.append((entry.snapshot, entry.position, other))
        Self.touch(&touched, entry)
      }
      undo.deletedSongs.append(row)
      undo.deletedCredits += credits
      try writer.deleteSongIfUnused(other)
      // The merged song's titles and credits become the kept one's, so that linking finds it
      // by them (a later re-entry under the merged credit).
      for credit in [row] + credits {
        let entry = ChartEntry(rank: 1, title: credit.title, artist: credit.artist)
        let keys = SongKeys(entry)
        guard try writer.insertCredit(of: entry, keys: keys, to: target) else { continue }
        undo.addedCredits.append(Self.creditRow(target, entry, keys))
      }
    }
    return (undo, touched)
  }

  /// Moves a song's entries on the chart of `first` from its chart date on to a new song, made
  /// as `first` charted.
  ///
  /// - Returns: what undoing it restores, and the new song.
  func splitSong(_ song: SongID, from first: LocatedEntry) throws -> (DecisionUndo, SongID) {
    var undo = DecisionUndo()
    let entry = ChartEntry(
      rank: first.rank, title: first.title, artist: first.artist, songURL: first.songURL)
    let other = try writer.insertSong(chartedAs: entry, keys: SongKeys(entry))
    let time = first.chartDate.secondsSince1970
    for moved in try reader.entries(ofSong: song)
    where moved.chart == first.chart && moved.chartDate.secondsSince1970 >= time {
      try writer.setSong(other, ofEntryAt: moved.position, in: moved.snapshot)
      undo.moves.append((moved.snapshot, moved.position, song))
      let credit = ChartEntry(
        rank: moved.rank, title: moved.title, artist: moved.artist, songURL: moved.songURL)
      try writer.insertCredit(of: credit, keys: SongKeys(credit), to: other)
    }
    return (undo, other)
  }

  private static func creditRow(_ song: SongID, _ entry: ChartEntry, _ keys: SongKeys) -> SongRow {
    SongRow(
      id: song, identity: "", recording: 0, title: entry.title, artist: entry.artist,
      titleKey: keys.foldedTitle, artistKey: keys.foldedArtist, baseTitleKey: keys.baseTitle,
      primaryArtistKey: keys.primaryArtist)
  }

  private static func touch(_ touched: inout Touched, _ entry: LocatedEntry) {
    let time = entry.chartDate.secondsSince1970
    touched[entry.chart] = touched[entry.chart].map { min($0, time) } ?? time
  }

  // MARK: - Naming entries

  /// Each chart's first entry of a song's entries (given in chart-date order), as decisions name
  /// them.
  private func firstOnEachChart(_ entries: [LocatedEntry]) throws -> [DecisionEntry] {
    var seen: Set<ChartID> = []
    return try entries.filter { seen.insert($0.chart).inserted }.map { try named($0) }
  }

  private func named(_ entry: LocatedEntry) throws -> DecisionEntry {
    DecisionEntry(
      chart: try chartName(entry.chart), chartDate: entry.chartDate, title: entry.title,
      artist: entry.artist, songURL: entry.songURL)
  }

  private func chartName(_ chart: ChartID) throws -> String {
    if let name = chartNames[chart] { return name }
    let name = try reader.name(ofChart: chart) ?? ""
    chartNames[chart] = name
    return name
  }

  /// The refusal of a merge whose songs have two entries in one snapshot, or `nil`.
  func sameSnapshot(_ entries: some Sequence<LocatedEntry>) throws -> CorrectionError? {
    var bySnapshot: [SnapshotID: LocatedEntry] = [:]
    for entry in entries {
      guard let other = bySnapshot.updateValue(entry, forKey: entry.snapshot) else { continue }
      return .sameSnapshot(
        chart: try chartName(entry.chart), chartDate: entry.chartDate,
        ranks: [other.rank, entry.rank].sorted())
    }
    return nil
  }
}
