public import ChartRanking

/// How text for people is decorated: ANSI colours on a terminal, nothing otherwise.
public struct Style: Sendable {
  /// Whether ANSI colours and bold are written.
  public var colors: Bool

  /// A style with or without colours.
  public init(colors: Bool) { self.colors = colors }

  /// No decoration: for files, pipes and tests.
  public static let plain = Style(colors: false)

  /// Colours are used when standard output is a terminal, `NO_COLOR` is unset or empty
  /// (<https://no-color.org>) and `TERM` is not `dumb`.
  public static func forOutput(isTerminal: Bool, environment: [String: String]) -> Style {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    return Style(colors: isTerminal && !noColor && environment["TERM"] != "dumb")
  }

  /// The text in bold, when colours are on.
  public func bold(_ text: String) -> String { colors ? "\u{1B}[1m\(text)\u{1B}[0m" : text }

  /// A movement's marker in its colour (green up, red down, dim unchanged, yellow new, cyan
  /// re-entry), when colours are on.
  public func paint(_ movement: Movement) -> String {
    guard colors else { return movement.marker }
    let code =
      switch movement {
      case .up: "32"
      case .down: "31"
      case .unchanged: "2"
      case .debut: "33"
      case .reentry: "36"
      }
    return "\u{1B}[\(code)m\(movement.marker)\u{1B}[0m"
  }
}
