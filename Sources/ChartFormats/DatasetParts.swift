import ChartRanking
public import Foundation
import Glibc

extension ChartFileReader {
  /// Reads and checks one file, handing its snapshots over in parts, as they are read: a file of
  /// many weeks (the Hot 100 datasets of data.world, TidyTuesday and Kaggle, a charts CSV, an
  /// export) is read a few snapshots at a time, so that the snapshots read first can be stored
  /// while the rest are read, and the file is read in bounded memory whatever its size. Any other
  /// file is handed over whole, as ``read(contentsOf:)`` reads it.
  ///
  /// A file larger than a file of one snapshot may be (``maximumFileSize(of:)``) is read in
  /// parts whatever it holds, and refused when it cannot be: a CSV without a date column, JSON
  /// that is not an export, an HTML document. Memory: a part holds at most 8 snapshots' worth of
  /// rows, and at most 1 MiB of them unless one snapshot is larger (a snapshot is at most
  /// ``maximumSnapshotSize``); at most 4 MiB of parts are read at once; what keeps track of
  /// which rows are whose (``DatasetIndex``) is bounded; the file's pages are let go of once read
  /// when it is larger than 64 MiB. A file of one snapshot is at most 16 MiB.
  ///
  /// - Parameters:
  ///   - path: the file's path: a regular file or a named pipe.
  ///   - weeksPerPart: how many snapshots a part holds, at most (the last may hold fewer).
  ///   - deliver: called with each part, in order, and the fraction of the file's chart dates
  ///     handed over with it (0 to 1; 1 with the last part); each part is a file of its own (the
  ///     same path, format and frequency) with some of the snapshots, oldest first in a file of
  ///     one weekly chart's weeks, else in file order. It returns whether to go on: after `false`
  ///     no other part is read (nor checked), and nothing is thrown for the weeks not read.
  /// - Throws: ``ChartFileError``, as ``read(contentsOf:)`` throws it, also after some parts were
  ///   handed over (a problem in a later week): the parts handed over must then be dropped. In a
  ///   file larger than ``maximumFileSize(of:)``, the problems of every part are told, each with
  ///   its row and line in the file, in row order.
  public func read(
    contentsOf path: String, weeksPerPart: Int,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    try decode(FileBytes(path: path), path: path, weeksPerPart: weeksPerPart, deliver: deliver)
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
    try decode(FileBytes(data), path: path, weeksPerPart: weeksPerPart, deliver: deliver)
  }

  /// ``decode(_:path:weeksPerPart:deliver:)`` of a file's bytes.
  func decode(
    _ bytes: FileBytes, path: String, weeksPerPart: Int,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    let kind = Self.kind(of: bytes.data, forced: format)
    let large = bytes.count > (largeFileSize ?? Self.maximumFileSize(of: kind))
    switch kind {
    case .json where large:
      try decodeExport(bytes, path: path, weeksPerPart: weeksPerPart, deliver: deliver)
      return
    case .html where large:
      throw ChartFileError(
        path: path,
        problems: [.fileTooLarge(.html, size: bytes.count, manyWeeks: "a web page holds one chart")]
      )
    case .csv:
      if let index = try DatasetIndex(bytes, reader: self, path: path, large: large),
        large || index.order.count > weeksPerPart
      {
        try decodeParts(
          of: index, path: path, weeksPerPart: weeksPerPart, large: large, deliver: deliver)
        return
      }
      if large { throw largeFileProblem(bytes.data, path: path) }
    default: break
    }
    _ = deliver(try decodeWhole(bytes.data, path: path), 1)
  }

  /// What a file's first non-blank byte says it is written in: JSON (`{`, `[`), HTML (`<`), else
  /// CSV; the format given says it when there is one.
  static func kind(of data: Data, forced: ChartFormat?) -> ChartFormat.Kind {
    if let forced { return forced.kind }
    switch data.first(where: { !isJSONWhitespace($0) }) {
    case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
    case UInt8(ascii: "<"): return .html
    default: return .csv
    }
  }

  /// Why a CSV larger than a file of one snapshot may be is refused: not a chart file, or a
  /// chart file of one snapshot.
  private func largeFileProblem(_ data: Data, path: String) -> ChartFileError {
    let prefix = data.prefix(2 * Self.maximumLineLength + 4)
    let lines = Self.firstLines(of: prefix)
    if let layout = CSVLayout.detect(lines, forced: format) {
      return ChartFileError(
        path: path,
        problems: [
          .fileTooLarge(
            .csv, size: data.count,
            manyWeeks: "a \(layout.format.rawValue) file has no date column to read it in parts")
        ])
    }
    if String(validating: prefix.prefix(1 << 16), as: UTF8.self) == nil {
      return ChartFileError(path: path, "not a chart file: not UTF-8 text (a binary file?)")
    }
    return ChartFileError(
      path: path,
      "not a chart file: expected a JSON object or array, or a CSV with a known header (see"
        + " chart-archive formats)")
  }

  /// The parts of a dataset's snapshots in the order handed over: at most `weeksPerPart`
  /// snapshots and 1 MiB of rows each, unless one snapshot is larger.
  static func parts(of index: DatasetIndex, weeksPerPart: Int) -> [Range<Int>] {
    var parts: [Range<Int>] = []
    var start = 0
    var bytes = 0
    for (position, snapshot) in index.order.enumerated() {
      let size = Int(index.snapshots[snapshot].bytes)
      if position > start, position - start >= weeksPerPart || bytes + size > 1 << 20 {
        parts.append(start..<position)
        start = position
        bytes = 0
      }
      bytes += size
    }
    if start < index.order.count { parts.append(start..<index.order.count) }
    return parts
  }

  /// Reads a dataset's parts, a few at a time on as many threads, and hands them over in order.
  ///
  /// - Parameter large: whether the file is larger than a file read whole may be: a problem is
  ///   then told from the parts (``DatasetProblems/all(of:parts:reader:path:)``), not by reading
  ///   the file whole.
  private func decodeParts(
    of index: DatasetIndex, path: String, weeksPerPart: Int, large: Bool,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    let reader = {
      var reader = self
      reader.threadCount = 1
      return reader
    }()
    // The file's frequency, which its first row's chart decides when it is read whole (a chart
    // named `…-daily` is daily), is every part's: a part's first row may be another chart's.
    let frequency = try? reader.decodeWhole(
      DatasetText(index, records: [index.firstRecord]).data, path: path
    ).frequency
    let parts = Self.parts(of: index, weeksPerPart: weeksPerPart)
    guard index.splitWeeks.isEmpty else {
      throw DatasetProblems.all(of: index, parts: parts, reader: reader, path: path)
    }
    var toldDates = false
    var next = 0
    while next < parts.count {
      let batch = Self.batch(of: parts, from: next, index: index, threads: threadCount)
      let results = concurrentMap(batch.count) { position in
        Result { () throws(ChartFileError) in
          try reader.decodeWhole(
            DatasetText(index, snapshots: Array(index.order[batch[position]])).data, path: path)
        }
      }
      if index.bytes.count > DatasetIndex.pagesKept { index.bytes.letGo(0..<index.bytes.count) }
      for (position, result) in results.enumerated() {
        switch result {
        case .success(var part):
          part.frequency = frequency ?? part.frequency
          // A date given that differs from the file's is told once.
          if toldDates { part.dateDisagreements = [] }
          toldDates = toldDates || !part.dateDisagreements.isEmpty
          let fraction = Double(batch[position].upperBound) / Double(index.order.count)
          // The import that takes the parts ended early: the rest is not read.
          guard deliver(part, fraction) else { return }
        case .failure(let error):
          if large {
            throw DatasetProblems.all(of: index, parts: parts, reader: reader, path: path)
          }
          // Told as the whole file tells it: its rows and lines, every problem.
          _ = try decodeWhole(index.bytes.data, path: path)
          throw error
        }
      }
      next += batch.count
    }
  }

  /// The parts read at once from `start`: as many as `threads`, and at most 4 MiB of rows
  /// (at least one part).
  private static func batch(
    of parts: [Range<Int>], from start: Int, index: DatasetIndex, threads: Int
  ) -> [Range<Int>] {
    var batch: [Range<Int>] = []
    var bytes = 0
    for part in parts[start...] {
      let size = index.order[part].reduce(0) { $0 + Int(index.snapshots[$1].bytes) }
      if !batch.isEmpty, batch.count >= threads || bytes + size > 4 << 20 { break }
      batch.append(part)
      bytes += size
    }
    return batch
  }
}

/// A CSV text of a dataset's header and some of its records (the runs of some snapshots, in the
/// order given, each followed by a line feed), with where each run of it comes from in the file.
struct DatasetText {
  let data: Data
  /// Each run's offset in the text and in the file, and its length, the header's first.
  let segments: [(text: Int, file: Int, count: Int)]

  /// The text of some snapshots' runs, each snapshot's in file order.
  init(_ index: DatasetIndex, snapshots: [Int]) {
    let runs = snapshots.flatMap { index.runs(of: $0) }.map { $0.start..<$0.start + Int($0.length) }
    self.init(index, records: runs)
  }

  /// The text of some runs of records (byte ranges of the file), in the order given.
  init(_ index: DatasetIndex, records: [Range<Int>]) {
    let all = [index.header] + records
    let size = all.reduce(0) { $0 + $1.count + 1 }
    var segments: [(text: Int, file: Int, count: Int)] = []
    segments.reserveCapacity(all.count)
    var text = Data(count: size)
    text.withUnsafeMutableBytes { output in
      index.bytes.data.withUnsafeBytes { file in
        var offset = 0
        for run in all {
          output.baseAddress!.advanced(by: offset).copyMemory(
            from: file.baseAddress!.advanced(by: run.lowerBound), byteCount: run.count)
          output[offset + run.count] = 0x0A
          segments.append((offset, run.lowerBound, run.count))
          offset += run.count + 1
        }
      }
    }
    data = text
    self.segments = segments
  }

  /// The offset in the file of a byte of the text.
  func fileOffset(of offset: Int) -> Int {
    var low = 0
    var high = segments.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if segments[middle].text <= offset { low = middle } else { high = middle - 1 }
    }
    let segment = segments[low]
    return segment.file + min(offset - segment.text, segment.count)
  }
}

/// The problems of a file read in parts, told with their rows and lines in the file: found by a
/// pass over the file that counts records and lines as libcsv's records run (see
/// ``CSVTable/recordLines(in:)``), asked for only when there are problems.
enum DatasetProblems {
  /// An error of one problem at a byte of the file: its line that of the byte, and its row, when
  /// it has one, that of the record the byte is in.
  static func error(
    _ problem: ChartFileProblem, at offset: Int, in bytes: FileBytes, textStart: Int, path: String
  ) -> ChartFileError {
    var problem = problem
    let position = positions(of: [offset], in: bytes, textStart: textStart)[offset]!
    problem.line = position.line
    if problem.row != nil { problem.row = position.row }
    return ChartFileError(path: path, problems: [problem])
  }

  /// The 1-based row (the header is row 1) and line of each byte offset: the row of the record a
  /// byte is in (or of the next record, between records), the line it is on.
  static func positions(of offsets: [Int], in bytes: FileBytes, textStart: Int)
    -> [Int: (row: Int, line: Int)]
  {
    let wanted = Set(offsets).sorted()
    var found: [Int: (row: Int, line: Int)] = [:]
    bytes.data.withUnsafeBytes { file in
      var next = 0
      var line = 1
      var row = 0
      var walk = RecordWalk()
      var offset = textStart
      while next < wanted.count {
        while next < wanted.count, wanted[next] <= offset {
          let starts =
            !walk.inRecord && offset < file.count && file[offset] != 0x0A
            && file[offset] != 0x0D
          found[wanted[next]] = (row + (starts ? 1 : 0), line)
          next += 1
        }
        guard offset < file.count else { break }
        switch walk.read(file[offset]) {
        case .recordStart: row += 1
        case .lineEnd: line += 1
        case .inside, .lineEndGoesOn: break
        }
        offset += 1
        if offset & ((16 << 20) - 1) == 0, file.count > DatasetIndex.pagesKept {
          bytes.letGo((offset - (16 << 20))..<offset)
        }
      }
      for offset in wanted[next...] { found[offset] = (row, line) }
    }
    return found
  }

  /// Every problem of a file read in parts, each with its row and line in the file: the weeks
  /// split across two dates, and those of every part, in row order, the first
  /// ``ChartFileReader/maximumProblemsReported`` and their count.
  static func all(
    of index: DatasetIndex, parts: [Range<Int>], reader: ChartFileReader, path: String
  ) -> ChartFileError {
    var reader = reader
    reader.keepsEveryProblem = true
    var problems: [(problem: ChartFileProblem, row: Int?, line: Int?)] = []
    var count = 0
    var wanted: [Int] = []
    for (earlier, later) in index.splitWeeks {
      wanted += [index.snapshots[earlier].firstRecord, index.snapshots[later].firstRecord]
    }
    for part in parts {
      let text = DatasetText(index, snapshots: Array(index.order[part]))
      do throws(ChartFileError) {
        _ = try reader.decodeWhole(text.data, path: path)
      } catch {
        count += error.problems.count
        let placed = place(error.problems, in: text)
        problems += placed.prefix(ChartFileReader.maximumProblemsReported)
        wanted += placed.flatMap { [$0.row, $0.line].compactMap { $0 } }
      }
      if index.bytes.count > DatasetIndex.pagesKept { index.bytes.letGo(0..<index.bytes.count) }
    }
    let positions = positions(of: wanted, in: index.bytes, textStart: index.textStart)
    var told = problems.map { item in
      var problem = item.problem
      if let row = item.row { problem.row = positions[row]!.row }
      if let line = item.line { problem.line = positions[line]!.line }
      return problem
    }
    told += splitWeekProblems(of: index, positions: positions)
    count += index.splitWeeks.count
    told.sort { ($0.row ?? 0, $0.line ?? 0) < ($1.row ?? 0, $1.line ?? 0) }
    var firstProblems = Array(told.prefix(ChartFileReader.maximumProblemsReported))
    if count > firstProblems.count {
      firstProblems.append(
        ChartFileProblem(
          message: "… and \(count - firstProblems.count) more problems in this file"))
    }
    return ChartFileError(path: path, problems: firstProblems)
  }

  /// A part's problems, each with the file offsets of its row's record and of its line's start
  /// (the offsets whose rows and lines are to be found), where it has a row or a line.
  private static func place(_ problems: [ChartFileProblem], in text: DatasetText)
    -> [(problem: ChartFileProblem, row: Int?, line: Int?)]
  {
    let (records, lines) = text.data.withUnsafeBytes { starts(in: $0) }
    return problems.map { problem in
      let row = problem.row.flatMap { $0 <= records.count ? records[$0 - 1] : nil }
      let line = problem.line.flatMap { $0 <= lines.count ? lines[$0 - 1] : nil }
      return (problem, row.map(text.fileOffset), line.map(text.fileOffset))
    }
  }

  /// Where each record and each line of a CSV text starts.
  private static func starts(in text: UnsafeRawBufferPointer) -> (records: [Int], lines: [Int]) {
    var records: [Int] = []
    var lines = [0]
    var walk = RecordWalk()
    for (offset, byte) in text.enumerated() {
      switch walk.read(byte) {
      case .recordStart: records.append(offset)
      case .lineEnd: lines.append(offset + 1)
      // CRLF is one line end: its line starts after the LF.
      case .lineEndGoesOn: lines[lines.count - 1] = offset + 1
      case .inside: break
      }
    }
    return (records, lines)
  }

  /// The weeks split across two dates of a file of one weekly chart's weeks read in parts, as
  /// reading it whole tells them.
  private static func splitWeekProblems(
    of index: DatasetIndex, positions: [Int: (row: Int, line: Int)]
  ) -> [ChartFileProblem] {
    index.bytes.data.withUnsafeBytes { file in
      index.splitWeeks.map { earlier, later in
        func written(_ snapshot: Int) -> String {
          let start = index.snapshots[snapshot].firstRecord
          let end =
            index.runs[Int(index.snapshots[snapshot].firstRun)].start
            + Int(index.runs[Int(index.snapshots[snapshot].firstRun)].length)
          let texts = IndexPass.texts(index.columns, of: start..<end, in: file, quotedAllowed: true)
          return texts.map { $0[index.dateColumn].trimmingCharacters(in: .whitespaces) } ?? ""
        }
        let days = Int(
          (index.snapshots[later].secondsSince1970 - index.snapshots[earlier].secondsSince1970)
            / 86_400)
        return ChartFileProblem(
          row: positions[index.snapshots[later].firstRecord]!.row, field: index.dateField,
          message: ChartFileReader.splitWeekMessage(
            later: written(later), earlier: written(earlier), days: days,
            earlierRow: positions[index.snapshots[earlier].firstRecord]!.row))
      }
    }
  }
}

extension ChartFileReader {
  /// Whether reading `data` a week at a time (see ``decode(_:path:weeksPerPart:deliver:)``) gives
  /// what reading it whole gives: the same snapshots in the same order, or the same problems: for
  /// the fuzzer, which checks it on every input it makes.
  @_spi(Fuzzing) public func datasetPartsAgreeWithTheWholeFile(on data: Data) -> Bool {
    let path = "fuzz/billboard.csv"
    let whole = Result { () throws(ChartFileError) in try decodeWhole(data, path: path) }
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
