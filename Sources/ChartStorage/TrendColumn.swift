import ChartRanking

/// An entry's `published_trend` column (Migrations/0008_published_trends.sql): what the marker
/// says, then `: ` and the marker as the source wrote it (`up 3: +3`, `not on previous:
/// NEW_ENTRY`), the one place the form is written.
enum TrendColumn {
  /// The column's text for a published trend.
  static func text(_ trend: PublishedTrend) -> String {
    trend.kind.word + (trend.kind.places.map { " \($0)" } ?? "") + ": " + trend.text
  }

  /// The published trend of the column's text; `nil` for text not of that form.
  static func trend(_ text: String) -> PublishedTrend? {
    guard let colon = text.firstRange(of: ": ") else { return nil }
    let says = text[..<colon.lowerBound]
    var word = String(says)
    var places: Int?
    if let space = says.lastIndex(of: " "), let number = Int(says[says.index(after: space)...]) {
      word = String(says[..<space])
      places = number
    }
    guard let kind = PublishedTrend.Kind(word: word, places: places) else { return nil }
    return PublishedTrend(kind, text: String(text[colon.upperBound...]))
  }
}
