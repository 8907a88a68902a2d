internal import CZlib
import Foundation

/// gzip (RFC 1952) through zlib.
enum Gzip {
  /// Whether an `Accept-Encoding` header takes gzip (and does not refuse it with `q=0`).
  static func isAccepted(by header: String?) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { item in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
      guard parts.first?.lowercased() == "gzip" else { return false }
      return !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
    }
  }

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
