internal import CEvent
import Glibc
import Synchronization

/// One worker thread: an event loop, its `evhttp`, the connections it holds.
///
/// Every connection counts toward the worker's limit from its accept to its close, whether it has
/// sent a request or not. At the limit, the connection that has waited longest for its request
/// (idle between requests, or still sending its head or body) is closed to make room; only when
/// none can be (every other one is being answered, or has sent nothing for less than a second
/// since its accept or its last answer) does the worker stop accepting until one can: it holds
/// one connection over its limit at most.
/// When the process is out of file descriptors (accept fails), the same connection is closed, or
/// accepting pauses for a quarter of a second: never a loop that tries again at once.
///
/// A request head must be whole within the timeout of its first byte (libevent's own timeout
/// starts again with every byte, so that a client sending a header line now and then was never
/// cut off). The worker reads each head as it arrives, before libevent, for that and for what it
/// refuses (``RequestHead``): such a request is answered 400 and its connection closed. A plain
/// GET whose answer the worker keeps whole (``WholeAnswer``) is answered there and then, without
/// libevent's HTTP layer.
final class Worker: @unchecked Sendable {
  let index: Int
  let configuration: ServerConfiguration
  let router: Router
  let log: @Sendable (String) -> Void
  /// Where uploads are handed over, on a server that takes them.
  let uploads: UploadQueue?
  /// The listening socket's copy this worker accepts on (and closes when it stops accepting).
  var socket: Int32 = -1

  // The event loop's own state: touched on its thread only, but for `base`, set before the loop
  // runs and read by `stop` and by answers made on other threads, which hand their work to the
  // loop.
  private let baseAddress = Mutex<Int>(0)
  /// The event loop, while it runs.
  private var base: OpaquePointer? { OpaquePointer(bitPattern: baseAddress.withLock { $0 }) }
  private var http: OpaquePointer?
  private var bound: OpaquePointer?
  /// The connections held, by bufferevent.
  private var held: [OpaquePointer: HeldConnection] = [:]
  /// Those waiting for a request or sending one, oldest first.
  private var waiting = ConnectionList(.waiting)
  /// Those sending a head, the one whose first byte came first first.
  private var heads = ConnectionList(.heads)
  /// Those accepted whose libevent connection is not known yet.
  private var unattached: [HeldConnection] = []
  /// Those whose head is refused, to answer.
  private var refused: [HeldConnection] = []
  /// Those whose next request came while the one before was answered, to answer whole.
  private var answerWholeSoon: [HeldConnection] = []
  /// How many requests are being answered (or their answers written).
  private var answering = 0
  /// How many connections were accepted in this turn of the loop.
  private var acceptedThisTurn = 0
  /// The most connections accepted in one turn of the loop: then the loop reads what the
  /// connections sent before it accepts more, so that a flood of new connections cannot close
  /// (at the limit) one that sent its request at once before it is read.
  private static let acceptsPerTurn = 8
  /// Whether accepting is paused: at the limit, or out of file descriptors (`outOfFiles`).
  private var paused = false
  private var outOfFiles = false
  private var stopping = false
  /// Whether the loop has ended: the connections left are closed then, none lingers.
  private var loopEnded = false
  private var deadline = 0.0
  /// Connections closed since the last summary in the log: at the limit, past the deadline.
  private var closedAtLimit = 0
  private var closedAtDeadline = 0
  private var lastSummary = 0.0
  private var stopTimer: OpaquePointer?
  private var ticker: OpaquePointer?
  private var housekeeping: OpaquePointer?
  /// Whether the archive was checked for a change in this turn of the loop (see
  /// ``keptAnswer(to:)``), and the event that says the turn ended.
  private var archiveChecked = false
  private var turnEnded: OpaquePointer?
  /// The response cache's epoch when this worker last checked the archive (see
  /// ``ResponseCache/epoch(checking:)``).
  private var checkedEpoch = -1
  /// The answers kept whole, by the plain GET they answer (see ``WholeAnswer``), all found in
  /// the response cache at one epoch; and the bytes they take.
  private var wholeAnswers: [RequestHead.PlainGet: WholeAnswer] = [:]
  private var wholeAnswersEpoch = -1
  private var wholeAnswersBytes = 0
  /// A stop asked for before the loop was made.
  private let stopAsked = Mutex<Double?>(nil)

  /// The workers by their `evhttp`, for the listener's error callback, which libevent gives the
  /// `evhttp`.
  private static let byHTTP = Mutex<[Int: Worker]>([:])

  init(
    index: Int, configuration: ServerConfiguration, router: Router, uploads: UploadQueue?,
    log: @escaping @Sendable (String) -> Void
  ) {
    self.index = index
    self.configuration = configuration
    self.router = router
    self.uploads = uploads
    self.log = log
  }

  private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
  private var limit: Int { max(1, configuration.maximumConnectionsPerThread) }

  /// The loop: runs on the worker's thread until stopped.
  func run() {
    guard let base = Self.makeBase(), let http = evhttp_new(base) else { return }
    self.http = http
    configure(http)
    bound = evhttp_accept_socket_with_handle(http, socket)
    if let bound, let listener = evhttp_bound_socket_get_listener(bound) {
      Self.byHTTP.withLock { $0[Int(bitPattern: UnsafeRawPointer(http))] = self }
      evconnlistener_set_error_cb(listener, acceptFailedOnLoop)
    }
    housekeeping = event_new(base, -1, 0, keepHouseOnLoop, context)
    turnEnded = event_new(base, -1, 0, endTurnOnLoop, context)
    ticker = event_new(base, -1, Int16(EV_PERSIST), tickOnLoop, context)
    var interval = timeval(tv_sec: 0, tv_usec: 250_000)
    event_add(ticker, &interval)
    baseAddress.withLock { $0 = Int(bitPattern: UnsafeRawPointer(base)) }
    if let grace = stopAsked.withLock({ $0 }) { beginStopping(graceSeconds: grace) }
    event_base_dispatch(base)
    loopEnded = true
    baseAddress.withLock { $0 = 0 }
    for event in [stopTimer, ticker, housekeeping, turnEnded] { if let event { event_free(event) } }
    // Closes every connection left (each one's close callback forgets it), then forgets those
    // libevent freed before their close callback was set.
    evhttp_free(http)
    for connection in Array(held.values) { forget(connection) }
    lingerSoon = []
    for bufferevent in Array(lingering.keys) { endLingering(bufferevent) }
    Self.byHTTP.withLock { $0[Int(bitPattern: UnsafeRawPointer(http))] = nil }
    event_base_free(base)
    for address in pendingWork.withLock({ $0 }) {
      if let context = UnsafeRawPointer(bitPattern: address) {
        Unmanaged<LoopWork>.fromOpaque(context).release()
      }
    }
    pendingWork.withLock { $0 = [] }
  }

  /// The loop's event base. Its changes of what epoll watches are batched until the loop next
  /// waits (`EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST`): a request answered within its turn of the
  /// loop (``writeNow(_:)``) turns the socket's write interest on and off again, and libevent
  /// turns its read interest off and on, which then cost one `epoll_ctl` instead of four. What
  /// that asks: no socket the loop watches is closed while another descriptor of it stays open
  /// (the listening socket, which every worker holds a copy of: see ``beginStopping(graceSeconds:)``).
  private static func makeBase() -> OpaquePointer? {
    guard let settings = event_config_new() else { return nil }
    defer { event_config_free(settings) }
    event_config_set_flag(settings, Int32(EVENT_BASE_FLAG_EPOLL_USE_CHANGELIST.rawValue))
    return event_base_new_with_config(settings)
  }

  /// libevent's settings: the callbacks, the limits, the methods.
  private func configure(_ http: OpaquePointer) {
    evhttp_set_gencb(http, answerRequest, context)
    evhttp_set_bevcb(http, makeBuffereventOnLoop, context)
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
  }

  /// Asks the loop, from any thread, to stop accepting and end once its requests are answered.
  func stop(graceSeconds: Double) {
    if !onLoop({ [self] in beginStopping(graceSeconds: graceSeconds) }) {
      stopAsked.withLock { $0 = graceSeconds }
    }
  }

  /// Runs work on the loop's thread after a delay, asked from any thread; whether the loop runs
  /// (work asked once it has ended is dropped, and so is work pending when it ends).
  @discardableResult
  func onLoop(after seconds: Double = 0, _ work: @escaping @Sendable () -> Void) -> Bool {
    baseAddress.withLock { address -> Bool in
      guard let base = OpaquePointer(bitPattern: address) else { return false }
      let whole = max(0, seconds).rounded(.down)
      var delay = timeval(tv_sec: Int(whole), tv_usec: Int((max(0, seconds) - whole) * 1e6))
      let context = Unmanaged.passRetained(LoopWork(work, worker: self)).toOpaque()
      pendingWork.withLock { _ = $0.insert(Int(bitPattern: context)) }
      guard event_base_once(base, -1, Int16(EV_TIMEOUT), runOnLoop, context, &delay) == 0 else {
        pendingWork.withLock { _ = $0.remove(Int(bitPattern: context)) }
        Unmanaged<LoopWork>.fromOpaque(context).release()
        return false
      }
      return true
    }
  }

  /// The work handed to the loop and not run yet, by address: what the loop has not run when it
  /// ends (an upload's deadline, say) is released then.
  fileprivate let pendingWork = Mutex<Set<Int>>([])

  /// On the loop's thread: stops accepting, then checks every 20 ms whether the requests in
  /// flight are answered and no closed connection lingers (within the grace).
  fileprivate func beginStopping(graceSeconds: Double) {
    guard !stopping, http != nil, let base else { return }
    stopping = true
    // The listening socket is closed once epoll has stopped watching it: closed with that change
    // still batched (see `makeBase`), epoll would go on watching it (the other workers' copies
    // keep it open), and the loop would wake for every connection they accept.
    if let bound, let listener = evhttp_bound_socket_get_listener(bound) {
      evconnlistener_disable(listener)
    }
    onLoop { [self] in
      if let http = self.http, let bound { evhttp_del_accept_socket(http, bound) }
      bound = nil
    }
    deadline = monotonicSeconds() + graceSeconds
    stopTimer = event_new(base, -1, Int16(EV_PERSIST), checkStoppedOnLoop, context)
    var interval = timeval(tv_sec: 0, tv_usec: 20_000)
    event_add(stopTimer, &interval)
  }

  fileprivate func checkStopped() {
    guard (answering == 0 && lingering.isEmpty) || monotonicSeconds() > deadline, let base
    else { return }
    event_base_loopexit(base, nil)
  }

  // MARK: - Connections

  /// A new connection's bufferevent, made for libevent as it accepts (`evhttp_set_bevcb`): the
  /// connection is held from now on, and at the limit another makes room.
  fileprivate func makeBufferevent(_ base: OpaquePointer) -> OpaquePointer? {
    // The socket is closed when the bufferevent is freed: by the last reference given back,
    // which is the worker's (see `forget` and `linger`).
    guard let bufferevent = bufferevent_socket_new(base, -1, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
    else { return nil }
    bufferevent_incref(bufferevent)
    let connection = HeldConnection(bufferevent: bufferevent, since: monotonicSeconds())
    connection.inputCallback = evbuffer_add_cb(
      bufferevent_get_input(bufferevent), inputChangedOnLoop,
      Unmanaged.passUnretained(connection).toOpaque())
    connection.worker = self
    held[bufferevent] = connection
    waiting.append(connection)
    // libevent makes its connection once this returns: it is found in this turn of the loop.
    unattached.append(connection)
    event_active(housekeeping, EV_TIMEOUT, 0)
    acceptedThisTurn += 1
    if acceptedThisTurn == Self.acceptsPerTurn, !paused, let bound,
      let listener = evhttp_bound_socket_get_listener(bound)
    {
      evconnlistener_disable(listener)
    }
    if held.count + lingering.count > limit,
      let oldest = lingering.min(by: { $0.value < $1.value })?.key
    {
      endLingering(oldest)
    }
    // Down to the limit: one over it after a pause (below) would otherwise stay held.
    while held.count > limit {
      guard closeOldestWaiting(sparing: connection) else {
        pauseAccepting(true)
        break
      }
      closedAtLimit += 1
    }
    return bufferevent
  }

  /// Closes the connection whose head has been coming longest, else the one that has waited
  /// longest for its request if it has waited ``idleGraceSeconds``, but `spared`; whether one was
  /// closed. A connection that sent nothing yet is spared a moment: a client whose request is on
  /// its way is not closed by a flood of new connections before its bytes are read.
  private func closeOldestWaiting(sparing spared: HeldConnection? = nil) -> Bool {
    while let oldest = heads.oldest ?? waiting.oldest, oldest !== spared,
      oldest.headStarted != nil || monotonicSeconds() - oldest.waitingSince >= Self.idleGraceSeconds
    {
      if close(oldest) { return true }
    }
    return false
  }

  /// How long a connection that sent nothing since it began waiting is spared when room is made.
  private static let idleGraceSeconds = 1.0

  /// libevent's connection of a held one, found from its bufferevent's callbacks (whose argument
  /// is the connection): its close callback is set then. `nil` when libevent has freed it (its
  /// callbacks are cleared), which forgets it.
  private func attach(_ connection: HeldConnection) -> OpaquePointer? {
    if let known = connection.connection { return known }
    var argument: UnsafeMutableRawPointer?
    bufferevent_getcb(connection.bufferevent, nil, nil, nil, &argument)
    guard let argument, !connection.isForgotten else {
      forget(connection)
      return nil
    }
    let found = OpaquePointer(argument)
    connection.connection = found
    evhttp_connection_set_closecb(found, connectionClosed, context)
    return found
  }

  /// Closes a held connection (libevent's close callback then forgets it); whether it was open.
  ///
  /// - Parameter lingering: whether its socket reads what the client still sends before it is
  ///   closed (see ``closed(_:)``); a connection closed at a limit or a deadline is not.
  @discardableResult
  private func close(_ connection: HeldConnection, lingering: Bool = false) -> Bool {
    guard !connection.isForgotten, let found = attach(connection) else { return false }
    closeLingers = lingering
    defer { closeLingers = true }
    evhttp_connection_free(found)
    forget(connection)
    return true
  }

  /// Whether a connection closed now lingers: libevent's own closes do, after an answer that
  /// ends its connection (`Connection: close`, HTTP/1.0) or a request it refused.
  private var closeLingers = true

  /// libevent closed a connection (its close callback, before it shuts the socket down for
  /// writing and frees the bufferevent). Unless the loop has ended or the worker is at its limit
  /// (where a lingering socket counts, and a new connection ends the one lingering longest), the
  /// socket stays open a moment, reading and dropping what the client still sends: closed with
  /// unread input, it would send a reset, which can make the client's system discard answers it
  /// received but has not read yet (RFC 9112, section 9.6).
  fileprivate func closed(_ connection: OpaquePointer) {
    guard let bufferevent = evhttp_connection_get_bufferevent(connection),
      let closing = held[bufferevent]
    else { return }
    // A lingering socket counts toward the limit (`held` counts this one still).
    let lingers = closeLingers && !loopEnded && !outOfFiles && held.count + lingering.count <= limit
    forget(closing, keepingSocket: lingers)
    if lingers {
      // libevent clears the bufferevent's callbacks once this returns: it lingers from the
      // housekeeping of this turn of the loop on.
      lingering[bufferevent] = monotonicSeconds()
      lingerSoon.append(bufferevent)
      event_active(housekeeping, EV_TIMEOUT, 0)
    }
  }

  /// Sockets closed by libevent that linger (see ``closed(_:)``), by bufferevent, with when they
  /// began to; and those to begin in this turn's housekeeping.
  private var lingering: [OpaquePointer: Double] = [:]
  private var lingerSoon: [OpaquePointer] = []
  /// How long a socket lingers at most, and how long it waits for the client's next bytes.
  private static let lingerSeconds = 2.0
  private static let lingerWaitSeconds = 1

  /// Lets the bufferevent of a connection libevent closed read and drop what comes, until the
  /// client closes its side, waits more than ``lingerWaitSeconds`` or lingers more than
  /// ``lingerSeconds``.
  private func linger(_ bufferevent: OpaquePointer) {
    guard bufferevent_getfd(bufferevent) >= 0 else { return endLingering(bufferevent) }
    bufferevent_setcb(bufferevent, lingerReadOnLoop, nil, lingerEventOnLoop, context)
    bufferevent_disable(bufferevent, Int16(EV_WRITE))
    let output = bufferevent_get_output(bufferevent)
    evbuffer_drain(output, evbuffer_get_length(output))
    bufferevent_enable(bufferevent, Int16(EV_READ))
    // Drops what came already and sets the wait.
    lingerRead(bufferevent)
  }

  /// A lingering socket read: what came is dropped; past ``lingerSeconds`` it is closed.
  fileprivate func lingerRead(_ bufferevent: OpaquePointer) {
    let input = bufferevent_get_input(bufferevent)
    evbuffer_drain(input, evbuffer_get_length(input))
    guard let since = lingering[bufferevent] else { return }
    // The next wait ends at the linger's end at the latest.
    let left = Self.lingerSeconds - (monotonicSeconds() - since)
    guard left > 0 else { return endLingering(bufferevent) }
    let wait = min(Double(Self.lingerWaitSeconds), left)
    var timeout = timeval(tv_sec: Int(wait), tv_usec: Int((wait - wait.rounded(.down)) * 1e6))
    bufferevent_set_timeouts(bufferevent, &timeout, nil)
  }

  /// Closes a lingering socket: the last reference to its bufferevent is given back, which
  /// closes it (`BEV_OPT_CLOSE_ON_FREE`).
  fileprivate func endLingering(_ bufferevent: OpaquePointer) {
    guard lingering.removeValue(forKey: bufferevent) != nil else { return }
    bufferevent_setcb(bufferevent, nil, nil, nil, nil)
    bufferevent_disable(bufferevent, Int16(EV_READ | EV_WRITE))
    bufferevent_decref(bufferevent)
  }

  /// Lets a connection go: out of the lists, its input no longer watched, its bufferevent given
  /// back (but when its socket lingers: the reference is kept until it is closed); accepting
  /// starts again below the limit.
  private func forget(_ connection: HeldConnection, keepingSocket: Bool = false) {
    guard !connection.isForgotten else { return }
    connection.isForgotten = true
    held[connection.bufferevent] = nil
    waiting.remove(connection)
    heads.remove(connection)
    if connection.isAnswering {
      connection.isAnswering = false
      answering -= 1
    }
    if let callback = connection.inputCallback {
      evbuffer_remove_cb_entry(bufferevent_get_input(connection.bufferevent), callback)
    }
    connection.inputCallback = nil
    if !keepingSocket { bufferevent_decref(connection.bufferevent) }
    if paused, !outOfFiles, held.count < limit { pauseAccepting(false) }
  }

  /// Bytes came into a connection's input, or were taken from it: a head being sent is read.
  fileprivate func inputChanged(_ connection: HeldConnection, added: Int, deleted: Int) {
    if deleted > 0 { connection.head.drained(deleted) }
    guard added > 0, !connection.isAnswering, !connection.head.isComplete else { return }
    if connection.headStarted == nil { startHead(of: connection, at: monotonicSeconds()) }
    readHead(of: connection)
    answerWhole(connection)
  }

  /// The first byte of a connection's head came: the deadline for its head runs.
  private func startHead(of connection: HeldConnection, at time: Double) {
    connection.headStarted = time
    heads.append(connection)
  }

  /// A connection's head is whole, or its request is being answered: no deadline runs.
  private func endHead(of connection: HeldConnection) {
    connection.headStarted = nil
    heads.remove(connection)
  }

  /// Reads the whole lines of a connection's head that arrived (see ``RequestHead``); a head
  /// found whole is no longer under the deadline, and a refused one is answered.
  private func readHead(of connection: HeldConnection) {
    let input = bufferevent_get_input(connection.bufferevent)
    let length = evbuffer_get_length(input)
    // Input in one piece (a head that came in one read) is read where it is.
    var piece = iovec()
    if connection.head.searched < length, evbuffer_peek(input, -1, nil, &piece, 1) >= 1,
      piece.iov_len >= length, let start = piece.iov_base
    {
      readHead(of: connection, in: UnsafeRawBufferPointer(start: start, count: length))
    }
    while !connection.head.isComplete, connection.head.searched < length {
      var from = evbuffer_ptr()
      guard evbuffer_ptr_set(input, &from, connection.head.searched, EVBUFFER_PTR_SET) == 0 else {
        break
      }
      let end = evbuffer_search(input, "\n", 1, &from)
      guard end.pos >= 0 else {
        connection.head.searched = length
        break
      }
      var start = evbuffer_ptr()
      evbuffer_ptr_set(input, &start, connection.head.lineStart, EVBUFFER_PTR_SET)
      var line = [UInt8](repeating: 0, count: end.pos - connection.head.lineStart)
      _ = line.withUnsafeMutableBytes {
        evbuffer_copyout_from(input, &start, $0.baseAddress, $0.count)
      }
      line.withUnsafeBytes { connection.head.read(line: $0) }
      connection.head.lineStart = end.pos + 1
      connection.head.searched = end.pos + 1
    }
    guard connection.head.isComplete else {
      // A head still coming can be closed to make room: a thread paused at its limit with none
      // to close accepts again. (Not for a head that came whole: its connection cannot be
      // closed, and each request would let one more connection in.)
      if paused, !outOfFiles { pauseAccepting(false) }
      return
    }
    endHead(of: connection)
    if connection.head.refusal != nil {
      refused.append(connection)
      event_active(housekeeping, EV_TIMEOUT, 0)
    }
  }

  /// Reads the whole lines of a connection's head in its input's bytes, as ``readHead(of:)``
  /// does.
  private func readHead(of connection: HeldConnection, in input: UnsafeRawBufferPointer) {
    while !connection.head.isComplete, connection.head.searched < input.count {
      guard let end = input[connection.head.searched...].firstIndex(of: UInt8(ascii: "\n")) else {
        connection.head.searched = input.count
        break
      }
      connection.head.read(
        line: UnsafeRawBufferPointer(rebasing: input[connection.head.lineStart..<end]))
      connection.head.lineStart = end + 1
      connection.head.searched = end + 1
    }
  }

  /// After each accept, refused head and request that came behind another, in the same turn of
  /// the loop: finds libevent's connections of those accepted, accepts again after a turn's
  /// most, answers whole what can be (before libevent reads it: its reading is queued behind this
  /// event), and answers refused heads that libevent has not handed over (their body not whole).
  fileprivate func keepHouse() {
    if acceptedThisTurn >= Self.acceptsPerTurn, !paused, !stopping, let bound,
      let listener = evhttp_bound_socket_get_listener(bound)
    {
      evconnlistener_enable(listener)
    }
    acceptedThisTurn = 0
    let accepted = unattached
    unattached = []
    for connection in accepted where !connection.isForgotten { _ = attach(connection) }
    let whole = answerWholeSoon
    answerWholeSoon = []
    for connection in whole where !connection.isForgotten { answerWhole(connection) }
    let lingers = lingerSoon
    lingerSoon = []
    for bufferevent in lingers { linger(bufferevent) }
    let refusing = refused
    refused = []
    for connection in refusing where !connection.isForgotten && !connection.isAnswering {
      refuse(connection)
    }
  }

  /// Answers a refused head 400 on the socket itself (libevent is still reading the request)
  /// and closes the connection.
  private func refuse(_ connection: HeldConnection) {
    let start = monotonicSeconds()
    let response = router.refusal(connection.head.refusal ?? "the request is malformed")
    var head = "HTTP/1.1 400 \(reasonPhrase(400))\r\nDate: \(Self.httpDate())\r\n"
    for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + response.body.bytes
    let descriptor = bufferevent_getfd(connection.bufferevent)
    if descriptor >= 0 {
      _ = Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
    // What the client sends on is read and dropped, so that closing sends no reset, which could
    // discard the answer before the client reads it.
    close(connection, lingering: true)
    logAnswer(
      method: connection.head.method, route: nil, path: connection.head.target, status: 400,
      bytes: response.body.count, since: start)
  }

  /// Every quarter of a second: closes connections whose head is not whole within the timeout
  /// of its first byte, tries accepting again after running out of files, and says in the log
  /// how many connections were closed at the limit or the deadline (at most every 10 s).
  fileprivate func tick() {
    let now = monotonicSeconds()
    let timeout = Double(configuration.timeoutSeconds)
    while let oldest = heads.oldest, let started = oldest.headStarted, now - started > timeout {
      if close(oldest) { closedAtDeadline += 1 }
    }
    if outOfFiles || paused,
      held.count < limit || heads.oldest != nil
        || waiting.oldest.map({ now - $0.waitingSince >= Self.idleGraceSeconds }) == true
    {
      outOfFiles = false
      pauseAccepting(false)
    }
    if closedAtLimit + closedAtDeadline > 0, now - lastSummary >= 10 {
      log(
        "thread \(index + 1) closed \(closedAtLimit) connections to make room (\(limit) a"
          + " thread) and \(closedAtDeadline) whose request head was not whole within"
          + " \(configuration.timeoutSeconds) s")
      closedAtLimit = 0
      closedAtDeadline = 0
      lastSummary = now
    }
  }

  /// Accepting failed, and not for a moment (out of file descriptors, or of memory for one): the
  /// connection that has waited longest makes room, or accepting pauses until the next tick.
  fileprivate func acceptFailed() {
    closedAtLimit += 1
    if !closeOldestWaiting() {
      outOfFiles = true
      pauseAccepting(true)
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

  // MARK: - Requests

  /// The held connection a request came on.
  private func heldConnection(of request: OpaquePointer) -> HeldConnection? {
    guard let connection = evhttp_request_get_connection(request),
      let bufferevent = evhttp_connection_get_bufferevent(connection)
    else { return nil }
    return held[bufferevent]
  }

  fileprivate func answer(_ request: OpaquePointer) {
    let start = monotonicSeconds()
    let connection = heldConnection(of: request)
    if let connection, !connection.isAnswering {
      _ = attach(connection)
      connection.isAnswering = true
      endHead(of: connection)
      waiting.remove(connection)
      answering += 1
    }
    evhttp_request_set_on_complete_cb(request, requestDone, context)
    if connection?.head.refusal == nil, let (asked, kept) = keptAnswer(to: request) {
      if asked.method == "GET", let plain = connection?.head.plainGet {
        keepWhole(kept.response, epoch: kept.epoch, countsHit: kept.countsHit, for: plain)
      }
      send(kept.response, to: request, method: asked.method, target: asked.target, since: start)
      return
    }
    let incoming = Self.request(from: request)
    if let refusal = connection?.head.refusal {
      reply(router.refusal(refusal), to: request, incoming: incoming, since: start, closing: true)
    } else if let uploads, router.isAuthorizedUpload(incoming) {
      handOver(incoming, RequestHandle(pointer: request), since: start, to: uploads)
    } else {
      reply(router.respond(to: incoming), to: request, incoming: incoming, since: start)
    }
  }

  /// Hands an upload to the uploads' thread, which hands its answer back to this loop; at its
  /// deadline, this loop answers it 503 unless the thread has begun it. A full queue answers 503
  /// at once.
  private func handOver(
    _ incoming: HTTPRequest, _ request: RequestHandle, since start: Double, to queue: UploadQueue
  ) {
    let deadline = start + Double(configuration.uploadWaitMilliseconds) / 1_000
    let upload = UploadQueue.Upload(request: incoming, arrived: start, deadline: deadline) {
      [self] response in
      onLoop { [self] in reply(response, to: request.pointer, incoming: incoming, since: start) }
    }
    guard queue.add(upload) else {
      reply(router.uploadsBusy(incoming), to: request.pointer, incoming: incoming, since: start)
      return
    }
    onLoop(after: deadline - monotonicSeconds()) { [self] in
      guard upload.claim(.expired) else { return }
      reply(router.uploadsBusy(incoming), to: request.pointer, incoming: incoming, since: start)
    }
  }

  /// The answer the router kept for a GET or HEAD request as it came, found from libevent's
  /// request without copying it (see ``Router/keptAnswer(to:acceptEncoding:)``); `nil` for any
  /// other request, one with `If-None-Match`, a body or a header the answer may depend on given
  /// twice, and one whose answer is not kept: ``Router/respond(to:)`` answers those.
  private func keptAnswer(
    to request: OpaquePointer
  ) -> (ResponseCache.Asked, (response: HTTPResponse, epoch: Int, countsHit: Bool))? {
    let method: String
    switch evhttp_request_get_command(request) {
    case EVHTTP_REQ_GET: method = "GET"
    case EVHTTP_REQ_HEAD: method = "HEAD"
    default: return nil
    }
    guard let uri = evhttp_request_get_uri(request) else { return nil }
    var accept: String?
    var acceptEncoding: String?
    var header = chart_archive_first_header(evhttp_request_get_input_headers(request))
    while let current = header {
      header = chart_archive_next_header(current)
      guard let key = current.pointee.key, let value = current.pointee.value else { continue }
      if strcasecmp(key, "accept") == 0 {
        guard accept == nil else { return nil }
        accept = String(cString: value)
      } else if strcasecmp(key, "accept-encoding") == 0 {
        guard acceptEncoding == nil else { return nil }
        acceptEncoding = String(cString: value)
      } else if strcasecmp(key, "if-none-match") == 0 || strcasecmp(key, "content-length") == 0
        || strcasecmp(key, "transfer-encoding") == 0
      {
        return nil
      }
    }
    let asked = ResponseCache.Asked(method: method, target: String(cString: uri), accept: accept)
    // The archive is checked for a change (its files' stamps and its version) once a turn of the
    // loop, by its first such request: every request the turn answers arrived before the loop's
    // wait for it returned, so before the check (libevent reads a request that came behind
    // another, on the same connection, in the next turn), and a change made before a request was
    // sent is seen.
    let checking = !archiveChecked
    let kept = router.keptAnswerAndEpoch(
      to: asked, acceptEncoding: acceptEncoding, checkingArchive: checking)
    if checking {
      // Found missing, the archive was checked all the same.
      archiveCheckedThisTurn(epoch: kept?.epoch ?? router.cache.epoch(checking: false))
    }
    return kept.map { (asked, $0) }
  }

  /// The archive was checked in this turn of the loop, and the cache was at an epoch then.
  private func archiveCheckedThisTurn(epoch: Int) {
    archiveChecked = true
    checkedEpoch = max(checkedEpoch, epoch)
    // Run once the turn's other callbacks have run: those of the events the wait returned are
    // queued already; what is queued later runs in the next turn.
    event_active(turnEnded, EV_TIMEOUT, 0)
  }

  /// The loop's turn ended: the next request found by how it came checks the archive again.
  fileprivate func endTurn() { archiveChecked = false }

  // MARK: - Answers kept whole

  /// Keeps an answer the cache gave a plain GET, at the cache's epoch, whole (see
  /// ``WholeAnswer``): not one found at an epoch older than those kept, nor one with headers
  /// given one by one, nor past the bound (a quarter of the response cache's limit, when the
  /// whole answers start again).
  private func keepWhole(
    _ response: HTTPResponse, epoch: Int, countsHit: Bool, for plain: RequestHead.PlainGet
  ) {
    guard !stopping, epoch >= wholeAnswersEpoch, wholeAnswers[plain] == nil,
      let answer = WholeAnswer(response, countsHit: countsHit)
    else { return }
    if epoch > wholeAnswersEpoch { forgetWholeAnswers(epoch: epoch) }
    let size =
      answer.size + plain.target.count + (plain.accept?.count ?? 0)
      + (plain.acceptEncoding?.count ?? 0) + ResponseCache.entryOverhead
    if wholeAnswersBytes + size > router.cache.limitBytes / 4 { forgetWholeAnswers(epoch: epoch) }
    wholeAnswers[plain] = answer
    wholeAnswersBytes += size
  }

  private func forgetWholeAnswers(epoch: Int) {
    wholeAnswers = [:]
    wholeAnswersBytes = 0
    wholeAnswersEpoch = epoch
  }

  /// Answers the plain GETs whose heads are whole at the start of a connection's input from the
  /// answers kept whole, writing each to the socket without libevent's HTTP layer (which never
  /// sees those requests), and reads the head that follows; stops at a request it has no such
  /// answer for, which libevent answers. The archive is checked once a turn, as for
  /// ``keptAnswer(to:)``. An answer the socket does not take at once is written by the loop
  /// (`writeRest`), and the connection reads nothing more until it is.
  private func answerWhole(_ connection: HeldConnection) {
    while !stopping, !connection.isAnswering, connection.head.isUntouched,
      let plain = connection.head.plainGet
    {
      let length = connection.head.lineStart
      let bufferevent = connection.bufferevent
      let input = bufferevent_get_input(bufferevent)
      let descriptor = bufferevent_getfd(bufferevent)
      guard length <= configuration.maximumHeaderBytes, evbuffer_get_length(input) >= length,
        descriptor >= 0
      else { return }
      if !archiveChecked { archiveCheckedThisTurn(epoch: router.cache.epoch(checking: true)) }
      if checkedEpoch > wholeAnswersEpoch { forgetWholeAnswers(epoch: checkedEpoch) }
      guard let answer = wholeAnswers[plain] else { return }
      let start = monotonicSeconds()
      if answer.countsHit { router.metrics.recordCache(hit: true) }
      let target = String(decoding: plain.target, as: UTF8.self)
      let path =
        target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
      // The line is written before the answer leaves, as for every answer.
      logAnswer(
        method: "GET", route: answer.route, path: path, status: answer.status,
        bytes: answer.body.count, since: start)
      let date = currentDateLine
      let written = answer.write(to: descriptor, date: date)
      evbuffer_drain(input, length)
      connection.head = RequestHead()
      if written < 0, errno != EAGAIN, errno != EWOULDBLOCK {
        // The client is gone: libevent would meet the same error.
        close(connection)
        return
      }
      if written < answer.count(date: date) {
        writeRest(of: answer, date: date, from: max(0, written), on: connection)
        return
      }
      endHead(of: connection)
      connection.waitingSince = monotonicSeconds()
      waiting.remove(connection)
      waiting.append(connection)
      guard evbuffer_get_length(input) > 0 else { return }
      startHead(of: connection, at: connection.waitingSince)
      readHead(of: connection)
    }
  }

  /// Writes the rest of an answer kept whole on the loop, as libevent writes its own: the
  /// connection is being answered until it is written (it reads nothing, and the connection's
  /// write timeout runs); libevent's write callback, which would end a request of its own, is
  /// set aside meanwhile (see `restWrittenOnLoop`).
  private func writeRest(
    of answer: WholeAnswer, date: [UInt8], from written: Int, on connection: HeldConnection
  ) {
    let bufferevent = connection.bufferevent
    guard attach(connection) != nil else { return }
    connection.isAnswering = true
    answering += 1
    endHead(of: connection)
    waiting.remove(connection)
    let output = bufferevent_get_output(bufferevent)
    let head = answer.head + date + answer.tail
    if written < head.count {
      head[written...].withUnsafeBytes { _ = evbuffer_add(output, $0.baseAddress, $0.count) }
    }
    let bodyWritten = max(0, written - head.count)
    if bodyWritten < answer.body.count {
      let retained = Unmanaged.passRetained(answer.body).toOpaque()
      evbuffer_add_reference(
        output, answer.body.storage.baseAddress! + bodyWritten, answer.body.count - bodyWritten,
        releaseBody, retained)
    }
    var read: bufferevent_data_cb?
    var write: bufferevent_data_cb?
    var event: bufferevent_event_cb?
    var argument: UnsafeMutableRawPointer?
    bufferevent_getcb(bufferevent, &read, &write, &event, &argument)
    connection.setAsideWrite = write
    bufferevent_setcb(bufferevent, read, restWrittenOnLoop, event, argument)
    evbuffer_freeze(bufferevent_get_input(bufferevent), 1)
    bufferevent_disable(bufferevent, Int16(EV_READ))
    bufferevent_enable(bufferevent, Int16(EV_WRITE))
  }

  /// The rest of an answer kept whole was written: libevent's write callback is put back, the
  /// connection reads again, and a request that came meanwhile is answered.
  fileprivate func restWritten(_ bufferevent: OpaquePointer) {
    guard let connection = held[bufferevent], connection.isAnswering else { return }
    var read: bufferevent_data_cb?
    var event: bufferevent_event_cb?
    var argument: UnsafeMutableRawPointer?
    bufferevent_getcb(bufferevent, &read, nil, &event, &argument)
    bufferevent_setcb(bufferevent, read, connection.setAsideWrite, event, argument)
    connection.setAsideWrite = nil
    bufferevent_disable(bufferevent, Int16(EV_WRITE))
    let input = bufferevent_get_input(bufferevent)
    evbuffer_unfreeze(input, 1)
    bufferevent_enable(bufferevent, Int16(EV_READ))
    connection.isAnswering = false
    answering -= 1
    connection.waitingSince = monotonicSeconds()
    waiting.append(connection)
    guard evbuffer_get_length(input) > 0 else { return }
    startHead(of: connection, at: connection.waitingSince)
    readHead(of: connection)
    answerWhole(connection)
    // What is left is a request libevent answers: it reads it now, as it would have on its
    // arrival.
    if !connection.isForgotten, !connection.isAnswering, evbuffer_get_length(input) > 0 {
      bufferevent_trigger(bufferevent, Int16(EV_READ), Int32(BEV_TRIG_IGNORE_WATERMARKS.rawValue))
    }
  }

  /// Sends a response on the loop's thread and writes its line to the access log.
  private func reply(
    _ response: HTTPResponse, to request: OpaquePointer, incoming: HTTPRequest, since start: Double,
    closing: Bool = false
  ) {
    // libevent reads no body for TRACE or HEAD: one sent anyway would be read as the next
    // request on the connection, so the connection ends with this answer.
    let unreadBody =
      (incoming.method == "TRACE" || incoming.method == "HEAD")
      && (incoming.headers["content-length"].map { $0 != "0" } ?? false
        || incoming.headers["transfer-encoding"] != nil)
    send(
      response, to: request, method: incoming.method, target: incoming.path,
      closing: closing || unreadBody, since: start)
  }

  /// Sends a response to a request of a method, on the loop's thread, and writes its line to
  /// the access log with the target's path; `closing`, the connection ends with it.
  private func send(
    _ response: HTTPResponse, to request: OpaquePointer, method: String, target: String,
    closing: Bool = false, since start: Double
  ) {
    // The connection's timeout runs from now: an answer that took longer than it was dropped
    // unsent as soon as the loop went on. The loop's clock is read again first: libevent times a
    // timeout from the time it cached when this callback began.
    let connection = evhttp_request_get_connection(request)
    if let connection, let base {
      event_base_update_cache_time(base)
      evhttp_connection_set_timeout(connection, Int32(configuration.timeoutSeconds))
    }
    let bufferevent = connection.flatMap { evhttp_connection_get_bufferevent($0) }
    let output = evhttp_request_get_output_headers(request)
    if let lines = response.lines {
      // The headers libevent would add, Date and Content-Length, given as well: libevent's own
      // are printed afresh for every answer.
      lines.name.withUnsafeBufferPointer { name in
        lines.value.withUnsafeBufferPointer { value in
          _ = chart_archive_add_header_lines(output, name.baseAddress, value.baseAddress)
        }
      }
      currentDate.withUnsafeBufferPointer { _ = evhttp_add_header(output, "Date", $0.baseAddress) }
      lines.contentLength.withUnsafeBufferPointer {
        _ = evhttp_add_header(output, "Content-Length", $0.baseAddress)
      }
    } else {
      for (name, value) in response.headers { evhttp_add_header(output, name, value) }
    }
    if stopping || closing { evhttp_add_header(output, "Connection", "close") }
    let reason = reasonPhrase(response.status)
    if method == "HEAD" {
      // The headers a GET would have, without its body (RFC 9110, section 9.3.2).
      if response.status != 304, response.status != 204, response.lines == nil {
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
    // The line is written before the answer leaves: a client that has its answer finds it in the
    // log.
    let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
    logAnswer(
      method: method, route: response.route, path: path, status: response.status,
      bytes: response.body.count, since: start)
    if let bufferevent { writeNow(bufferevent) }
  }

  /// Writes what a connection's output holds now, in this turn of the loop, rather than in the
  /// next one once epoll says the socket takes it; all of it written, the answer is done as
  /// libevent would have done it then (its write callback: the next request is read, or the
  /// connection closed). Otherwise (the socket's buffer full, an error) the loop writes the rest
  /// as before, and meets the error.
  ///
  /// The connection may be freed before this returns.
  private func writeNow(_ bufferevent: OpaquePointer) {
    let output = bufferevent_get_output(bufferevent)
    let descriptor = bufferevent_getfd(bufferevent)
    guard descriptor >= 0, evbuffer_get_length(output) > 0 else { return }
    // A bufferevent's output is drained by its own write callback only (frozen at the front
    // otherwise).
    evbuffer_unfreeze(output, 1)
    let written = evbuffer_write(output, descriptor)
    evbuffer_freeze(output, 1)
    guard written > 0, evbuffer_get_length(output) == 0 else { return }
    bufferevent_trigger(bufferevent, Int16(EV_WRITE), 0)
  }

  /// The access log's line: method, path, status, bytes, milliseconds; and the request counted
  /// in the metrics, by its route's pattern.
  private func logAnswer(
    method: String, route: String?, path: String, status: Int, bytes: Int, since start: Double
  ) {
    let seconds = monotonicSeconds() - start
    // Tenths of a millisecond, written as a Double's description would write them (`0.3`,
    // `12.0`) without its costlier formatting.
    let tenths = Int(seconds * 1_000 * 10)
    log(
      "\(Self.loggable(method)) \(Self.loggable(path)) \(status) \(bytes)"
        + " \(tenths / 10).\(tenths % 10)ms")
    let counted = ServiceMetrics.Labels(
      method: Self.knownMethods.contains(method) ? method : "other", route: route ?? "none",
      status: status)
    router.metrics.record(counted, bytes: bytes, seconds: seconds)
  }

  /// The methods the metrics name; any other is counted as `other`, so that clients cannot add
  /// labels.
  private static let knownMethods: Set<String> = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT",
  ]

  /// A request's answer was written: its connection waits for the next request, and reads the
  /// head of one that arrived meanwhile.
  fileprivate func finished(_ request: OpaquePointer) {
    guard let connection = heldConnection(of: request), connection.isAnswering else { return }
    connection.isAnswering = false
    answering -= 1
    let now = monotonicSeconds()
    connection.waitingSince = now
    connection.head = RequestHead()
    waiting.append(connection)
    if evbuffer_get_length(bufferevent_get_input(connection.bufferevent)) > 0 {
      startHead(of: connection, at: now)
      readHead(of: connection)
      // Answered whole once libevent has made the connection ready for a request again, and
      // before it reads this one (it does that in the loop's next turn).
      if connection.head.plainGet != nil {
        answerWholeSoon.append(connection)
        event_active(housekeeping, EV_TIMEOUT, 0)
      }
    }
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

  /// The `Date` header's value now, a C string (for libevent), made once a second.
  private var currentDate: ContiguousArray<CChar> {
    refreshDate()
    return dateText
  }

  /// The `Date` header's line now, CR LF included (for an answer kept whole), made once a second.
  private var currentDateLine: [UInt8] {
    refreshDate()
    return dateLine
  }

  /// Makes the `Date` header's forms again when the second changed.
  private func refreshDate() {
    let now = time(nil)
    guard now != dateSecond else { return }
    dateSecond = now
    let date = Self.httpDate(now)
    dateText = ContiguousArray(date.utf8CString)
    dateLine = Array("Date: \(date)\r\n".utf8)
  }
  private var dateSecond = 0
  private var dateText: ContiguousArray<CChar> = []
  private var dateLine: [UInt8] = []

  /// The time now as a `Date` header gives it (RFC 9110, section 5.6.7):
  /// `Sun, 06 Nov 1994 08:49:37 GMT`.
  static func httpDate(_ seconds: Int = time(nil)) -> String {
    var clock = seconds
    var parts = tm()
    gmtime_r(&clock, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)])"
      + " \(1_900 + parts.tm_year) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
  }

  /// The worker of an `evhttp`.
  fileprivate static func of(_ http: OpaquePointer) -> Worker? {
    byHTTP.withLock { $0[Int(bitPattern: UnsafeRawPointer(http))] }
  }
}

/// Work handed to the loop's thread.
private final class LoopWork {
  let work: @Sendable () -> Void
  /// The worker whose loop runs it (which outlives its loop).
  unowned let worker: Worker

  init(_ work: @escaping @Sendable () -> Void, worker: Worker) {
    self.work = work
    self.worker = worker
  }
}

/// A libevent request, handed between threads: used on its loop's thread only.
struct RequestHandle: @unchecked Sendable {
  let pointer: OpaquePointer
}

// MARK: - libevent's callbacks (C functions: their context comes through the `void *` argument)

private func answerRequest(_ request: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let request, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().answer(request)
}

private func requestDone(_ request: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let request, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().finished(request)
}

private func makeBuffereventOnLoop(_ base: OpaquePointer?, _ context: UnsafeMutableRawPointer?)
  -> OpaquePointer?
{
  guard let base, let context else { return nil }
  return Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().makeBufferevent(base)
}

private func inputChangedOnLoop(
  _ buffer: OpaquePointer?, _ info: UnsafePointer<evbuffer_cb_info>?,
  _ context: UnsafeMutableRawPointer?
) {
  guard let info, let context else { return }
  let connection = Unmanaged<HeldConnection>.fromOpaque(context).takeUnretainedValue()
  connection.worker?.inputChanged(
    connection, added: info.pointee.n_added, deleted: info.pointee.n_deleted)
}

private func restWrittenOnLoop(
  _ bufferevent: OpaquePointer?, _ connection: UnsafeMutableRawPointer?
) {
  guard let bufferevent, let connection,
    let http = evhttp_connection_get_server(OpaquePointer(connection))
  else { return }
  Worker.of(http)?.restWritten(bufferevent)
}

private func releaseBody(
  _ data: UnsafeRawPointer?, _ length: Int, _ context: UnsafeMutableRawPointer?
) {
  guard let context else { return }
  Unmanaged<ResponseBody>.fromOpaque(context).release()
}

private func runOnLoop(_ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  let loopWork = Unmanaged<LoopWork>.fromOpaque(context).takeRetainedValue()
  loopWork.worker.pendingWork.withLock { _ = $0.remove(Int(bitPattern: context)) }
  loopWork.work()
}

private func checkStoppedOnLoop(
  _ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?
) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().checkStopped()
}

private func keepHouseOnLoop(
  _ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?
) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().keepHouse()
}

private func endTurnOnLoop(_ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().endTurn()
}

private func tickOnLoop(_ socket: Int32, _ events: Int16, _ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().tick()
}

private func lingerReadOnLoop(_ bufferevent: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let bufferevent, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().lingerRead(bufferevent)
}

private func lingerEventOnLoop(
  _ bufferevent: OpaquePointer?, _ events: Int16, _ context: UnsafeMutableRawPointer?
) {
  guard let bufferevent, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().endLingering(bufferevent)
}

private func connectionClosed(_ connection: OpaquePointer?, _ context: UnsafeMutableRawPointer?) {
  guard let connection, let context else { return }
  Unmanaged<Worker>.fromOpaque(context).takeUnretainedValue().closed(connection)
}

private func acceptFailedOnLoop(_ listener: OpaquePointer?, _ http: UnsafeMutableRawPointer?) {
  guard let http else { return }
  Worker.of(OpaquePointer(http))?.acceptFailed()
}

/// Monotonic time in seconds.
func monotonicSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
