public import ChartRanking
public import Foundation

/// A chart file read and checked: its snapshots, ready to store.
public struct DecodedChartFile: Sendable {
  /// The file's path, as given.
  public var path: String
  /// The format it was read as.
  public var format: ChartFormat
  /// Its snapshots (one for the formats that hold one chart date).
  public var snapshots: [Snapshot]
  /// How often the chart is published, when the file or the chart's name says.
  public var frequency: ChartFrequency?
}

/// Reads chart files in any ``ChartFormat`` and checks every entry before anything is stored.
///
/// Where the chart's name comes from: `chart` when set (`--chart`), else the file's own (native
/// format), else the name of the folder that holds the file. Where the chart date comes from: the
/// file's own, else `chartDate` (`--date`), else the first `YYYY-MM-DD` in the file's name (see
/// ``ChartDate/inFileName(_:)``).
///
/// Checks, each reported with the entry's 1-based index and rank: a rank must be present and
/// between 1 and ``maximumRank``; ranks are unique; title and artist are present and not blank,
/// and at most ``maximumTextLength`` Unicode scalars; previous rank, peak position and weeks on chart
/// are positive when given; a chart holds at least one entry.
public struct ChartFileReader: Sendable {
  /// The largest rank accepted: no published chart is longer.
  public static let maximumRank = 100_000
  /// The longest title or artist accepted, in Unicode scalars (a character with combining marks
  /// counts each mark).
  public static let maximumTextLength = 10_000

  /// The format to read, or `nil` to detect it from the content.
  public var format: ChartFormat?
  /// The chart's name, overriding the file's and the folder's.
  public var chart: String?
  /// The chart date for files that carry none.
  public var chartDate: ChartDate?

  /// Creates a reader.
  public init(format: ChartFormat? = nil, chart: String? = nil, chartDate: ChartDate? = nil) {
    self.format = format
    self.chart = chart
    self.chartDate = chartDate
  }

  /// Reads and checks one file.
  ///
  /// - Parameter path: the file's path.
  /// - Returns: the file's snapshots.
  /// - Throws: ``ChartFileError`` listing every problem found (an unreadable file has one).
  public func read(contentsOf path: String) throws(ChartFileError) -> DecodedChartFile {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
    } catch {
      throw ChartFileError(path: path, "cannot be read (\(error.localizedDescription))")
    }
    return try decode(data, path: path)
  }

  /// Decodes and checks the content of one file.
  ///
  /// - Parameters:
  ///   - data: the file's bytes (UTF-8 JSON).
  ///   - path: the file's path, for messages and for the chart name and date it may carry.
  /// - Throws: ``ChartFileError`` listing every problem found.
  public func decode(_ data: Data, path: String) throws(ChartFileError) -> DecodedChartFile {
    guard let first = data.first(where: { !isJSONWhitespace($0) }) else {
      throw ChartFileError(path: path, "the file is empty")
    }
    let detected: ChartFormat
    if let format {
      detected = format
    } else if first == UInt8(ascii: "[") {
      detected = .appFeed
    } else if first == UInt8(ascii: "{") {
      detected = .native  // refined below from the object's keys
    } else if String(validating: data, as: UTF8.self) == nil {
      throw ChartFileError(path: path, "not a chart file: not UTF-8 text (a binary file?)")
    } else {
      throw ChartFileError(path: path, "not a chart file: expected JSON (an object or an array)")
    }
    let decoder = JSONDecoder()
    let raw: RawFile
    do {
      raw = try decoder.decode(RawFile.self, from: data)
    } catch let error as DecodingError {
      throw ChartFileError(path: path, problems: [problem(from: error, data: data)])
    } catch {
      throw ChartFileError(path: path, "not valid JSON (\(error))")
    }
    var format = detected
    if self.format == nil, first == UInt8(ascii: "{") {
      if raw.hasEntriesKey {
        format = .native
      } else if raw.hasDataKey {
        format = .billboardWeekly
      } else {
        throw ChartFileError(
          path: path,
          "not a chart file: a JSON object with neither 'entries' (ChartArchive format) nor"
            + " 'data' (weekly chart format)")
      }
    }
    return try build(raw, format: format, path: path)
  }

  // MARK: - Building snapshots

  private func build(_ raw: RawFile, format: ChartFormat, path: String) throws(ChartFileError)
    -> DecodedChartFile
  {
    var problems = raw.problems
    let entries: [RawEntry]
    switch format {
    case .native: entries = raw.nativeEntries ?? []
    case .billboardWeekly: entries = raw.billboardEntries ?? []
    case .appFeed: entries = raw.feedEntries ?? []
    }
    let missingList: String? =
      switch format {
      case .native: raw.hasEntriesKey ? nil : "entries"
      case .billboardWeekly: raw.hasDataKey ? nil : "data"
      case .appFeed: raw.feedEntries == nil ? "" : nil
      }
    if let missingList {
      problems.append(
        ChartFileProblem(
          field: missingList.isEmpty ? nil : missingList,
          message: missingList.isEmpty
            ? "expected a JSON array of entries (\(format.rawValue) format)"
            : "missing: expected an array of entries (\(format.rawValue) format)"))
    }

    // Chart name.
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
    let chartName = chart ?? (format == .native ? raw.chart : nil) ?? folder
    if format == .native, chart == nil, raw.chart == nil {
      problems.append(ChartFileProblem(field: "chart", message: "missing"))
    } else if !Snapshot.isValidChartName(chartName) {
      let source =
        chart != nil ? "--chart" : format == .native ? "the file's" : "the folder's name"
      problems.append(
        ChartFileProblem(
          field: format == .native && chart == nil ? "chart" : nil,
          message: "\(source) '\(chartName)' is not a valid chart name (1 to 200 characters,"
            + " no control characters)"
            + (format == .native || chart != nil ? "" : "; pass --chart NAME")))
    }

    // Chart date.
    var date: ChartDate?
    let fileDate = format == .native ? raw.chartDate : format == .billboardWeekly ? raw.date : nil
    let dateField = format == .native ? "chart_date" : "date"
    if let fileDate {
      do { date = try ChartDate(iso8601: fileDate) } catch {
        problems.append(ChartFileProblem(field: dateField, message: error.description))
      }
    } else if !raw.problems.contains(where: { $0.field == dateField }) {
      let name = URL(fileURLWithPath: path).lastPathComponent
      date = chartDate ?? ChartDate.inFileName(name)
      if date == nil {
        problems.append(
          ChartFileProblem(
            field: format == .appFeed ? nil : dateField,
            message: "no chart date"
              + (format == .appFeed ? "" : " in the file")
              + ": pass --date YYYY-MM-DD or name the file YYYY-MM-DD.json"
              + " (or YYYY-MM-DDTHH-MM.json)"))
      }
    }

    var frequency: ChartFrequency?
    if let text = raw.frequency {
      frequency = ChartFrequency(rawValue: text)
      if frequency == nil {
        problems.append(
          ChartFileProblem(
            field: "frequency",
            message: "expected one of "
              + ChartFrequency.allCases.map(\.rawValue).joined(separator: ", ")
              + ", found '\(text)'"))
      }
    }
    frequency =
      frequency ?? ChartFrequency.guessed(fromChartName: chartName)
      ?? (format == .billboardWeekly ? .weekly : nil)

    // Entries.
    var chartEntries: [ChartEntry] = []
    chartEntries.reserveCapacity(entries.count)
    var firstEntryAtRank: [Int: Int] = [:]
    var publishesPreviousRank = format != .native
    for (offset, raw) in entries.enumerated() {
      let index = offset + 1
      let rank = format == .appFeed ? index : raw.rank
      var entryProblems = raw.problems
      func report(_ field: String?, _ message: String) {
        entryProblems.append(ChartFileProblem(field: field, message: message))
      }
      let keys = EntryKeys.forFormat(format)
      guard raw.isObject else {
        problems.append(
          ChartFileProblem(entry: index, message: "expected a JSON object"))
        continue
      }
      if let rank {
        if rank < 1 {
          report(keys.rank, "rank must be 1 or more, found \(rank)")
        } else if rank > Self.maximumRank {
          report(keys.rank, "rank \(rank) is larger than \(Self.maximumRank)")
        } else if let first = firstEntryAtRank[rank] {
          report(keys.rank, "rank \(rank) is also the rank of entry \(first)")
        } else {
          firstEntryAtRank[rank] = index
        }
      } else if !entryProblems.contains(where: { $0.field == keys.rank }) {
        report(keys.rank, "missing")
      }
      checkText(raw.title, field: keys.title, problems: &entryProblems)
      checkText(raw.artist, field: keys.artist, problems: &entryProblems)
      var previousRank = raw.previousRank
      if format == .appFeed, previousRank == 0 { previousRank = nil }
      if let value = previousRank, value < 1 {
        report(keys.previousRank, "must be 1 or more (or null), found \(value)")
      }
      if let value = raw.peakPosition, value < 1 {
        report(keys.peakPosition, "must be 1 or more, found \(value)")
      }
      if let value = raw.weeksOnChart, value < 1 {
        report(keys.weeksOnChart, "must be 1 or more, found \(value)")
      }
      if raw.hasPreviousRank { publishesPreviousRank = true }
      if entryProblems.isEmpty, let rank, let title = raw.title, let artist = raw.artist {
        chartEntries.append(
          ChartEntry(
            rank: rank, title: title, artist: artist, publishedPreviousRank: previousRank,
            publishedPeakPosition: raw.peakPosition, publishedWeeksOnChart: raw.weeksOnChart,
            imageURL: raw.imageURL, songURL: raw.songURL))
      }
      for var problem in entryProblems {
        problem.entry = index
        problem.rank = rank
        problems.append(problem)
      }
    }
    if entries.isEmpty, missingList == nil,
      !problems.contains(where: {
        $0.field != nil && $0.entry == nil && ["data", "entries"].contains($0.field!)
      })
    {
      problems.append(ChartFileProblem(message: "the chart has no entries"))
    }
    guard problems.isEmpty, let date else { throw ChartFileError(path: path, problems: problems) }
    let snapshot = Snapshot(
      chart: chartName, chartDate: date, publishesPreviousRank: publishesPreviousRank,
      entries: chartEntries)
    return DecodedChartFile(
      path: path, format: format, snapshots: [snapshot], frequency: frequency)
  }

  private func checkText(_ text: String?, field: String, problems: inout [ChartFileProblem]) {
    guard let text else {
      if !problems.contains(where: { $0.field == field }) {
        problems.append(ChartFileProblem(field: field, message: "missing"))
      }
      return
    }
    if text.allSatisfy(\.isWhitespace) {
      problems.append(ChartFileProblem(field: field, message: "blank"))
    } else if text.unicodeScalars.count > Self.maximumTextLength {
      problems.append(
        ChartFileProblem(
          field: field,
          message: "\(text.unicodeScalars.count) characters long; at most"
            + " \(Self.maximumTextLength) are accepted"))
    } else if text.unicodeScalars.contains(where: { $0.value == 0 }) {
      problems.append(ChartFileProblem(field: field, message: "contains a NUL character"))
    }
  }

  private func problem(from error: DecodingError, data: Data) -> ChartFileProblem {
    switch error {
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return ChartFileProblem(message: "not valid JSON: \(syntaxError(in: data))")
      }
      return ChartFileProblem(message: "\(path(context.codingPath)): \(context.debugDescription)")
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      let expectation =
        context.codingPath.isEmpty ? "expected a JSON object or array" : context.debugDescription
      return ChartFileProblem(message: "\(path(context.codingPath)): \(expectation)")
    case .keyNotFound(let key, let context):
      return ChartFileProblem(message: "\(path(context.codingPath + [key])): missing")
    @unknown default:
      return ChartFileProblem(message: "\(error)")
    }
  }

  /// What is wrong with text that is not JSON, with its line and column: JSONDecoder does not
  /// say, JSONSerialization does (as a character offset).
  private func syntaxError(in data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return "the JSON text is malformed"
    } catch {
      var detail =
        ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
        ?? "the JSON text is malformed"
      if detail.hasSuffix(".") { detail.removeLast() }
      detail = detail.replacingOccurrences(of: " during JSON parse", with: "")
      if let range = detail.range(of: "character "),
        let offset = Int(detail[range.upperBound...].prefix(while: \.isNumber))
      {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
          if byte == 0x0A {
            line += 1
            column = 1
          } else if byte & 0xC0 != 0x80 {
            column += 1
          }
        }
        detail += " (line \(line), column \(column))"
      }
      return detail
    }
  }

  private func path(_ codingPath: [any CodingKey]) -> String {
    codingPath.isEmpty
      ? "top level"
      : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
  }
}

private func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    // A UTF-8 byte order mark before the JSON text.
    || byte == 0xEF || byte == 0xBB || byte == 0xBF
}
