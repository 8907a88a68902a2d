/// An entry read back from the archive: the entry and the song it belongs to.
public struct ArchivedEntry: Hashable, Sendable {
  /// The entry as imported.
  public var entry: ChartEntry
  /// The song the entry belongs to.
  public var song: SongID

  /// Pairs an entry with its song.
  public init(entry: ChartEntry, song: SongID) {
    self.entry = entry
    self.song = song
  }
}
