import ChartRanking
import Foundation

extension ChartFileReader {
  /// Reads a JSON file larger than a file of one snapshot may be: an export (`{"snapshots":
  /// […]}`, as `export` writes it), read as it streams by and handed over `weeksPerPart`
  /// snapshots at a time (see ``StreamingReader/readExport(_:snapshotRead:)``); any other is
  /// refused at its first field. Every snapshot is checked as in a file read whole, its problems
  /// told with its number; once one has a problem no other part is handed over, and every
  /// problem of the file is told at its end.
  ///
  /// - Throws: ``ChartFileError``: a JSON file of one snapshot, too large; an export that is not
  ///   valid JSON, or holds what `export` does not write (with the line and column); a string or
  ///   a number longer than ``maximumFieldLength``; a snapshot larger than
  ///   ``maximumSnapshotSize``; the problems of its snapshots.
  func decodeExport(
    _ bytes: FileBytes, path: String, weeksPerPart: Int,
    deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) throws(ChartFileError) {
    guard format == nil || format == .native else {
      throw ChartFileError(
        path: path,
        problems: [
          .fileTooLarge(
            .json, size: bytes.count,
            manyWeeks:
              "a \(format!.rawValue) file holds one chart; only an export of ChartArchive's"
              + " is read in parts")
        ])
    }
    var reader = self
    reader.keepsEveryProblem = true
    var read = ExportRead(reader: reader, path: path, total: bytes.count)
    let (outcome, count) = withoutActuallyEscaping(deliver) { deliver in
      StreamingReader.readExport(bytes) { snapshot, fed, decisions in
        read.take(snapshot, decisions: decisions)
        guard read.pending.count >= weeksPerPart else { return true }
        return read.handOver(fed: fed, to: deliver)
      }
    }
    switch outcome {
    case .read:
      guard read.handOver(fed: bytes.count, to: deliver) else { return }
    case .stopped: return
    case .notAnExport:
      throw ChartFileError(
        path: path,
        problems: [
          .fileTooLarge(
            .json, size: bytes.count,
            manyWeeks: "only an export, {\"snapshots\": […]} as `export` writes it, is read in"
              + " parts")
        ])
    case .snapshotTooLarge(let number):
      let bound = Self.maximumSnapshotSize
      read.problems.append(
        ChartFileProblem(
          snapshot: number,
          message: "its strings take more than \(Self.words(forBytes: bound)), the bound on one"
            + " snapshot of a file of many", bound: .snapshot(bound)))
      read.count += 1
    case .fieldTooLong(let offset):
      let (line, column) = JSONPosition.of(offset, in: bytes)
      throw ChartFileError(
        path: path,
        problems: [.fieldTooLong("the string or number at column \(column)", line: line)])
    case .unread(let message, let offset):
      let (line, column) = JSONPosition.of(offset, in: bytes)
      if let message {
        throw ChartFileError(
          path: path, "not valid JSON: \(message) (line \(line), column \(column))")
      }
      read.problems.append(
        ChartFileProblem(
          line: line,
          message: "column \(column): not as `export` writes an export (a field it does not write,"
            + " or a value of another type); a JSON file of more than"
            + " \(Self.words(forBytes: Self.maximumFileSize(of: .json))) must be one"))
      read.count += 1
    }
    if count == 0, read.problems.isEmpty {
      throw ChartFileError(
        path: path,
        problems: [ChartFileProblem(field: "snapshots", message: "the file has no snapshots")])
    }
    guard read.problems.isEmpty else {
      var problems = Array(read.problems.prefix(Self.maximumProblemsReported))
      if read.count > problems.count {
        problems.append(
          ChartFileProblem(
            message: "… and \(read.count - problems.count) more problems in this file"))
      }
      throw ChartFileError(path: path, problems: problems)
    }
  }
}

/// An export being read as it streams by: the snapshots read and not yet handed over, and what
/// was found.
private struct ExportRead {
  let reader: ChartFileReader
  let path: String
  /// The file's size, for the fraction read.
  let total: Int
  var pending: [JSONFileFields] = []
  /// The export's decisions, handed over with its first part.
  var decisions: [SongDecision] = []
  /// The snapshots handed over, or checked.
  var done = 0
  /// The frequency as of the last snapshot checked.
  var frequency: ChartFrequency?
  /// Whether a date given that differs from the file's was told (once).
  var toldDates = false
  /// The first problems found, and how many there are.
  var problems: [ChartFileProblem] = []
  var count = 0

  /// Takes a snapshot read, and the export's decisions with its first.
  mutating func take(_ snapshot: JSONFileFields, decisions: [SongDecision]) {
    if done == 0, pending.isEmpty { self.decisions = decisions }
    pending.append(snapshot)
  }

  /// Checks the pending snapshots and hands them over as a part, unless a problem was found
  /// (theirs, or an earlier part's). Returns whether to go on reading.
  mutating func handOver(
    fed: Int, to deliver: (_ part: DecodedChartFile, _ fractionRead: Double) -> Bool
  ) -> Bool {
    guard !pending.isEmpty else { return true }
    var fields = JSONFileFields()
    if done == 0 { fields.decisions = decisions }
    let unchecked = reader.exportFile(
      fields, snapshots: pending, path: path, firstNumber: done + 1)
    done += pending.count
    pending = []
    do throws(ChartFileError) {
      var part = try reader.build(unchecked, path: path, earlierFrequency: frequency)
      frequency = part.frequency
      guard problems.isEmpty else { return true }
      if toldDates { part.dateDisagreements = [] }
      toldDates = toldDates || !part.dateDisagreements.isEmpty
      return deliver(part, Double(fed) / Double(max(total, 1)))
    } catch {
      count += error.problems.count
      if problems.count < ChartFileReader.maximumProblemsReported {
        problems += error.problems.prefix(ChartFileReader.maximumProblemsReported - problems.count)
      }
      return true
    }
  }
}

/// The line and column of a byte of a JSON text, found by a pass that lets go of the pages it
/// read in a large file.
enum JSONPosition {
  /// The 1-based line and column (in characters: UTF-8 sequences) of the byte at `offset`.
  static func of(_ offset: Int, in bytes: FileBytes) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    bytes.data.withUnsafeBytes { file in
      var start = 0
      while start < min(offset, file.count) {
        let end = min(start + (16 << 20), offset, file.count)
        for byte in file[start..<end] {
          if byte == 0x0A {
            line += 1
            column = 1
          } else if byte & 0xC0 != 0x80 {
            column += 1
          }
        }
        if file.count > DatasetIndex.pagesKept { bytes.letGo(start..<end) }
        start = end
      }
    }
    return (line, column)
  }
}
