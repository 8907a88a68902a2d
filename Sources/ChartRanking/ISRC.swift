/// An International Standard Recording Code (ISO 3901): the identifier a recording keeps on every
/// service and chart that carries it, 12 characters `CCXXXYYNNNNN` (written `CC-XXX-YY-NNNNN`
/// too): the country of the registrant (two letters), the registrant (three letters or digits),
/// the year of reference (two digits) and the recording's number (five digits). `USRC17607839`.
///
/// Linking joins entries of any charts with the same ISRC into one song, before their titles and
/// credits are compared (see ``SongLinking``). A remaster usually gets a new ISRC: a different one
/// never keeps apart what the title and credit join.
///
/// Kept as the code's 12 characters read as one number in base 36 (`0`–`9`, then `A`–`Z`), which
/// 64 bits hold (36¹² < 2⁶³): an entry holds it in 8 bytes, without a reference to count.
public struct ISRC: Hashable, Sendable, CustomStringConvertible {
  /// The code in base 36, most significant character first; never 0 (its first character is a
  /// letter), which ``ChartEntry`` takes for none.
  @usableFromInline let packed: UInt64

  /// The code that ``packed`` holds, as an entry keeps it.
  @usableFromInline init(packed: UInt64) { self.packed = packed }

  /// Reads an ISRC as written: hyphens are left out and letters upper-cased (`us-rc1-76-07839`
  /// is `USRC17607839`).
  ///
  /// - Parameter text: the code as a file gives it.
  /// - Returns: `nil` when the text is not two letters, three letters or digits, then seven
  ///   digits (hyphens aside).
  public init?(_ text: String) {
    var packed: UInt64 = 0
    var count = 0
    for byte in text.utf8 where byte != UInt8(ascii: "-") {
      guard count < 12, let digit = Self.digit(byte, at: count) else { return nil }
      packed = packed * 36 + UInt64(digit)
      count += 1
    }
    guard count == 12 else { return nil }
    self.packed = packed
  }

  /// The code's 12 characters, upper-case, without hyphens: `USRC17607839`.
  public var code: String {
    var bytes = [UInt8](repeating: 0, count: 12)
    var rest = packed
    for index in stride(from: 11, through: 0, by: -1) {
      let digit = UInt8(rest % 36)
      bytes[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10
      rest /= 36
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  public var description: String { code }

  /// The value in base 36 of a character of the code at a 0-based place, upper-casing letters;
  /// `nil` when the place takes no such character (a letter in the first two places, a letter or
  /// digit in the next three, a digit in the last seven).
  private static func digit(_ byte: UInt8, at place: Int) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): place >= 2 ? Int(byte - UInt8(ascii: "0")) : nil
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): place < 5 ? Int(byte - UInt8(ascii: "A")) + 10 : nil
    case UInt8(ascii: "a")...UInt8(ascii: "z"): place < 5 ? Int(byte - UInt8(ascii: "a")) + 10 : nil
    default: nil
    }
  }
}
