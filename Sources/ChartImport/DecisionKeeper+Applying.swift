import ChartRanking
import ChartStorage

extension DecisionKeeper {
  // MARK: - Applying again

  /// Applies every merge and split again, in the order made: after an import, which may have tied
  /// the entries they name otherwise. A decision that changes something forgets what undoing it
  /// restored (undoing it then links by the rules); one whose entries are gone, or whose songs
  /// now share a snapshot, changes nothing.
  ///
  /// - Returns: per chart, the earliest chart time from which entries moved: their figures are
  ///   the caller's to decide again.
  /// - Throws: ``ArchiveError``.
  func applyAll() throws -> Touched {
    var touched: Touched = [:]
    for decision in try reader.decisions() {
      let changed: Touched?
      switch decision.kind {
      case .merge: changed = try applyMerge(decision)
      case .split: changed = try applySplit(decision)
      case .rename, .delete: changed = nil
      }
      guard let changed else { continue }
      touched.merge(changed, uniquingKeysWith: min)
      try writer.setUndo(nil, entryCount: nil, of: decision.number)
    }
    return touched
  }

  /// A merge applied again: `nil` when its entries' songs are one song already.
  private func applyMerge(_ decision: Decision) throws -> Touched? {
    var songs: [SongID] = []
    for group in decision.songs {
      for entry in group {
        guard let found = try reader.entry(named: entry), !songs.contains(found.song) else {
          continue
        }
        songs.append(found.song)
      }
    }
    guard songs.count > 1 else { return nil }
    var entries: [LocatedEntry] = []
    for song in songs { entries += try reader.entries(ofSong: song) }
    guard try sameSnapshot(entries) == nil else { return nil }
    return try mergeSongs(into: songs[0], others: Array(songs.dropFirst())).1
  }

  /// A split applied again: `nil` when its entry's song has no entry on the chart before it.
  private func applySplit(_ decision: Decision) throws -> Touched? {
    guard let named = decision.songs.first?.first, let first = try reader.entry(named: named)
    else { return nil }
    let time = first.chartDate.secondsSince1970
    guard
      try reader.entries(ofSong: first.song).contains(where: {
        $0.chart == first.chart && $0.chartDate.secondsSince1970 < time
      })
    else { return nil }
    _ = try splitSong(first.song, from: first)
    return [first.chart: time]
  }

  // MARK: - Undoing

  /// Undoes a decision.
  ///
  /// - Returns: the decision undone.
  /// - Throws: ``CorrectionError``, ``ArchiveError``.
  func undo(_ number: Int) throws -> Decision {
    guard let decision = try reader.decisions().first(where: { $0.number == number }) else {
      throw CorrectionError.noSuchDecision(number)
    }
    switch decision.kind {
    case .delete:
      throw CorrectionError.cannotUndo(number, .snapshotDeleted(source: decision.detail))
    case .rename:
      try undoRename(decision)
    case .merge, .split:
      let undo = try reader.undo(of: number)
      if let songs = try songsLeft(decision, undo: undo) {
        // Deleted first: the figures decided again then owe nothing to it (the audit's joined by
        // hand).
        try writer.deleteDecision(number)
        try restore(undo, songs: songs)
      } else {
        try relinkWithout(decision)
      }
    }
    return decision
  }

  private func undoRename(_ decision: Decision) throws {
    guard let old = decision.chart, let new = decision.detail else { return }
    guard let chart = try reader.chart(named: new) else {
      throw CorrectionError.cannotUndo(decision.number, .chartRenamedSince(new))
    }
    guard try reader.chart(named: old) == nil else {
      throw CorrectionError.cannotUndo(decision.number, .nameTaken(old))
    }
    try writer.renameChart(chart.id, to: old)
    try writer.renameChartInDecisions(new, to: old)
    try writer.deleteDecision(decision.number)
  }

  /// The songs holding the entries a decision moved, when what undoing it restores still
  /// describes the archive: each moved entry is there, and those songs have as many entries as
  /// the decision left them. `nil` otherwise.
  private func songsLeft(_ decision: Decision, undo: DecisionUndo) throws -> Set<SongID>? {
    guard let count = decision.entryCount, !undo.moves.isEmpty else { return nil }
    var songs: Set<SongID> = []
    for move in undo.moves {
      guard let entry = try reader.entry(at: move.position, in: move.snapshot) else { return nil }
      songs.insert(entry.song)
    }
    return try reader.entryCount(ofSongs: songs) == count ? songs : nil
  }

  /// Puts back what a decision changed: the songs it deleted with their IDs, each moved entry's
  /// song, the credits it added or deleted; deletes the songs it made, and decides the figures
  /// of the entries moved again.
  private func restore(_ undo: DecisionUndo, songs: Set<SongID>) throws {
    for song in undo.deletedSongs { try writer.restoreSong(song) }
    var touched: Touched = [:]
    for move in undo.moves {
      guard let entry = try reader.entry(at: move.position, in: move.snapshot) else { continue }
      try writer.setSong(move.song, ofEntryAt: move.position, in: move.snapshot)
      let time = entry.chartDate.secondsSince1970
      touched[entry.chart] = touched[entry.chart].map { min($0, time) } ?? time
    }
    for credit in undo.addedCredits { try writer.deleteCredit(credit) }
    for credit in undo.deletedCredits { try writer.restoreCredit(credit) }
    for song in songs { try writer.deleteSongIfUnused(song) }
    try redecide(touched, songs: songs.union(undo.moves.map(\.song)))
  }

  /// Undoes a decision whose songs changed since it was made: the credits it gave the kept song
  /// taken back, the charts of its entries linked again by the rules from its first entry on,
  /// the other decisions applied again and the figures decided again from there.
  private func relinkWithout(_ decision: Decision) throws {
    var from: Touched = [:]
    for (index, group) in decision.songs.enumerated() {
      for named in group {
        guard let entry = try reader.entry(named: named) else { continue }
        let time = entry.chartDate.secondsSince1970
        from[entry.chart] = from[entry.chart].map { min($0, time) } ?? time
        guard index > 0 || decision.kind == .split else { continue }
        let credit = ChartEntry(rank: 1, title: named.title, artist: named.artist)
        let keys = SongKeys(credit)
        try writer.deleteCredit(
          SongRow(
            id: entry.song, identity: "", recording: 0, title: named.title, artist: named.artist,
            titleKey: keys.foldedTitle, artistKey: keys.foldedArtist, baseTitleKey: keys.baseTitle,
            primaryArtistKey: keys.primaryArtist))
      }
    }
    try writer.deleteDecision(decision.number)
    let linker = SongLinker(writer: writer)
    for (chart, time) in from.sorted(by: { $0.key < $1.key }) {
      _ = try linker.relink(chart: chart, after: time - 1, before: nil)
    }
    from.merge(try applyAll(), uniquingKeysWith: min)
    for (chart, time) in from.sorted(by: { $0.key < $1.key }) {
      try FigureLedger.redecide(chart: chart, from: time, writer: writer)
    }
  }

  // MARK: - Deciding figures again

  /// Decides again the figures of the snapshots that hold the songs' entries on each touched
  /// chart from its time on, with the snapshot before and after each: an entry's figures depend
  /// on its own song's entries and the snapshots beside it, so the rest of the chart stands.
  /// Each snapshot is decided after the one before it, as an import decides them.
  func redecide(_ touched: Touched, songs: Set<SongID>) throws {
    for (chart, from) in touched.sorted(by: { $0.key < $1.key }) {
      var times: Set<Int64> = []
      for song in songs {
        for entry in try reader.entries(ofSong: song)
        where entry.chart == chart && entry.chartDate.secondsSince1970 >= from {
          times.insert(entry.chartDate.secondsSince1970)
        }
      }
      try redecide(chart: chart, around: times.union([from]))
    }
  }

  private func redecide(chart: ChartID, around times: Set<Int64>) throws {
    var snapshots: [Int64: StoredSnapshot] = [:]
    for time in times {
      for snapshot in [
        try reader.snapshot(ofChart: chart, before: time),
        try reader.snapshot(ofChart: chart, at: time),
        try reader.snapshot(ofChart: chart, after: time),
      ] {
        if let snapshot { snapshots[snapshot.chartDate.secondsSince1970] = snapshot }
      }
    }
    let lookup = StoredChartHistory(reader: reader, chart: chart)
    var last: DecidedSnapshot?
    for (time, snapshot) in snapshots.sorted(by: { $0.key < $1.key }) {
      guard let current = try reader.storedFigures(of: snapshot.id) else { continue }
      var previous: DecidedSnapshot?
      if let before = try reader.snapshot(ofChart: chart, before: time) {
        if let last, last.snapshot.id == before.id {
          previous = last
        } else if let stored = try reader.storedFigures(of: before.id) {
          previous = FigureLedger.decided(
            stored, next: current.snapshot, frequency: lookup.frequency)
        }
      }
      let next = try reader.snapshot(ofChart: chart, after: time).flatMap {
        try reader.storedFigures(of: $0.id)
      }
      let decided = ChartFigures.decide(
        current.snapshot, previous: previous, next: next?.snapshot, lookup: lookup)
      try lookup.checked()
      try FigureLedger.write(decided, storedAs: current.figures, with: writer)
      last = decided
    }
  }
}
