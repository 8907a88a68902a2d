internal import CEvent
import Glibc
import Synchronization

/// Why the service could not start.
public enum ServerError: Error, Sendable, CustomStringConvertible {
  /// Another process listens on the address and port.
  case addressInUse(host: String, port: Int)
  /// The host is not an address or a name this machine resolves.
  case unknownHost(String)
  /// Listening failed for another reason (the system's words).
  case cannotListen(host: String, port: Int, reason: String)

  public var description: String {
    switch self {
    case .addressInUse(let host, let port):
      "port \(port) on \(host) is in use by another program"
    case .unknownHost(let host): "'\(host)' is not an address or a host name this machine knows"
    case .cannotListen(let host, let port, let reason):
      "cannot listen on \(host):\(port): \(reason)"
    }
  }
}

/// The HTTP service: libevent's `evhttp` (<https://libevent.org/libevent-book/>) on worker
/// threads, each with its own event loop and `evhttp`, all accepting connections on one listening
/// socket, answering every request with the ``Router``.
///
/// Its limits: the request body and headers' sizes and the time a client may take (evhttp's own,
/// answering 413 or closing), and the connections each thread keeps open once they have sent a
/// request (at the limit a thread stops accepting until one closes; connections wait in the
/// kernel's queue meanwhile, and one that sends nothing is closed by the timeout). Each request is written to the access log as one line.
public final class HTTPServer: Sendable {
  /// The port it listens on (the one the system chose for port 0).
  public let port: Int
  /// The address it listens on, as given.
  public let host: String
  private let socket: Int32
  private let workers: [Worker]

  /// Listens on the configuration's host and port (nothing is answered until ``run()``).
  ///
  /// - Parameters:
  ///   - configuration: the address, threads and limits.
  ///   - router: what answers each request.
  ///   - log: receives each access log line (method, path, status, bytes, milliseconds), from the
  ///     worker threads.
  /// - Throws: ``ServerError``.
  public init(
    configuration: ServerConfiguration, router: Router,
    log: @escaping @Sendable (String) -> Void
  ) throws(ServerError) {
    Self.enableThreads
    let listening = try Self.listeningSocket(host: configuration.host, port: configuration.port)
    var address = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
    }
    socket = listening
    port = bound == 0 ? Self.port(of: address) : configuration.port
    host = configuration.host
    workers = (0..<max(1, configuration.threads)).map { index in
      Worker(index: index, configuration: configuration, router: router, log: log)
    }
  }

  deinit { close(socket) }

  /// libevent's locks, for an event loop told to stop from another thread
  /// (<https://libevent.org/libevent-book/Ref1_libsetup.html>).
  private static let enableThreads: Void = { evthread_use_pthreads() }()

  /// Answers requests on every worker thread until ``stop()``, then returns once each has
  /// finished the requests it was answering.
  public func run() {
    var threads: [pthread_t] = []
    for worker in workers {
      worker.socket = dup(socket)
      var thread = pthread_t()
      let context = Unmanaged.passRetained(worker).toOpaque()
      if pthread_create(&thread, nil, runWorker, context) == 0 {
        threads.append(thread)
      } else {
        Unmanaged<Worker>.fromOpaque(context).release()
      }
    }
    for thread in threads { pthread_join(thread, nil) }
  }

  /// Stops accepting connections and ends each worker's loop once the requests in flight are
  /// answered (or after `graceSeconds`). Callable from any thread; ``run()`` then returns.
  public func stop(graceSeconds: Double = 5) {
    for worker in workers { worker.stop(graceSeconds: graceSeconds) }
  }

  // MARK: - Listening

  private static func listeningSocket(host: String, port: Int) throws(ServerError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var found: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, String(port), &hints, &found) == 0, let first = found else {
      throw .unknownHost(host)
    }
    defer { freeaddrinfo(found) }
    let descriptor = Glibc.socket(
      first.pointee.ai_family, first.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else {
      throw .cannotListen(host: host, port: port, reason: String(cString: strerror(errno)))
    }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    // Each answer goes out as soon as it is written: without it a response written in two
    // pieces (headers, then a large body) waits for the client's delayed acknowledgement, 40 ms.
    // Accepted connections inherit the option from the listening socket (Linux, tcp(7)).
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
      let error = errno
      close(descriptor)
      if error == EADDRINUSE { throw .addressInUse(host: host, port: port) }
      throw .cannotListen(host: host, port: port, reason: String(cString: strerror(error)))
    }
    guard listen(descriptor, 1_024) == 0, evutil_make_socket_nonblocking(descriptor) == 0 else {
      let error = errno
      close(descriptor)
      throw .cannotListen(host: host, port: port, reason: String(cString: strerror(error)))
    }
    return descriptor
  }

  private static func port(of address: sockaddr_storage) -> Int {
    var address = address
    let family = address.ss_family
    return withUnsafePointer(to: &address) { pointer in
      if family == sa_family_t(AF_INET6) {
        return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
      }
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        Int(UInt16(bigEndian: $0.pointee.sin_port))
      }
    }
  }
}

/// One worker thread: an event loop, its `evhttp`, the connections it holds.
private final class Worker: @unchecked Sendable {
  let index: Int
  let configuration: ServerConfiguration
  let router: Router
  let log: @Sendable (String) -> Void
  /// The listening socket's copy this worker accepts on (and closes when it stops accepting).
  var socket: Int32 = -1

  // The event loop's own state: touched on its thread only, but for `base`, set before the loop
  // runs and read by `stop`, which hands its work to the loop.
  private let baseAddress = Mutex<Int>(0)
  /// The event loop, while it runs.
  private var base: OpaquePointer? { OpaquePointer(bitPattern: baseAddress.withLock { $0 }) }
  private var http: OpaquePointer?
  private var bound: OpaquePointer?
  /// The connections that have sent a request and are open, and requests being answered or
  /// written.
  private var connections: Set<OpaquePointer> = []
  private var inFlight = 0
  /// Whether accepting is paused because the worker holds its most connections.
  private var paused = false
  private var stopping = false
  private var deadline = 0.0
  private var timer: OpaquePointer?
  /// A stop asked for before the loop was made.
  private let stopAsked = Mutex<Double?>(nil)

  init(
    index: Int, configuration: ServerConfiguration, router: Router,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.index = index
    self.configuration = configuration
    self.router = router
    self.log = log
  }

  /// The loop: runs on the worker's thread until stopped.
  func run() {
    guard let base = event_base_new(), let http = evhttp_new(base) else { return }
    self.http = http
    let context = Unmanaged.passUnretained(self).toOpaque()
    evhttp_set_gencb(http, answerRequest, context)
    evhttp_set_max_body_size(http, configuration.maximumBodyBytes)
    evhttp_set_max_headers_size(http, configuration.maximumHeaderBytes)
    evhttp_set_timeout(http, Int32(configuration.timeoutSeconds))
    // Every method reaches the router, which answers 405 with the methods a path takes.
    evhttp_set_allowed_methods(
      http,
      UInt16(
        EVHTTP_REQ_GET.rawValue | EVHTTP_REQ_POST.rawValue | EVHTTP_REQ_HEAD.rawValue
          | EVHTTP_REQ_PUT.rawValue | EVHTTP_REQ_DELETE.rawValue | EVHTTP_REQ_OPTIONS.rawValue
          | EVHTTP_REQ_PATCH.rawValue | EVHTTP_REQ_TRACE.rawValue | EVHTTP_REQ_CONNECT.rawValue))
    bound = evhttp_accept_socket_with_handle(http, socket)
    baseAddress.withLock { $0 = Int(bitPattern: UnsafeRawPointer(base)) }
    if let grace = stopAsked.withLock({ $0 }) { beginStopping(graceSeconds: grace) }
    event_base_dispatch(base)
    baseAddress.withLock { $0 = 0 }
    if let timer { event_free(timer) }
    evhttp_free(http)
    event_base_free(base)
  }

  /// Asks the loop, from any thread, to stop accepting and end once its requests are answered.
  func stop(graceSeconds: Double) {
    let scheduled = baseAddress.withLock { address -> Bool in
      guard let base = OpaquePointer(bitPattern: address) else { return false }
      var now = timeval()
      let context = Unmanaged.passRetained(StopRequest(worker: self, graceSeconds: graceSeconds))
      event_base_once(base, -1, Int16(EV_TIMEOUT), stopOnLoop, context.toOpaque(), &now)
      return true
    }
    if !scheduled { stopAsked.withLock { $0 = graceSeconds } }
  }

  /// On the loop's thread: stops accepting, then checks every 20 ms whether the requests in
  /// flight are answered.
  fileprivate func beginStopping(graceSeconds: Double) {
    guard !stopping, let http, let base else { return }
    stopping = true
    if let bound { evhttp_del_accept_socket(http, bound) }
    bound = nil
    deadline = monotonicSeconds() + graceSeconds
    timer = event_new(
      base, -1, Int16(EV_PERSIST), checkStoppedOnLoop, Unmanaged.passUnretained(self).toOpaque())
    var interval = timeval(tv_sec: 0, tv_usec: 20_000)
    event_add(timer, &interval)
  }

  fileprivate func checkStopped() {
    guard inFlight == 0 || monotonicSeconds() > deadline, let base else {
      return
    }
    event_base_loopexit(base, nil)
  }

  // MARK: - Requests

  fileprivate func answer(_ request: OpaquePointer) {
    let start = monotonicSeconds()
    inFlight += 1
    let context = Unmanaged.passUnretained(self).toOpaque()
    evhttp_request_set_on_complete_cb(request, requestDone, context)
    if let connection = evhttp_request_get_connection(request),
      connections.insert(connection).inserted
    {
      evhttp_connection_set_closecb(connection, connectionClosed, context)
      if connections.count >= configuration.maximumConnectionsPerThread { pauseAccepting(true) }
    }
    let incoming = Self.request(from: request)
    let response = router.respond(to: incoming)
    // The connection's timeout runs from now: an answer that took longer than it (an upload that
    // waited for the archive's lock, a long import) was dropped unsent as soon as the loop went
    // on. The loop's clock is read again first: libevent times a timeout from the time it cached
    // when this callback began.
    if let connection = evhttp_request_get_connection(request), let base {
      event_base_update_cache_time(base)
      evhttp_connection_set_timeout(connection, Int32(configuration.timeoutSeconds))
    }
    let output = evhttp_request_get_output_headers(request)
    for (name, value) in response.headers { evhttp_add_header(output, name, value) }
    // libevent reads no body for TRACE or HEAD: one sent anyway would be read as the next
    // request on the connection, so the connection ends with this answer.
    let unreadBody =
      (incoming.method == "TRACE" || incoming.method == "HEAD")
      && (incoming.headers["content-length"].map { $0 != "0" } ?? false
        || incoming.headers["transfer-encoding"] != nil)
    if stopping || unreadBody { evhttp_add_header(output, "Connection", "close") }
    let reason = reasonPhrase(response.status)
    if incoming.method == "HEAD" {
      // The headers a GET would have, without its body (RFC 9110, section 9.3.2).
      if response.status != 304, response.status != 204 {
        evhttp_add_header(output, "Content-Length", String(response.body.count))
      }
      evhttp_send_reply(request, Int32(response.status), reason, nil)
    } else if response.body.count > 0, response.status != 304, response.status != 204 {
      let buffer = evbuffer_new()
      let retained = Unmanaged.passRetained(response.body).toOpaque()
      evbuffer_add_reference(
        buffer, response.body.storage.baseAddress, response.body.count, releaseBody, retained)
      evhttp_send_reply(request, Int32(response.status), reason, buffer)
      evbuffer_free(buffer)
    } else {
      evhttp_send_reply(request, Int32(response.status), reason, nil)
    }
    let milliseconds = (monotonicSeconds() - start) * 1_000
    log(
      "\(incoming.method) \(Self.loggable(incoming.path)) \(response.status)"
        + " \(response.body.count) \(Double(Int(milliseconds * 10)) / 10)ms")
  }

  fileprivate func finished() { inFlight -= 1 }

  fileprivate func closed(_ connection: OpaquePointer) {
    connections.remove(connection)
    if paused, connections.count < configuration.maximumConnectionsPerThread {
      pauseAccepting(false)
    }
  }

  /// Stops or starts accepting connections on this worker (the others go on): the kernel's
  /// queue holds new ones meanwhile.
  private func pauseAccepting(_ pause: Bool) {
    guard !stopping, let bound, let listener = evhttp_bound_socket_get_listener(bound) else {
      return
    }
    _ = pause ? evconnlistener_disable(listener) : evconnlistener_enable(listener)
    paused = pause
  }

  /// The request's method, target, headers and body, copied out of libevent's.
  private static func request(from request: OpaquePointer) -> HTTPRequest {
    let method =
      switch evhttp_request_get_command(request) {
      case EVHTTP_REQ_GET: "GET"
      case EVHTTP_REQ_POST: "POST"
      case EVHTTP_REQ_HEAD: "HEAD"
      case EVHTTP_REQ_PUT: "PUT"
      case EVHTTP_REQ_DELETE: "DELETE"
      case EVHTTP_REQ_OPTIONS: "OPTIONS"
      case EVHTTP_REQ_PATCH: "PATCH"
      case EVHTTP_REQ_TRACE: "TRACE"
      case EVHTTP_REQ_CONNECT: "CONNECT"
      default: "OTHER"
      }
    let target = evhttp_request_get_uri(request).map { String(cString: $0) } ?? "/"
    var headers: [String: String] = [:]
    var header = chart_archive_first_header(evhttp_request_get_input_headers(request))
    while let current = header {
      if let key = current.pointee.key, let value = current.pointee.value {
        headers[String(cString: key), default: ""] +=
          (headers[String(cString: key)] == nil ? "" : ", ") + String(cString: value)
      }
      header = chart_archive_next_header(current)
    }
    var body: [UInt8] = []
    if let input = evhttp_request_get_input_buffer(request) {
      let length = evbuffer_get_length(input)
      if length > 0 {
        body = [UInt8](repeating: 0, count: length)
        _ = body.withUnsafeMutableBytes { evbuffer_copyout(input, $0.baseAddress, length) }
      }
    }
    return HTTPRequest(method: method, target: target, headers: headers, body: body)
  }

  /// A path for the log: control characters (a request's own bytes) escaped.
  private static func loggable(_ path: String) -> String {
    if path.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) { return path }
    return String(
      path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
  }
}

/// What a stop hands to the loop's thread.
private final class StopRequest {
  let worker: Worker
  let graceSeconds: Double

  init(worker: Worker, graceSeconds: Double) {
    self.worker = worker
    self.graceSeconds = graceSeconds
  }
}

// MARK: - libevent's callbacks (C functions: their context comes through the `void *` argument)

private func runWorker(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  Unmanaged<Worker>.fromOpaque(context).takeRetainedValue().run()
  return nil
}

private func answerRequest(_ request: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let request, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().answer(request)
}

private func requestDone(_ request: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().finished()
}

private func releaseBody(
  _ data: UnsafeRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?
) {
  guard let context else { return }
  Unmanaged<ResponseBody>.fromOpaque(context).release()
}

private func stopOnLoop(_ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  let request = Unmanaged<StopRequest>.fromOpaque(context).takeRetainedValue()
  request.worker.beginStopping(graceSeconds: request.graceSeconds)
}

private func checkStoppedOnLoop(
  _ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?
) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().checkStopped()
}

private func connectionClosed(_ connection: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let connection, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().closed(connection)
}

/// Monotonic time in seconds.
private func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
