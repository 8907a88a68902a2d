public import ChartImport
import ChartRanking

/// A refused correction (``CorrectionError``) in the words every front end gives it, without the
/// command line's or the service's remedies.
public enum CorrectionWords {
  /// The refusal in a sentence without its final period: `the songs are both on hot-100 of
  /// 2023-12-23, at ranks 1 and 2: one song is never two entries of one snapshot`.
  public static func describe(_ error: CorrectionError) -> String {
    switch error {
    case .noSuchSong(let song): "no song has the ID \(song.rawValue)"
    case .fewerThanTwoSongs: "merge takes two different song IDs or more"
    case .sameSnapshot(let chart, let date, let ranks):
      "the songs are both on \(chart) of \(date.iso8601), at ranks "
        + ranks.map(String.init).joined(separator: " and ")
        + ": one song is never two entries of one snapshot"
    case .nothingToSplit(let song, let chart, let from, let before):
      "song \(song.rawValue) has no entry on \(chart) " + (before ? "before" : "from")
        + " \(from.iso8601): there is nothing to split"
    case .noSuchDecision(let number): "no decision has the number \(number)"
    case .cannotUndo(let number, let reason):
      "decision \(number) cannot be undone: " + words(reason)
    case .chartNameTaken(let name): "a chart is named '\(name)' already"
    }
  }

  private static func words(_ reason: CorrectionError.UndoRefusal) -> String {
    switch reason {
    case .snapshotDeleted(let source):
      "a deleted snapshot's rows are not kept; import "
        + (source.map { "\($0) again" } ?? "its file again")
    case .chartRenamedSince(let name):
      "no chart is named '\(name)' any more (undo the later rename first)"
    case .nameTaken(let name): "a chart is named '\(name)' now"
    }
  }
}
