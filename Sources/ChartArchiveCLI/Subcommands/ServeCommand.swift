import ChartArchiveServer
import ChartStorage
import Foundation

enum ServeCommand: Subcommand {
  static let name = "serve"
  static let abstract = "Serve the archive over HTTP: web pages, a JSON API and a chart app's feed."
  static let discussion = """
    Answers HTTP on the address and port given (127.0.0.1:8080 by default, this machine only),
    read-only unless --token-file is given: then POST /api/charts/NAME/snapshots imports a chart
    file sent with the header Authorization: Bearer TOKEN (the token file readable by its owner
    only). Prints the URL it listens on (the port the system chose for --port 0) and how many
    connections it holds (as many as its file limit allows, the soft limit raised to the hard
    one), then one line per request on standard error. An import run beside it is seen by the
    next request. Ctrl-C (SIGINT) or SIGTERM ends it once the requests in flight are answered and
    the connections closed after them have lingered (5 s at most).

    Web pages: / (the charts), /charts/NAME and /charts/NAME/DATE (a snapshot as a chart app
    shows it), /songs/ID (a song's run as a picture), /charts/NAME/diff, /charts/NAME/report,
    /charts/NAME/records and /search?q=; no script, light and dark.

    The API: /api/charts, /api/charts/NAME/snapshots, /api/charts/NAME/DATE (or latest),
    /api/charts/NAME/diff?from=&to=, /api/charts/NAME/report?date=,
    /api/charts/NAME/records?from=&to=&limit=, /api/songs?q=,
    /api/songs/ID, /api/feed/CATEGORY, /api/feed/updated, /api/health; /api/openapi.json
    describes them all.

    A feed is a chart's latest top 20 as a chart app reads it: [{"title", "artist", "image",
    "url", "last"}], last being the previous rank, 0 for a new or re-entering song. Its categories
    and charts: total app-total, time app-hourly, daily app-daily, weekly app-weekly, monthly
    app-monthly; --feed CATEGORY=CHART changes one.
    """
  static let examples = [
    "chart-archive serve",
    "curl localhost:8080/api/feed/daily",
    "chart-archive serve --port 9000 --feed daily=spotify-daily-global --token-file token.txt",
  ]
  static let arguments: [ArgumentSpec] = []
  static let options = [
    OptionSpec(
      name: "--host", valueName: "address", help: "The address to listen on. Default: 127.0.0.1."),
    OptionSpec(
      name: "--port", valueName: "port",
      help: "The port to listen on; 0 for one the system chooses. Default: 8080."),
    OptionSpec(
      name: "--threads", valueName: "n",
      help: "Worker threads, each with its own event loop. Default: one per processor."),
    OptionSpec(
      name: "--token-file", valueName: "file",
      help: "A file holding the token uploads must present; without it, nothing can be written.",
      values: .file),
    OptionSpec(
      name: "--feed", valueName: "category=chart",
      help: "The chart behind a feed category (total, time, daily, weekly, monthly, or a new one).",
      repeats: true),
    OptionSpec(
      name: "--timeout", valueName: "seconds",
      help: "How long a client may take to send a request or keep a connection idle. Default: 10."),
    OptionSpec(
      name: "--cors", valueName: "origin",
      help: "An origin web pages may read the API from (Access-Control-Allow-Origin)."),
    SharedOptions.database,
  ]

  /// A whole-number option's value within its range, or `nil` when it is not given.
  ///
  /// - Throws: ``UsageError`` naming the option, its range and the value found.
  private static func number(
    _ name: String, in range: ClosedRange<Int>, _ arguments: ParsedArguments
  ) throws -> Int? {
    guard let text = arguments.option(name) else { return nil }
    guard let value = Int(text), range.contains(value) else {
      throw UsageError(
        "\(name) expects a whole number from \(range.lowerBound) to \(range.upperBound),"
          + " found '\(text)'")
    }
    return value
  }

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    var configuration = try configuration(arguments, console: console)
    let fileLimit = FileLimit.raised()
    configuration.fitConnections(toFileLimit: fileLimit.files)

    // SIGINT and SIGTERM are taken by this thread, once the workers (which inherit the mask)
    // have started.
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGINT)
    sigaddset(&signals, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &signals, nil)

    // One write a line, whole, whichever thread it comes from.
    let log: @Sendable (String) -> Void = { line in
      var text = line + "\n"
      text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
    let router: Router
    do { router = try Router(configuration: configuration, log: log) } catch {
      throw CommandError(error)
    }
    let server: HTTPServer
    do {
      server = try HTTPServer(configuration: configuration, router: router, log: log)
    } catch {
      // A port in use may be free when tried again; a host that is not this machine's never is.
      if case .addressInUse = error { throw CommandError(.temporaryFailure, error.description) }
      throw CommandError(.usage, error.description)
    }
    let shownHost =
      configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
    console.print(
      "Serving \(configuration.archivePath) at http://\(shownHost):\(server.port)/"
        + " (Ctrl-C stops it)")
    console.print(
      "Up to \(configuration.maximumConnections) connections at once:"
        + " \(configuration.maximumConnectionsPerThread) a thread, \(configuration.threads)"
        + " thread\(configuration.threads == 1 ? "" : "s") (file limit \(fileLimit.files)"
        + (fileLimit.before.map { ", raised from \($0)" } ?? "") + ")")
    if console.finishOutput() != nil { return .ioError }
    let awaited = signals
    let waiter = Thread {
      var signals = awaited
      var signal: Int32 = 0
      sigwait(&signals, &signal)
      server.stop()
    }
    waiter.start()
    server.run()
    // What uploads committed in the write-ahead log is copied into the archive file.
    router.checkpoint()
    return .success
  }

  /// The server's configuration from the options.
  ///
  /// - Throws: ``UsageError`` for an option's value it does not take, ``CommandError`` for a
  ///   token file it refuses.
  private static func configuration(_ arguments: ParsedArguments, console: Console) throws
    -> ServerConfiguration
  {
    var configuration = ServerConfiguration(
      archivePath: try SharedOptions.databasePath(arguments, environment: console.environment))
    if let host = arguments.option("--host") {
      guard !host.isEmpty else { throw UsageError("--host needs an address") }
      configuration.host = host
    }
    configuration.port = try number("--port", in: 0...65_535, arguments) ?? configuration.port
    configuration.threads =
      try number("--threads", in: 1...256, arguments) ?? configuration.threads
    configuration.timeoutSeconds =
      try number("--timeout", in: 1...3_600, arguments) ?? configuration.timeoutSeconds
    if let file = arguments.option("--token-file") {
      configuration.uploadToken = try token(in: file)
    }
    for feed in arguments.options["--feed"] ?? [] {
      let parts = feed.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw UsageError("--feed expects CATEGORY=CHART, found '\(feed)'")
      }
      configuration.feeds[parts[0]] = parts[1]
    }
    configuration.corsOrigin = arguments.option("--cors")
    return configuration
  }

  /// The upload token a file holds: at least 16 characters, blanks around it dropped, in a file
  /// no other user may read or write and its group may not write (as ssh refuses a private key
  /// others may read).
  ///
  /// - Throws: ``CommandError``: no input (66) for a file it cannot read, a data error (65) for a
  ///   file others may read or write (naming the `chmod` that fixes it) or a token too short.
  private static func token(in file: String) throws -> String {
    var status = stat()
    guard stat(file, &status) == 0, let data = FileManager.default.contents(atPath: file) else {
      throw CommandError(.noInput, "\(file): cannot read the token file")
    }
    let mode = status.st_mode & 0o777
    let othersMay = [(mode & 0o004 != 0, "read"), (mode & 0o002 != 0, "write")].filter(\.0)
    let open =
      (othersMay.isEmpty
        ? [] : ["other users may " + othersMay.map(\.1).joined(separator: " and ") + " it"])
      + (mode & 0o020 != 0 ? ["its group may write it"] : [])
    guard open.isEmpty else {
      throw CommandError(
        .dataError,
        "\(file): the token file is not private: \(open.joined(separator: " and ")) (mode"
          + " \(String(mode, radix: 8))); run chmod 600 \(file)")
    }
    let token = String(decoding: data, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
    guard token.count >= 16 else {
      throw CommandError(
        .dataError, "\(file): the token must be at least 16 characters (found \(token.count))")
    }
    return token
  }
}
