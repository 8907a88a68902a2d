import ChartRanking

/// One snapshot of a chart as its file gives it: the chart date (ISO 8601), whether the source
/// publishes previous ranks, and the entries in rank order.
struct FileSnapshot {
  var date: String
  var publishesPreviousRank: Bool
  var entries: [ChartEntry]

  /// A week of the billboard format (`last_week`, `peak_position`, `weeks_on_chart`, `null` where
  /// not given), the entries (title, artist, last week, peak, weeks) ranked 1, 2, 3 … in order.
  static func week(_ date: String, _ entries: [(String, String, Int?, Int?, Int?)]) -> Self {
    FileSnapshot(
      date: date, publishesPreviousRank: true,
      entries: entries.enumerated().map { index, line in
        ChartEntry(
          rank: index + 1, title: line.0, artist: line.1, publishedPreviousRank: line.2,
          publishedPeakPosition: line.3, publishedWeeksOnChart: line.4)
      })
  }

  /// A chart app's feed (title, artist and `last`, 0 for none), ranked 1, 2, 3 … in order.
  static func feed(_ date: String, _ entries: [(String, String, Int)]) -> Self {
    FileSnapshot(
      date: date, publishesPreviousRank: true,
      entries: entries.enumerated().map { index, line in
        ChartEntry(
          rank: index + 1, title: line.0, artist: line.1,
          publishedPreviousRank: line.2 == 0 ? nil : line.2)
      })
  }

  /// A file that publishes no previous rank (a feed without `last`, a ChartArchive snapshot
  /// without `previous_rank`): entries (title, artist, song URL, weeks on chart) ranked 1, 2, 3 …
  static func unranked(_ date: String, _ entries: [(String, String, String?, Int?)]) -> Self {
    FileSnapshot(
      date: date, publishesPreviousRank: false,
      entries: entries.enumerated().map { index, line in
        ChartEntry(
          rank: index + 1, title: line.0, artist: line.1, publishedWeeksOnChart: line.3,
          songURL: line.2)
      })
  }
}

/// A chart's snapshots, in chart-date order, linked and decided in memory as an import of their
/// files into a new archive links and decides them: each snapshot's entries tied to songs by
/// ``SongLinking`` (against the previous snapshot, and the songs of the earlier ones by identity
/// and by title, most recently charted first), then every snapshot's figures decided by
/// ``ChartFigures/decideAll(_:frequency:)``.
struct LinkedChart {
  /// The decided snapshots, in chart-date order.
  let decided: [DecidedSnapshot]

  /// Links and decides `snapshots`, of a chart published at `frequency` (as the import knows it:
  /// weekly for the billboard format, else from the file or the chart's name).
  init(_ snapshots: [FileSnapshot], frequency: ChartFrequency?) throws {
    var audited: [LinkedSnapshot] = []
    // The snapshot each song was last on, and the songs of each identity and of each base title
    // and lead artist.
    var lastOn: [SongID: Int] = [:]
    var byIdentity: [SongIdentity: Set<SongID>] = [:]
    var byTitle: [String: Set<SongID>] = [:]
    var songCount: Int64 = 0
    func mostRecentFirst(_ songs: Set<SongID>?) -> [SongID] {
      (songs ?? []).sorted { (lastOn[$0]!, $1.rawValue) > (lastOn[$1]!, $0.rawValue) }
    }
    for (index, file) in snapshots.enumerated() {
      let previous = audited.last.map { snapshot in
        zip(snapshot.entries, snapshot.songs).map { ArchivedEntry(entry: $0, song: $1) }
      }
      let links = SongLinking.link(
        file.entries, publishesPreviousRank: file.publishesPreviousRank,
        previous: previous ?? [], songsWithIdentity: { mostRecentFirst(byIdentity[$0]) },
        songsWithTitle: { mostRecentFirst(byTitle[$0 + "\u{1F}" + $1]) })
      let songs = links.map { link in
        link.song
          ?? {
            songCount += 1
            return SongID(songCount)
          }()
      }
      for (entry, song) in zip(file.entries, songs) {
        let keys = SongKeys(entry)
        lastOn[song] = index
        byIdentity[keys.identity, default: []].insert(song)
        byTitle[keys.baseTitle + "\u{1F}" + keys.primaryArtist, default: []].insert(song)
      }
      audited.append(
        LinkedSnapshot(
          id: SnapshotID(Int64(index + 1)), chartDate: try ChartDate(iso8601: file.date),
          publishesPreviousRank: file.publishesPreviousRank, entries: file.entries, songs: songs))
    }
    decided = ChartFigures.decideAll(audited, frequency: frequency)
  }

  /// The decided snapshot of a chart date.
  func snapshot(_ date: String) -> DecidedSnapshot {
    decided.first { $0.snapshot.chartDate.iso8601 == date }!
  }

  /// A snapshot's entries with their figures.
  func placements(_ date: String) -> [Placement] {
    let item = snapshot(date)
    return item.snapshot.entries.indices.map { index in
      Placement(
        snapshot: item.snapshot.id, chartDate: item.snapshot.chartDate,
        entry: item.snapshot.entries[index], song: item.snapshot.songs[index],
        figures: item.figures[index])
    }
  }

  /// A snapshot's entries with their songs.
  func entries(_ date: String) -> [ArchivedEntry] {
    placements(date).map { ArchivedEntry(entry: $0.entry, song: $0.song) }
  }

  /// Each entry of a snapshot as `rank movement previous peak weeks` (`-` for no previous rank,
  /// the movement's plain word): the figures `show` gives.
  func shown(_ date: String) -> [String] {
    placements(date).map { placement in
      "\(placement.rank) \(placement.movement.kind)"
        + " \(placement.previousRank.map(String.init) ?? "-")"
        + " \(placement.peakPosition) \(placement.weeksOnChart)"
    }
  }

  /// What deciding found of a snapshot, that the import reports.
  func notes(_ date: String) -> [ChartFigures.Note] { snapshot(date).notes }

  /// Whether deciding found nothing to report of any snapshot.
  var hasNoNotes: Bool { decided.allSatisfy(\.notes.isEmpty) }

  /// The history of each song that charted with this title, in the order of their first entry:
  /// one for a title that is one song.
  func histories(titled title: String) -> [SongHistory] {
    var order: [SongID] = []
    var placements: [SongID: [Placement]] = [:]
    for item in decided {
      for placement in self.placements(item.snapshot.chartDate.iso8601)
      where placement.entry.title == title {
        if placements[placement.song] == nil { order.append(placement.song) }
        placements[placement.song, default: []].append(placement)
      }
    }
    return order.map { SongHistory(placements: placements[$0]!) }
  }

  /// The audit of every snapshot: the verdicts reached when deciding, counted.
  var audit: ChartAudit { ChartAudit(decided: decided) }
}
