import ChartFormats
import ChartRanking
import ChartStorage
import Foundation

/// One subcommand of `chart-archive`: its help, its arguments, and what it does.
protocol Subcommand {
  static var name: String { get }
  /// One sentence for the subcommand list and the OVERVIEW line.
  static var abstract: String { get }
  /// More text for `--help`, examples included; empty for none.
  static var discussion: String { get }
  static var arguments: [ArgumentSpec] { get }
  static var options: [OptionSpec] { get }
  /// Runs the subcommand.
  ///
  /// - Throws: ``CommandError`` (or ``UsageError``) to end with a message and an exit status.
  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode
}

// MARK: - Options shared by subcommands

enum SharedOptions {
  static let database = OptionSpec(
    name: "--db", valueName: "path",
    help: "The archive file. Default: $CHART_ARCHIVE_DB, else"
      + " $XDG_DATA_HOME/chart-archive/archive.sqlite (~/.local/share/…).")
  static let format = OptionSpec(
    name: "--format", valueName: "format",
    help: "Output format: table, json or csv. Default: table.")

  /// The archive's path: `--db`, else `$CHART_ARCHIVE_DB`, else the XDG data folder
  /// (<https://specifications.freedesktop.org/basedir-spec/latest/>).
  static func databasePath(_ arguments: ParsedArguments, environment: [String: String]) throws
    -> String
  {
    if let path = arguments.option("--db") {
      guard !path.isEmpty else { throw UsageError("--db needs a file path") }
      return path
    }
    if let path = environment["CHART_ARCHIVE_DB"], !path.isEmpty { return path }
    if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/chart-archive/archive.sqlite"
    }
    guard let home = environment["HOME"], !home.isEmpty else {
      throw CommandError(.usage, "cannot find the archive: set --db, CHART_ARCHIVE_DB or HOME")
    }
    return home + "/.local/share/chart-archive/archive.sqlite"
  }

  static func openArchive(_ arguments: ParsedArguments, console: Console, create: Bool = false)
    throws -> Archive
  {
    let path = try databasePath(arguments, environment: console.environment)
    do { return try Archive(path: path, createIfMissing: create) } catch {
      throw CommandError(error)
    }
  }

  static func outputFormat(_ arguments: ParsedArguments) throws(UsageError) -> OutputFormat {
    guard let text = arguments.option("--format") else { return .table }
    guard let format = OutputFormat(rawValue: text) else {
      throw UsageError("unknown format '\(text)' (expected table, json or csv)")
    }
    return format
  }

  static func chartDate(_ text: String?, argument: String) throws(UsageError) -> ChartDate? {
    guard let text else { return nil }
    do { return try ChartDate(iso8601: text) } catch {
      throw UsageError("<\(argument)>: \(error.description)")
    }
  }

  static func positiveInteger(_ arguments: ParsedArguments, _ name: String, default value: Int)
    throws(UsageError) -> Int
  {
    guard let text = arguments.option(name) else { return value }
    guard let number = Int(text), number >= 0 else {
      throw UsageError("\(name) expects a whole number of 0 or more, found '\(text)'")
    }
    return number
  }
}

/// The output formats of the query commands.
enum OutputFormat: String {
  case table, json, csv
}

/// Calls an archive query, turning its error into a ``CommandError``.
func query<Result>(_ body: () throws -> Result) throws -> Result {
  do { return try body() } catch let error as ArchiveError { throw CommandError(error) }
}

// MARK: - Rendering placements

/// Columns for entries with their derived figures.
let placementColumns = [
  Column(key: "rank", heading: "RANK", alignRight: true),
  Column(key: "movement", heading: "MOVE"),
  Column(key: "previous_rank", heading: "LAST", alignRight: true),
  Column(key: "peak_position", heading: "PEAK", alignRight: true),
  Column(key: "weeks_on_chart", heading: "WKS", alignRight: true),
  Column(key: "streams", heading: "STREAMS", alignRight: true, hiddenWhenEmpty: true),
  Column(key: "title", heading: "TITLE"),
  Column(key: "artist", heading: "ARTIST"),
  Column(key: "image_url", heading: "IMAGE", shownInTable: false),
  Column(key: "song_url", heading: "URL", shownInTable: false),
]

func placementRow(_ placement: Placement) -> [Cell] {
  [
    .int(placement.rank), .movement(placement.movement), optional(placement.previousRank),
    .int(placement.peakPosition), .int(placement.weeksOnChart), optional(placement.entry.streams),
    .text(placement.entry.title),
    .text(placement.entry.artist), optional(placement.entry.imageURL),
    optional(placement.entry.songURL),
  ]
}

/// Columns for drop-outs: their rank on the older snapshot (under the given key and heading),
/// title and artist.
func dropOutColumns(rankKey: String, heading: String) -> [Column] {
  [
    Column(key: rankKey, heading: heading, alignRight: true),
    Column(key: "title", heading: "TITLE"),
    Column(key: "artist", heading: "ARTIST"),
  ]
}

func entryRow(_ entry: ChartEntry) -> [Cell] {
  [.int(entry.rank), .text(entry.title), .text(entry.artist)]
}

func optional(_ value: Int?) -> Cell { value.map(Cell.int) ?? .null }
func optional(_ value: String?) -> Cell { value.map(Cell.text) ?? .null }

/// A document of titled tables: printed for people as headed blocks, as one JSON object (leading
/// fields, then each table under its key), or as one CSV table (leading fields and the section
/// name as columns).
struct Document {
  var fields: [(key: String, value: Cell)] = []
  /// Lines printed above the tables for people.
  var heading: [String] = []
  var sections: [(key: String, title: String, table: Table)] = []
  /// Lines printed below the tables for people.
  var footer: [String] = []

  func render(_ format: OutputFormat, console: Console) {
    switch format {
    case .json:
      let members =
        fields.map { ($0.key, $0.value.json) } + sections.map { ($0.key, $0.table.json) }
      console.print(JSONValue.object(members).encoded())
    case .csv:
      var columns: [String] = fields.map(\.key)
      if sections.count > 1 { columns.append("section") }
      for section in sections {
        for column in section.table.columns where !columns.contains(column.key) {
          columns.append(column.key)
        }
      }
      var output = CSVWriter.record(columns)
      for section in sections {
        for row in section.table.rows {
          var values: [String: String] = ["section": section.key]
          for field in fields { values[field.key] = field.value.csv }
          for (column, cell) in zip(section.table.columns, row) { values[column.key] = cell.csv }
          output += CSVWriter.record(columns.map { values[$0] ?? "" })
        }
      }
      console.write(output)
    case .table:
      let style = console.style
      var blocks: [String] = []
      if !heading.isEmpty { blocks.append(heading.map { style.bold($0) }.joined(separator: "\n")) }
      for section in sections {
        var block = section.title.isEmpty ? "" : section.title + "\n"
        block += section.table.rows.isEmpty ? "  (none)" : section.table.text(style: style)
        blocks.append(block)
      }
      if !footer.isEmpty { blocks.append(footer.joined(separator: "\n")) }
      console.print(blocks.joined(separator: "\n\n"))
    }
  }
}
