/// A page of the archive file that SQLite cannot read as a page of its table or index.
public struct DamagedPage: Hashable, Sendable {
  /// The table or index the page belongs to; empty when SQLite could not tell (it could not
  /// read the file's B-trees down to the page).
  public var table: String
  /// The page's number in the file, 1-based (page 1 starts the file).
  public var page: Int

  /// A damaged page.
  public init(table: String, page: Int) {
    self.table = table
    self.page = page
  }
}

extension ArchiveReader {
  /// The pages of the archive's tables and indexes whose headers SQLite cannot read as it wrote
  /// them, the first `limit` in file order: each page of every table and index is read once, from
  /// the `dbstat` virtual table (<https://www.sqlite.org/dbstat.html>), whose page type is
  /// `corrupted` for such a page. It reads the whole file (about 15 ms for the whole Hot 100,
  /// 43 MB, from the page cache) but parses only each page's header and cell pointers, where
  /// `PRAGMA quick_check` parses every cell (about 280 ms).
  ///
  /// What it cannot see: damage inside a record that leaves its page well formed (a changed
  /// letter of a title), pages on the free list, an index that disagrees with its table
  /// (`check` finds those), and the write-ahead log.
  ///
  /// - Returns: the damaged pages; empty for a sound archive, or where this SQLite lacks `dbstat`
  ///   (built without `SQLITE_ENABLE_DBSTAT_VTAB`; Debian's has it).
  /// - Throws: ``ArchiveError/database(path:_:)`` when the pages cannot be read at all (the file
  ///   is locked or gone).
  public func damagedPages(limit: Int = 20) throws(ArchiveError) -> [DamagedPage] {
    do {
      return try database.rows(
        "SELECT name, pageno FROM dbstat WHERE pagetype = 'corrupted' ORDER BY pageno LIMIT ?",
        [limit]
      ) { DamagedPage(table: $0.string(at: 0), page: $0.int(at: 1)) }
    } catch let error where error.message.hasPrefix("no such table: dbstat") {
      return []
    } catch let error where error.isDamage {
      // The schema itself, or a page `dbstat` descends through, cannot be read.
      return [DamagedPage(table: "sqlite_schema", page: 1)]
    } catch {
      throw .database(path: path, error)
    }
  }
}
