public import ChartRanking
public import Foundation
import Glibc

/// Reads chart files in any ``ChartFormat`` and checks every entry before anything is stored.
///
/// Where the chart's name comes from: `chart` when set (`--chart`), else the file's own (native
/// format, a charts CSV's `chart` column, the name before the date of a Spotify download's file),
/// else the name of the folder that holds the file. Where the chart date comes from: the
/// file's own, else `chartDate` (`--date`), else the first `YYYY-MM-DD` in the file's name (see
/// ``ChartDate/inFileName(_:)``).
///
/// Checks, each reported with the entry's 1-based index and rank: a rank must be present and
/// between 1 and ``maximumRank``; ranks are unique, but where the source marks a tie (`=8` in a
/// CSV, `"tie": true` in the native JSON) or ``allowsTies``; title and artist are present and not blank
/// (nor only invisible characters), at most ``maximumTextLength`` Unicode scalars, and without
/// control characters but tab and line breaks; image and song URLs at most ``maximumURLLength``
/// bytes, without NUL; numbers fit in 64 bits; previous rank and peak position are ranks (1
/// through ``maximumRank``), weeks on chart and run number 1 through ``maximumCount``, when given;
/// a chart holds at least one entry. A file
/// is refused whole when it is a web page (it starts with `<`); a CSV row with more or fewer fields
/// than the header is reported with its row and the line it starts on, and not read.
public struct ChartFileReader: Sendable {
  /// The largest rank accepted: no published chart is longer.
  public static let maximumRank = 100_000
  /// The largest weeks on chart (or days, hours) and run number accepted: an hourly chart's
  /// hours over a thousand years, so that no figure counted on from it can overflow.
  public static let maximumCount = 10_000_000
  /// The longest title or artist accepted, in Unicode scalars (a character with combining marks
  /// counts each mark).
  public static let maximumTextLength = 10_000
  /// The longest image or song URL accepted, in UTF-8 bytes: room for a small picture written in
  /// the URL (`data:image/…;base64,…`), none for a file's worth of bytes.
  public static let maximumURLLength = 65_536

  /// The format to read, or `nil` to detect it from the content.
  public var format: ChartFormat?
  /// The chart's name, overriding the file's and the folder's.
  public var chart: String?
  /// The chart date for files that carry none.
  public var chartDate: ChartDate?
  /// The time zone the file's dates and times without one are in, when the user named one.
  public var timeZone: TimeZone?
  /// Whether two entries of a snapshot may share a rank though the source does not mark the tie
  /// (`--allow-ties`: the Hot 100 of the early years, the UK chart of the 1950s as some files
  /// keep them). A tie the source marks is always allowed.
  public var allowsTies: Bool
  /// Whether the chart's name the content gives is read even when ``chart`` is set, into
  /// ``DecodedChartFile/chartsNamedInContent``, so that an import can refuse a file that names
  /// another chart than the one given (an upload to a chart's address). Off, a chart given
  /// spares reading the content's (a dataset's chart column).
  public var readsChartNamesInContent = false
  /// The size above which a file is read as a file of many weeks, in parts, whatever it holds
  /// (`nil`: ``maximumFileSize(of:)`` of its kind): for tests, which read small files so.
  var largeFileSize: Int?
  /// Whether every problem of a file is told rather than the first
  /// ``maximumProblemsReported``: for a part of a file read in parts, whose problems are told
  /// with the other parts'.
  var keepsEveryProblem = false
  /// How many threads may read one long file (a dataset of many weeks) at once:
  /// ``defaultThreadCount`` unless set.
  var threadCount: Int {
    get { chosenThreadCount ?? Self.defaultThreadCount }
    set { chosenThreadCount = newValue }
  }
  private var chosenThreadCount: Int?

  /// One thread per processor, at most 8: asked of the system only when a long file is read
  /// (Foundation reads the process's control-group files for it, some 500,000 instructions, which
  /// a one-week import of a JSON file never needs).
  static let defaultThreadCount = min(ProcessInfo.processInfo.activeProcessorCount, 8)

  /// Creates a reader.
  public init(
    format: ChartFormat? = nil, chart: String? = nil, chartDate: ChartDate? = nil,
    timeZone: TimeZone? = nil, allowsTies: Bool = false
  ) {
    self.allowsTies = allowsTies
    self.timeZone = timeZone
    self.format = format
    self.chart = chart
    self.chartDate = chartDate
  }

  /// Reads and checks one file.
  ///
  /// A file of many weeks is read in parts, in bounded memory, as
  /// ``read(contentsOf:weeksPerPart:deliver:)`` reads it, and its parts are joined.
  ///
  /// - Parameter path: the file's path: a regular file, or a named pipe (read to its end).
  /// - Returns: the file's snapshots.
  /// - Throws: ``ChartFileError`` listing every problem found (an unreadable file has one).
  public func read(contentsOf path: String) throws(ChartFileError) -> DecodedChartFile {
    try joined(FileBytes(path: path), path: path)
  }

  /// Decodes and checks the content of one file; a file of many weeks is read in parts and its
  /// parts joined (see ``read(contentsOf:)``).
  ///
  /// - Parameters:
  ///   - data: the file's bytes (UTF-8 JSON or CSV, or an HTML document).
  ///   - path: the file's path, for messages and for the chart name and date it may carry.
  /// - Throws: ``ChartFileError`` listing every problem found.
  public func decode(_ data: Data, path: String) throws(ChartFileError) -> DecodedChartFile {
    try joined(FileBytes(data), path: path)
  }

  /// A file read in parts, its parts joined.
  private func joined(_ bytes: FileBytes, path: String) throws(ChartFileError) -> DecodedChartFile {
    var parts: [DecodedChartFile] = []
    try decode(bytes, path: path, weeksPerPart: .max) { part, _ in
      parts.append(part)
      return true
    }
    var file = parts[0]
    for part in parts.dropFirst() {
      file.snapshots += part.snapshots
      file.frequency = part.frequency
      file.chartNamedAfterFolder = file.chartNamedAfterFolder || part.chartNamedAfterFolder
      file.chartsNamedInContent += part.chartsNamedInContent
      file.dateDisagreements += part.dateDisagreements
      file.pages += part.pages
    }
    return file
  }

  /// Decodes and checks a file's bytes in one piece.
  ///
  /// - Throws: ``ChartFileError`` listing every problem found; for a line longer than
  ///   ``maximumLineLength`` in a CSV, before anything else is read.
  func decodeWhole(_ data: Data, path: String) throws(ChartFileError) -> DecodedChartFile {
    guard let first = data.first(where: { !isJSONWhitespace($0) }) else {
      throw ChartFileError(path: path, "the file is empty")
    }
    // A web page (`<!DOCTYPE html>`, `<html>`, `<?xml …?>`): a chart table saved whole, or one
    // saved in place of a chart (an error page, a bot check), which no JSON or CSV format starts
    // with.
    if first == UInt8(ascii: "<") || format == .kworbHTML {
      // A chart page saved whole (kworb's); any other is refused as markup.
      guard format == nil || format == .kworbHTML else {
        throw ChartFileError(path: path, Self.markupMessage)
      }
      return try build(decodeHTML(data, path: path), path: path)
    }
    let isJSON =
      format.map { $0.isJSON } ?? (first == UInt8(ascii: "{") || first == UInt8(ascii: "["))
    if !isJSON, let line = data.withUnsafeBytes(LineMeter.firstLongLine) {
      throw ChartFileError(path: path, problems: [.lineTooLong(line: line)])
    }
    // Text that is not UTF-8 is told apart in decodeCSV.
    let decoded = isJSON ? try decodeJSON(data, path: path) : try decodeCSV(data, path: path)
    return try build(decoded, path: path)
  }

  /// What a file that starts with `<` (after a byte order mark and white space) is called: an
  /// HTML or XML document, never a chart file.
  static let markupMessage =
    "not a chart file: an HTML or XML document (a saved web page or an error page?)"

  // MARK: - JSON

  /// Decodes a JSON file: its top-level fields (read as the file streams by when it is the usual
  /// file, else through the tree, which a chart service's format is read from), then an export's
  /// snapshots, or the one snapshot of the format the fields say.
  ///
  /// - Throws: ``ChartFileError`` when the file is not JSON, nor a chart file of a JSON format.
  private func decodeJSON(_ data: Data, path: String) throws(ChartFileError) -> UncheckedChartFile {
    let fields: JSONFileFields
    // The usual file is read as it streams by; anything else (and every problem) through the tree.
    if format == nil, let streamed = data.withUnsafeBytes(StreamingReader.fileFields) {
      fields = streamed
    } else {
      let json: JSONTree
      switch data.withUnsafeBytes({ bytes in
        Result { () throws(JSONSyntaxError) in try JSONTree.parse(bytes) }
      }) {
      case .success(let value): json = value
      case .failure(let error) where error.isFieldTooLong:
        throw ChartFileError(
          path: path,
          problems: [
            .fieldTooLong(
              "the \(error.message.hasPrefix("a number") ? "number" : "string") at column"
                + " \(error.column)", line: error.line)
          ])
      case .failure(let error) where error.hasTooManyValues:
        throw ChartFileError(
          path: path, problems: [ChartFileProblem(line: error.line, message: error.message)])
      case .failure(let error): throw ChartFileError(path: path, "not valid JSON: \(error)")
      }
      if let service = ServiceFile.format(of: json, forced: format) {
        guard json.isObject else {
          throw ChartFileError(
            path: path, "not a chart file: expected a JSON object (\(service.rawValue) format)")
        }
        return serviceFile(ServiceFile(json, format: service), path: path)
      }
      guard let read = JSONFileFields(json: json, forced: format) else {
        throw ChartFileError(
          path: path,
          "not a chart file: expected a JSON object or array"
            + (format.map { " (\($0.rawValue) format)" } ?? ""))
      }
      fields = read
    }
    if let snapshots = fields.snapshots, format == nil || format == .native {
      return exportFile(fields, snapshots: snapshots, path: path)
    }
    if fields.problems.contains(where: { $0.field == "snapshots" }) {
      // An export whose list of snapshots is not one.
      throw ChartFileError(path: path, problems: fields.problems)
    }
    return try oneSnapshotFile(fields, path: path)
  }

  /// An export: native snapshots one after the other, each named in the problems found in it.
  ///
  /// - Parameter firstNumber: the 1-based number of the first of `snapshots` in the file (some
  ///   of an export read as it streams by).
  func exportFile(
    _ fields: JSONFileFields, snapshots: [JSONFileFields], path: String, firstNumber: Int = 1
  ) -> UncheckedChartFile {
    var problems = fields.problems
    if snapshots.isEmpty {
      problems.append(ChartFileProblem(field: "snapshots", message: "the file has no snapshots"))
    }
    var unchecked: [UncheckedSnapshot] = []
    for (index, snapshot) in snapshots.enumerated() {
      unchecked.append(
        UncheckedSnapshot(
          chart: chart ?? snapshot.chart ?? folderName(path),
          chartSource: chart != nil ? .option : snapshot.chart != nil ? .file : .folder,
          contentCharts: snapshot.chart.map { [$0] } ?? [],
          date: snapshot.chartDate, dateField: "chart_date",
          dateFieldProblem: snapshot.problems.contains { $0.field == "chart_date" },
          entries: snapshot.entries ?? [], listPresent: snapshot.entries != nil,
          frequency: snapshot.frequency, number: firstNumber + index))
      var snapshotProblems = snapshot.problems
      if snapshot.entries == nil, !snapshot.problems.contains(where: { $0.field == "entries" }) {
        snapshotProblems.append(
          ChartFileProblem(field: "entries", message: "missing: expected an array of entries"))
      }
      problems += snapshotProblems.map { $0.inSnapshot(firstNumber + index) }
    }
    return UncheckedChartFile(
      format: .native, keys: .native, snapshots: unchecked, problems: problems,
      decisions: fields.decisions ?? [])
  }

  /// A file of one snapshot, of the format given (``format``) or the one its fields say: the
  /// entries of the format's list, the chart the file names (in the native format and
  /// billboard.py's) and its date.
  ///
  /// - Throws: ``ChartFileError`` when no format is given and the fields are those of none.
  private func oneSnapshotFile(_ fields: JSONFileFields, path: String) throws(ChartFileError)
    -> UncheckedChartFile
  {
    let detected: ChartFormat
    if let format {
      detected = format
    } else {
      detected = try Self.jsonFormat(of: fields, path: path)
    }
    let entries: [RawEntry]? =
      switch detected {
      case .native, .billboardPy: fields.entries
      case .billboardWeekly: fields.billboardEntries
      case .appFeed: fields.feedEntries
      default: nil
      }
    var problems = fields.problems
    if entries == nil {
      let list = detected == .billboardWeekly ? "data" : "entries"
      let present = detected == .billboardWeekly ? fields.hasDataKey : fields.hasEntriesKey
      if detected == .appFeed {
        // A feed too long for a chart is reported already.
        if !fields.isFeed {
          problems.append(
            ChartFileProblem(message: "expected a JSON array of entries (app-feed format)"))
        }
      } else if !present {
        problems.append(
          ChartFileProblem(
            field: list,
            message: "missing: expected an array of entries (\(detected.rawValue) format)"))
      }
    }
    let fileChart: String? =
      switch detected {
      case .native: fields.chart
      case .billboardPy: fields.name
      default: nil
      }
    if detected == .native, chart == nil, fields.chart == nil {
      problems.append(ChartFileProblem(field: "chart", message: "missing", remedy: .nameTheChart))
    }
    let dateField = detected == .native ? "chart_date" : "date"
    let unchecked = UncheckedSnapshot(
      chart: chart ?? fileChart ?? folderName(path),
      chartSource: chart != nil ? .option : fileChart != nil ? .file : .folder,
      contentCharts: fileChart.map { [$0] } ?? [],
      date: detected == .native
        ? fields.chartDate : detected == .appFeed ? nil : fields.date ?? fields.yearEndDate,
      dateField: dateField,
      dateFieldProblem: fields.problems.contains { $0.field == dateField },
      entries: entries ?? [], listPresent: entries != nil,
      frequency: fields.frequency
        ?? (detected == .billboardPy && fields.date == nil && fields.year != nil
          ? ChartFrequency.yearly.rawValue : nil))
    return UncheckedChartFile(
      format: detected, keys: .forFormat(detected), snapshots: [unchecked], problems: problems)
  }

  /// The JSON format whose fields a file's are: an array of entries is an app feed; an object is
  /// billboard.py's, the native format (`entries`) or the weekly chart format (`data`).
  ///
  /// - Throws: ``ChartFileError`` when the object has neither list.
  private static func jsonFormat(of fields: JSONFileFields, path: String) throws(ChartFileError)
    -> ChartFormat
  {
    if fields.isFeed { return .appFeed }
    if fields.isBillboardPy { return .billboardPy }
    if fields.hasEntriesKey { return .native }
    if fields.hasDataKey { return .billboardWeekly }
    throw ChartFileError(
      path: path,
      "not a chart file: a JSON object with neither 'entries' (ChartArchive format) nor"
        + " 'data' (weekly chart format)")
  }

  /// A file of a chart service's JSON format as snapshots' worth of entries, one a chart: the
  /// chart named by `--chart`, else the file, else the folder, and each chart's own name after it
  /// when the file holds several.
  private func serviceFile(_ service: ServiceFile, path: String) -> UncheckedChartFile {
    let base = chart ?? service.chart ?? folderName(path)
    let several = service.charts.count > 1
    let snapshots = service.charts.enumerated().map { index, part in
      UncheckedSnapshot(
        chart: several ? base + "-" + slug(part.name ?? String(index + 1)) : base,
        chartSource: chart != nil ? .option : service.chart != nil ? .file : .folder,
        contentCharts: service.chart.map {
          [several ? $0 + "-" + slug(part.name ?? String(index + 1)) : $0]
        } ?? [],
        date: service.date, dateField: service.dateField,
        dateFieldProblem: service.dateFieldProblem, entries: part.entries ?? [],
        listPresent: part.entries != nil, frequency: service.frequency,
        number: several ? index + 1 : nil, page: part.page)
    }
    return UncheckedChartFile(
      format: service.format, keys: service.keys, snapshots: snapshots, problems: service.problems)
  }

  // MARK: - CSV

  private func decodeCSV(_ data: Data, path: String) throws(ChartFileError) -> UncheckedChartFile {
    var table: CSVTable
    // The layout its first lines show, whose unread columns are not kept (a dataset's song_id).
    let expected = CSVLayout.detect(Self.firstLines(of: data), forced: format)
    do {
      table = try CSVTable(
        data, threads: threadCount, unread: expected.map(unreadColumns) ?? [],
        headerRows: (expected?.headerRow ?? 0) + 1)
    } catch {
      // Not CSV and not text: say so rather than where the CSV reader gave up.
      if format == nil, String(validating: data, as: UTF8.self) == nil,
        CSVLayout.detect(Self.firstLines(of: data), forced: nil) == nil
      {
        throw ChartFileError(path: path, "not a chart file: not UTF-8 text (a binary file?)")
      }
      switch error {
      case .malformed(let row, let line, let column, let reason):
        let message =
          switch reason {
          case .quoteInUnquotedField:
            "field \(column) has a quote but does not start with one (a field with quotes is"
              + " quoted whole, each quote in it written twice: \"A \"\"B\"\" C\")"
          case .textAfterClosingQuote:
            "field \(column) goes on after its closing quote (a quote inside a quoted field is"
              + " written twice)"
          case .unclosedQuote: "field \(column) opens a quote that is never closed"
          case .readerFailed(let words): "the CSV reader failed: \(words)"
          }
        throw ChartFileError(
          path: path,
          problems: [ChartFileProblem(row: row, line: line, message: "not valid CSV: \(message)")])
      case .notUTF8(let row, let column):
        throw ChartFileError(
          path: path,
          problems: [ChartFileProblem(row: row, message: "field \(column) is not valid UTF-8 text")]
        )
      case .fieldTooLong(let row, let column):
        let lines = CSVTable.recordLines(in: data)
        throw ChartFileError(
          path: path,
          problems: [
            .fieldTooLong(
              "field \(column)", row: row, line: row <= lines.count ? lines[row - 1] : nil)
          ])
      }
    }
    let layout = CSVLayout.detect(table.rows, forced: format)
    // The first lines misled (a quoted header): every field is read.
    if let expected, layout?.columns != expected.columns || layout?.headerRow != expected.headerRow,
      let whole = try? CSVTable(data, threads: threadCount)
    {
      table = whole
    }
    guard let layout else {
      if let format {
        throw ChartFileError(
          path: path, "no header of the \(format.rawValue) format in the first two rows")
      }
      if String(validating: data, as: UTF8.self) == nil {
        throw ChartFileError(path: path, "not a chart file: not UTF-8 text (a binary file?)")
      }
      throw ChartFileError(
        path: path,
        "not a chart file: expected a JSON object or array, or a CSV with a known header (see"
          + " chart-archive formats)")
    }
    return decodeRows(
      table.rows, layout: layout, format: layout.format, path: path, cells: "fields",
      lines: { CSVTable.recordLines(in: data) })
  }

  /// The columns of a table that decoding its rows does not read: those of no field of
  /// `layout`, and those naming the chart when the chart's name is given.
  private func unreadColumns(of layout: CSVLayout) -> Set<Int> {
    let read = layout.columns.filter { field, _ in
      chart == nil || readsChartNamesInContent || (field != .chart && field != .chartURL)
    }
    let count = layout.columns.values.max().map { $0 + 1 } ?? 0
    return Set(0..<count).subtracting(read.values)
  }

  // MARK: - HTML

  /// Reads a chart table of an HTML document: the first table whose header is a kworb table's.
  private func decodeHTML(_ data: Data, path: String) throws(ChartFileError) -> UncheckedChartFile {
    let forced = format == .kworbHTML
    for table in HTMLTable.tables(in: data) ?? [] {
      guard let layout = CSVLayout.detect(table.rows, forced: .kworbCSV) else { continue }
      // libxml2 reads bytes that are not UTF-8 as another encoding, without a word.
      guard String(validating: data, as: UTF8.self) != nil else {
        throw ChartFileError(path: path, "a chart table in an HTML document that is not UTF-8 text")
      }
      for (row, cells) in table.rows.enumerated() {
        guard let column = cells.firstIndex(where: { $0.utf8.count > Self.maximumFieldLength })
        else { continue }
        throw ChartFileError(
          path: path,
          problems: [.fieldTooLong("cell \(column + 1)", row: row + 1, line: table.lines[row])])
      }
      return decodeRows(
        table.rows, layout: layout, format: .kworbHTML, path: path, cells: "cells",
        lines: { table.lines })
    }
    throw ChartFileError(
      path: path,
      forced
        ? "no table of kworb's (Pos, P+, Artist and Title, Days or Wks, Pk, Streams) in the HTML"
          + " document"
        : Self.markupMessage)
  }

  // MARK: - Rows

  /// Decodes the rows of a table under the header that `layout` found.
  ///
  /// - Parameters:
  ///   - rows: every row of the table, the header's among them.
  ///   - format: the format the file is of (its rows are read as `layout.format`'s).
  ///   - cells: what a row holds, for messages: `fields` in a CSV, `cells` in an HTML table.
  ///   - lines: the 1-based line on which each row starts, asked for only when a problem needs it.
  private func decodeRows(
    _ rows: [[String]], layout: CSVLayout, format: ChartFormat, path: String, cells: String,
    lines readLines: () -> [Int]
  ) -> UncheckedChartFile {
    let namedChart =
      layout.format.namesTheChartInTheFileName
      ? chartName(inFileName: URL(fileURLWithPath: path).lastPathComponent) : nil
    let dataRows = (layout.headerRow + 1)..<rows.count
    var decoded: RowsBySnapshot?
    // A long table (a dataset of many weeks) is decoded in parts on several threads; when a part
    // has a problem, the whole table is decoded again in one piece, which tells it with its line.
    let parts = Self.parts(of: dataRows, count: threadCount)
    if parts.count > 1 {
      let decodedParts = concurrentMap(parts.count) { part in
        decodeRows(
          rows, parts[part], layout: layout, namedChart: namedChart, path: path, cells: cells,
          lines: { [] })
      }
      var merged = RowsBySnapshot()
      for part in decodedParts { merged.append(part) }
      if merged.problems.isEmpty { decoded = merged }
    }
    var whole =
      decoded
      ?? decodeRows(
        rows, dataRows, layout: layout, namedChart: namedChart, path: path, cells: cells,
        lines: readLines)
    if layout.format.holdsWeeksOfOneChart {
      whole.problems += splitWeeks(
        whole.snapshots, writtenDates: whole.writtenDates, field: layout.name(of: .date))
    }
    if dataRows.isEmpty {
      whole.snapshots.append(
        UncheckedSnapshot(
          chart: chart ?? namedChart ?? folderName(path),
          chartSource: chart != nil ? .option : namedChart != nil ? .file : .folder,
          date: nil,
          dateField: layout.name(of: .date), dateFieldProblem: false, entries: [],
          listPresent: true,
          frequency: nil, publishesPreviousRank: layout.has(.previousRank)))
    }
    return UncheckedChartFile(
      format: format, keys: layout.keys, snapshots: whole.snapshots, problems: whole.problems)
  }

  /// The rows of a table decoded in a part on a thread of its own: at least this many.
  static let minimumRowsPerPart = 5_000

  /// The parts of a table's data rows to decode on `count` threads, at least
  /// ``minimumRowsPerPart`` rows each: one part for a short table.
  static func parts(of rows: Range<Int>, count threads: Int) -> [Range<Int>] {
    let count = min(threads, max(rows.count / minimumRowsPerPart, 1))
    guard count > 1 else { return [rows] }
    return (0..<count).map { part in
      (rows.lowerBound + rows.count * part / count)..<(rows.lowerBound + rows.count * (part + 1)
        / count)
    }
  }

  /// Decodes some of the data rows of a table into snapshots' worth of entries, by chart and date.
  ///
  /// - Parameters:
  ///   - rows: every row of the table, the header's among them.
  ///   - range: the rows to decode (0-based indexes into `rows`).
  ///   - namedChart: the chart the file's name names, for formats that name it there.
  ///   - cells: what a row holds, for messages: `fields` in a CSV, `cells` in an HTML table.
  ///   - readLines: the 1-based line on which each row starts, asked for only when a problem
  ///     needs it.
  private func decodeRows(
    _ rows: [[String]], _ range: Range<Int>, layout: CSVLayout, namedChart: String?, path: String,
    cells: String, lines readLines: () -> [Int]
  ) -> RowsBySnapshot {
    var decoded = RowsBySnapshot()
    let fieldCount = rows[layout.headerRow].count
    // The line each row starts on, found only when a row needs it.
    var lines: [Int]?
    // The chart each chart address names, and each date as written in ISO 8601 (`nil`: none),
    // read once: the rows of one week share them.
    var chartsOfURLs: [String: String?] = [:]
    var isoDates: [String: String?] = [:]
    for offset in range {
      let row = rows[offset]
      let rowNumber = offset + 1
      // A row of more or fewer fields than the header: which field is which cannot be told.
      guard row.count == fieldCount else {
        if lines == nil { lines = readLines() }
        decoded.problems.append(
          ChartFileProblem(
            row: rowNumber, line: lines.flatMap { offset < $0.count ? $0[offset] : nil },
            message: "expected \(fieldCount) \(cells) as in the header, found \(row.count)"))
        continue
      }
      let entry = layout.entry(from: row, row: rowNumber)
      let (chartName, source, named) = snapshotChart(
        ofRow: row, layout: layout, namedChart: namedChart, path: path, addresses: &chartsOfURLs)
      var date = layout.value(.date, in: row)
      if layout.has(.date), date == nil {
        decoded.problems.append(
          ChartFileProblem(row: rowNumber, field: layout.name(of: .date), message: "missing"))
        continue
      }
      if let text = date, let written = layout.writtenDates {
        // The rows of one week share their date.
        let iso: String?
        if let known = isoDates[text] {
          iso = known
        } else {
          iso = written.read(text)
          isoDates[text] = iso
        }
        guard let iso else {
          decoded.problems.append(
            ChartFileProblem(
              row: rowNumber, field: layout.name(of: .date),
              message: "'\(escaped(text))' is not a valid date (\(written.shapes))"))
          continue
        }
        date = iso
      }
      // Rows of the charts the content names are apart, also where a required chart takes them
      // all: two charts' rank 1 are not one snapshot's rank given twice.
      decoded.add(
        entry, key: (named ?? chartName) + "\u{1F}" + (date ?? ""),
        snapshot: UncheckedSnapshot(
          chart: chartName, chartSource: source,
          date: date, dateField: layout.name(of: .date), dateFieldProblem: false,
          entries: [], listPresent: true, frequency: nil,
          publishesPreviousRank: layout.format == .nativeCSV ? nil : layout.has(.previousRank),
          firstRow: rowNumber),
        writtenDate: layout.value(.date, in: row) ?? "", contentChart: named)
    }
    return decoded
  }

  /// The chart a row of a table goes to: the chart given (``chart``), else the one its content
  /// names (its chart column, or its chart address), else the one the file's name names, else the
  /// folder's; a row's region after it (`top200-global`).
  ///
  /// - Parameters:
  ///   - namedChart: the chart the file's name names, for formats that name it there.
  ///   - addresses: the chart each chart address names, read once: the rows of one week share
  ///     their address.
  /// - Returns: the chart, where its name comes from, and the name the content gives (with the
  ///   region) when ``readsChartNamesInContent``.
  func snapshotChart(
    ofRow row: [String], layout: CSVLayout, namedChart: String?, path: String,
    addresses: inout [String: String?]
  ) -> (chart: String, source: UncheckedSnapshot.ChartSource, named: String?) {
    let region = layout.value(.region, in: row)
    // A chart's name given, the content's is read only when asked for.
    let readsContent = chart == nil || readsChartNamesInContent
    var contentChart = readsContent ? layout.value(.chart, in: row).map(layout.text) : nil
    if readsContent, contentChart == nil, let address = layout.value(.chartURL, in: row) {
      if let known = addresses[address] {
        contentChart = known
      } else {
        contentChart = chartName(inChartURL: address)
        addresses[address] = contentChart
      }
    }
    let fileChart = contentChart ?? namedChart
    let baseChart = chart ?? fileChart ?? folderName(path)
    let name = region.map { baseChart + "-" + slug($0) } ?? baseChart
    let named =
      readsChartNamesInContent
      ? contentChart.map { content in region.map { content + "-" + slug($0) } ?? content } : nil
    return (name, chart != nil ? .option : fileChart != nil ? .file : .folder, named)
  }

  /// The weeks of a file of one weekly chart's weeks that are split across two dates: two chart
  /// dates of one chart less than 7 days apart, each reported on the first row of the later one,
  /// in row order.
  ///
  /// - Parameters:
  ///   - snapshots: the file's snapshots, their dates in ISO 8601 (a date that is not
  ///     valid is left out: it is reported when the snapshot is built).
  ///   - writtenDates: each snapshot's date as the file writes it.
  ///   - field: the date column's name.
  private func splitWeeks(_ snapshots: [UncheckedSnapshot], writtenDates: [String], field: String)
    -> [ChartFileProblem]
  {
    var dated: [(index: Int, date: ChartDate)] = []
    for index in snapshots.indices {
      guard let text = snapshots[index].date, let date = try? ChartDate(iso8601: text) else {
        continue
      }
      dated.append((index, date))
    }
    dated.sort { ($0.date, $0.index) < ($1.date, $1.index) }
    var problems: [ChartFileProblem] = []
    for (earlier, later) in zip(dated, dated.dropFirst())
    where snapshots[earlier.index].chart == snapshots[later.index].chart {
      let days = Int((later.date.secondsSince1970 - earlier.date.secondsSince1970) / 86_400)
      guard days < 7 else { continue }
      problems.append(
        ChartFileProblem(
          row: snapshots[later.index].firstRow, field: field,
          message: Self.splitWeekMessage(
            later: writtenDates[later.index], earlier: writtenDates[earlier.index], days: days,
            earlierRow: snapshots[earlier.index].firstRow ?? 0)))
    }
    return problems.sorted { ($0.row ?? 0) < ($1.row ?? 0) }
  }

  /// `'1/5/2020' is 1 day after '1/4/2020' (row 2): the weeks of a weekly chart are 7 days apart
  /// (one week split across two dates?)`, the dates as the file writes them.
  static func splitWeekMessage(later: String, earlier: String, days: Int, earlierRow: Int)
    -> String
  {
    "'\(escaped(later))' is \(days) day\(days == 1 ? "" : "s") after '\(escaped(earlier))' (row"
      + " \(earlierRow)): the weeks of a weekly chart are 7 days apart (one week split across two"
      + " dates?)"
  }

  // MARK: - Building snapshots

  /// Checks every snapshot of a decoded file (its chart's name, its chart date, the frequency
  /// it gives, its entries) and makes the file's snapshots, their entries in rank order, when
  /// none has a problem.
  ///
  /// - Parameter earlierFrequency: the frequency as of the snapshot before the file's first, for
  ///   some snapshots of an export read as it streams by.
  /// - Throws: ``ChartFileError`` listing the first ``maximumProblemsReported`` problems of every
  ///   snapshot (every problem, when ``keepsEveryProblem``).
  func build(
    _ file: UncheckedChartFile, path: String, earlierFrequency: ChartFrequency? = nil
  ) throws(ChartFileError) -> DecodedChartFile {
    let format = file.format
    var problems = file.problems
    var snapshots: [Snapshot] = []
    var pages: [ChartPage?] = []
    var namedInContent: [[String]] = []
    var frequency = earlierFrequency
    // The first only: a file of many snapshots given one date would repeat it for each.
    var dateDisagreements: [ChartDateDisagreement] = []
    var localTimeReadAsUTC = false
    for unchecked in file.snapshots {
      var snapshotProblems: [ChartFileProblem] = []
      if let problem = chartNameProblem(of: unchecked, format: format) {
        snapshotProblems.append(problem)
      }
      let date = chartDate(
        of: unchecked, format: format, path: path, problems: &snapshotProblems,
        disagreements: &dateDisagreements)
      // A date and time taken from the name, where no zone can be written.
      if timeZone == nil, unchecked.date == nil, chartDate == nil, date?.hasTime == true {
        localTimeReadAsUTC = true
      }
      frequency = self.frequency(
        of: unchecked, format: format, earlier: frequency, problems: &snapshotProblems)
      let checked = checkEntries(
        unchecked.entries, format: format, keys: file.keys,
        publishesPreviousRank: unchecked.publishesPreviousRank)
      snapshotProblems += checked.problems
      if unchecked.entries.isEmpty, unchecked.listPresent, !format.publishesEmptyCharts {
        snapshotProblems.append(
          ChartFileProblem(
            message: format.kind == .csv
              ? "the file has a header but no rows"
              : format.kind == .html
                ? "the table has a header but no rows" : "the chart has no entries"))
      }
      problems += snapshotProblems.map { $0.inSnapshot(unchecked.number) }
      guard snapshotProblems.isEmpty, let date else { continue }
      snapshots.append(
        Snapshot(
          chart: unchecked.chart, chartDate: date,
          publishesPreviousRank: checked.publishesPreviousRank,
          entries: Self.inRankOrder(checked.entries)))
      pages.append(unchecked.page)
      namedInContent.append(unchecked.contentCharts)
    }
    guard problems.isEmpty else {
      throw ChartFileError(
        path: path, problems: keepsEveryProblem ? problems : Self.firstProblems(problems))
    }
    if format.holdsWeeksOfOneChart {
      // Rows in any order, or newest first: the weeks are stored oldest first, as a folder's
      // files are, so that each is decided after the one before it.
      let order = snapshots.indices.sorted {
        (snapshots[$0].chartDate, $0) < (snapshots[$1].chartDate, $1)
      }
      snapshots = order.map { snapshots[$0] }
      pages = order.map { pages[$0] }
      namedInContent = order.map { namedInContent[$0] }
    }
    var decoded = DecodedChartFile(
      path: path, format: format, snapshots: snapshots, frequency: frequency,
      chartNamedAfterFolder: file.snapshots.contains { $0.chartSource == .folder },
      chartsNamedInContent: readsChartNamesInContent ? namedInContent : [],
      dateDisagreements: dateDisagreements,
      pages: pages.contains { $0 != nil } ? pages : [], decisions: file.decisions)
    decoded.dateIsLocalTimeReadAsUTC = localTimeReadAsUTC
    return decoded
  }

  /// What is wrong with a snapshot's chart name, said of where the name comes from; `nil` when
  /// it is a valid one (see ``Snapshot/isValidChartName(_:)``).
  private func chartNameProblem(of unchecked: UncheckedSnapshot, format: ChartFormat)
    -> ChartFileProblem?
  {
    guard !Snapshot.isValidChartName(unchecked.chart) else { return nil }
    let source =
      switch unchecked.chartSource {
      case .option: "the chart name given"
      case .file: "the file's"
      case .folder: "the folder's name"
      }
    return ChartFileProblem(
      row: unchecked.firstRow,
      field: unchecked.chartSource == .file && !format.isTable ? "chart" : nil,
      message:
        "\(source) '\(escaped(unchecked.chart))' is not a valid chart name"
        + " (\(Snapshot.validChartNameRule))",
      remedy: unchecked.chartSource == .folder ? .nameTheChart : nil)
  }

  /// A snapshot's chart date: the file's own, else the one given (``chartDate``, `--date`), else
  /// the one in the file's name; `nil` with a problem when there is none or it is not valid.
  ///
  /// - Parameters:
  ///   - problems: the snapshot's problems, to which the date's are added.
  ///   - disagreements: the file's disagreements between the date given and the file's, to which
  ///     this snapshot's is added when there is none yet (a file of many snapshots given one date
  ///     would repeat it for each).
  private func chartDate(
    of unchecked: UncheckedSnapshot, format: ChartFormat, path: String,
    problems: inout [ChartFileProblem], disagreements: inout [ChartDateDisagreement]
  ) -> ChartDate? {
    if let text = unchecked.date {
      do {
        let date = try ChartDate(iso8601: text, timeZone: timeZone)
        if let chartDate, date != chartDate, disagreements.isEmpty {
          disagreements.append(
            ChartDateDisagreement(given: chartDate, file: date, fileDateIsUsed: true))
        }
        return date
      } catch {
        switch error {
        case .noTimeZone:
          problems.append(
            ChartFileProblem(
              row: unchecked.firstRow, field: unchecked.dateField,
              message: "'\(escaped(text))' is a date and time without a time zone",
              remedy: .giveTimeZone))
        default:
          problems.append(
            ChartFileProblem(
              row: unchecked.firstRow, field: unchecked.dateField,
              message: escaped(error.description)))
        }
        return nil
      }
    }
    guard !unchecked.dateFieldProblem else { return nil }
    let fileName = URL(fileURLWithPath: path).lastPathComponent
    let named = ChartDate.inFileName(fileName, timeZone: timeZone)
    var date = chartDate ?? named
    // A date taken from the name is taken only from a name that gives one unmistakably.
    let nameProblem =
      chartDate == nil ? ChartDate.problem(inFileName: fileName, timeZone: timeZone) : nil
    if let nameProblem {
      date = nil
      problems.append(ChartFileProblem(message: nameProblem, remedy: .dateTheChart))
    }
    if let chartDate, let named, named != chartDate, disagreements.isEmpty {
      disagreements.append(
        ChartDateDisagreement(given: chartDate, file: named, fileDateIsUsed: false))
    }
    if date == nil, nameProblem == nil {
      // Formats without a date field: the date is the file name's, or the one given.
      let bare = format == .appFeed || format == .appleMusicCharts || format.isTable
      problems.append(
        ChartFileProblem(
          field: bare ? nil : unchecked.dateField,
          message: "no chart date" + (bare ? "" : " in the file"), remedy: .dateTheChart))
    }
    return date
  }

  /// How often the chart is published, as of a snapshot: the frequency it gives (a problem when
  /// it is not a ``ChartFrequency``), else the one an earlier snapshot of the file gave, else the
  /// format's, else the one the last word of the chart's name says.
  ///
  /// - Parameters:
  ///   - earlier: the frequency as of the file's snapshot before this one.
  ///   - problems: the snapshot's problems, to which a frequency not known is added.
  private func frequency(
    of unchecked: UncheckedSnapshot, format: ChartFormat, earlier: ChartFrequency?,
    problems: inout [ChartFileProblem]
  ) -> ChartFrequency? {
    var frequency = earlier
    if let text = unchecked.frequency {
      frequency = ChartFrequency(rawValue: text)
      if frequency == nil {
        problems.append(
          ChartFileProblem(
            field: "frequency",
            message: "expected one of "
              + ChartFrequency.allCases.map(\.rawValue).joined(separator: ", ")
              + ", found '\(escaped(text))'"))
      }
    }
    // A format that holds weekly charts only says more than the last word of a name.
    return frequency ?? format.impliedFrequency
      ?? ChartFrequency.guessed(fromChartName: unchecked.chart)
  }

  /// The most problems reported for one file; the rest are counted.
  public static let maximumProblemsReported = 100

  /// The first ``maximumProblemsReported`` problems, and how many more there are.
  static func firstProblems(_ problems: [ChartFileProblem]) -> [ChartFileProblem] {
    guard problems.count > maximumProblemsReported else { return problems }
    return problems.prefix(maximumProblemsReported)
      + [
        ChartFileProblem(
          message: "… and \(problems.count - maximumProblemsReported) more problems in this file")
      ]
  }

  /// A snapshot's entries checked: the chart entries made of the valid ones, and what was found.
  private struct CheckedEntries {
    /// The valid entries, in the file's order.
    var entries: [ChartEntry] = []
    /// Every entry's problems, each with its entry (or row) and rank.
    var problems: [ChartFileProblem] = []
    /// Whether the snapshot's source publishes previous ranks: the format does, or its entries
    /// have the field, even when null (but for a format whose null is "not available",
    /// ``ChartFormat/nullPreviousRankIsUnknown``, where an entry must give a number).
    var publishesPreviousRank: Bool
  }

  /// `entries` ordered by rank, those at one rank (a tie) in the file's order: as they are when
  /// the file lists them so, which most do, without copying each entry into a new array.
  static func inRankOrder(_ entries: [ChartEntry]) -> [ChartEntry] {
    if entries.indices.dropFirst().allSatisfy({ entries[$0 - 1].rank <= entries[$0].rank }) {
      return entries
    }
    let order = entries.indices.sorted { (entries[$0].rank, $0) < (entries[$1].rank, $1) }
    return order.map { entries[$0] }
  }

  /// Checks a snapshot's entries and makes chart entries of the valid ones: each entry's rank
  /// (see ``RanksSeen``), title and artist (``checkText(_:field:problems:)``), URLs and published
  /// figures.
  private func checkEntries(
    _ entries: [RawEntry], format: ChartFormat, keys: EntryKeys, publishesPreviousRank: Bool?
  ) -> CheckedEntries {
    var checked = CheckedEntries(publishesPreviousRank: publishesPreviousRank ?? false)
    checked.entries.reserveCapacity(entries.count)
    var ranks = RanksSeen(entryCount: entries.count)
    for (offset, raw) in entries.enumerated() {
      let index = raw.row ?? offset + 1
      let rank = format == .appFeed ? offset + 1 : raw.rank
      guard raw.isObject else {
        checked.problems.append(ChartFileProblem(entry: index, message: "expected a JSON object"))
        continue
      }
      var entryProblems = raw.problems
      if let rank {
        if let message = ranks.problem(
          with: rank, at: index, noun: raw.row == nil ? "entry" : "row",
          tied: allowsTies || raw.tied)
        {
          entryProblems.append(ChartFileProblem(field: keys.rank, message: message))
        }
      } else if !entryProblems.contains(where: { $0.field == keys.rank }) {
        entryProblems.append(ChartFileProblem(field: keys.rank, message: "missing"))
      }
      if raw.tied, let rank { ranks.tiedRanks.insert(rank) }
      checkText(raw.title, field: keys.title, problems: &entryProblems)
      checkText(raw.artist, field: keys.artist, problems: &entryProblems)
      Self.checkURL(raw.imageURL, field: keys.imageURL, problems: &entryProblems)
      Self.checkURL(raw.songURL, field: keys.songURL, problems: &entryProblems)
      var previousRank = raw.previousRank
      if format.zeroPreviousRankMeansNone, previousRank == 0 { previousRank = nil }
      Self.checkFigures(of: raw, previousRank: previousRank, keys: keys, problems: &entryProblems)
      if raw.hasPreviousRank, raw.previousRank != nil || !format.nullPreviousRankIsUnknown {
        checked.publishesPreviousRank = true
      }
      if entryProblems.isEmpty, let rank, let title = raw.title, let artist = raw.artist {
        checked.entries.append(
          ChartEntry(
            rank: rank, title: title, artist: artist, publishedPreviousRank: previousRank,
            publishedPeakPosition: raw.peakPosition, publishedWeeksOnChart: raw.weeksOnChart,
            imageURL: raw.imageURL, songURL: raw.songURL, streams: raw.streams,
            publishedRun: raw.run, publishedTrend: raw.trend, isrc: raw.isrc))
      }
      for var problem in entryProblems {
        if raw.row != nil { problem.row = index } else { problem.entry = index }
        problem.rank = rank
        checked.problems.append(problem)
      }
    }
    return checked
  }

  /// The ranks of a snapshot's entries seen so far, to tell a rank given twice: ranks are
  /// unique, but where the source marks a tie or ties are allowed for the whole import.
  private struct RanksSeen {
    /// The first entry at each rank: ranks up to the number of entries (a whole chart's) by
    /// index, any other in a dictionary, which costs a hash per entry.
    private var firstEntryAtRank: [Int?]
    private var firstEntryAtOtherRank: [Int: Int] = [:]
    /// The ranks of entries marked tied.
    var tiedRanks: Set<Int> = []

    init(entryCount: Int) { firstEntryAtRank = [Int?](repeating: nil, count: entryCount + 1) }

    /// What is wrong with an entry's rank, `nil` when nothing is; the rank is then seen.
    ///
    /// - Parameters:
    ///   - index: the entry's 1-based index (or row) in the file.
    ///   - noun: what the file holds entries as, for messages: `entry` or `row`.
    ///   - tied: whether the entry may share its rank (marked tied, or ties are allowed).
    mutating func problem(with rank: Int, at index: Int, noun: String, tied: Bool) -> String? {
      if rank < 1 { return "rank must be 1 or more, found \(rank)" }
      if rank > ChartFileReader.maximumRank {
        return "rank \(rank) is larger than \(ChartFileReader.maximumRank)"
      }
      if let first = rank < firstEntryAtRank.count
        ? firstEntryAtRank[rank] : firstEntryAtOtherRank[rank]
      {
        // A tie: marked by the source on either entry, or allowed for the whole import.
        return tied || tiedRanks.contains(rank)
          ? nil : "rank \(rank) is also the rank of \(noun) \(first)"
      }
      if rank < firstEntryAtRank.count {
        firstEntryAtRank[rank] = index
      } else {
        firstEntryAtOtherRank[rank] = index
      }
      return nil
    }
  }

  /// Checks an entry's image or song URL, when given: at most ``maximumURLLength`` bytes,
  /// without NUL.
  private static func checkURL(_ url: String?, field: String?, problems: inout [ChartFileProblem]) {
    guard let url else { return }
    if url.utf8.count > maximumURLLength {
      problems.append(
        ChartFileProblem(
          field: field,
          message:
            "\(url.utf8.count) bytes long; at most \(maximumURLLength) are accepted in a URL"))
    } else if url.utf8.contains(0) {
      problems.append(ChartFileProblem(field: field, message: "contains a NUL character"))
    }
  }

  /// Checks an entry's published figures, when given: previous rank and peak position are ranks
  /// (1 through ``maximumRank``), weeks on chart and run number 1 through ``maximumCount``,
  /// streams 0 or more.
  ///
  /// - Parameter previousRank: the entry's previous rank, `nil` where the format's 0 means none.
  private static func checkFigures(
    of raw: RawEntry, previousRank: Int?, keys: EntryKeys, problems: inout [ChartFileProblem]
  ) {
    func report(_ field: String?, _ message: String) {
      problems.append(ChartFileProblem(field: field, message: message))
    }
    if let value = previousRank, value < 1 {
      report(keys.previousRank, "must be 1 or more (or \(keys.previousRankNone)), found \(value)")
    } else if let value = previousRank, value > maximumRank {
      report(keys.previousRank, "must be at most \(maximumRank) (a rank), found \(value)")
    }
    if let value = raw.peakPosition, value < 1 {
      report(keys.peakPosition, "must be 1 or more, found \(value)")
    } else if let value = raw.peakPosition, value > maximumRank {
      report(keys.peakPosition, "must be at most \(maximumRank) (a rank), found \(value)")
    }
    if let value = raw.weeksOnChart, value < 1 {
      report(keys.weeksOnChart, "must be 1 or more, found \(value)")
    } else if let value = raw.weeksOnChart, value > maximumCount {
      report(keys.weeksOnChart, "must be at most \(maximumCount), found \(value)")
    }
    if let value = raw.streams, value < 0 {
      report(keys.streams, "must be 0 or more, found \(value)")
    }
    if let value = raw.run, value < 1 {
      report(keys.run, "must be 1 or more, found \(value)")
    } else if let value = raw.run, value > maximumCount {
      report(keys.run, "must be at most \(maximumCount), found \(value)")
    }
  }

  /// The rows of a file's first two lines, split at commas, to recognize a CSV header before the
  /// text is read as CSV, or in a file that is not all valid CSV.
  static func firstLines(of data: Data) -> [[String]] {
    data.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false).prefix(2).map {
      String(decoding: $0, as: UTF8.self).split(separator: ",").map {
        String($0).trimmingCharacters(in: CharacterSet(charactersIn: "\"\r "))
      }
    }
  }

  private func folderName(_ path: String) -> String {
    URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent
  }

  /// Checks a title or an artist: present, not blank, not too long, and without control
  /// characters.
  ///
  /// Blank is empty, or only characters that show nothing: Unicode's White_Space (spaces, tabs,
  /// line breaks) and Default_Ignorable_Code_Point (zero-width space U+200B, zero-width joiners
  /// U+200C and U+200D, word joiner U+2060, byte order mark U+FEFF, soft hyphen U+00AD, bidi
  /// marks, variation selectors…). Control characters are C0 (U+0000 to U+001F) but tab and line
  /// breaks (LF, or CR before LF), DEL (U+007F) and C1 (U+0080 to U+009F).
  private func checkText(_ text: String?, field: String, problems: inout [ChartFileProblem]) {
    guard var text else {
      if !problems.contains(where: { $0.field == field }) {
        problems.append(ChartFileProblem(field: field, message: "missing"))
      }
      return
    }
    // Checked on UTF-8 bytes first: a printable ASCII byte makes the text not blank, a text of
    // fewer bytes than the limit has fewer scalars too, and a text may hold a control character
    // only when it has a byte below 0x20 but tab and LF, 0x7F, or 0xC2 (the lead byte of U+0080 to
    // U+00BF, C1 among them); the scalars of such a text are looked at again (a CR may be the
    // start of a CRLF).
    let (hasPrintableASCII, mayHaveControl) = text.withUTF8 { bytes in
      (
        bytes.contains { $0 &- 0x21 < 0x5E },
        bytes.contains { $0 < 0x20 ? $0 != 0x09 && $0 != 0x0A : $0 == 0x7F || $0 == 0xC2 }
      )
    }
    if !hasPrintableASCII,
      text.allSatisfy({ $0.isWhitespace || $0.unicodeScalars.allSatisfy(Self.showsNothing) })
    {
      problems.append(ChartFileProblem(field: field, message: "blank"))
    } else if text.utf8.count > Self.maximumTextLength,
      text.unicodeScalars.count > Self.maximumTextLength
    {
      problems.append(
        ChartFileProblem(
          field: field,
          message: "\(text.unicodeScalars.count) characters long; at most"
            + " \(Self.maximumTextLength) are accepted"))
    } else if mayHaveControl, let control = Self.firstRefusedControl(in: text) {
      problems.append(
        ChartFileProblem(
          field: field,
          message: control == "\0"
            ? "contains a NUL character" : "contains a control character \(codePoint(control))"))
    }
  }

  /// Whether a scalar shows nothing: White_Space or Default_Ignorable_Code_Point.
  private static func showsNothing(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
  }

  /// The first control character of a text that a title or an artist may not hold: C0 but tab,
  /// LF and a CR before LF; DEL; C1. `nil` when there is none.
  private static func firstRefusedControl(in text: String) -> Unicode.Scalar? {
    var afterCR = false
    for scalar in text.unicodeScalars {
      if afterCR, scalar != "\n" { return "\r" }
      afterCR = scalar == "\r"
      switch scalar.value {
      case 0x09, 0x0A, 0x0D: break
      case 0x00...0x1F, 0x7F...0x9F: return scalar
      default: break
      }
    }
    return afterCR ? "\r" : nil
  }
}

/// Whether a byte is white space before a JSON text, or a byte of a UTF-8 byte order mark.
func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    // A UTF-8 byte order mark before the JSON text.
    || byte == 0xEF || byte == 0xBB || byte == 0xBF
}
