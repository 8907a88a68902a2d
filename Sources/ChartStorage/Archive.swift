import CSQLite
import Foundation

/// A chart archive: one SQLite file holding charts, their snapshots, songs and entries, shared by
/// any number of threads.
///
/// In the spirit of GRDB's `DatabasePool`: a small pool of read-only connections and one writing
/// connection. Every ``read(_:)`` runs in one read transaction, so the several queries of one
/// command or request see one state of the archive even while an import commits beside them
/// (write-ahead logging: <https://www.sqlite.org/wal.html>, "Concurrency"). Every
/// ``write(beforeCommit:_:)`` runs in one write transaction, one at a time, so an import is all or
/// nothing.
///
/// ```swift
/// let archive = try Archive(path: "archive.sqlite", access: .create)
/// let charts = try archive.read { try $0.charts() }
/// ```
///
/// What a read returns is plain `Sendable` values (``ChartSummary``, ``SnapshotSummary``,
/// ``Placement`` …); the ``ArchiveReader`` and ``ArchiveWriter`` handed to the closures are valid
/// only inside them. Snapshots are stored by ChartImport's import engine, which decides what to
/// write and writes it through ``write(beforeCommit:_:)``.
public final class Archive: Sendable {
  /// What an archive is opened for.
  public enum Access: Sendable {
    /// Queries only: the file must exist and be an archive; nothing is written to it (an archive
    /// of an older schema version is brought up to date first, once, through a writing
    /// connection). ``write(beforeCommit:_:)`` is not available.
    case read
    /// Queries and imports into an archive that exists.
    case write
    /// Queries and imports; a missing file is created, with its missing parent folders.
    case create
  }

  /// The archive file's path, as given.
  public let path: String
  /// What the archive was opened for.
  public let access: Access
  /// Where reads run: a pool of read-only connections, or the writing connection when no other
  /// connection can see what it holds (an in-memory archive, an archive being built). Declared
  /// before ``writer``, so that its connections close first when the archive goes: the writing
  /// connection, closing last, copies the write-ahead log into the file and deletes it, which a
  /// read-only connection cannot (<https://www.sqlite.org/wal.html#the_wal_file>).
  private let readers: ReaderPool?
  /// The writing connection; `nil` for ``Access/read``.
  private let writer: Connection?
  /// Taken for the whole of each write, so that writes run one at a time. Recursive: a read on an
  /// archive whose readers share the writing connection may run inside a write of the same
  /// thread.
  private let writeLock = NSRecursiveLock()

  /// The schema version this build reads and writes.
  public static var schemaVersion: Int { Migrations.latestVersion }

  /// The version of the SQLite library in use, such as `3.40.1`: `sqlite3_libversion()`
  /// (<https://www.sqlite.org/c3ref/libversion.html>), the library the process loaded rather than
  /// the headers it was built with.
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

  /// The most read-only connections an archive opens at once; more readers wait for one.
  public static let defaultMaximumReaders = 8

  /// Opens an archive.
  ///
  /// - Parameters:
  ///   - path: the SQLite file's path, or `:memory:` for a private in-memory archive (whose
  ///     reads share its one connection).
  ///   - access: what the archive is opened for.
  ///   - maximumReaders: how many read-only connections may be open at once.
  ///   - upgrade: what bringing an archive of an older schema version up to date needs beyond SQL
  ///     (``ArchiveUpgrade``); the front ends give ChartImport's `ArchiveUpgrade.decidingFigures`.
  ///     An archive that needs it (one of schema version 1 with entries) opened without it stops
  ///     the program: a programming error.
  /// - Throws: ``ArchiveError/notFound(path:)``, ``ArchiveError/notAnArchive(path:reason:)`` (also
  ///   for an archive whose tables are not those of its schema version),
  ///   ``ArchiveError/newerSchema(path:version:supported:)``,
  ///   ``ArchiveError/upgradeNotWritable(path:version:supported:reason:)`` (an archive of an older
  ///   schema opened for reading, which must be upgraded and cannot be written) or
  ///   ``ArchiveError/database(path:_:)``.
  public init(
    path: String, access: Access, maximumReaders: Int = Archive.defaultMaximumReaders,
    upgrade: ArchiveUpgrade? = nil
  ) throws(ArchiveError) {
    self.path = path
    self.access = access
    let opened = try ArchiveOpening.open(path: path, access: access, upgrade: upgrade)
    writer = opened.writer.map { Connection($0) }
    readers =
      opened.sharesWriter
      ? nil
      : ReaderPool(
        path: path, mode: opened.readerMode, maximumCount: maximumReaders,
        first: opened.reader.map { Connection($0) })
  }

  /// An archive on a writing connection that no other connection can open (an archive being
  /// built, see ``NewArchive``), whose schema is migrated by the caller; reads share it.
  ///
  /// - Parameters:
  ///   - database: the connection.
  ///   - path: the archive's path as messages name it.
  init(building database: Database, path: String) {
    self.path = path
    access = .create
    writer = Connection(database)
    readers = nil
  }

  /// Whether reads run on connections of their own, beside a write (a file's archive); `false`
  /// when they share the writing connection and wait for the write (an in-memory archive, an
  /// archive being built).
  public var readsBesideWrites: Bool { readers != nil }

  /// The writing connection, for closing it when a built archive is published.
  var writingDatabase: Database? { writer?.database }

  // MARK: - Reading

  /// Runs `body` in one read transaction (`BEGIN DEFERRED … COMMIT`): every query it makes sees
  /// the same state of the archive, the one committed when its first query ran
  /// (<https://www.sqlite.org/lang_transaction.html>, <https://www.sqlite.org/isolation.html>).
  ///
  /// Any number of threads may read at once, each on a read-only connection of its own (up to the
  /// pool's maximum; more wait), also while a write runs.
  ///
  /// - Parameter body: receives the reader to query with; it must not keep it.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws, or ``ArchiveError/database(path:_:)`` when the transaction
  ///   cannot begin or a connection cannot be opened.
  public func read<Result>(_ body: (ArchiveReader) throws -> Result) throws -> Result {
    guard let readers else {
      // The writing connection, between writes (or inside one, on this thread).
      writeLock.lock()
      defer { writeLock.unlock() }
      guard let writer else { preconditionFailure("an archive has readers or a writer") }
      return try Self.inReadTransaction(writer.database, path: path, body)
    }
    return try readers.withConnection { database in
      try Self.inReadTransaction(database, path: path, body)
    }
  }

  private static func inReadTransaction<Result>(
    _ database: Database, path: String, _ body: (ArchiveReader) throws -> Result
  ) throws -> Result {
    let reader = ArchiveReader(database: database, path: path)
    // Inside a write of this thread the transaction is open already: it is the one read in.
    guard database.isInAutocommitMode else { return try body(reader) }
    do { try database.execute("BEGIN DEFERRED") } catch {
      throw ArchiveError.database(path: path, error)
    }
    do {
      let result = try body(reader)
      // Ending a read changes nothing, and what it read stands: SQLite fails the COMMIT of a read
      // that met a damaged page (which `check` reports as a failed check), and the transaction is
      // then rolled back.
      if (try? database.execute("COMMIT")) == nil { try? database.execute("ROLLBACK") }
      return result
    } catch {
      try? database.execute("ROLLBACK")
      if let error = error as? DatabaseError { throw ArchiveError.database(path: path, error) }
      throw error
    }
  }

  /// The schema version stored in the file (`PRAGMA user_version`).
  ///
  /// - Throws: ``ArchiveError/database(path:_:)``.
  public func storedSchemaVersion() throws(ArchiveError) -> Int {
    do {
      return try read { reader in try reader.reading { try Migrations.userVersion(reader.database) }
      }
    } catch let error as ArchiveError {
      throw error
    } catch {
      throw .database(path: path, .other("\(error)"))
    }
  }

  // MARK: - Writing

  /// Runs `body` in one write transaction: everything it writes is committed when it returns and
  /// nothing is when it throws. Writes run one at a time; each waits for the one before (and for
  /// another process's, up to the busy timeout).
  ///
  /// - Parameters:
  ///   - beforeCommit: runs last before the commit, once the writer has done what it does after
  ///     `body` (below); what it throws undoes the write. An import waits there for its damage
  ///     check, which so runs beside the writer's own last steps.
  ///   - body: receives the ``ArchiveWriter`` to write with; it must not keep it past the write.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` or `beforeCommit` throws, ``ArchiveError/database(path:_:)`` when the
  ///   transaction cannot begin or commit (`SQLITE_BUSY` after the busy timeout, a full disk), or
  ///   ``ArchiveError/movedWhileWritten(path:)`` when the file is no longer at the path as it is
  ///   about to commit (renamed over or deleted by another program): the write is then undone;
  ///   or once it has committed: what it wrote is then in the file no name reaches, whose log is
  ///   emptied into it. Either way nothing of it reaches a file now at the path.
  ///
  /// Foreign keys are not enforced row by row while `body` runs: the writer checks the songs,
  /// snapshots and charts its rows refer to once, before the commit, and throws SQLite's
  /// `SQLITE_CONSTRAINT_FOREIGNKEY` error when one is missing (see ``References``). Nor are the
  /// schema's CHECK constraints (`PRAGMA ignore_check_constraints`,
  /// <https://www.sqlite.org/pragma.html#pragma_ignore_check_constraints>), some fifteen steps of
  /// SQLite's per entry: the writer tests each entry's row against them itself and throws SQLite's
  /// `SQLITE_CONSTRAINT_CHECK` error, in SQLite's words, for one that breaks them; the values of
  /// the other tables' checked columns come from Swift types that cannot break theirs (a `Bool`, an
  /// enumeration, a chart name checked by ``Snapshot/isValidChartName(_:)``). Before the commit the
  /// writer also adds the songs and credits it inserted to the full-text index.
  ///
  /// - Precondition: the archive was not opened for ``Access/read``.
  @discardableResult
  public func write<Result>(
    beforeCommit: () throws -> Void = {}, _ body: (ArchiveWriter) throws -> Result
  ) throws -> Result {
    guard let writer else { preconditionFailure("an archive opened for reading has no writer") }
    writeLock.lock()
    defer { writeLock.unlock() }
    let database = writer.database
    let archiveWriter = ArchiveWriter(database: database, path: path)
    do {
      // The setting can change only outside a transaction
      // (<https://www.sqlite.org/pragma.html#pragma_foreign_keys>).
      try database.execute("PRAGMA foreign_keys = OFF")
      defer { try? database.execute("PRAGMA foreign_keys = ON") }
      try database.execute("PRAGMA ignore_check_constraints = ON")
      defer { try? database.execute("PRAGMA ignore_check_constraints = OFF") }
      let result = try database.inTransaction {
        let result = try body(archiveWriter)
        try archiveWriter.finish()
        try beforeCommit()
        // Committed into a file no longer at the path, the write would be lost, and its log left
        // beside the path would be read into the file now there.
        if database.fileHasMoved { throw ArchiveError.movedWhileWritten(path: path) }
        return result
      }
      // Moved as it committed (a commit takes a while: the log written and synced): what it wrote
      // is in a file no name reaches, and its log is emptied so that it reaches no other file.
      if database.emptyLogIfMoved() { throw ArchiveError.movedWhileWritten(path: path) }
      return result
    } catch let error as DatabaseError {
      throw ArchiveError.database(path: path, error)
    }
  }

  /// Copies what the write-ahead log holds into the archive file, as far as readers let it, without
  /// waiting for them (`PRAGMA wal_checkpoint(PASSIVE)`,
  /// <https://www.sqlite.org/pragma.html#pragma_wal_checkpoint>): a reader in the middle of a
  /// query (a server's, a long export) may keep the newest part of the log from being copied; that
  /// part is copied by a later write or checkpoint.
  ///
  /// - Returns: whether the whole log was copied.
  /// - Throws: ``ArchiveError/database(path:_:)`` when the copy fails (`SQLITE_FULL` on a full
  ///   disk, an I/O error): what was committed stays in the log, beside the archive, and is copied
  ///   in when the archive is next opened with room to spare.
  /// - Precondition: the archive was not opened for ``Access/read``.
  @discardableResult
  public func checkpoint() throws(ArchiveError) -> Bool {
    guard let writer else { preconditionFailure("an archive opened for reading has no writer") }
    writeLock.lock()
    defer { writeLock.unlock() }
    do {
      // (busy, frames in the log, frames copied).
      let result = try writer.database.row("PRAGMA wal_checkpoint(PASSIVE)") {
        ($0.int(at: 0), $0.int(at: 1), $0.int(at: 2))
      }
      return result.map { $0.0 == 0 && $0.1 == $0.2 } ?? true
    } catch {
      throw .database(path: path, error)
    }
  }

  /// Sets how long the writing connection waits for a lock another connection holds (another
  /// process's import) before its statement fails with `SQLITE_BUSY`
  /// (<https://www.sqlite.org/c3ref/busy_timeout.html>): 10 s unless set, and 0 fails at once.
  /// The HTTP service's uploads set it before each write, to what is left of the time an upload
  /// may wait.
  ///
  /// - Parameter milliseconds: the wait, in milliseconds (0 or more).
  /// - Precondition: the archive was not opened for ``Access/read``.
  public func setWriteBusyTimeout(milliseconds: Int) {
    guard let writer else { preconditionFailure("an archive opened for reading has no writer") }
    writeLock.lock()
    defer { writeLock.unlock() }
    sqlite3_busy_timeout(writer.database.handle, Int32(clamping: max(0, milliseconds)))
  }

  /// Runs `body` with the writing connection, outside any transaction (tests that change an
  /// archive under the batch).
  func withWritingDatabase<Result>(_ body: (Database) throws -> Result) rethrows -> Result {
    guard let writer else { preconditionFailure("an archive opened for reading has no writer") }
    writeLock.lock()
    defer { writeLock.unlock() }
    return try body(writer.database)
  }
}

/// A connection that moves between threads, used by one at a time: the archive's lock or pool
/// hands it to one caller and takes it back.
final class Connection: @unchecked Sendable {
  let database: Database
  /// The file the connection opened, when known (a reader of the pool); `nil` for one opened
  /// before the pool looked, which the pool replaces on its first read.
  let file: FileIdentity?

  init(_ database: Database, file: FileIdentity? = nil) {
    self.database = database
    self.file = file
  }
}
