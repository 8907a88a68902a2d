import ChartRanking
public import ChartStorage

/// The archive's decisions, numbered as `songs undo N` takes them, each said in a sentence.
public struct DecisionsView: Presentation {
  /// The decisions, in the order made.
  public var decisions: [Decision]

  /// The view of the decisions.
  public init(_ decisions: [Decision]) { self.decisions = decisions }

  /// A table leaves out when each was made (JSON and CSV give it), so that it reads as a list.
  public func rendered(as format: OutputFormat, style: Style) -> String {
    let timed = format != .table
    var columns = [
      Column(key: "number", heading: "#", alignRight: true), Column(key: "kind", heading: "KIND"),
    ]
    if timed { columns.append(Column(key: "made_at", heading: "MADE AT")) }
    columns.append(Column(key: "decision", heading: "DECISION"))
    return Document(
      "decisions",
      Table(
        columns: columns,
        rows: decisions.map {
          [.int($0.number), .text($0.kind.rawValue)] + (timed ? [.text($0.madeAt)] : [])
            + [.text(Self.sentence($0))]
        })
    )
    .rendered(as: format, style: style)
  }

  /// What a decision decided, in a sentence without its final period: `one song: "Paper Moons"
  /// by Mara Vey (hot-100 2024-01-06), "Paper Moons - Remastered 2009" by Mara Vey (hot-100
  /// 2024-01-13)`.
  public static func sentence(_ decision: Decision) -> String {
    switch decision.kind {
    case .merge:
      "one song: "
        + decision.songs.compactMap { $0.first.map(Self.entry) }.joined(separator: ", ")
    case .split:
      "another song from "
        + (decision.songs.first?.first.map {
          "\($0.chartDate.iso8601) on \($0.chart): \"\($0.title)\" by \($0.artist)"
        } ?? "(none)")
    case .rename:
      "chart \(decision.chart ?? "") renamed \(decision.detail ?? "")"
    case .delete:
      "snapshot \(decision.chart ?? "") \(decision.chartDate?.iso8601 ?? "") deleted"
        + (decision.detail.map { " (imported from \($0))" } ?? "")
    }
  }

  private static func entry(_ entry: DecisionEntry) -> String {
    "\"\(entry.title)\" by \(entry.artist) (\(entry.chart) \(entry.chartDate.iso8601))"
  }
}
