/// A map from songs to values for the entries of a snapshot or the songs of a chart: open
/// addressing with a multiplicative hash, several times cheaper than `Dictionary`'s seeded SipHash
/// for integer keys on an import's hot path. Values are only added or replaced; ``removeAll()``
/// empties the map.
///
/// Its code is inlinable, so that a module using it (storage) gets it specialized for its value
/// type: unspecialized, each access asked the runtime for the metadata of `Value?` and `[Value?]`,
/// which cost more than the lookup.
public struct SongMap<Value> {
  @usableFromInline var keys: [Int64]
  @usableFromInline var values: [Value?]
  @usableFromInline var shift: UInt64
  @usableFromInline var storedCount = 0

  /// How many songs the map holds.
  @inlinable public var count: Int { storedCount }

  /// An empty map with room for `capacity` songs before it grows.
  @inlinable
  public init(capacity: Int = 0) {
    var size = 16
    while size < capacity * 2 { size *= 2 }
    keys = Array(repeating: 0, count: size)
    values = Array(repeating: nil, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  @inlinable
  func slot(of song: SongID) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: song.rawValue) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The value of `song`, `nil` when it has none. Setting a value adds or replaces it; setting
  /// `nil` is a programming error (a song is never removed alone).
  @inlinable
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
      storedCount += 1
      if storedCount * 2 > keys.count { grow() }
    }
  }

  /// Forgets every song, keeping the room.
  @inlinable
  public mutating func removeAll() {
    guard storedCount > 0 else { return }
    for index in values.indices { values[index] = nil }
    storedCount = 0
  }

  @usableFromInline
  mutating func grow() {
    var larger = SongMap(capacity: keys.count)
    for index in keys.indices {
      if let value = values[index] { larger[SongID(keys[index])] = value }
    }
    self = larger
  }
}

extension SongMap: Sendable where Value: Sendable {}
