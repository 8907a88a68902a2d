// libevent's headers bring the system's `struct timespec` in first: its members (`st_mtim`'s
// `tv_sec`) are that module's in an optimized build.
internal import CEvent
import Foundation
import Synchronization

/// The responses the router made, kept until the archive changes: its file or its write-ahead log
/// (an import by anyone commits there) has another identity, size or modification time than when
/// they were made, or its version (`archive_version`, read in a transaction of its own) is
/// another. The version is what a reader sees: SQLite writes a commit's pages into the log before
/// it makes them visible (<https://www.sqlite.org/wal.html>), so a lookup in between finds the
/// log changed while a read still finds the archive before the commit. Shared by the worker
/// threads, behind a lock held for a lookup or an insert only.
///
/// Bounded: everything an entry holds counts toward ``limitBytes`` (its key, its response's
/// headers and body, the body's gzip form, and an estimate of what the table and the objects take
/// beside them), and past the limit the cache starts again. A response whose key is longer than
/// ``longestKey`` is not kept: a unique long value of a parameter in every request would fill the
/// cache with entries asked for once.
///
/// An entry is also found by the requests, as they came, that it answered (``Asked``: method,
/// target, `Accept`), which name its key as routing them would: the same request again is
/// answered from the entry without being copied out of libevent or routed. Those names count
/// toward the limit too, and go with the entries. A worker checks the archive for such a request
/// once a turn of its loop (see `Worker`), every other lookup checks it first.
final class ResponseCache: Sendable {
  /// What the archive was when a lookup was made (``lookUp(_:)``): an answer made after it is
  /// kept only while the cache is of the same (``keep(_:for:seen:finish:)``).
  struct Generation: Equatable, Sendable {
    var file: Stamp
    var log: Stamp
    /// The archive's version as a read saw it after the stamps were taken; `nil` when unknown.
    var version: Int?
  }

  /// A file's identity, size and modification time; all zero when it is missing.
  struct Stamp: Equatable, Sendable {
    var inode: UInt = 0
    var size = 0
    var seconds = 0
    var nanoseconds = 0
  }

  private struct State {
    var generation: Generation?
    var entries: [String: Entry] = [:]
    /// The keys of the entries by the requests as they came (see ``Asked``).
    var aliases: [Asked: String] = [:]
    var bytes = 0
    /// Counts the changes of the archive seen (see ``epoch(checking:)``).
    var epoch = 0
  }

  /// A response kept, with its body's gzip form when it is worth one.
  struct Entry: Sendable {
    var response: HTTPResponse
    var gzipped: ResponseBody?
    /// The answers as sent to a request without `If-None-Match`, made once: with every header
    /// the router gives (see ``Router``), plain and, when there is a gzip form, compressed.
    var finished: Finished?
  }

  /// An entry's answers as sent.
  struct Finished: Sendable {
    var plain: HTTPResponse
    var compressed: HTTPResponse?
    /// Whether a hit counts in the metrics' cache hits (the route is cacheable).
    var countsHit: Bool
  }

  /// A request as it came, which names an entry without being routed again: the method, the
  /// target (path and query, as written) and the `Accept` header (which may choose the format).
  struct Asked: Hashable, Sendable {
    var method: String
    var target: String
    var accept: String?

    /// The bytes it counts for in the cache, with ``entryOverhead``.
    var size: Int {
      method.utf8.count + target.utf8.count + (accept?.utf8.count ?? 0) + entryOverhead
    }
  }

  private let path: String
  /// Reads the archive's version, in a read transaction of its own; `nil` when it cannot.
  private let readVersion: @Sendable () -> Int?
  /// The archive's path and its write-ahead log's, as C strings.
  private let paths: (file: ContiguousArray<CChar>, log: ContiguousArray<CChar>)
  private let state = Mutex(State())
  /// How many bytes the cache keeps at most (see ``size(of:key:)``); past that it starts again.
  let limitBytes: Int
  /// The cache's bound unless told otherwise: 32 MiB.
  static let defaultLimitBytes = 32 * 1024 * 1024
  /// The longest key, in bytes, whose response is kept.
  static let longestKey = 2_048
  /// What an entry takes beside its bytes, estimated: the table's slot, the key's and the
  /// response's objects, the headers' array.
  static let entryOverhead = 256
  /// The smallest body sent compressed: below it, gzip's header and a round of zlib cost more
  /// than they save.
  static let smallestGzipped = 1_024

  /// A cache for the archive at a path, keeping at most `limitBytes`; `version` reads the
  /// archive's version (see ``Generation/version``).
  init(
    path: String, limitBytes: Int = ResponseCache.defaultLimitBytes,
    version: @escaping @Sendable () -> Int? = { nil }
  ) {
    self.path = path
    readVersion = version
    paths = (ContiguousArray(path.utf8CString), ContiguousArray((path + "-wal").utf8CString))
    self.limitBytes = limitBytes
  }

  /// The archive's generation: the identity, size and modification time of its file and log,
  /// then its version as a read sees it. An answer read after this sees that version or a later
  /// one: kept under it, it is never older than the generation says.
  private func generation() -> Generation {
    func stamp(_ path: ContiguousArray<CChar>) -> Stamp {
      var status = stat()
      guard path.withUnsafeBufferPointer({ stat($0.baseAddress!, &status) }) == 0 else {
        return Stamp()
      }
      return Stamp(
        inode: UInt(status.st_ino), size: Int(status.st_size), seconds: status.st_mtim.tv_sec,
        nanoseconds: status.st_mtim.tv_nsec)
    }
    let file = stamp(paths.file)
    let log = stamp(paths.log)
    return Generation(file: file, log: log, version: readVersion())
  }

  /// The entry kept for a key, when the archive has not changed since it was made, and the
  /// archive's generation seen: an answer made for a key not found is kept with it
  /// (``keep(_:for:seen:finish:)``).
  func lookUp(_ key: String) -> (entry: Entry?, generation: Generation) {
    let now = generation()
    return state.withLock { state in
      if state.generation != now {
        state = State(generation: now, epoch: state.epoch + 1)
        return (nil, now)
      }
      return (state.entries[key], now)
    }
  }

  /// The entry kept for a request as it came (see ``remember(_:as:)``), when the archive has not
  /// changed since it was made; `checking` false, when it had not changed when last checked (by
  /// a caller that knows no change since then can concern this request: see `Worker`).
  func entry(for asked: Asked, checking: Bool = true) -> Entry? {
    entryAndEpoch(for: asked, checking: checking).entry
  }

  /// The entry kept for a request as it came, as ``entry(for:checking:)`` finds it, and the
  /// cache's epoch when it was found (see ``epoch(checking:)``).
  func entryAndEpoch(for asked: Asked, checking: Bool = true) -> (entry: Entry?, epoch: Int) {
    let now = checking ? generation() : nil
    return state.withLock { state in
      if let now, state.generation != now {
        state = State(generation: now, epoch: state.epoch + 1)
        return (nil, state.epoch)
      }
      return (state.aliases[asked].flatMap { state.entries[$0] }, state.epoch)
    }
  }

  /// A number that grows by one each time the cache finds the archive changed, and never
  /// otherwise: an answer found in the cache at an epoch holds for every request checked at that
  /// epoch or before it (a worker keeps such answers whole, see `Worker`). `checking`, the
  /// archive is checked first, as ``entry(for:checking:)`` checks it.
  func epoch(checking: Bool) -> Int {
    let now = checking ? generation() : nil
    return state.withLock { state in
      if let now, state.generation != now {
        state = State(generation: now, epoch: state.epoch + 1)
      }
      return state.epoch
    }
  }

  /// Remembers the key of the entry a request as it came was answered from, so that the same
  /// request finds it without being routed; not when the entry is gone, or the target is longer
  /// than ``longestKey``. It counts toward the limit as an entry does.
  func remember(_ asked: Asked, as key: String) {
    guard asked.target.utf8.count + (asked.accept?.utf8.count ?? 0) <= Self.longestKey else {
      return
    }
    let size = asked.size
    state.withLock { state in
      guard state.aliases[asked] == nil, state.entries[key] != nil,
        state.bytes + size <= limitBytes
      else { return }
      state.aliases[asked] = key
      state.bytes += size
    }
  }

  /// How many responses are kept.
  var count: Int { state.withLock { $0.entries.count } }

  /// How many bytes the kept entries take (see ``size(of:key:)``).
  var bytes: Int { state.withLock { $0.bytes } }

  /// The bytes an entry kept under a key counts for: the key, the response's headers (names and
  /// values) and body, the body's gzip form, and ``entryOverhead``.
  static func size(of entry: Entry, key: String) -> Int {
    func headers(_ response: HTTPResponse?) -> Int {
      response?.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } ?? 0
    }
    return key.utf8.count + headers(entry.response) + entry.response.body.count
      + (entry.gzipped?.count ?? 0) + headers(entry.finished?.plain)
      + headers(entry.finished?.compressed) + entryOverhead
  }

  /// Keeps a response for a key, with its gzip form and the answers `finish` makes of them, and
  /// returns the entry; one whose key is longer than ``longestKey``, or that alone would pass
  /// the limit, is returned and not kept. So is one made after a lookup that saw another
  /// generation of the archive than the cache holds now (`seen`): an import landed meanwhile, and
  /// the answer may have been read before it.
  @discardableResult
  func keep(
    _ response: HTTPResponse, for key: String, seen: Generation? = nil,
    finish: ((Entry) -> Finished)? = nil
  ) -> Entry {
    let body = response.body
    var entry = Entry(
      response: response,
      gzipped: body.count >= Self.smallestGzipped
        ? Gzip.compress(body.bytes).map(ResponseBody.init) : nil)
    entry.finished = finish?(entry)
    let size = Self.size(of: entry, key: key)
    guard key.utf8.count <= Self.longestKey, size <= limitBytes else { return entry }
    state.withLock { state in
      if let seen, state.generation != seen { return }
      if let replaced = state.entries[key] { state.bytes -= Self.size(of: replaced, key: key) }
      if state.bytes + size > limitBytes {
        state = State(generation: state.generation, epoch: state.epoch)
      }
      state.entries[key] = entry
      state.bytes += size
    }
    return entry
  }
}
