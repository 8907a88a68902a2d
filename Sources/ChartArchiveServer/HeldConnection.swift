/// A connection a worker holds, from its accept to its close: whether a request of it is being
/// answered, since when it waits for one, when the head it is sending began, and that head as
/// read so far.
///
/// Known by its bufferevent (the worker makes it for libevent, which keeps it as the
/// connection's until the close), and by the `evhttp_connection` once that is found.
final class HeldConnection {
  /// The connection's bufferevent, made by the worker and kept (`bufferevent_incref`) until the
  /// worker forgets the connection, so that it can be asked whether libevent freed it.
  let bufferevent: OpaquePointer
  /// libevent's connection, once found (just after the accept).
  var connection: OpaquePointer?
  /// The callback that sees the connection's input change.
  var inputCallback: OpaquePointer?
  /// Whether a request of it is being answered (from the request's arrival to the end of the
  /// answer's writing).
  var isAnswering = false
  /// When it began waiting for its request (its accept, or the end of its last answer), in
  /// monotonic seconds.
  var waitingSince: Double
  /// When the first byte of the head it is sending arrived; `nil` while none has, and once the
  /// head is whole.
  var headStarted: Double?
  /// The head it is sending, as read so far.
  var head = RequestHead()
  /// Whether the worker has forgotten it (closed, or found freed).
  var isForgotten = false
  /// libevent's write callback, set aside while the rest of an answer kept whole is written
  /// (see `Worker`).
  var setAsideWrite: (@convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void)?
  /// The worker holding it.
  weak var worker: Worker?

  /// Its places in the worker's lists: of the connections waiting for a request, and of those
  /// sending a head.
  var waitingLinks = ConnectionLinks()
  var headLinks = ConnectionLinks()

  /// Its place in a list of a kind (a switch, not a key path: a key path's access costs a
  /// runtime call on every step of a request).
  fileprivate subscript(kind: ConnectionList.Kind) -> ConnectionLinks {
    get {
      switch kind {
      case .waiting: waitingLinks
      case .heads: headLinks
      }
    }
    set {
      switch kind {
      case .waiting: waitingLinks = newValue
      case .heads: headLinks = newValue
      }
    }
  }

  init(bufferevent: OpaquePointer, since: Double) {
    self.bufferevent = bufferevent
    waitingSince = since
  }
}

/// A connection's place in a ``ConnectionList``.
struct ConnectionLinks {
  fileprivate var older: HeldConnection?
  fileprivate var newer: HeldConnection?
  fileprivate var isListed = false
}

/// Connections in the order they joined, oldest first: a worker's connections waiting for a
/// request or sending one (by ``HeldConnection/waitingSince``), or those sending a head (by
/// ``HeldConnection/headStarted``). Adding at the end and removing anywhere take constant time.
struct ConnectionList {
  /// The lists a connection can be in, each with its own links.
  enum Kind {
    /// Those waiting for a request or sending one (``HeldConnection/waitingLinks``).
    case waiting
    /// Those sending a head (``HeldConnection/headLinks``).
    case heads
  }

  /// Which of a connection's links this list uses.
  let links: Kind
  private(set) var oldest: HeldConnection?
  private var newest: HeldConnection?
  /// How many it holds.
  private(set) var count = 0

  init(_ links: Kind) { self.links = links }

  /// Adds a connection as the newest, when it is not in the list.
  mutating func append(_ connection: HeldConnection) {
    guard !connection[links].isListed else { return }
    connection[links] = ConnectionLinks(older: newest, newer: nil, isListed: true)
    if let newest { newest[links].newer = connection } else { oldest = connection }
    newest = connection
    count += 1
  }

  /// Takes a connection out, when it is there.
  mutating func remove(_ connection: HeldConnection) {
    let place = connection[links]
    guard place.isListed else { return }
    if let older = place.older {
      older[links].newer = place.newer
    } else {
      oldest = place.newer
    }
    if let newer = place.newer {
      newer[links].older = place.older
    } else {
      newest = place.older
    }
    connection[links] = ConnectionLinks()
    count -= 1
  }

  /// The connection after one, toward the newest.
  func newer(than connection: HeldConnection) -> HeldConnection? {
    connection[links].newer
  }
}
