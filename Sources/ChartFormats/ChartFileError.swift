/// One thing wrong with a chart file: where it is and what was expected.
public struct ChartFileProblem: Hashable, Sendable, CustomStringConvertible {
  /// The snapshot's 1-based index in a file of many snapshots (an export), when the problem is in
  /// one of them.
  public var snapshot: Int?
  /// The entry's 1-based index in a JSON file, when the problem is in one entry.
  public var entry: Int?
  /// The 1-based row of a CSV file (the header is a row), when the problem is in one row.
  public var row: Int?
  /// The 1-based line of the file where the problem is, when it is told: in a CSV file, the line
  /// on which a row starts (a quoted field may hold line breaks, and blank lines are no rows, so
  /// a row's number and its line's can differ); in text that is not valid CSV, the line of the
  /// quote that breaks the rules (of the quote never closed, of the text after a closing quote).
  public var line: Int?
  /// The entry's rank as written, when it could be read.
  public var rank: Int?
  /// The field concerned (as named in the file), when there is one.
  public var field: String?
  /// What is wrong, as a short lowercase sentence.
  public var message: String
  /// What would mend it when the file lacks something the user can give beside it, `nil`
  /// otherwise. Each front end words it in its own terms (a command-line option, a request
  /// parameter).
  public var remedy: Remedy?
  /// The size bound the input goes beyond, when that is the problem (a line, a field, a file of
  /// one snapshot …), for a front end that words it its own way; ``message`` words it too.
  public var bound: SizeBound?

  /// Something a user can give beside a file that lacks it.
  public enum Remedy: Hashable, Sendable {
    /// The chart's name: the file names none, or the folder's name is not a valid one.
    case nameTheChart
    /// The chart date: neither the file nor its name carries one.
    case dateTheChart
    /// The time zone of the file's dates and times, which give none.
    case giveTimeZone

    /// The remedy in words that name no front end's options.
    public var neutralWording: String {
      switch self {
      case .nameTheChart: "give the chart's name"
      case .dateTheChart:
        "give the chart date or name the file YYYY-MM-DD.json (or YYYY-MM-DDTHH-MM.json)"
      case .giveTimeZone: "give the time zone they are in, or write them with Z or an offset"
      }
    }
  }

  /// Creates a problem.
  public init(
    snapshot: Int? = nil, entry: Int? = nil, row: Int? = nil, line: Int? = nil,
    rank: Int? = nil, field: String? = nil, message: String, remedy: Remedy? = nil,
    bound: SizeBound? = nil
  ) {
    self.snapshot = snapshot
    self.entry = entry
    self.row = row
    self.line = line
    self.rank = rank
    self.field = field
    self.message = message
    self.remedy = remedy
    self.bound = bound
  }

  /// The problem, placed in the `snapshot`th snapshot of an export file (1-based; `nil` for a
  /// file of one snapshot).
  func inSnapshot(_ snapshot: Int?) -> ChartFileProblem {
    var problem = self
    problem.snapshot = snapshot
    return problem
  }

  /// `entry 3 (rank 3), field 'title': missing` (`row 4 …` in a CSV file, `row 4 (line 6) …` when
  /// the row's line is told, `snapshot 2, entry 3 …` in an export), or the message alone for the
  /// whole file; the remedy, when there is one, in words that name no front end's options.
  public var description: String { description(wordingRemedy: \.neutralWording) }

  /// The problem as ``description`` gives it, with the remedy in a front end's words: after the
  /// message and a colon (a semicolon when the message ends with a parenthesis).
  ///
  /// - Parameter wordingRemedy: the front end's words for a remedy (`pass --chart NAME`).
  public func description(wordingRemedy: (Remedy) -> String) -> String {
    var message = self.message
    if let remedy {
      message += (message.hasSuffix(")") ? "; " : ": ") + wordingRemedy(remedy)
    }
    var location: [String] = []
    if let snapshot { location.append("snapshot \(snapshot)") }
    if let entry {
      location.append("entry \(entry)" + (rank.map { " (rank \($0))" } ?? ""))
    } else if let row {
      let details = [line.map { "line \($0)" }, rank.map { "rank \($0)" }].compactMap { $0 }
      location.append(
        "row \(row)" + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")"))
    } else if let line {
      location.append("line \(line)")
    }
    if let field { location.append("field '\(field)'") }
    return location.isEmpty ? message : location.joined(separator: ", ") + ": " + message
  }
}

/// Why a chart file could not be read: every problem found in it.
public struct ChartFileError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The file's path, as given.
  public var path: String
  /// The problems, in file order.
  public var problems: [ChartFileProblem]

  /// Creates an error.
  public init(path: String, problems: [ChartFileProblem]) {
    self.path = path
    self.problems = problems
  }

  /// Creates an error with one problem that concerns the whole file.
  public init(path: String, _ message: String) {
    self.init(path: path, problems: [ChartFileProblem(message: message)])
  }

  /// One line per problem, each starting with the path: `charts/2024-01-06.json: entry 3 (rank 3),
  /// field 'title': missing`; remedies in words that name no front end's options.
  public var description: String { description(wordingRemedy: \.neutralWording) }

  /// One line per problem as ``description`` gives them, with remedies in a front end's words.
  /// Control characters of the path are written as escapes (see ``printable(_:)``).
  public func description(wordingRemedy: (ChartFileProblem.Remedy) -> String) -> String {
    problems.map { "\(Self.printable(path)): \($0.description(wordingRemedy: wordingRemedy))" }
      .joined(separator: "\n")
  }

  /// A path or name (or a title, an artist) for a message on one line: control characters written
  /// as `\n`, `\t` or `\u{1B}`, so that a file named with a terminal's escape sequence shows its
  /// name instead of acting on the terminal, and bidirectional controls (U+061C, U+200E, U+200F,
  /// U+202A to U+202E, U+2066 to U+2069) as `\u{202E}`, so that a name cannot reverse the words
  /// after it.
  public static func printable(_ text: String) -> String { escaped(text) }
}
