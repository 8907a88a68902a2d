import Foundation
import Glibc

/// Opening an archive file: what is checked before SQLite touches it, the schema migrations, and
/// the connections an ``Archive`` starts with.
enum ArchiveOpening {
  /// The connections an archive starts with.
  struct Opened {
    /// The writing connection, migrated; `nil` for ``Archive/Access/read``.
    var writer: Database?
    /// A read-only connection already open (the one that checked the schema), for the pool.
    var reader: Database?
    /// How the pool opens its other connections: `.readOnlyImmutable` for a file in a folder this
    /// process cannot write.
    var readerMode: Database.Mode = .readOnly
    /// Whether reads must share the writing connection: an in-memory database is private to its
    /// connection.
    var sharesWriter: Bool
  }

  /// Checks the file and opens it.
  ///
  /// A writing archive is created when missing (with its parent folders, for ``Archive/Access/create``)
  /// and its schema is migrated. A reading archive is opened read-only, so that a query never
  /// changes the file (and works on a read-only file); only an archive with an older schema is
  /// opened for writing once, to migrate it, and closed again: the pool's readers never migrate.
  ///
  /// - Throws: ``ArchiveError/notFound(path:)``, ``ArchiveError/notAnArchive(path:reason:)``,
  ///   ``ArchiveError/newerSchema(path:version:supported:)``,
  ///   ``ArchiveError/upgradeNotWritable(path:version:supported:reason:)`` (an older archive opened
  ///   for reading that cannot be written) or ``ArchiveError/database(path:_:)``.
  static func open(path: String, access: Archive.Access, upgrade: ArchiveUpgrade?)
    throws(ArchiveError) -> Opened
  {
    let manager = FileManager.default
    // What is at the path is checked before anything opens it, following symbolic links: SQLite
    // opening a file for writing changes it (its journal mode in the header), or writes a journal
    // beside it (`/dev/null-journal`).
    var existing = false
    if path != ":memory:" {
      var status = stat()
      if stat(path, &status) == 0 {
        existing = true
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw .notAnArchive(path: path, reason: "it is a directory")
        case S_IFREG: break
        default:
          throw .notAnArchive(
            path: path, reason: "it is not a regular file (a device, a pipe or a socket)")
        }
        if access == .read, status.st_size == 0 {
          throw .notAnArchive(path: path, reason: "it is empty")
        }
        existing = status.st_size > 0
      } else if access == .create {
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? manager.createDirectory(at: parent, withIntermediateDirectories: true)
      } else {
        throw .notFound(path: path)
      }
    }
    do {
      if access != .read || path == ":memory:" {
        // Another program's database, or a newer archive, is refused before it is opened for
        // writing.
        if existing { try checkBeforeWriting(path: path) }
        let writer = try Database(path: path, mode: access == .write ? .readWrite : .create)
        try Migrations.migrate(writer, upgrade: upgrade)
        try Migrations.verifySchema(writer)
        return Opened(writer: writer, reader: nil, sharesWriter: path == ":memory:")
      }
      var reader: Database
      var version: Int
      var readerMode = Database.Mode.readOnly
      do {
        reader = try Database(path: path, mode: .readOnly)
        version = try checkedVersion(reader, path: path)
      } catch let error as DatabaseError where error.isNotWritable && isInUnwritableFolder(path) {
        // SQLite cannot make the file's `-shm` beside it: it is read as immutable.
        readerMode = .readOnlyImmutable
        reader = try Database(path: path, mode: readerMode)
        version = try checkedVersion(reader, path: path)
      }
      if version < Migrations.latestVersion {
        do {
          let migrating = try Database(path: path, mode: .readWrite)
          try Migrations.migrate(migrating, upgrade: upgrade)
          try migrating.close()
        } catch let error as DatabaseError where error.isNotWritable {
          throw ArchiveError.upgradeNotWritable(
            path: path, version: version, supported: Migrations.latestVersion,
            reason: error.message)
        }
      } else {
        try Migrations.migrate(reader)  // refuses a newer schema; applies nothing
      }
      try Migrations.verifySchema(reader)
      return Opened(writer: nil, reader: reader, readerMode: readerMode, sharesWriter: false)
    } catch let error as ArchiveError {
      throw error
    } catch let error as DatabaseError {
      if error.isNotADatabase { throw .notAnArchive(path: path, reason: "not an SQLite database") }
      throw .database(path: path, error)
    } catch {
      throw .database(path: path, .other("\(error)"))
    }
  }

  /// Whether the archive at `path` is in a folder this process cannot write, with no write-ahead
  /// log beside it: no writer can change it, and SQLite cannot make its `-shm` file there.
  private static func isInUnwritableFolder(_ path: String) -> Bool {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return access(folder, W_OK) != 0 && !FileManager.default.fileExists(atPath: path + "-wal")
  }

  /// The schema version of an archive opened for reading, refusing a database that is not one.
  ///
  /// - Throws: ``ArchiveError/notAnArchive(path:reason:)`` for a database without a schema version
  ///   (another program's, or an empty one), ``DatabaseError`` when it cannot be read.
  private static func checkedVersion(_ reader: Database, path: String) throws -> Int {
    let version = try Migrations.userVersion(reader)
    if version == 0 {
      let tables = try reader.row("SELECT count(*) FROM sqlite_schema") { $0.int(at: 0) } ?? 0
      throw ArchiveError.notAnArchive(
        path: path,
        reason: tables > 0
          ? "an SQLite database with other tables (schema version 0)" : "it is empty")
    }
    return version
  }

  /// Checks that an existing file is an archive this build can write: not another program's
  /// database, nor one of a newer schema. A file whose header shows an archive of this version
  /// (``headerShowsCurrentArchive(path:)``) passes as it is; any other is checked with a read-only
  /// connection, which changes nothing.
  ///
  /// - Throws: ``ArchiveError/notAnArchive(path:reason:)``,
  ///   ``ArchiveError/newerSchema(path:version:supported:)`` or ``DatabaseError``.
  private static func checkBeforeWriting(path: String) throws {
    if headerShowsCurrentArchive(path: path) { return }
    let reader = try Database(path: path, mode: .readOnly)
    defer { try? reader.close() }
    let version = try checkedVersion(reader, path: path)
    if version > Migrations.latestVersion {
      throw ArchiveError.newerSchema(
        path: path, version: version, supported: Migrations.latestVersion)
    }
  }

  /// Whether the file's header (<https://www.sqlite.org/fileformat2.html#the_database_header>)
  /// shows an archive of this build's schema version in write-ahead-log mode: an SQLite file
  /// (its 16-byte header string), read and written through a log (bytes 18 and 19 both 2), with
  /// ``Migrations/latestVersion`` as its user version (bytes 60 to 63). Such a file is opened for
  /// writing without asking a read-only connection first: opening a writer changes nothing in a
  /// file already in write-ahead-log mode, and a newer version committed to its log and not yet
  /// copied into the file is refused by ``Migrations/migrate(_:upgrade:)`` as before. Any other
  /// file (another program's database, an older or newer archive, one in rollback-journal mode)
  /// is checked by the read-only connection.
  static func headerShowsCurrentArchive(path: String) -> Bool {
    let file = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return false }
    defer { Glibc.close(file) }
    var header = [UInt8](repeating: 0, count: 64)
    guard PageHeaderScan.read(file, at: 0, into: &header) == 64,
      header[0..<16].elementsEqual(PageHeaderScan.headerString), header[18] == 2, header[19] == 2
    else { return false }
    return PageHeaderScan.integer(header, at: 60, bytes: 4) == Migrations.latestVersion
  }
}
