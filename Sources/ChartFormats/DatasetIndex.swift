import ChartRanking
import Foundation
import Glibc

/// The records of a CSV file of many snapshots, found by a pass over its bytes that reads only
/// what names each record's snapshot (its chart date, and the chart's name, address or region
/// where the format has them), gathered by snapshot: the Hot 100 datasets (every week of one
/// chart, rows in any order), a charts CSV of many charts and days, an export's CSV.
///
/// A record starts after a line end that is not itself a line end and ends at the next line end
/// outside quotes (LF, CRLF or a lone CR), as libcsv's records do (see
/// ``CSVTable/recordLines(in:)``); a quote opens or closes a quoted field. Consecutive records of
/// one snapshot are kept as one run of bytes, so that a file whose rows are grouped by snapshot
/// (as datasets are, but for "Hot Stuff") costs a run per snapshot; each snapshot's runs are
/// read again, as a CSV text of their own under the file's header, when it is read.
///
/// What the index holds is bounded: at most ``maximumRuns`` runs (16 bytes each) and
/// ``maximumSnapshots`` snapshots (about 90 bytes each), each of at most
/// ``ChartFileReader/maximumSnapshotSize`` bytes; a line longer than
/// ``ChartFileReader/maximumLineLength`` or a field longer than
/// ``ChartFileReader/maximumFieldLength`` is refused as soon as it is met. The pages of a file
/// larger than ``pagesKept`` are let go of behind the pass (``FileBytes/letGo(_:)``).
struct DatasetIndex: Sendable {
  /// Consecutive records of one snapshot: `length` bytes from `start` (the first record's first
  /// byte) to the last record's last, and the next run of the snapshot (`UInt32.max`: none).
  struct Run {
    var start: Int
    var length: UInt32
    var next: UInt32
  }

  /// One snapshot's records: its first and last runs, their bytes, its chart (an index into
  /// ``charts``) and chart date, and where its first record starts.
  struct Snapshot {
    var firstRun: UInt32
    var lastRun: UInt32
    var bytes: Int32
    var chart: Int32
    var secondsSince1970: Int64
    var firstRecord: Int
  }

  /// The most runs kept (1,048,576): a file whose rows change snapshot more often (rows in no
  /// order, over a million of them) is refused, with the remedy of sorting it. A run is 16 bytes
  /// here, but reading a file of runs in no order costs about 160 bytes a run in all (600,000
  /// rows in no order peaked at 154 MB, grouped by week at 60 MB), so that a file at this bound
  /// stays near 230 MB; 4,100,000 rows in no order took 553 MB.
  static let maximumRuns = 1 << 20
  /// The most snapshots kept (524,288): Kaggle's Spotify charts, every day of 5 years of 70
  /// regions' two charts, hold about 260,000.
  static let maximumSnapshots = 1 << 19
  /// The size above which a file's pages are let go of as it is read: a smaller file stays
  /// mapped whole.
  static let pagesKept = 64 << 20

  /// The file.
  let bytes: FileBytes
  /// Where the text starts: after a UTF-8 byte order mark.
  let textStart: Int
  /// The header record (offsets in the file, as every offset here).
  let header: Range<Int>
  let runs: [Run]
  let snapshots: [Snapshot]
  /// Each chart's name, by the index the snapshots keep.
  let charts: [String]
  /// The snapshots in the order they are handed over: oldest first for a file of one weekly
  /// chart's weeks (as a folder of weekly files is stored), else in file order of their first
  /// records; snapshots whose records say no readable date, if any, first.
  let order: [Int]
  /// The first record after the header.
  let firstRecord: Range<Int>
  /// The weeks of one chart less than 7 days apart, as (earlier, later) snapshots in date order
  /// (one week split across two dates), in a file of one weekly chart's weeks read in parts
  /// whatever it holds (see ``init(_:reader:path:large:)``).
  let splitWeeks: [(earlier: Int, later: Int)]
  /// The date column's name, for messages.
  let dateField: String
  /// The columns read from each record (see ``IndexPass``).
  let columns: [Int]
  /// The date column's place among ``columns``.
  let dateColumn: Int

  /// Indexes a CSV file of many snapshots.
  ///
  /// - Parameters:
  ///   - large: whether the file is larger than a file read whole may be, so that it must be
  ///     read in parts whatever it holds: records whose snapshot cannot be told (a date missing
  ///     or not valid) are then gathered as a snapshot of their own, whose reading tells what is
  ///     wrong, and a week split across two dates is one of ``problems``. Otherwise only a file
  ///     of every week of one weekly chart is indexed (the datasets), and any such doubt leaves
  ///     it to be read whole.
  /// - Returns: `nil` when the file is not a CSV of many snapshots (no date column, a header
  ///   after a note line), or, not `large`, cannot be read in parts with certainty.
  /// - Throws: ``ChartFileError`` for a line, a field or a snapshot beyond its bound, or more
  ///   runs or snapshots than are kept.
  init?(_ bytes: FileBytes, reader: ChartFileReader, path: String, large: Bool)
    throws(ChartFileError)
  {
    let data = bytes.data
    let textStart = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    guard let layout = try Self.layout(of: data, from: textStart, reader: reader, path: path),
      layout.headerRow == 0, layout.has(.date),
      large || (layout.format.holdsWeeksOfOneChart && reader.chartDate == nil)
    else { return nil }
    var pass = IndexPass(
      bytes: bytes, textStart: textStart, layout: layout, reader: reader, path: path,
      large: large)
    guard try pass.run() else { return nil }
    guard let header = pass.header, let firstRecord = pass.firstRecord else { return nil }
    self.bytes = bytes
    self.textStart = textStart
    self.header = header
    self.firstRecord = firstRecord
    runs = pass.runs
    snapshots = pass.snapshots
    charts = pass.chartNames
    let ordered = Self.order(pass.snapshots, byDate: layout.format.holdsWeeksOfOneChart)
    let split = layout.format.holdsWeeksOfOneChart ? Self.splitWeeks(pass.snapshots, ordered) : []
    // A week split across two dates: a file read whole tells it.
    guard split.isEmpty || large else { return nil }
    order = pass.unreadable.map { [$0] + ordered.filter { $0 != pass.unreadable } } ?? ordered
    splitWeeks = split
    dateField = layout.name(of: .date)
    columns = pass.columns
    dateColumn = pass.columns.firstIndex(of: layout.columns[.date]!)!
    if large { bytes.willRead(inOrder: false) }
  }

  /// The layout of the file's header, found in its first two lines (each at most
  /// ``ChartFileReader/maximumLineLength``), or `nil` when they are no known header.
  ///
  /// - Throws: ``ChartFileError`` for a first or second line longer than the bound.
  private static func layout(
    of data: Data, from textStart: Int, reader: ChartFileReader, path: String
  ) throws(ChartFileError) -> CSVLayout? {
    let prefix = data.dropFirst(textStart).prefix(2 * ChartFileReader.maximumLineLength + 4)
    guard let first = prefix.first,
      first != UInt8(ascii: "{"), first != UInt8(ascii: "["), first != UInt8(ascii: "<")
    else { return nil }
    var meter = LineMeter()
    let long = prefix.withUnsafeBytes { meter.scan($0) }
    // Only the first two lines are read here.
    if let long, long <= 2 {
      throw ChartFileError(path: path, problems: [.lineTooLong(line: long)])
    }
    let forced = reader.format.flatMap { $0.kind == .csv ? $0 : nil }
    guard reader.format == nil || forced != nil else { return nil }
    return CSVLayout.detect(ChartFileReader.firstLines(of: prefix), forced: forced)
  }

  /// The snapshots' indexes in the order they are handed over: by chart date (then file order)
  /// or in file order.
  private static func order(_ snapshots: [Snapshot], byDate: Bool) -> [Int] {
    guard byDate else { return Array(snapshots.indices) }
    return snapshots.indices.sorted {
      (snapshots[$0].secondsSince1970, $0) < (snapshots[$1].secondsSince1970, $1)
    }
  }

  /// The weeks of one chart less than 7 days apart, as (earlier, later) snapshots, in date order:
  /// one week split across two dates (see ``ChartFormat/holdsWeeksOfOneChart``).
  private static func splitWeeks(_ snapshots: [Snapshot], _ order: [Int])
    -> [(earlier: Int, later: Int)]
  {
    zip(order, order.dropFirst()).filter { earlier, later in
      snapshots[earlier].chart == snapshots[later].chart
        && snapshots[later].secondsSince1970 - snapshots[earlier].secondsSince1970 < 7 * 86_400
    }
  }

  /// Each run of a snapshot, in file order.
  func runs(of snapshot: Int) -> [Run] {
    var list: [Run] = []
    var next = snapshots[snapshot].firstRun
    while next != UInt32.max {
      list.append(runs[Int(next)])
      next = runs[Int(next)].next
    }
    return list
  }
}

/// The pass over a file's bytes that builds a ``DatasetIndex``.
struct IndexPass {
  let bytes: FileBytes
  let textStart: Int
  let layout: CSVLayout
  let reader: ChartFileReader
  let path: String
  let large: Bool
  /// The columns read (0-based), in order: the date's, and the chart's, its address's and its
  /// region's where the format has them and the chart's name is read.
  let columns: [Int]

  var header: Range<Int>?
  var firstRecord: Range<Int>?
  var runs: [DatasetIndex.Run] = []
  var snapshots: [DatasetIndex.Snapshot] = []
  var chartNames: [String] = []
  /// The snapshot of records whose snapshot cannot be told, when there are such records.
  var unreadable: Int?
  /// Each snapshot by its chart and its date as decoding writes it (ISO 8601).
  private var snapshotOfKey: [SnapshotKey: Int] = [:]
  private var chartOfName: [String: Int32] = [:]
  /// Each snapshot by the bytes of the fields read, as written: the rows of one snapshot write
  /// them alike. Forgotten when it grows past 65,536 (it only spares work).
  private var snapshotOfFields: [[UInt8]: Int] = [:]
  private var addresses: [String: String?] = [:]
  /// The fields of the last record and its snapshot: consecutive records share them.
  private var lastFields: [UInt8] = []
  private var lastSnapshot = -1

  struct SnapshotKey: Hashable {
    var chart: Int32
    var date: String
  }

  init(
    bytes: FileBytes, textStart: Int, layout: CSVLayout, reader: ChartFileReader, path: String,
    large: Bool
  ) {
    self.bytes = bytes
    self.textStart = textStart
    self.layout = layout
    self.reader = reader
    self.path = path
    self.large = large
    let readsChart = reader.chart == nil || reader.readsChartNamesInContent
    let fields: [CSVLayout.Field] =
      readsChart ? [.date, .region, .chart, .chartURL] : [.date, .region]
    columns = fields.compactMap { layout.columns[$0] }.sorted()
  }

  /// Reads every record. Returns `false` when the file cannot be read in parts with certainty
  /// (and is not large).
  mutating func run() throws(ChartFileError) -> Bool {
    let data = bytes.data
    if large { bytes.willRead(inOrder: true) }
    let outcome = data.withUnsafeBytes { file in
      Result { () throws(ChartFileError) -> Bool in try read(file) }
    }
    if large, data.count > DatasetIndex.pagesKept { bytes.letGo(0..<data.count) }
    return try outcome.get()
  }

  /// ``run()`` on the file's bytes.
  private mutating func read(_ file: UnsafeRawBufferPointer) throws(ChartFileError) -> Bool {
    var index = textStart
    var letGoUpTo = 0
    while index < file.count {
      // Line ends between records, blank lines among them.
      if file[index] == 0x0A || file[index] == 0x0D {
        index += 1
        continue
      }
      let end = try recordEnd(in: file, from: index)
      let record = index..<end
      index = end
      guard header != nil else {
        header = record
        continue
      }
      if firstRecord == nil { firstRecord = record }
      guard try add(record, in: file) else { return false }
      if large, index - letGoUpTo > 16 << 20, file.count > DatasetIndex.pagesKept {
        bytes.letGo(letGoUpTo..<record.lowerBound)
        letGoUpTo = record.lowerBound
      }
    }
    return true
  }

  /// Adds a record to its snapshot's runs. Returns `false` when its snapshot cannot be told and
  /// the file is not large.
  private mutating func add(_ record: Range<Int>, in file: UnsafeRawBufferPointer)
    throws(ChartFileError) -> Bool
  {
    let fields = Self.fields(columns, of: record, in: file)
    let snapshot: Int
    if let fields, fields == lastFields, lastSnapshot >= 0 {
      snapshot = lastSnapshot
    } else if let fields, let known = snapshotOfFields[fields] {
      snapshot = known
    } else if let found = try self.snapshot(of: record, in: file) {
      snapshot = found
      if let fields {
        if snapshotOfFields.count >= 1 << 16 { snapshotOfFields = [:] }
        snapshotOfFields[fields] = found
      }
    } else {
      guard large else { return false }
      if unreadable == nil { unreadable = try newSnapshot(chart: -1, seconds: .min, at: record) }
      snapshot = unreadable!
    }
    try append(record, to: snapshot)
    lastFields = fields ?? []
    lastSnapshot = fields == nil ? -1 : snapshot
    return true
  }

  /// The snapshot of a record whose fields were not seen yet: found by its chart and date as
  /// decoding the row names them (``ChartFileReader/snapshotChart(ofRow:layout:namedChart:path:addresses:)``),
  /// or new. `nil` when the record's date cannot be read: missing, quoted around a quote, not
  /// UTF-8, not a valid date.
  private mutating func snapshot(of record: Range<Int>, in file: UnsafeRawBufferPointer)
    throws(ChartFileError) -> Int?
  {
    guard let texts = Self.texts(columns, of: record, in: file, quotedAllowed: large) else {
      return nil
    }
    var row = [String](repeating: "", count: (columns.last ?? 0) + 1)
    for (column, text) in zip(columns, texts) { row[column] = text }
    guard let written = layout.value(.date, in: row),
      let iso = layout.writtenDates.map({ $0.read(written) }) ?? written,
      let date = try? ChartDate(iso8601: iso, timeZone: reader.timeZone)
    else { return nil }
    let (name, _, _) = reader.snapshotChart(
      ofRow: row, layout: layout, namedChart: nil, path: path, addresses: &addresses)
    let chart: Int32
    if let known = chartOfName[name] {
      chart = known
    } else {
      chart = Int32(chartNames.count)
      chartOfName[name] = chart
      chartNames.append(name)
    }
    let key = SnapshotKey(chart: chart, date: iso)
    if let known = snapshotOfKey[key] { return known }
    let new = try newSnapshot(chart: chart, seconds: date.secondsSince1970, at: record)
    snapshotOfKey[key] = new
    return new
  }

  /// A new snapshot, without runs yet.
  private mutating func newSnapshot(chart: Int32, seconds: Int64, at record: Range<Int>)
    throws(ChartFileError) -> Int
  {
    guard snapshots.count < DatasetIndex.maximumSnapshots else {
      throw ChartFileError(
        path: path,
        problems: [
          ChartFileProblem(
            message: "more than \(DatasetIndex.maximumSnapshots) snapshots, the most a file of"
              + " many weeks is read with",
            bound: .snapshots(DatasetIndex.maximumSnapshots))
        ])
    }
    snapshots.append(
      DatasetIndex.Snapshot(
        firstRun: .max, lastRun: .max, bytes: 0, chart: chart, secondsSince1970: seconds,
        firstRecord: record.lowerBound))
    return snapshots.count - 1
  }

  /// Adds a record to a snapshot: to its last run when the record follows that run's last record
  /// after one line end, else as a run of its own.
  private mutating func append(_ record: Range<Int>, to snapshot: Int) throws(ChartFileError) {
    var entry = snapshots[snapshot]
    let last = Int(entry.lastRun)
    if entry.lastRun != .max, record.lowerBound - (runs[last].start + Int(runs[last].length)) <= 2 {
      runs[last].length = UInt32(record.upperBound - runs[last].start)
    } else {
      guard runs.count < DatasetIndex.maximumRuns else {
        throw ChartFileError(
          path: path,
          problems: [
            ChartFileProblem(
              message: "its rows change snapshot more than \(DatasetIndex.maximumRuns) times, the"
                + " most a file of many weeks is read with: sort its rows by chart and date",
              bound: .runs(DatasetIndex.maximumRuns))
          ])
      }
      runs.append(
        DatasetIndex.Run(start: record.lowerBound, length: UInt32(record.count), next: .max))
      let new = UInt32(runs.count - 1)
      if entry.lastRun == .max { entry.firstRun = new } else { runs[last].next = new }
      entry.lastRun = new
    }
    entry.bytes += Int32(record.count + 1)
    snapshots[snapshot] = entry
    if Int(entry.bytes) > ChartFileReader.maximumSnapshotSize {
      let bound = ChartFileReader.maximumSnapshotSize
      let key = snapshotOfKey.first { $0.value == snapshot }?.key
      let name = key.map { "\(chartNames[Int($0.chart)]) \($0.date)" } ?? "one snapshot"
      throw placed(
        ChartFileProblem(
          row: 0,
          message: "the rows of \(name) take more than \(ChartFileReader.words(forBytes: bound)),"
            + " the bound on one snapshot of a file of many",
          bound: .snapshot(bound)), at: record.lowerBound)
    }
  }

  /// Where the record that starts at `start` ends: at its first line end outside quotes, or at
  /// the end of the text. A record without quotes (most) is measured with `memchr`.
  ///
  /// - Throws: ``ChartFileError`` for a line longer than ``ChartFileReader/maximumLineLength``,
  ///   or a quoted field longer than ``ChartFileReader/maximumFieldLength``.
  private func recordEnd(in text: UnsafeRawBufferPointer, from start: Int) throws(ChartFileError)
    -> Int
  {
    let base = text.baseAddress!
    let limit = ChartFileReader.maximumLineLength
    /// The offset of the first `byte` in `start..<end`, if any.
    func find(_ byte: UInt8, before end: Int) -> Int? {
      memchr(base + start, Int32(byte), end - start).map { base.distance(to: $0) }
    }
    let window = min(text.count, start + limit + 1)
    guard
      let lineEnd = find(0x0A, before: window) ?? find(0x0D, before: window)
        ?? (window == text.count ? text.count : nil)
    else { throw placed(.lineTooLong(line: 0), at: start) }
    if find(UInt8(ascii: "\""), before: lineEnd) == nil {
      return find(0x0D, before: lineEnd) ?? lineEnd
    }
    var quoted = false
    var lineStart = start
    var fieldStart = start
    for index in start..<text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if byte == 0x0A || byte == 0x0D {
        if !quoted { return index }
        lineStart = index + 1
      } else if byte == UInt8(ascii: ","), !quoted {
        fieldStart = index + 1
      }
      if index - lineStart >= limit { throw placed(.lineTooLong(line: 0), at: lineStart) }
      if index - fieldStart >= ChartFileReader.maximumFieldLength {
        throw placed(.fieldTooLong("a field", row: 0), at: fieldStart)
      }
    }
    return text.count
  }

  /// A problem at a byte of the file, its line (and row, when it has one) found.
  private func placed(_ problem: ChartFileProblem, at offset: Int) -> ChartFileError {
    DatasetProblems.error(problem, at: offset, in: bytes, textStart: textStart, path: path)
  }

  /// The bytes of the fields at `columns` (sorted, 0-based) of a record, as written, each after a
  /// 0x1F; `nil` when the record has fewer fields.
  static func fields(_ columns: [Int], of record: Range<Int>, in text: UnsafeRawBufferPointer)
    -> [UInt8]?
  {
    guard let spans = spans(columns, of: record, in: text) else { return nil }
    var bytes: [UInt8] = []
    for span in spans {
      bytes.append(0x1F)
      bytes += text[span]
    }
    return bytes
  }

  /// The text of the fields at `columns` of a record, a quoted field without its quotes (and each
  /// doubled quote in it one); `nil` when the record has fewer fields, a field is not UTF-8, or
  /// is quoted when `quotedAllowed` is not.
  static func texts(
    _ columns: [Int], of record: Range<Int>, in text: UnsafeRawBufferPointer, quotedAllowed: Bool
  ) -> [String]? {
    guard let spans = spans(columns, of: record, in: text) else { return nil }
    var texts: [String] = []
    for span in spans {
      var bytes = Array(text[span])
      if bytes.contains(UInt8(ascii: "\"")) {
        guard quotedAllowed, bytes.count >= 2, bytes.first == UInt8(ascii: "\""),
          bytes.last == UInt8(ascii: "\"")
        else { return nil }
        var unquoted: [UInt8] = []
        var index = 1
        while index < bytes.count - 1 {
          unquoted.append(bytes[index])
          index += bytes[index] == UInt8(ascii: "\"") ? 2 : 1
        }
        bytes = unquoted
      }
      guard let field = String(validating: bytes, as: UTF8.self) else { return nil }
      texts.append(field)
    }
    return texts
  }

  /// The byte ranges of the fields at `columns` (sorted) of a record; `nil` when it has fewer.
  private static func spans(
    _ columns: [Int], of record: Range<Int>, in text: UnsafeRawBufferPointer
  ) -> [Range<Int>]? {
    var spans: [Range<Int>] = []
    spans.reserveCapacity(columns.count)
    var wanted = 0
    var field = 0
    var start = record.lowerBound
    var quoted = false
    var index = record.lowerBound
    while wanted < columns.count {
      let atEnd = index == record.upperBound
      let byte = atEnd ? 0 : text[index]
      if !atEnd, byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if atEnd || (byte == UInt8(ascii: ",") && !quoted) {
        if field == columns[wanted] {
          spans.append(start..<index)
          wanted += 1
        }
        if atEnd { break }
        field += 1
        start = index + 1
      }
      index += 1
    }
    return wanted == columns.count ? spans : nil
  }
}
