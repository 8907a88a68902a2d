import Testing

@testable import ChartArchiveCLI
@testable import ChartImport

/// The import's progress bar on standard error: on a terminal only, and for one file only when
/// it is a dataset stored a few weeks at a time.
struct ProgressBarTests {
  /// What `update` draws for each progress, on a console whose standard error is a terminal or not.
  private func drawn(_ progress: ImportProgress, onTerminal: Bool = true) -> [String] {
    final class Lines { var lines: [String] = [] }
    let drawn = Lines()
    let console = Console(
      environment: [:], outputIsTerminal: false, errorIsTerminal: onTerminal, output: { _ in },
      error: { drawn.lines.append($0) })
    ProgressBar(console: console).update(progress)
    return drawn.lines
  }

  @Test func aDatasetAloneShowsHowMuchOfItIsStored() {
    #expect(
      drawn(ImportProgress(done: 0, total: 1, fractionOfSource: 0.4)) == [
        "\r\u{1B}[2KImporting " + String(repeating: "█", count: 12)
          + String(repeating: "░", count: 18) + " (40%)"
      ])
    // Not yet begun, or not on a terminal: nothing.
    #expect(drawn(ImportProgress(done: 0, total: 1)).isEmpty)
    #expect(
      drawn(ImportProgress(done: 0, total: 1, fractionOfSource: 0.4), onTerminal: false).isEmpty)
  }

  @Test func filesShowHowManyAreStoredWithTheDatasetBeingStored() throws {
    let line = try #require(drawn(ImportProgress(done: 1, total: 4, fractionOfSource: 0.5)).first)
    // 1.5 of 4 files: 37 %, 11 of 30 cells.
    #expect(
      line.hasPrefix(
        "\r\u{1B}[2KImporting " + String(repeating: "█", count: 11)
          + String(repeating: "░", count: 19) + " 1/4 files (37%) "))
    #expect(line.hasSuffix(" files/s"))
  }
}
