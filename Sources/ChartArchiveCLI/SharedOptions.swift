import ChartImport
import ChartPresentation
import ChartRanking
import ChartStorage
import Foundation

enum SharedOptions {
  /// `<chart>`: the chart's name.
  static let chart = ArgumentSpec(
    name: "chart", help: "The chart's name, such as hot-100.", values: .chart)
  /// `[<date>]`: a chart date, the latest snapshot's when not given.
  static let latestDate = ArgumentSpec(
    name: "date",
    help: "The chart date (YYYY-MM-DD), latest, or previous (the one before the latest)."
      + " Default: the latest snapshot.",
    isOptional: true, values: .snapshotDate)

  static let database = OptionSpec(
    name: "--db", valueName: "path",
    help: "The archive file. Default: $CHART_ARCHIVE_DB, else"
      + " $XDG_DATA_HOME/chart-archive/archive.sqlite (~/.local/share/…).",
    values: .file)
  static let format = OptionSpec(
    name: "--format", valueName: "format",
    help: "Output format: table, json or csv. Default: table.",
    values: .choices(OutputFormat.allCases.map(\.rawValue)))

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

  /// Opens the archive for queries.
  static func openArchive(_ arguments: ParsedArguments, console: Console) throws -> Archive {
    let path = try databasePath(arguments, environment: console.environment)
    do {
      return try Archive(path: path, access: .read, upgrade: .decidingFigures)
    } catch {
      throw CommandError(error)
    }
  }

  /// Opens the archive for a correction (`songs merge`, `charts rename` …): it must exist.
  static func openArchiveForWriting(_ arguments: ParsedArguments, console: Console) throws
    -> Archive
  {
    let path = try databasePath(arguments, environment: console.environment)
    do {
      return try Archive(path: path, access: .write, upgrade: .decidingFigures)
    } catch {
      throw CommandError(error)
    }
  }

  /// The output format of `--format`: table (the default), json or csv.
  ///
  /// - Parameter picture: the name of the one other format the command takes (`svg`, `html`),
  ///   which the command handles itself: named in the error only.
  /// - Throws: ``UsageError`` naming the formats expected.
  static func outputFormat(_ arguments: ParsedArguments, or picture: String? = nil)
    throws(UsageError) -> OutputFormat
  {
    guard let text = arguments.option("--format") else { return .table }
    guard let format = OutputFormat(rawValue: text) else {
      throw UsageError(
        "unknown format '\(text)' (expected table, json"
          + (picture.map { ", csv or \($0))" } ?? " or csv)"))
    }
    return format
  }

  /// A value of an option that takes one of a fixed set (`--format csv`), or `nil` when the option
  /// is not given.
  ///
  /// - Throws: ``UsageError`` naming the values expected.
  static func choice<Value: RawRepresentable & CaseIterable>(
    _ arguments: ParsedArguments, _ option: String, of type: Value.Type, named noun: String
  ) throws(UsageError) -> Value? where Value.RawValue == String {
    guard let text = arguments.option(option) else { return nil }
    guard let value = Value(rawValue: text) else {
      throw UsageError(
        "unknown \(noun) '\(text)' (expected "
          + Value.allCases.map(\.rawValue).joined(separator: ", ") + ")")
    }
    return value
  }

  /// A chart date the user gave, or `nil` when none was given.
  ///
  /// - Parameters:
  ///   - argument: the option (`--date`) or argument (`date`) that gave it, for the message.
  ///   - timeZone: the zone of a date and time without one.
  ///   - zoneOption: the command's option that gives that zone (`--timezone`), which the message
  ///     of a date and time without a zone then names.
  /// - Throws: ``UsageError`` naming `argument` and what is wrong with the date.
  static func chartDate(
    _ text: String?, argument: String, timeZone: TimeZone? = nil, zoneOption: String? = nil
  ) throws(UsageError) -> ChartDate? {
    guard let text else { return nil }
    do { return try ChartDate(iso8601: text, timeZone: timeZone) } catch {
      // An option by its name (`--date`), an argument as the usage line shows it (`<date>`).
      let name = argument.hasPrefix("--") ? argument : "<\(argument)>"
      if case .noTimeZone = error, let zoneOption {
        // The command's option that gives the zone.
        throw UsageError(
          "\(name): '\(text)' is a date and time without a time zone: pass \(zoneOption) ZONE (an"
            + " IANA name such as Asia/Seoul), or write it with Z or an offset")
      }
      if case .noTimeZone = error {
        // A command without such an option: the zone goes in the date.
        throw UsageError(
          "\(name): '\(text)' is a date and time without a time zone: write it with Z or an"
            + " offset ('\(text)Z', '\(text)+09:00')")
      }
      throw UsageError(name + ": \(error.description)")
    }
  }

  /// A snapshot's date as the user gave it: a chart date, `latest` or `previous` (the one before
  /// the latest); `nil` when none was given.
  static func snapshotDate(_ text: String?, argument: String) throws(UsageError) -> SnapshotDate? {
    guard let text else { return nil }
    if let keyword = SnapshotDate(keyword: text) { return keyword }
    return .on(try chartDate(text, argument: argument)!)
  }

  /// The span of `--from` and `--to`, each `nil` when not given.
  ///
  /// - Throws: ``UsageError`` for a date that is not one, or `--from` after `--to`.
  static func dateSpan(_ arguments: ParsedArguments) throws(UsageError) -> (
    from: ChartDate?, to: ChartDate?
  ) {
    let from = try chartDate(arguments.option("--from"), argument: "--from")
    let to = try chartDate(arguments.option("--to"), argument: "--to")
    if let from, let to, from > to {
      throw UsageError("--from \(from) is after --to \(to): give the earlier chart date first")
    }
    return (from, to)
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
