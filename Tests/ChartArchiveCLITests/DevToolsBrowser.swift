import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Headless Chromium driven through the Chrome DevTools Protocol over a pipe
/// (`--remote-debugging-pipe`: the browser reads JSON commands, each ended by a NUL byte, from its
/// file descriptor 3 and writes answers and events to 4), so that a test can read what the
/// browser laid out (widths, computed styles), which `--dump-dom` does not give. Each page is
/// opened in a tab of its own at a phone's size. Every wait is bounded by a deadline; the browser
/// is closed, or killed, when the object goes.
final class DevToolsBrowser {
  private let pid: pid_t
  private let commands: Int32
  private let answers: Int32
  private var received: [UInt8] = []
  private var lastID = 0
  private let deadline: Date

  /// Why the browser could not answer.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Starts `chromium` with a profile in `folder`; every command must be answered before
  /// `seconds` have passed from now.
  init(_ chromium: String, profile folder: String, seconds: Double) throws {
    deadline = Date(timeIntervalSinceNow: seconds)
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    guard pipe(&input) == 0, pipe(&output) == 0 else {
      throw Failure(description: "no pipe: errno \(errno)")
    }
    // Every end moved clear of 3 and 4 and closed on exec (other processes the tests start do
    // not get them); dup2 makes the browser's two plain at 3 and 4 in the browser.
    let ends = (input + output).map { end in
      defer { close(end) }
      return fcntl(end, F_DUPFD_CLOEXEC, 10)
    }
    input = [ends[0], ends[1]]
    output = [ends[2], ends[3]]
    let browserReads = input[0]
    let browserWrites = output[1]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, browserReads, 3)
    posix_spawn_file_actions_adddup2(&actions, browserWrites, 4)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let arguments = [
      chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
      "--no-first-run", "--remote-debugging-pipe", "--window-size=390,844",
      "--user-data-dir=\(folder)/devtools-profile",
    ]
    let environment = ["HOME=\(folder)", "PATH=/usr/bin:/bin"]
    var argv = arguments.map { strdup($0) } + [nil]
    var envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var child: pid_t = 0
    let status = posix_spawn(&child, chromium, &actions, nil, &argv, &envp)
    close(browserReads)
    close(browserWrites)
    guard status == 0 else {
      close(input[1])
      close(output[0])
      throw Failure(description: "chromium did not start: \(status)")
    }
    pid = child
    commands = input[1]
    answers = output[0]
  }

  deinit {
    close(commands)
    close(answers)
    // Closing the pipe ends the browser; a browser still there after 5 seconds is killed.
    var status: Int32 = 0
    for _ in 0..<50 {
      if waitpid(pid, &status, WNOHANG) == pid { return }
      usleep(100_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
  }

  /// Sends a command (to a tab's session when given) and returns its `result`.
  @discardableResult
  func send(_ method: String, _ parameters: [String: Any] = [:], session: String? = nil) throws
    -> [String: Any]
  {
    lastID += 1
    var message: [String: Any] = ["id": lastID, "method": method, "params": parameters]
    if let session { message["sessionId"] = session }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    guard bytes.withUnsafeBytes({ write(commands, $0.baseAddress, $0.count) }) == bytes.count else {
      throw Failure(description: "\(method): the browser is gone")
    }
    while true {
      let answer = try nextMessage(for: method)
      guard answer["id"] as? Int == lastID else { continue }
      if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
      return answer["result"] as? [String: Any] ?? [:]
    }
  }

  /// The next message the browser wrote, waiting no later than the deadline.
  private func nextMessage(for method: String) throws -> [String: Any] {
    while true {
      if let end = received.firstIndex(of: 0) {
        let message = Data(received[..<end])
        received.removeSubrange(...end)
        return try JSONSerialization.jsonObject(with: message) as? [String: Any] ?? [:]
      }
      let left = Int(deadline.timeIntervalSinceNow * 1_000)
      var poller = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
      guard left > 0, poll(&poller, 1, Int32(left)) == 1 else {
        throw Failure(description: "\(method): no answer in time")
      }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = read(answers, &buffer, buffer.count)
      guard count > 0 else { throw Failure(description: "\(method): the browser is gone") }
      received += buffer.prefix(count)
    }
  }

  /// Opens `url` in a new tab `width` pixels wide (a phone's, with its viewport), waits until it
  /// has loaded, and returns what the JavaScript `expression` gives there (its JSON value); the
  /// tab is closed after.
  func evaluate(_ expression: String, at url: String, width: Int = 390) throws -> Any? {
    let target = try send("Target.createTarget", ["url": "about:blank"])["targetId"] as? String
    let session =
      try send("Target.attachToTarget", ["targetId": target ?? "", "flatten": true])["sessionId"]
      as? String
    defer { _ = try? send("Target.closeTarget", ["targetId": target ?? ""]) }
    try send(
      "Emulation.setDeviceMetricsOverride",
      ["width": width, "height": 844, "deviceScaleFactor": 1, "mobile": true], session: session)
    try send("Page.navigate", ["url": url], session: session)
    let waited = """
      new Promise(done => { const check = () => document.readyState === 'complete'
        && location.href !== 'about:blank' ? done(JSON.stringify((() => (\(expression)))()))
        : setTimeout(check, 20); check(); })
      """
    let result = try send(
      "Runtime.evaluate", ["expression": waited, "awaitPromise": true, "returnByValue": true],
      session: session)
    guard let value = (result["result"] as? [String: Any])?["value"] as? String else {
      throw Failure(description: "\(url): \(result)")
    }
    return try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
  }
}
