/// A song as the archive knows it: every entry with the same ``SongIdentity`` shares one ID.
/// The value is opaque to the ranking module; the storage module assigns it.
public struct SongID: Hashable, Comparable, Sendable {
  /// The archive's number for the song.
  public var rawValue: Int64

  /// Wraps an archive's song number.
  public init(_ rawValue: Int64) { self.rawValue = rawValue }

  public static func < (lhs: SongID, rhs: SongID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A snapshot as the archive knows it. Opaque to the ranking module; the storage module assigns it.
public struct SnapshotID: Hashable, Comparable, Sendable {
  /// The archive's number for the snapshot.
  public var rawValue: Int64

  /// Wraps an archive's snapshot number.
  public init(_ rawValue: Int64) { self.rawValue = rawValue }

  public static func < (lhs: SnapshotID, rhs: SnapshotID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An artist as the archive knows it: a name the credit splitter finds in credits (see
/// ``ArtistCredit``), one per name folded. Opaque to the ranking module; the storage module
/// assigns it.
public struct ArtistID: Hashable, Comparable, Sendable {
  /// The archive's number for the artist.
  public var rawValue: Int64

  /// Wraps an archive's artist number.
  public init(_ rawValue: Int64) { self.rawValue = rawValue }

  public static func < (lhs: ArtistID, rhs: ArtistID) -> Bool { lhs.rawValue < rhs.rawValue }
}
