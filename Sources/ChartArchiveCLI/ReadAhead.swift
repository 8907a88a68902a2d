import ChartFormats
import Foundation

/// Reads chart files on a background thread, a few ahead of the import that stores them, so that
/// parsing (on one core) and SQLite's writing (on the other) overlap. Results come back in file
/// order.
final class ReadAhead: @unchecked Sendable {
  // Every mutable property is guarded by `condition`.
  private let condition = NSCondition()
  private var results: [Int: Result<DecodedChartFile, ChartFileError>] = [:]
  private var consumed = 0
  private var cancelled = false
  private let depth: Int

  /// Starts reading.
  ///
  /// - Parameters:
  ///   - files: the paths, in the order they will be asked for.
  ///   - reader: the reader to read them with.
  ///   - depth: how many files may wait, read, before the consumer takes them.
  init(files: [String], reader: ChartFileReader, depth: Int = 16) {
    self.depth = depth
    Thread.detachNewThread { [self] in
      for (index, path) in files.enumerated() {
        condition.lock()
        while index - consumed >= depth, !cancelled { condition.wait() }
        let stop = cancelled
        condition.unlock()
        if stop { return }
        let result: Result<DecodedChartFile, ChartFileError>
        do throws(ChartFileError) {
          result = .success(try reader.read(contentsOf: path))
        } catch {
          result = .failure(error)
        }
        condition.lock()
        results[index] = result
        condition.broadcast()
        condition.unlock()
      }
    }
  }

  /// The file at `index` (asked for in order, 0 first), waiting until it is read.
  func file(at index: Int) -> Result<DecodedChartFile, ChartFileError> {
    condition.lock()
    defer { condition.unlock() }
    while results[index] == nil { condition.wait() }
    let result = results.removeValue(forKey: index)!
    consumed = index + 1
    condition.broadcast()
    return result
  }

  /// Stops reading ahead (the import ended early).
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  deinit { cancel() }
}
