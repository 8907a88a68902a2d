import CSQLite

extension Archive {
  /// Copies the archive into a new archive file at `destination`, whole and consistent even while
  /// the service reads it and an import writes it: SQLite's online backup
  /// (<https://www.sqlite.org/backup.html>) copies every page in one step, inside one read
  /// transaction, so the copy is the archive as one commit left it, everything it holds included
  /// (snapshots, songs, figures, decisions made by hand). The copy is built in a file beside
  /// `destination` (see ``NewArchive``), checked (`PRAGMA quick_check`,
  /// <https://www.sqlite.org/pragma.html#pragma_quick_check>) and only then linked into place; an
  /// existing file is never overwritten, but for an empty one, which holds nothing (as for an
  /// import into a new archive).
  ///
  /// - Parameter destination: the copy's path; its missing folders are created.
  /// - Returns: the copy's charts, by name, as ``ArchiveReader/charts()`` lists them (read from
  ///   the copy once it passed its check); `nil` when a file was at `destination` already or
  ///   appeared meanwhile (nothing was written over it, and the copy was deleted).
  /// - Throws: ``ArchiveError/database(path:_:)`` (with `destination`) when the copy cannot be
  ///   written (a full disk, a folder that cannot be written) or fails its check (the archive's
  ///   own pages are damaged: they are copied as they are); nothing is left at `destination` then.
  public func backup(to destination: String) throws(ArchiveError) -> [ChartSummary]? {
    let copy = try NewArchive(at: destination)
    guard let target = copy.archive.writingDatabase else {
      preconditionFailure("a new archive has its writing connection")
    }
    let charts: [ChartSummary]
    do {
      // What fails in the copy is the copy's (a full disk there), not the archive's.
      var failure: DatabaseError?
      try read { reader in
        do throws(DatabaseError) {
          try Self.copyPages(of: reader.database, into: target)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      let check = try target.rows("PRAGMA quick_check") { $0.string(at: 0) }
      guard check == ["ok"] else {
        throw DatabaseError(
          extendedResultCode: SQLITE_CORRUPT,
          message: "the copy fails SQLite's check: " + check.prefix(3).joined(separator: "; "))
      }
      charts = try copy.archive.read { try $0.charts() }
    } catch let error as DatabaseError {
      throw .database(path: destination, error)
    } catch let error as ArchiveError {
      throw error
    } catch {
      throw .database(path: destination, .other("\(error)"))
    }
    return try copy.publish() ? charts : nil
  }

  /// Copies every page of `source` into `target` in one step of SQLite's backup.
  private static func copyPages(of source: Database, into target: Database) throws(DatabaseError) {
    guard let backup = sqlite3_backup_init(target.handle, "main", source.handle, "main") else {
      throw DatabaseError(connection: target.handle, code: sqlite3_errcode(target.handle), sql: nil)
    }
    let stepped = sqlite3_backup_step(backup, -1)
    let finished = sqlite3_backup_finish(backup)
    guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
      throw DatabaseError(
        connection: target.handle, code: stepped == SQLITE_DONE ? finished : stepped, sql: nil)
    }
  }
}
