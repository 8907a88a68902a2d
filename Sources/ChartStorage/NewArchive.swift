import Foundation
import Glibc

/// An archive that does not exist yet, built whole in a hidden file beside its destination and
/// published there in one step.
///
/// Nothing else opens the new file while it is built, so it needs neither a write-ahead log
/// (which writes every page twice: into the log, then, when the import ends, into the file) nor a
/// journal on disk: its rollback journal is kept in memory
/// (<https://www.sqlite.org/pragma.html#pragma_journal_mode>). An import into a new archive thus
/// writes each page once. Readers of the destination find no archive until it is published, then
/// the whole import.
///
/// ``publish()`` switches the file to write-ahead logging, as every archive is
/// (<https://www.sqlite.org/wal.html>), and links it to the destination path, which fails when
/// another archive appeared there meanwhile (another import that finished first): an existing
/// file is never overwritten. A new archive dropped unpublished, after a failed import, leaves
/// nothing behind; one whose process was killed leaves its hidden file, which the next new archive
/// in the same folder deletes.
///
/// ```swift
/// let new = try NewArchive(at: "archive.sqlite")
/// try new.archive.write { try $0.store(snapshot) }
/// if try !new.publish() { /* another archive is there now: import into it instead */ }
/// ```
public final class NewArchive {
  /// The archive to store snapshots in; unusable once published. Its ``Archive/path`` is the
  /// destination.
  public let archive: Archive
  /// Where the archive is published.
  public let destination: String
  /// The hidden file the archive is built in: `.NAME.new-PID-RANDOM` beside the destination.
  let buildPath: String
  /// An open descriptor of the build file holding an exclusive `flock(2)` lock for as long as this
  /// object lives: a build file whose lock can be taken belongs to a process that is gone.
  private let lock: Int32
  /// Whether ``publish()`` ran: the build file is then at the destination, or deleted.
  private var finished = false

  /// Prefix of the build files of archives published at `destination`.
  static func buildFilePrefix(_ destination: String) -> String {
    "." + URL(fileURLWithPath: destination).lastPathComponent + ".new-"
  }

  /// Starts a new archive for `destination` (which should not exist), creating its missing parent
  /// folders, and deletes the build files that killed processes left for the same destination.
  ///
  /// - Parameter destination: the path the archive will be published at; not `:memory:`.
  /// - Throws: ``ArchiveError/database(path:_:)`` naming `destination` when the build file cannot
  ///   be created (`SQLITE_CANTOPEN`, with the system's reason) or set up.
  public init(at destination: String) throws(ArchiveError) {
    precondition(destination != ":memory:", "an in-memory archive has no file to publish")
    self.destination = destination
    let folder = URL(fileURLWithPath: destination).deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let prefix = Self.buildFilePrefix(destination)
    Self.deleteAbandonedBuildFiles(in: folder.path, prefix: prefix)
    buildPath =
      folder.appendingPathComponent(
        prefix + "\(getpid())-" + String(UInt32.random(in: .min ... .max), radix: 16)
      ).path
    lock = open(buildPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
      let reason = String(cString: strerror(errno))
      if lock >= 0 {
        Glibc.close(lock)
        unlink(buildPath)
      }
      throw .database(
        path: destination,
        DatabaseError(
          extendedResultCode: 14,  // SQLITE_CANTOPEN
          message: "cannot create a file in \(folder.path): \(reason)"))
    }
    do {
      let database = try Database(path: buildPath, mode: .createAlone)
      try Migrations.migrate(database)
      try Migrations.verifySchema(database)
      archive = Archive(database: database, path: destination)
    } catch {
      Glibc.close(lock)
      unlink(buildPath)
      throw .database(
        path: destination,
        error as? DatabaseError ?? DatabaseError(extendedResultCode: 1, message: "\(error)"))
    }
  }

  deinit {
    if !finished { deleteBuildFile() }
    Glibc.close(lock)
  }

  /// Publishes the archive at the destination: switches it to write-ahead logging, closes it and
  /// links it there, then syncs the folder so that the link survives a power loss
  /// (<https://man7.org/linux/man-pages/man2/link.2.html>). Call it after the last write; the
  /// archive is closed afterwards.
  ///
  /// - Returns: `true` when the archive is at the destination now; `false` when the destination
  ///   could not be linked (another file is there, or the file system has no hard links), in which
  ///   case the new archive is deleted and the destination left as it is.
  /// - Throws: ``ArchiveError/database(path:_:)`` when SQLite cannot switch or close the archive.
  public func publish() throws(ArchiveError) -> Bool {
    precondition(!finished, "the archive is published already")
    finished = true
    do {
      try archive.database.execute("PRAGMA journal_mode = WAL")
      try archive.database.close()
    } catch {
      throw .database(path: destination, error)
    }
    guard link(buildPath, destination) == 0 else {
      deleteBuildFile()
      return false
    }
    unlink(buildPath)
    let folder = open(
      URL(fileURLWithPath: destination).deletingLastPathComponent().path,
      O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      Glibc.close(folder)
    }
    return true
  }

  private func deleteBuildFile() {
    for suffix in ["", "-journal", "-wal", "-shm"] { unlink(buildPath + suffix) }
  }

  /// Deletes the build files in `folder` whose lock can be taken: their processes are gone.
  private static func deleteAbandonedBuildFiles(in folder: String, prefix: String) {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where name.hasPrefix(prefix) && !name.hasSuffix("-journal") {
      let base = name.hasSuffix("-wal") || name.hasSuffix("-shm") ? String(name.dropLast(4)) : name
      let path = folder + "/" + base
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      if descriptor < 0 {
        // The build file is gone: its log or shared-memory file is left over.
        if base != name { unlink(folder + "/" + name) }
        continue
      }
      defer { Glibc.close(descriptor) }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
      for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }
  }
}
