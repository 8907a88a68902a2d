import Foundation
import Testing

@testable import ChartArchiveCLI

/// The environment the tool reads (`CHART_ARCHIVE_DB`, `NO_COLOR`, `TERM`, …), taken from
/// `environ` rather than from Foundation's `ProcessInfo`.
struct ProcessEnvironmentTests {
  @Test func theEnvironmentIsFoundationsToo() {
    setenv("CHART_ARCHIVE_TEST_EQUALS", "a=b=c", 1)
    setenv("CHART_ARCHIVE_TEST_EMPTY", "", 1)
    defer {
      unsetenv("CHART_ARCHIVE_TEST_EQUALS")
      unsetenv("CHART_ARCHIVE_TEST_EMPTY")
    }
    let environment = Console.processEnvironment()
    #expect(environment["CHART_ARCHIVE_TEST_EQUALS"] == "a=b=c")
    #expect(environment["CHART_ARCHIVE_TEST_EMPTY"] == "")
    #expect(environment == ProcessInfo.processInfo.environment)
  }
}
