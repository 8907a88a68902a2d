/// Where each song of a snapshot is in it: built when an entry is not found the fast way (by the
/// rank its next snapshot's entry says it had), an open-addressing table with a multiplicative
/// hash, cheaper than `Dictionary`'s seeded SipHash for a few hundred integer keys.
struct SongPositions {
  private var keys: [Int64]
  private var values: [Int32]
  private let shift: UInt64

  /// The first position of each of `songs`.
  init(_ songs: [SongID]) {
    var size = 16
    while size < songs.count * 2 { size *= 2 }
    keys = Array(repeating: .min, count: size)
    values = Array(repeating: -1, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
    for index in songs.indices {
      let song = songs[index].rawValue
      var slot = self.slot(of: song)
      while keys[slot] != .min, keys[slot] != song { slot = (slot + 1) & (keys.count - 1) }
      if keys[slot] == .min {
        keys[slot] = song
        values[slot] = Int32(index)
      }
    }
  }

  private func slot(of song: Int64) -> Int {
    Int(truncatingIfNeeded: (UInt64(bitPattern: song) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The first position of `song`, or `nil`.
  func position(of song: SongID) -> Int? {
    var slot = slot(of: song.rawValue)
    while keys[slot] != .min {
      if keys[slot] == song.rawValue { return Int(values[slot]) }
      slot = (slot + 1) & (keys.count - 1)
    }
    return nil
  }
}

/// Finds a song's entry in a snapshot: first at the rank an entry says the song had there (most
/// entries of a chart that publishes previous ranks), else through ``SongPositions``, built once
/// when first needed.
struct SongFinder {
  let snapshot: LinkedSnapshot
  private var positions: SongPositions?

  init(_ snapshot: LinkedSnapshot) { self.snapshot = snapshot }

  /// The position of `song`'s first entry, trying the entry at `rank` first.
  mutating func position(of song: SongID, hint rank: Int?) -> Int? {
    if let rank {
      // Ranks run 1, 2, 3 … in most snapshots: the entry at a rank is at its rank's position.
      let guess = rank - 1
      if guess >= 0, guess < snapshot.entries.count, snapshot.entries[guess].rank == rank,
        snapshot.songs[guess] == song
      {
        return guess
      }
    }
    if positions == nil { positions = SongPositions(snapshot.songs) }
    return positions?.position(of: song)
  }
}
