import Foundation

/// Entity tags (RFC 9110, section 8.8.3): a cached response's `ETag`, and the `If-None-Match`
/// that names it.
enum EntityTag {
  /// A strong entity tag of a body: its 64-bit FNV-1a hash.
  static func of(_ body: ResponseBody) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in body.storage.prefix(body.count) {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return "\"" + String(hash, radix: 16) + "\""
  }

  /// Whether an `If-None-Match` header names an entity tag (RFC 9110, section 13.1.2: weak
  /// comparison, `*` matches any).
  static func matches(_ tag: String, header: String) -> Bool {
    header.split(separator: ",").contains { candidate in
      let trimmed = candidate.trimmingCharacters(in: .whitespaces)
      return trimmed == "*" || trimmed == tag || trimmed == "W/" + tag
    }
  }
}
