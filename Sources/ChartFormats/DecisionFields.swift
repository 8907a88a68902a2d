import ChartRanking

extension SongDecision {
  /// Reads an export's `decisions`: an array of `{"kind": "merge" | "split", "made_at": text,
  /// "songs": [[entry, …], …]}`, each entry `{"chart", "chart_date", "title", "artist"}` with
  /// an optional `song_url`, as ``NativeFormatWriter/jsonOpening(decisions:)`` writes them.
  ///
  /// - Parameters:
  ///   - value: the field's value.
  ///   - problems: where a problem is added, naming the field, the decision (1-based) and what
  ///     is wrong; a decision with a problem is left out.
  /// - Returns: the decisions read without a problem, in the file's order.
  static func read(_ value: JSONTree, problems: inout [ChartFileProblem]) -> [SongDecision] {
    guard case .array(let list) = value else {
      problems.append(
        ChartFileProblem(field: "decisions", message: "expected an array of decisions"))
      return []
    }
    var decisions: [SongDecision] = []
    for (index, item) in list.enumerated() {
      var found: [String] = []
      if let decision = read(item, problems: &found) {
        decisions.append(decision)
      }
      for problem in found {
        problems.append(
          ChartFileProblem(field: "decisions", message: "decision \(index + 1): \(problem)"))
      }
    }
    return decisions
  }

  /// One decision, or `nil` with what is wrong with it.
  private static func read(_ item: JSONTree, problems: inout [String]) -> SongDecision? {
    var reader = FieldReader(item)
    let kindText = reader.string("kind")
    let madeAt = reader.string("made_at")
    problems += reader.problems.map(\.descriptionInDecision)
    guard reader.problems.isEmpty else { return nil }
    guard let kind = kindText.flatMap(Kind.init(rawValue:)) else {
      problems.append(
        kindText.map { "kind '\($0)': expected merge or split" } ?? "kind: missing (merge or split)"
      )
      return nil
    }
    guard case .array(let groups)? = reader.object["songs"] else {
      problems.append("songs: expected an array of songs, each an array of entries")
      return nil
    }
    var songs: [[DecisionEntry]] = []
    for (songIndex, group) in groups.enumerated() {
      guard case .array(let items) = group, !items.isEmpty else {
        problems.append("song \(songIndex + 1): expected a non-empty array of entries")
        return nil
      }
      var entries: [DecisionEntry] = []
      for (entryIndex, entryItem) in items.enumerated() {
        switch entry(entryItem) {
        case .success(let entry): entries.append(entry)
        case .failure(let problem):
          problems.append("song \(songIndex + 1), entry \(entryIndex + 1): \(problem.text)")
          return nil
        }
      }
      songs.append(entries)
    }
    guard kind == .merge ? songs.count >= 2 : songs.count == 1 && songs[0].count == 1 else {
      problems.append(
        kind == .merge
          ? "songs: a merge names two songs or more" : "songs: a split names one song by one entry")
      return nil
    }
    return SongDecision(kind: kind, madeAt: madeAt ?? "", songs: songs)
  }

  /// What is wrong with an entry of a decision.
  private struct EntryProblem: Error { var text: String }

  /// An entry of a decision, or what is wrong with it.
  private static func entry(_ item: JSONTree) -> Result<DecisionEntry, EntryProblem> {
    var reader = FieldReader(item)
    let chart = reader.string("chart")
    let chartDate = reader.string("chart_date")
    let title = reader.string("title")
    let artist = reader.string("artist")
    let songURL = reader.string("song_url")
    if let problem = reader.problems.first {
      return .failure(EntryProblem(text: problem.descriptionInDecision))
    }
    for (name, value) in [
      ("chart", chart), ("chart_date", chartDate), ("title", title),
      ("artist", artist),
    ] where value == nil {
      return .failure(EntryProblem(text: "\(name): missing"))
    }
    let date: ChartDate
    do {
      date = try ChartDate(iso8601: chartDate!)
    } catch {
      return .failure(EntryProblem(text: "chart_date '\(chartDate!)': \(error)"))
    }
    return .success(
      DecisionEntry(
        chart: chart!, chartDate: date, title: title!, artist: artist!, songURL: songURL))
  }
}

extension ChartFileProblem {
  /// A problem of a field inside a decision, as part of the decision's problem: `chart: expected
  /// a string`.
  fileprivate var descriptionInDecision: String {
    field.map { "\($0): \(message)" } ?? message
  }
}
