// libevent's headers bring the system's `struct timespec` in first: its members (`st_mtim`'s
// `tv_sec`) are that module's in an optimized build.
internal import CEvent
internal import CZlib
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

/// gzip (RFC 1952) through zlib.
enum Gzip {
  /// The bytes compressed, or `nil` when zlib fails.
  static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
    var stream = z_stream()
    guard chart_archive_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
    defer { deflateEnd(&stream) }
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
    let status = bytes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { out in
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(input.count)
        stream.next_out = out.baseAddress
        stream.avail_out = UInt32(out.count)
        return deflate(&stream, Z_FINISH)
      }
    }
    guard status == Z_STREAM_END else { return nil }
    return Array(output.prefix(Int(stream.total_out)))
  }

  /// Why gzip data could not be decompressed.
  enum DecompressionFailure: Error, Equatable {
    /// The data is not one whole gzip stream, in zlib's words.
    case invalid(String)
    /// The decompressed data would be longer than the limit.
    case tooLong
  }

  /// The bytes of one gzip stream decompressed, at most `limit` of them.
  ///
  /// - Throws: ``DecompressionFailure``.
  static func decompress(_ bytes: [UInt8], limit: Int) throws(DecompressionFailure) -> [UInt8] {
    var stream = z_stream()
    guard chart_archive_inflate_init_gzip(&stream) == Z_OK else {
      throw .invalid("zlib could not start")
    }
    defer { inflateEnd(&stream) }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let failure: DecompressionFailure? = bytes.withUnsafeBufferPointer { input in
      stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
      stream.avail_in = UInt32(input.count)
      while true {
        let status = chunk.withUnsafeMutableBufferPointer { out in
          stream.next_out = out.baseAddress
          stream.avail_out = UInt32(out.count)
          let status = inflate(&stream, Z_NO_FLUSH)
          output += out.prefix(out.count - Int(stream.avail_out))
          return status
        }
        if output.count > limit { return .tooLong }
        if status == Z_STREAM_END {
          return stream.avail_in == 0 ? nil : .invalid("more data after the gzip stream")
        }
        // All the input read, room left for output, and no end: the stream was cut short.
        if status != Z_OK || stream.avail_in == 0 && stream.avail_out != 0 {
          return .invalid(
            status == Z_OK || status == Z_BUF_ERROR
              ? "the gzip stream is cut short"
              : stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
        }
      }
    }
    if let failure { throw failure }
    return output
  }
}
