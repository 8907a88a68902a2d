/// One thing wrong with a chart file: where it is and what was expected.
public struct ChartFileProblem: Hashable, Sendable, CustomStringConvertible {
  /// The snapshot's 1-based index in a file of many snapshots (an export), when the problem is in
  /// one of them.
  public var snapshot: Int?
  /// The entry's 1-based index in a JSON file, when the problem is in one entry.
  public var entry: Int?
  /// The 1-based row of a CSV file (the header is a row), when the problem is in one row.
  public var row: Int?
  /// The entry's rank as written, when it could be read.
  public var rank: Int?
  /// The field concerned (as named in the file), when there is one.
  public var field: String?
  /// What is wrong, as a short lowercase sentence.
  public var message: String

  /// Creates a problem.
  public init(
    snapshot: Int? = nil, entry: Int? = nil, row: Int? = nil, rank: Int? = nil,
    field: String? = nil, message: String
  ) {
    self.snapshot = snapshot
    self.entry = entry
    self.row = row
    self.rank = rank
    self.field = field
    self.message = message
  }

  /// The problem, placed in the `snapshot`th snapshot of an export file (1-based; `nil` for a
  /// file of one snapshot).
  func inSnapshot(_ snapshot: Int?) -> ChartFileProblem {
    var problem = self
    problem.snapshot = snapshot
    return problem
  }

  /// `entry 3 (rank 3), field 'title': missing` (`row 4 …` in a CSV file, `snapshot 2, entry 3 …`
  /// in an export), or the message alone for the whole file.
  public var description: String {
    var location: [String] = []
    if let snapshot { location.append("snapshot \(snapshot)") }
    if let entry {
      location.append("entry \(entry)" + (rank.map { " (rank \($0))" } ?? ""))
    } else if let row {
      location.append("row \(row)" + (rank.map { " (rank \($0))" } ?? ""))
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
  /// field 'title': missing`.
  public var description: String {
    problems.map { "\(path): \($0)" }.joined(separator: "\n")
  }
}
