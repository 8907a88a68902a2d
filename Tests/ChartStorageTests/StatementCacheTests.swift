import Testing

@testable import ChartStorage

/// The connection's statement cache, keyed by SQL texts hashed from a sample of their bytes
/// (``SQLText``): two texts that differ only between the words sampled share a hash, and are
/// still two statements.
struct StatementCacheTests {
  /// A query of `value`, 200 bytes long, whose only difference from another value's is the digit
  /// at offset 20, which no sampled word covers (they start at 0, 27, 54 … 192).
  static func query(_ value: Int) -> String {
    let head = "SELECT /* sampled */\(value) AS v /*"
    return head + String(repeating: "-", count: 200 - head.utf8.count - 2) + "*/"
  }

  @Test func textsThatShareTheirSampledWordsAreTwoStatements() throws {
    let one = Self.query(1)
    let two = Self.query(2)
    #expect(one.utf8.count == 200 && two.utf8.count == 200)
    #expect(SQLText(one).digest == SQLText(two).digest)
    #expect(SQLText(one) != SQLText(two))
    #expect(SQLText(one) == SQLText(String(decoding: Array(one.utf8), as: UTF8.self)))
    let database = try Database(path: ":memory:", mode: .create)
    for _ in 0..<2 {
      #expect(try database.row(one) { $0.int(at: 0) } == 1)
      #expect(try database.row(two) { $0.int(at: 0) } == 2)
    }
  }

  @Test func shortTextsAreHashedWhole() {
    #expect(SQLText("SELECT 1").digest != SQLText("SELECT 2").digest)
    #expect(SQLText("BEGIN").digest != SQLText("BEGIM").digest)
  }
}
