import ChartImport
import Foundation

/// A progress bar on standard error, shown only on a terminal: files done, total, percentage and
/// rate (for one file, a dataset of many weeks, its percentage), redrawn at most ten times a
/// second.
final class ProgressBar {
  private let console: Console
  private let start = monotonicSeconds()
  private var lastDrawn = 0.0
  private var shown = false

  init(console: Console) { self.console = console }

  /// Draws how far the import is.
  func update(_ progress: ImportProgress) {
    let (done, total) = (progress.done, progress.total)
    guard console.errorIsTerminal, total > 1 || progress.fractionOfSource > 0,
      !progress.isFinished
    else { return }
    let now = monotonicSeconds()
    guard now - lastDrawn >= 0.1 else { return }
    lastDrawn = now
    shown = true
    let fraction = (Double(done) + progress.fractionOfSource) / Double(total)
    let width = 30
    let filled = Int(fraction * Double(width))
    let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    let rate = Double(done) / max(now - start, 0.001)
    console.writeError(
      total == 1
        ? "\r\u{1B}[2KImporting \(bar) (\(Int(fraction * 100))%)"
        : "\r\u{1B}[2KImporting \(bar) \(done)/\(total) files (\(Int(fraction * 100))%)"
          + " \(Int(rate)) files/s")
  }

  /// Clears the bar.
  func finish() {
    if shown { console.writeError("\r\u{1B}[2K") }
  }
}
