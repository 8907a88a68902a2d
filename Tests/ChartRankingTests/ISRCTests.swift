import ChartRanking
import Testing

struct ISRCTests {
  /// ISO 3901's code: hyphens are left out and letters upper-cased, so that each way of writing
  /// one code is the same code.
  @Test(arguments: ["USRC17607839", "US-RC1-76-07839", "usrc17607839", "Us-Rc1-76-07839"])
  func writtenAnyWayItIsTheSameCode(text: String) {
    #expect(ISRC(text)?.code == "USRC17607839")
    #expect(ISRC(text) == ISRC("USRC17607839"))
  }

  /// The first and last codes, and codes with letters in the registrant's three places.
  @Test(arguments: ["AA0000000000", "ZZZZZ9999999", "GBAYE0601498", "QZXYZ2400001"])
  func everyValidCodeReadsBackAsWritten(text: String) {
    #expect(ISRC(text)?.code == text)
    #expect(ISRC(text)?.description == text)
  }

  /// Too short or long, a digit where a letter goes, a letter where a digit goes, other
  /// characters.
  @Test(arguments: [
    "", "USRC1760783", "USRC176078390", "1SRC17607839", "U1RC17607839", "USRC1A607839",
    "USRC1760783X", "US RC1 76 07839", "USRC17607839\n", "ÜSRC17607839", "----",
  ])
  func whatIsNotACodeIsNone(text: String) {
    #expect(ISRC(text) == nil)
  }

  /// An entry keeps its ISRC in 8 bytes without a reference: it is no larger than with a box.
  @Test func anEntryKeepsItsISRC() {
    var entry = ChartEntry(rank: 1, title: "A", artist: "X", isrc: ISRC("GBAYE0601498"))
    #expect(entry.isrc?.code == "GBAYE0601498")
    entry.isrc = nil
    #expect(entry.isrc == nil)
    #expect(entry == ChartEntry(rank: 1, title: "A", artist: "X"))
    #expect(MemoryLayout<ChartEntry>.size == 168)
  }
}
