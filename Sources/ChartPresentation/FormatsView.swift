import ChartFormats

/// The chart file formats import reads: name, kind (JSON or CSV) and what each is.
public struct FormatsView: Presentation {
  /// The view of every format.
  public init() {}

  public func rendered(as format: OutputFormat, style: Style) -> String {
    return Document(
      "formats",
      Table(
        columns: [
          Column(key: "format", heading: "FORMAT"),
          Column(key: "kind", heading: "KIND"),
          Column(key: "description", heading: "DESCRIPTION"),
        ],
        rows: ChartFormat.allCases.map {
          [.text($0.rawValue), .text($0.kind.rawValue), .text($0.summary)]
        })
    )
    .rendered(as: format, style: style)
  }
}
