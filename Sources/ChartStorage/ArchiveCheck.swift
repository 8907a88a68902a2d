public import ChartRanking

/// The result of one check of an archive: which check, and what it found wrong (nothing when it
/// passed). Findings are data; each front end words them.
public struct ArchiveCheck: Hashable, Sendable {
  /// The checks, in the order ``ArchiveReader/check()`` runs them.
  public enum Kind: String, CaseIterable, Hashable, Sendable {
    /// SQLite's `PRAGMA integrity_check`.
    case integrity
    /// SQLite's `PRAGMA foreign_key_check`.
    case foreignKeys
    /// Ranks are 1 or more and in order within each snapshot.
    case ranks
    /// Each snapshot has entries and a valid chart date that agrees with its instant.
    case snapshots
    /// Every entry's song exists.
    case songs
    /// Every row keeps the schema's CHECK constraints.
    case checkConstraints
    /// The artist totals kept for the leaderboards are what the entries add up to.
    case artistTotals
  }

  /// Which check.
  public var kind: Kind
  /// What is wrong, one finding per problem; empty when the check passed.
  public var findings: [ArchiveFinding]

  /// A check's result.
  public init(kind: Kind, findings: [ArchiveFinding]) {
    self.kind = kind
    self.findings = findings
  }

  /// Whether the check passed.
  public var passed: Bool { findings.isEmpty }
}

/// One problem a check of an archive found, with where it is.
public enum ArchiveFinding: Hashable, Sendable {
  /// The archive's schema cannot be read (the file is damaged): SQLite's words; no other check
  /// ran.
  case schemaUnreadable(message: String)
  /// SQLite could not finish the check (the file is damaged): SQLite's words.
  case notChecked(message: String)
  /// SQLite's integrity check met damage it could not go past: SQLite's words.
  case notCheckedFurther(message: String)
  /// A line of SQLite's integrity check, in SQLite's words.
  case integrity(String)
  /// A row of `table` (its row ID) refers to a row of `parent` that is not there.
  case missingReference(table: String, rowID: Int64, parent: String)
  /// The entry at `position` (1-based) of a snapshot has a rank below the rank of the entry
  /// before it.
  case rankOutOfOrder(chart: String, chartDate: String, position: Int, rank: Int, previousRank: Int)
  /// An entry has a rank below 1.
  case rankBelowOne(chart: String, chartDate: String, rank: Int)
  /// A snapshot has no entries, though its import stored some (its `entry_count`): they were
  /// lost. A snapshot stored with none (a chart of no entries, which a Last.fm listener's week
  /// without plays is) is not a finding.
  case emptySnapshot(chart: String, chartDate: String)
  /// A snapshot's chart date is not ISO 8601.
  case invalidChartDate(chart: String, text: String)
  /// A snapshot's chart date is another instant than the one stored to order it.
  case instantDisagrees(chart: String, chartDate: String, stored: Int64, dated: Int64)
  /// An entry's song is not in the archive.
  case missingSong(chartDate: String, rank: Int, song: Int64)
  /// A row breaks a CHECK constraint of the schema (the first it breaks, in SQLite's words).
  case brokenConstraint(row: ArchiveRow, constraint: String)
  /// An artist's total on a chart, as its leaderboards read it from the totals kept for them
  /// (`artist_totals`), is not what one scan of the chart's entries counts: the kept and the
  /// counted total (`nil` for none; a kept total whose snapshot is gone is read as none).
  case artistTotalDisagrees(
    chart: String, artist: String, figure: ArtistLeaderboard.Figure, kept: ArtistTotal?,
    counted: ArtistTotal?)
}

/// An artist's total of one figure on a chart, with the first and last chart dates counted
/// (ISO 8601; those with the most entries at once, for
/// ``ArtistLeaderboard/Figure/entriesAtOnce``), as ``ArchiveFinding/artistTotalDisagrees`` gives
/// it.
public struct ArtistTotal: Hashable, Sendable {
  /// The total: songs, weeks, or entries on one snapshot; more than 0.
  public var total: Int
  /// The first chart date counted.
  public var firstDate: String
  /// The last chart date counted.
  public var lastDate: String

  /// A total with its dates.
  public init(total: Int, firstDate: String, lastDate: String) {
    self.total = total
    self.firstDate = firstDate
    self.lastDate = lastDate
  }
}

/// A row of the archive, as a finding names it.
public enum ArchiveRow: Hashable, Sendable {
  /// The entry at `position` (1-based) of a chart's snapshot.
  case entry(chart: String, chartDate: String, position: Int)
  /// A snapshot by its row ID.
  case snapshot(Int64)
  /// A song by its row ID.
  case song(Int64)
  /// A chart by its row ID.
  case chart(Int64)
  /// The verdicts of the entry at `position` (1-based) of a snapshot (its row ID).
  case verdict(snapshot: Int64, position: Int)
  /// A decision by its number, or one of its rows (`decision_entries`, `decision_undo`).
  case decision(Int64)
}
