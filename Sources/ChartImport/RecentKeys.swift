import ChartRanking

/// The song keys of recent entries, by title, artist and song URL: a chart repeats most of its
/// entries from one snapshot to the next, and folding their text again is the costliest part of
/// computing keys.
///
/// Holds at most two generations of ``generationSize`` entries: an entry seen again after fewer
/// than ``generationSize`` others is still there. The generation grows to the entries read
/// between two snapshots of one chart (told by ``startSnapshot(of:entryCount:)``), so that charts
/// imported together, interleaved by date, keep hitting (30 daily top 200s read 6,000 entries
/// between two days of one chart), while a single weekly top 100 keeps a few thousand entries.
struct RecentKeys {
  private struct Text: Hashable {
    var title: String
    var artist: String
    var songURL: String?
    /// FNV-1a of the three texts, computed once: hashing and comparing it first costs far less
    /// than `Hasher` going over the texts for each lookup.
    let fingerprint: UInt64

    init(title: String, artist: String, songURL: String?) {
      self.title = title
      self.artist = artist
      self.songURL = songURL
      // A constant mixed in between the texts hashes ("ab", "c") and ("a", "bc") apart; equal
      // fingerprints are confirmed by comparing the texts.
      let separator: UInt64 = 0x1F
      var hash = SongIdentity.fnv1a(title) ^ separator
      hash = SongIdentity.fnv1a(artist, continuing: hash)
      if let songURL { hash = SongIdentity.fnv1a(songURL, continuing: hash ^ separator) }
      fingerprint = hash
    }

    static func == (lhs: Text, rhs: Text) -> Bool {
      lhs.fingerprint == rhs.fingerprint && lhs.title == rhs.title && lhs.artist == rhs.artist
        && lhs.songURL == rhs.songURL
    }

    func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }
  }

  /// The smallest and largest ``generationSize``.
  static let generationSizes = 2_048...65_536
  /// How many entries a generation holds before the older one is dropped.
  private(set) var generationSize = generationSizes.lowerBound
  private var current: [Text: SongKeys] = [:]
  private var older: [Text: SongKeys] = [:]
  /// Entries read so far, and that count when each chart's last snapshot began.
  private var entriesRead = 0
  private var snapshotStarts: [String: Int] = [:]
  /// The forms of the credits met, for the keys computed.
  private var credits = CreditForms()
  /// How many entries' keys were computed rather than remembered.
  private(set) var computed = 0

  /// Notes that the entries of a snapshot of `chart` come next: the generation grows to hold, with
  /// a quarter to spare, every entry read since the chart's previous snapshot began.
  mutating func startSnapshot(of chart: String, entryCount: Int) {
    if let start = snapshotStarts[chart] {
      let window = entriesRead - start
      generationSize = min(
        max(generationSize, window + window / 4), Self.generationSizes.upperBound)
    }
    snapshotStarts[chart] = entriesRead
    entriesRead += entryCount
  }

  /// The keys of `entry`, computed or remembered.
  mutating func keys(of entry: ChartEntry) -> SongKeys {
    let text = Text(title: entry.title, artist: entry.artist, songURL: entry.songURL)
    if let keys = current[text] { return keys }
    let keys: SongKeys
    if let remembered = older[text] {
      keys = remembered
    } else {
      keys = SongKeys(entry, credits: &credits)
      computed += 1
    }
    if current.count >= generationSize {
      older = current
      current = [:]
      current.reserveCapacity(generationSize)
    }
    current[text] = keys
    return keys
  }

  /// Remembers the keys of an entry, computed elsewhere (those of the snapshot being linked, for
  /// the entries of the snapshot before it).
  mutating func remember(_ keys: SongKeys, of entry: ChartEntry) {
    current[Text(title: entry.title, artist: entry.artist, songURL: entry.songURL)] = keys
  }
}
