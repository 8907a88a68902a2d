import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage

/// `chart-archive songs merge|split|decisions|undo`: corrections of how entries are tied to
/// songs, kept as decisions.
enum SongsCommand: Subcommand {
  static let name = "songs"
  static let abstract = "Correct how entries are tied to songs: merge, split, list or undo."
  static let discussion = """
    ACTIONS:

      merge ID ID…                      These songs are one song (the first keeps its ID).
      split ID --from DATE --chart NAME The song's entries on that chart from that date on are
                                        another song.
      decisions                         The decisions, numbered (also charts rename, snapshots
                                        delete).
      undo N                            Undo decision N.

    Song IDs are those history --format json and the views give (song_id). A decision is kept in
    the archive by chart, chart date, title, credit and song URL, never by row IDs, and applied
    again by every later import, so that it holds after a re-import, import --replace or an import
    out of date order. Every figure it touches (previous rank, movement, peak, weeks on chart,
    run) is decided again before the command returns. Undo restores the archive as it was when
    nothing changed the songs since; otherwise it links them again by the rules.
    """
  static let examples = [
    "chart-archive songs merge 12 40",
    "chart-archive songs split 12 --from 2024-02-03 --chart hot-100",
    "chart-archive songs decisions --format json",
    "chart-archive songs undo 1",
  ]
  static let arguments = [
    ArgumentSpec(
      name: "action", help: "merge, split, decisions or undo.",
      values: .choices(["merge", "split", "decisions", "undo"])),
    ArgumentSpec(
      name: "value", help: "Song IDs (merge, split) or a decision's number (undo).",
      isOptional: true, repeats: true),
  ]
  static let options = [
    OptionSpec(
      name: "--from", valueName: "date",
      help: "split: the first chart date (YYYY-MM-DD) of the other song.", values: .text),
    OptionSpec(
      name: "--chart", valueName: "chart", help: "split: the chart whose entries are split.",
      values: .chart),
    SharedOptions.format, SharedOptions.database,
  ]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let values = arguments.arguments("value")
    switch arguments.argument("action") {
    case "decisions":
      guard values.isEmpty else { throw UsageError("unexpected argument '\(values[0])'") }
      let archive = try SharedOptions.openArchive(arguments, console: console)
      let decisions = try query { try archive.read { try $0.decisions() } }
      if decisions.isEmpty, format == .table {
        console.print(
          "The archive holds no decisions: songs merge, songs split, charts rename and"
            + " snapshots delete make them.")
        return .success
      }
      console.show(DecisionsView(decisions), as: format)
      return .success
    case "merge":
      let songs = try values.map { try songID($0) }
      guard songs.count >= 2 else { throw UsageError("merge takes two song IDs or more") }
      return try correct(.merge(songs), arguments, format: format, console: console)
    case "split":
      guard values.count == 1 else { throw UsageError("split takes one song ID") }
      guard let chart = arguments.option("--chart") else {
        throw UsageError("split needs --chart NAME")
      }
      guard let from = try SharedOptions.chartDate(arguments.option("--from"), argument: "--from")
      else { throw UsageError("split needs --from DATE") }
      return try correct(
        .split(try songID(values[0]), chart: chart, from: from), arguments, format: format,
        console: console)
    case "undo":
      guard values.count == 1, let number = Int(values[0]), number > 0 else {
        throw UsageError("undo takes one decision number (see chart-archive songs decisions)")
      }
      return try undo(number, arguments, format: format, console: console)
    case let other:
      throw UsageError(
        "unknown action '\(other ?? "")' (expected merge, split, decisions or undo)")
    }
  }

  static func songID(_ text: String) throws(UsageError) -> SongID {
    guard let id = Int64(text), id > 0 else {
      throw UsageError("'\(text)' is not a song ID (a whole number, as song_id gives it)")
    }
    return SongID(id)
  }

  /// Makes a correction and says the decision kept.
  static func correct(
    _ correction: Correction, _ arguments: ParsedArguments, format: OutputFormat,
    console: Console
  ) throws -> ExitCode {
    let archive = try SharedOptions.openArchiveForWriting(arguments, console: console)
    let decision = try deciding { try archive.correct(correction) }
    say(decision, "Decision \(decision.number): ", format: format, console: console)
    return .success
  }

  /// Undoes a decision and says which.
  static func undo(
    _ number: Int, _ arguments: ParsedArguments, format: OutputFormat, console: Console
  ) throws -> ExitCode {
    let archive = try SharedOptions.openArchiveForWriting(arguments, console: console)
    let decision = try deciding { try archive.undoDecision(number) }
    say(decision, "Undone: decision \(number), ", format: format, console: console)
    return .success
  }

  /// A decision made or undone: a sentence after `lead` in a table's format, else the decision
  /// as `songs decisions` lists it.
  static func say(_ decision: Decision, _ lead: String, format: OutputFormat, console: Console) {
    if format == .table {
      console.print(lead + DecisionsView.sentence(decision) + ".")
    } else {
      console.show(DecisionsView([decision]), as: format)
    }
  }

  /// Calls the library, turning a refused correction or an archive error into a
  /// ``CommandError``.
  static func deciding<Result>(_ body: () throws -> Result) throws -> Result {
    do { return try query(body) } catch let error as CorrectionError {
      throw CommandError(error)
    }
  }
}

extension CommandError {
  /// A refused correction in the command line's words, with its exit status: 1 for what is not
  /// there (a song, a decision), 64 for a merge of fewer than two songs, 65 for what the
  /// archive's data forbids.
  init(_ error: CorrectionError) {
    let words = CorrectionWords.describe(error)
    switch error {
    case .noSuchSong: self.init(.failure, words + " (history --format json gives song_id)")
    case .noSuchDecision: self.init(.failure, words + " (see chart-archive songs decisions)")
    case .fewerThanTwoSongs: self.init(.usage, words)
    case .sameSnapshot, .nothingToSplit, .cannotUndo, .chartNameTaken:
      self.init(.dataError, words)
    }
  }
}
