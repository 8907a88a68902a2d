// libevent's headers bring the system's `struct timespec` in first: its members (`st_mtim`'s
// `tv_sec`) are that module's in an optimized build.
internal import CEvent
import Foundation
import Synchronization

/// The responses the router made, kept until the archive changes: its file or its write-ahead log
/// (an import by anyone commits there) has another size or modification time than when they were
/// made. Shared by the worker threads, behind a lock held for a lookup or an insert only.
final class ResponseCache: Sendable {
  private struct Generation: Equatable {
    var file: [Int64]
    var log: [Int64]
  }

  private struct State {
    var generation: Generation?
    var entries: [String: Entry] = [:]
    var bytes = 0
  }

  /// A response kept, with its body's gzip form when it is worth one.
  struct Entry: Sendable {
    var response: HTTPResponse
    var gzipped: ResponseBody?
  }

  private let path: String
  private let state = Mutex(State())
  /// How many bytes of bodies the cache keeps at most; past that it starts again.
  static let limitBytes = 32 * 1024 * 1024
  /// The smallest body sent compressed: below it, gzip's header and a round of zlib cost more
  /// than they save.
  static let smallestGzipped = 1_024

  init(path: String) { self.path = path }

  /// The archive's generation: the identity, size and modification time of its file and log.
  private func generation() -> Generation {
    func stamp(_ path: String) -> [Int64] {
      var status = stat()
      guard stat(path, &status) == 0 else { return [] }
      return [
        Int64(status.st_ino), Int64(status.st_size), Int64(status.st_mtim.tv_sec),
        Int64(status.st_mtim.tv_nsec),
      ]
    }
    return Generation(file: stamp(path), log: stamp(path + "-wal"))
  }

  /// The entry kept for a key, when the archive has not changed since it was made.
  func entry(for key: String) -> Entry? {
    let now = generation()
    return state.withLock { state in
      if state.generation != now {
        state = State(generation: now)
        return nil
      }
      return state.entries[key]
    }
  }

  /// How many responses are kept.
  var count: Int { state.withLock { $0.entries.count } }

  /// Keeps a response for a key, with its gzip form, and returns the entry.
  @discardableResult
  func keep(_ response: HTTPResponse, for key: String) -> Entry {
    let body = response.body
    let entry = Entry(
      response: response,
      gzipped: body.count >= Self.smallestGzipped
        ? Gzip.compress(body.bytes).map(ResponseBody.init) : nil)
    state.withLock { state in
      state.bytes += body.count + (entry.gzipped?.count ?? 0)
      if state.bytes > Self.limitBytes {
        state = State(generation: state.generation)
        state.bytes = body.count
      }
      state.entries[key] = entry
    }
    return entry
  }
}
