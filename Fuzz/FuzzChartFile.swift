// libFuzzer entry point for the chart file readers (built by Fuzz/run, not by SwiftPM).
// CHART_FUZZ_FORMAT names the format to read every input as (see `chart-archive formats`);
// unset, the format is detected as import does.
@_spi(Fuzzing) import ChartFormats
import ChartRanking
import Foundation

private let format = ProcessInfo.processInfo.environment["CHART_FUZZ_FORMAT"].flatMap(
  ChartFormat.init(rawValue:))
private let reader = ChartFileReader(format: format)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChartFile(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let data = Data(bytes: start, count: count)
  // The streaming reader of the usual files reads what it takes as the JSON tree does.
  if format == nil { precondition(ChartFileReader.streamingReaderAgreesWithTheTree(on: data)) }
  // The CSV records whose lines a problem names are libcsv's rows, one for one.
  if format == nil { precondition(ChartFileReader.csvRecordLinesAgreeWithTheParser(on: data)) }
  // A dataset of many weeks read a week at a time is what it is read whole.
  if format == nil || format == .hotStuffCSV || format == .kaggleHot100CSV {
    precondition(reader.datasetPartsAgreeWithTheWholeFile(on: data))
  }
  do {
    let file = try reader.decode(data, path: "fuzz/2024-01-06.json")
    // What was read must be a valid archive's worth: ranks positive and in order (two entries
    // share a rank only where the file marks the tie), and entries in every snapshot but a chart
    // of no entries, which only formats whose sources publish one may hold (docs/formats.md).
    for snapshot in file.snapshots {
      precondition(!snapshot.entries.isEmpty || file.format.publishesEmptyCharts)
      precondition(
        zip(snapshot.entries, snapshot.entries.dropFirst()).allSatisfy { $0.rank <= $1.rank })
      precondition(snapshot.entries.allSatisfy { $0.rank >= 1 })
    }
  } catch {
    precondition(!error.problems.isEmpty)
  }
  return 0
}
