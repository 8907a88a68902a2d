/// A map from songs to values for the entries of a snapshot or the songs of a chart: open
/// addressing with a multiplicative hash, several times cheaper than `Dictionary`'s seeded SipHash
/// for integer keys on an import's hot path. Values are only added or replaced; ``removeAll()``
/// empties the map.
public struct SongMap<Value> {
  private var keys: [Int64]
  private var values: [Value?]
  private var shift: UInt64
  /// How many songs the map holds.
  public private(set) var count = 0

  /// An empty map with room for `capacity` songs before it grows.
  public init(capacity: Int = 0) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    keys = Array(repeating: 0, count: size)
    values = Array(repeating: nil, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  private func slot(of song: SongID) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: song.rawValue) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The value of `song`, `nil` when it has none. Setting a value adds or replaces it; setting
  /// `nil` is a programming error (a song is never removed alone).
  public subscript(song: SongID) -> Value? {
    get {
      var index = slot(of: song)
      while let value = values[index] {
        if keys[index] == song.rawValue { return value }
        index = (index + 1) & (keys.count - 1)
      }
      return nil
    }
    set {
      guard let newValue else { preconditionFailure("a SongMap does not remove single songs") }
      var index = slot(of: song)
      while values[index] != nil {
        if keys[index] == song.rawValue {
          values[index] = newValue
          return
        }
        index = (index + 1) & (keys.count - 1)
      }
      keys[index] = song.rawValue
      values[index] = newValue
      count += 1
      if count * 2 > keys.count { grow() }
    }
  }

  /// Forgets every song.
  public mutating func removeAll() { self = SongMap() }

  private mutating func grow() {
    var larger = SongMap(capacity: keys.count)
    for index in keys.indices {
      if let value = values[index] { larger[SongID(keys[index])] = value }
    }
    self = larger
  }
}

extension SongMap: Sendable where Value: Sendable {}
