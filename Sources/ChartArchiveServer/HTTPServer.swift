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
/// Its limits: the request body and headers' sizes (evhttp's own, answering 413 or closing), the
/// time a client may take to send a request head (from its first byte) or stay idle, and the
/// connections each thread holds, whether they have sent a request or not (see ``Worker``: at the
/// limit the one that has waited longest without sending a whole request is closed). Each request
/// is written to the access log as one line.
public final class HTTPServer: Sendable {
  /// The port it listens on (the one the system chose for port 0).
  public let port: Int
  /// The address it listens on, as given.
  public let host: String
  private let socket: Int32
  private let workers: [Worker]
  /// Where uploads wait to be written, on a server that takes them.
  private let uploads: UploadQueue?

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
    let uploads = router.uploads == nil ? nil : UploadQueue(router: router)
    self.uploads = uploads
    workers = (0..<max(1, configuration.threads)).map { index in
      Worker(
        index: index, configuration: configuration, router: router, uploads: uploads, log: log)
    }
  }

  deinit { close(socket) }

  /// libevent's locks, for an event loop told to stop from another thread
  /// (<https://libevent.org/libevent-book/Ref1_libsetup.html>).
  private static let enableThreads: Void = { evthread_use_pthreads() }()

  /// Answers requests on every worker thread until ``stop()``, then returns once each has
  /// finished the requests it was answering, and the uploads' thread has written the uploads it
  /// took.
  public func run() {
    uploads?.start()
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
    uploads?.close()
  }

  /// Stops accepting connections and ends each worker's loop once the requests in flight are
  /// answered and the connections closed after them have lingered (or after `graceSeconds`).
  /// Callable from any thread; ``run()`` then returns.
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

// MARK: - libevent's callbacks (C functions: their context comes through the `void *` argument)

private func runWorker(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  guard let context else { return nil }
  Unmanaged<Worker>.fromOpaque(context).takeRetainedValue().run()
  return nil
}
