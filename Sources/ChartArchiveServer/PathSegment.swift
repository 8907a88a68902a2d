/// One segment of a route's path: a literal (`charts`), or a typed parameter (`{chart}`) whose
/// value is the request's segment there, percent-decoded.
///
/// A string literal is a literal segment, so that a path reads as it is written:
/// `["api", "charts", .chart, "diff"]`.
enum PathSegment: Sendable, ExpressibleByStringLiteral {
  case literal(String)
  case parameter(RouteParameter)
  /// A parameter with a literal ending, in one segment: `{chart}.atom`. The value is the segment
  /// without the ending, and is not empty.
  case suffixed(RouteParameter, String)

  init(stringLiteral value: String) { self = .literal(value) }

  /// `{chart}`: a chart's name.
  static let chart = PathSegment.parameter(Parameters.chart.declaration)
  /// `{date}`: a chart date, `latest` or `previous`.
  static let date = PathSegment.parameter(Parameters.snapshotDate.declaration)
  /// `{year}`: a year chart's year.
  static let year = PathSegment.parameter(Parameters.pathYear.declaration)
  /// `{id}`: a song's ID.
  static let song = PathSegment.parameter(Parameters.song.declaration)
  /// `{id}`: an artist's ID.
  static let artist = PathSegment.parameter(Parameters.artistID.declaration)
  /// `{category}`: a feed's category.
  static let category = PathSegment.parameter(Parameters.category.declaration)
  /// `{chart}.atom`: a chart's Atom feed.
  static let chartAtom = PathSegment.suffixed(Parameters.chart.declaration, ".atom")
  /// `{name}`: an asset's file name.
  static let asset = PathSegment.parameter(Parameters.asset.declaration)
}
