import ChartRanking
public import Foundation
import Glibc

extension ChartFileReader {
  /// Reads and checks one file, handing its snapshots over in parts, oldest first, as they are
  /// read: a dataset of many weeks of one chart (the Hot 100 datasets of data.world, TidyTuesday
  /// and Kaggle) is read a few weeks at a time, so that the weeks read first can be stored while
  /// the rest are read, and the file's rows need not all be in memory at once. Any other file is
  /// handed over whole, as ``read(contentsOf:)`` reads it.
  ///
  /// - Parameters:
  ///   - path: the file's path.
  ///   - weeksPerPart: how many snapshots a part holds, at most (the last may hold fewer).
  ///   - deliver: called with each part, in order, and the fraction of the file's chart dates
  ///     handed over with it (0 to 1; 1 with the last part); each part is a file of its own (the
  ///     same path, format and frequency) with some of the snapshots, oldest first. It returns
  ///     whether to go on: after `false` no other part is read (nor checked), and nothing is
  ///     thrown for the weeks not read.
  /// - Throws: ``ChartFileError``, as ``read(contentsOf:)`` throws it, also after some parts were
  ///   handed over (a problem in a later week): the parts handed over must then be dropped.
  public func read(
    contentsOf path: String, weeksPerPart: Int,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    try decode(Self.contents(of: path), path: path, weeksPerPart: weeksPerPart, deliver: deliver)
  }

  /// Decodes and checks a file's bytes, handing its snapshots over in parts (see
  /// ``read(contentsOf:weeksPerPart:deliver:)``).
  ///
  /// - Parameters:
  ///   - data: the file's bytes.
  ///   - path: the file's path or name, for messages and for the names in it.
  ///   - weeksPerPart: how many snapshots a part holds, at most.
  ///   - deliver: called with each part, in order, and the fraction of the file handed over; it
  ///     returns whether to go on.
  /// - Throws: ``ChartFileError``, as ``decode(_:path:)`` throws it.
  public func decode(
    _ data: Data, path: String, weeksPerPart: Int,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    guard let dataset = DatasetWeeks(data, reader: self), dataset.weeks.count > weeksPerPart
    else {
      _ = deliver(try decode(data, path: path), 1)
      return
    }
    let reader = {
      var reader = self
      reader.threadCount = 1
      return reader
    }()
    // The file's frequency, which its first row's chart decides when it is read whole (a chart
    // named `…-daily` is daily), is every part's: a part's first row may be another chart's.
    let frequency = try? reader.decode(dataset.text(of: [dataset.firstRecord]), path: path)
      .frequency
    let parts = stride(from: 0, to: dataset.weeks.count, by: weeksPerPart).map {
      $0..<min($0 + weeksPerPart, dataset.weeks.count)
    }
    // As many parts at once as the reader has threads, handed over in order.
    var next = 0
    while next < parts.count {
      let batch = Array(parts[next..<min(next + threadCount, parts.count)])
      let results = concurrentMap(batch.count) { index in
        Result { () throws(ChartFileError) in
          try reader.decode(dataset.text(ofWeeks: batch[index]), path: path)
        }
      }
      for (index, result) in results.enumerated() {
        switch result {
        case .success(var part):
          part.frequency = frequency ?? part.frequency
          // The import that takes the parts ended early: the rest is not read.
          guard deliver(part, Double(batch[index].upperBound) / Double(dataset.weeks.count))
          else { return }
        case .failure(let error):
          // Told as the whole file tells it: its rows and lines, every problem.
          _ = try decode(data, path: path)
          throw error
        }
      }
      next += batch.count
    }
  }
}

/// The records of a dataset of many weeks of one chart (a ``ChartFormat/holdsWeeksOfOneChart``
/// CSV), found by a pass over its bytes that reads only each record's date, and gathered by
/// chart date, oldest first.
///
/// A record starts after a line end that is not itself a line end and ends at the next line end
/// outside quotes (LF, CRLF or a lone CR), as libcsv's records do (see
/// ``CSVTable/recordLines(in:)``); a quote opens or closes a quoted field. Each week's records
/// are read again, as a CSV text of their own under the file's header, when the week is read; a
/// file that this pass cannot be sure of (a date that is missing, quoted, not valid, or 1 to 6
/// days from another, which is one week split across two dates) is read whole instead, and its
/// problems told as the whole file tells them.
struct DatasetWeeks {
  /// The file's bytes.
  private let data: Data
  /// The header record (byte offsets after a UTF-8 byte order mark, as every record's).
  private let header: Range<Int>
  /// Each week's records, in file order, the weeks oldest first.
  let weeks: [[Range<Int>]]
  /// The first record after the header, in file order.
  let firstRecord: Range<Int>

  /// Finds the weeks of a dataset; `nil` when `data` is not a dataset or cannot be read in weeks.
  init?(_ data: Data, reader: ChartFileReader) {
    // The text after a UTF-8 byte order mark (a slice: no copy).
    let text = data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data
    guard reader.chartDate == nil, reader.format == nil || reader.format!.holdsWeeksOfOneChart,
      let first = text.first,
      first != UInt8(ascii: "{"), first != UInt8(ascii: "["), first != UInt8(ascii: "<"),
      let layout = CSVLayout.detect(ChartFileReader.firstLines(of: text), forced: reader.format),
      layout.format.holdsWeeksOfOneChart, layout.headerRow == 0,
      let dateColumn = layout.columns[.date]
    else { return nil }
    self.data = data
    guard
      let (header, weeks, firstRecord) = data.withUnsafeBytes({
        Self.weeks(
          in: $0.afterByteOrderMark, dateColumn: dateColumn, layout: layout,
          timeZone: reader.timeZone)
      })
    else { return nil }
    self.header = header
    self.weeks = weeks
    self.firstRecord = firstRecord
  }

  /// The header, the records of each week and the first record after the header, or `nil` when
  /// the records cannot be gathered by date with certainty.
  private static func weeks(
    in text: UnsafeRawBufferPointer, dateColumn: Int, layout: CSVLayout, timeZone: TimeZone?
  ) -> (Range<Int>, [[Range<Int>]], Range<Int>)? {
    guard let base = text.baseAddress else { return nil }
    var header: Range<Int>?
    var firstRecord: Range<Int>?
    var weekOfDate: [String: Int] = [:]
    var weekOfWritten: [String: Int] = [:]
    var weeks: [(date: ChartDate, records: [Range<Int>])] = []
    var index = 0
    while index < text.count {
      // Line ends between records, blank lines among them.
      if text[index] == 0x0A || text[index] == 0x0D {
        index += 1
        continue
      }
      let record = index..<recordEnd(in: text, base: base, from: index)
      index = record.upperBound
      guard header != nil else {
        header = record
        continue
      }
      guard let written = field(dateColumn, of: record, in: text) else { return nil }
      let week: Int
      if let known = weekOfWritten[written] {
        week = known
      } else {
        guard let iso = layout.writtenDates.map({ $0.read(written) }) ?? written,
          let chartDate = try? ChartDate(iso8601: iso, timeZone: timeZone)
        else { return nil }
        if let known = weekOfDate[iso] {
          week = known
        } else {
          week = weeks.count
          weekOfDate[iso] = week
          weeks.append((chartDate, []))
        }
        weekOfWritten[written] = week
      }
      weeks[week].records.append(record)
      if firstRecord == nil { firstRecord = record }
    }
    guard let header, let firstRecord else { return nil }
    weeks.sort { $0.date < $1.date }
    // One week split across two dates is refused whole, with its rows.
    for (earlier, later) in zip(weeks, weeks.dropFirst())
    where later.date.secondsSince1970 - earlier.date.secondsSince1970 < 7 * 86_400 {
      return nil
    }
    return (header, weeks.map(\.records), firstRecord)
  }

  /// Where the record that starts at `start` ends: at its first line end outside quotes, or at
  /// the end of the text. A record without quotes (most) is measured with `memchr`.
  private static func recordEnd(
    in text: UnsafeRawBufferPointer, base: UnsafeRawPointer, from start: Int
  ) -> Int {
    /// The offset of the first `byte` in `start..<end`, if any.
    func find(_ byte: UInt8, before end: Int) -> Int? {
      memchr(base + start, Int32(byte), end - start).map { base.distance(to: $0) }
    }
    let lineFeed = find(0x0A, before: text.count) ?? text.count
    if find(UInt8(ascii: "\""), before: lineFeed) == nil {
      return find(0x0D, before: lineFeed) ?? lineFeed
    }
    var quoted = false
    for index in start..<text.count {
      let byte = text[index]
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if byte == 0x0A || byte == 0x0D, !quoted {
        return index
      }
    }
    return text.count
  }

  /// The text of the field at `column` (0-based) of a record, without the spaces around it;
  /// `nil` when the record has no such field, or it is empty, quoted or not UTF-8.
  private static func field(_ column: Int, of record: Range<Int>, in text: UnsafeRawBufferPointer)
    -> String?
  {
    var field = 0
    var start = record.lowerBound
    var end = record.upperBound
    var quoted = false
    for index in record {
      let byte = text[index]
      if byte == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if byte == UInt8(ascii: ","), !quoted {
        if field == column {
          end = index
          break
        }
        field += 1
        start = index + 1
      }
    }
    guard field == column else { return nil }
    var bytes = UnsafeRawBufferPointer(rebasing: text[start..<end])
    // Spaces around a date are not part of it, as in the rows read whole.
    while let byte = bytes.first, byte == 0x20 || byte == 0x09 {
      bytes = UnsafeRawBufferPointer(rebasing: bytes.dropFirst())
    }
    while let byte = bytes.last, byte == 0x20 || byte == 0x09 {
      bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast())
    }
    guard !bytes.isEmpty, !bytes.contains(UInt8(ascii: "\"")) else { return nil }
    // ASCII, as dates are, is UTF-8 without checking further.
    if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
    return String(validating: bytes, as: UTF8.self)
  }

  /// A CSV text of the file's header and the records of some weeks, each on a line of its own, in
  /// file order within each week.
  func text(ofWeeks range: Range<Int>) -> Data {
    text(of: weeks[range].flatMap { $0 })
  }

  /// A CSV text of the file's header and some of its records, each on a line of its own, in the
  /// order given.
  func text(of records: [Range<Int>]) -> Data {
    let size = records.reduce(header.count + 1) { $0 + $1.count + 1 }
    var text = Data(count: size)
    text.withUnsafeMutableBytes { output in
      data.withUnsafeBytes { bytes in
        let file = bytes.afterByteOrderMark
        var offset = 0
        func copy(_ record: Range<Int>) {
          output.baseAddress!.advanced(by: offset).copyMemory(
            from: file.baseAddress!.advanced(by: record.lowerBound), byteCount: record.count)
          output[offset + record.count] = 0x0A
          offset += record.count + 1
        }
        copy(header)
        for record in records { copy(record) }
      }
    }
    return text
  }
}

extension ChartFileReader {
  /// Whether reading `data` a week at a time (see ``decode(_:path:weeksPerPart:deliver:)``) gives
  /// what reading it whole gives: the same snapshots in the same order, or the same problems: for
  /// the fuzzer, which checks it on every input it makes.
  @_spi(Fuzzing) public func datasetPartsAgreeWithTheWholeFile(on data: Data) -> Bool {
    let path = "fuzz/billboard.csv"
    let whole = Result { () throws(ChartFileError) in try decode(data, path: path) }
    var parts: [DecodedChartFile] = []
    let inParts = Result { () throws(ChartFileError) in
      try decode(data, path: path, weeksPerPart: 1) { part, _ in
        parts.append(part)
        return true
      }
    }
    switch (whole, inParts) {
    case (.success(let file), .success):
      return parts.flatMap(\.snapshots) == file.snapshots
        && parts.allSatisfy { $0.format == file.format && $0.frequency == file.frequency }
    case (.failure(let wholeError), .failure(let partError)):
      return wholeError.problems.map(\.description) == partError.problems.map(\.description)
    default:
      return false
    }
  }
}
