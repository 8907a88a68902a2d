import Glibc

/// An answer kept whole for a plain GET (see ``RequestHead/PlainGet``): the bytes libevent sends
/// for it, made once, so that a worker sends the same request's answer again without libevent's
/// HTTP layer. The status line and the header lines as libevent writes them (`HTTP/1.1`, then
/// each header as `name: value` and CR LF, in order: the response's headers, `Date`,
/// `Content-Length`), a blank line and the body, shared with the response cache. `Date` is the
/// one line that changes; it is given at each write.
final class WholeAnswer {
  /// The status line and the header lines before `Date`.
  let head: [UInt8]
  /// The `Content-Length` line and the blank line that ends the head.
  let tail: [UInt8]
  let body: ResponseBody
  let status: Int
  /// The pattern of the route that answered, for the metrics.
  let route: String?
  /// Whether a request answered counts as a hit of the response cache.
  let countsHit: Bool

  /// The answer whole for a response whose header lines were made once (`nil` for one without
  /// them, one without `Content-Type`, which libevent would add, and one without a body: 204 and
  /// 304).
  init?(_ response: HTTPResponse, countsHit: Bool) {
    guard let lines = response.lines, response.status != 204, response.status != 304,
      response.headers.contains(where: { $0.name == "Content-Type" })
    else { return nil }
    func bytes(_ text: ContiguousArray<CChar>) -> [UInt8] {
      text.dropLast().map { UInt8(bitPattern: $0) }
    }
    head =
      Array("HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n".utf8)
      + bytes(lines.name) + Array(": ".utf8) + bytes(lines.value) + Array("\r\n".utf8)
    tail = Array("Content-Length: ".utf8) + bytes(lines.contentLength) + Array("\r\n\r\n".utf8)
    body = response.body
    status = response.status
    route = response.route
    self.countsHit = countsHit
  }

  /// The bytes it holds, its body's included (shared with the cache, it is counted all the same).
  var size: Int { head.count + tail.count + body.count }

  /// How many bytes it sends with a `Date` line.
  func count(date: [UInt8]) -> Int { head.count + date.count + tail.count + body.count }

  /// Writes it to a socket with its `Date` line (one `writev`), without waiting: how many bytes
  /// the socket took, or -1 (`errno` says why).
  func write(to descriptor: Int32, date: [UInt8]) -> Int {
    head.withUnsafeBytes { head in
      date.withUnsafeBytes { date in
        tail.withUnsafeBytes { tail in
          withUnsafeTemporaryAllocation(of: iovec.self, capacity: 4) { vectors in
            vectors[0] = iovec(
              iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress), iov_len: head.count)
            vectors[1] = iovec(
              iov_base: UnsafeMutableRawPointer(mutating: date.baseAddress), iov_len: date.count)
            vectors[2] = iovec(
              iov_base: UnsafeMutableRawPointer(mutating: tail.baseAddress), iov_len: tail.count)
            vectors[3] = iovec(iov_base: body.storage.baseAddress, iov_len: body.count)
            return writev(descriptor, vectors.baseAddress, 4)
          }
        }
      }
    }
  }
}
