import ChartPresentation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's standard output and error as C streams of their own (the C library's `stdout`
/// and `stderr` are mutable globals that Swift 6 does not let code share).
private nonisolated(unsafe) let outputStream = fdopen(1, "w")
private nonisolated(unsafe) let errorStream = fdopen(2, "w")

/// Where a command's output goes and what it knows of its surroundings; tests supply their own.
public final class Console {
  /// The process's environment.
  public let environment: [String: String]
  /// Whether standard output is a terminal (colours, no machine formats implied).
  public let outputIsTerminal: Bool
  /// Whether standard error is a terminal (progress bars).
  public let errorIsTerminal: Bool
  /// What the command changed before it wrote its output (`the import is stored in PATH`), for
  /// the error that says the output could not be written: that error does not undo it.
  var doneBeforeOutput: String?
  private let outputSink: (String) -> Void
  private let errorSink: (String) -> Void
  /// Flushes standard output and returns the first error writing it met (an `errno`), if any.
  private let outputFinisher: () -> Int32?
  /// The first error writing standard output met, as soon as it is known.
  private let outputError: () -> Int32?

  /// The first error writing the process's standard output met: once there is one, nothing more
  /// is written.
  private final class OutputFailure: @unchecked Sendable {
    var error: Int32?
  }

  /// The process's environment variables, read from `environ` (`NAME=value` each; the first of a
  /// name given twice, as `getenv` finds it). Foundation's `ProcessInfo.environment` gives the
  /// same, but sets up `ProcessInfo` first: about 0.5 ms of every command.
  public static func processEnvironment() -> [String: String] {
    var variables: [String: String] = [:]
    var next = environ
    while let entry = next.pointee {
      let text = String(cString: entry)
      if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(text[..<equals])
        if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
      }
      next += 1
    }
    return variables
  }

  /// A console on the process's standard output and error.
  public static func standard(environment: [String: String]) -> Console {
    let failure = OutputFailure()
    return Console(
      environment: environment, outputIsTerminal: isatty(1) == 1, errorIsTerminal: isatty(2) == 1,
      output: { text in
        guard failure.error == nil else { return }
        var text = text
        let count = text.utf8.count
        let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, outputStream) }
        if written < count { failure.error = errno }
      },
      error: { text in
        if failure.error == nil, fflush(outputStream) != 0 { failure.error = errno }
        var text = text
        text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, errorStream) }
        fflush(errorStream)
      },
      outputFinisher: {
        if failure.error == nil, fflush(outputStream) != 0 { failure.error = errno }
        return failure.error
      },
      outputError: { failure.error })
  }

  /// A console that hands output and error text to the given closures.
  ///
  /// - Parameters:
  ///   - environment: the environment variables the commands read.
  ///   - outputIsTerminal: whether to behave as on a terminal (colours).
  ///   - errorIsTerminal: whether to show progress on standard error.
  ///   - output: receives standard output text.
  ///   - error: receives standard error text.
  public convenience init(
    environment: [String: String], outputIsTerminal: Bool, errorIsTerminal: Bool,
    output: @escaping (String) -> Void, error: @escaping (String) -> Void
  ) {
    self.init(
      environment: environment, outputIsTerminal: outputIsTerminal,
      errorIsTerminal: errorIsTerminal, output: output, error: error, outputFinisher: { nil },
      outputError: { nil })
  }

  private init(
    environment: [String: String], outputIsTerminal: Bool, errorIsTerminal: Bool,
    output: @escaping (String) -> Void, error: @escaping (String) -> Void,
    outputFinisher: @escaping () -> Int32?, outputError: @escaping () -> Int32?
  ) {
    self.environment = environment
    self.outputIsTerminal = outputIsTerminal
    self.errorIsTerminal = errorIsTerminal
    self.outputSink = output
    self.errorSink = error
    self.outputFinisher = outputFinisher
    self.outputError = outputError
  }

  /// Whether writing standard output failed (a full disk, a closed pipe): a long output stops.
  var outputFailed: Bool { outputError() != nil }

  /// Writes buffered standard output out, before the process exits.
  ///
  /// - Returns: the first error writing it met (an `errno`: `ENOSPC`, `EPIPE`, `EIO` …), or `nil`.
  func finishOutput() -> Int32? { outputFinisher() }

  /// Writes a line (or several) to standard output.
  func print(_ text: String) { outputSink(text + "\n") }
  /// Writes text to standard output as it is.
  func write(_ text: String) { outputSink(text) }
  /// Writes a line to standard error.
  func printError(_ text: String) { errorSink(text + "\n") }
  /// Writes text to standard error as it is (progress updates).
  func writeError(_ text: String) { errorSink(text) }

  /// The style for text on standard output.
  var style: Style { Style.forOutput(isTerminal: outputIsTerminal, environment: environment) }
}

/// Monotonic time in seconds, for progress rates.
func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
