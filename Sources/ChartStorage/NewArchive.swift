import CSQLite
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
/// file is never overwritten. A log or journal left at the destination by an archive deleted or
/// moved without it is renamed aside first (see ``setAside``). A new archive dropped unpublished,
/// after a failed import, leaves nothing behind; one whose process was killed leaves its hidden
/// file, which the next import into the same folder deletes.
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
  /// Where the archive is published, as given (messages name it so).
  public let destination: String
  /// The destination with `.` and `..` folded and no trailing slash: the file SQLite would open
  /// (it folds them in the text of a path), which link(2) would otherwise resolve through the
  /// file system (`a/../b.sqlite` with `a` missing, `b.sqlite/`).
  private let target: String
  /// The hidden file the archive is built in: `.chart-archive-build-PID-XXXXXXXX` beside the
  /// destination.
  let buildPath: String
  /// An open descriptor of the build file holding an exclusive `flock(2)` lock for as long as this
  /// object lives: a build file whose lock can be taken belongs to a process that is gone.
  private let lock: Int32
  /// Whether ``publish()`` ran: the build file is then at the destination, or deleted.
  private var finished = false
  /// The write-ahead log and rollback journal that ``publish()`` found at the destination with no
  /// archive there, holding data, and renamed to `NAME-wal.orphaned-SECONDS` (seconds since 1970):
  /// they belong to an archive deleted or moved without them, and may hold its last imports. Empty
  /// ones are deleted.
  public private(set) var setAside: [SetAsideFile] = []

  /// The start of every build file's name; the rest is `PID-XXXXXXXX` (8 hexadecimal digits),
  /// short whatever the archive's name, which may use the whole 255 bytes a name can have.
  static let buildFilePrefix = ".chart-archive-build-"

  /// What SQLite may write beside a database file: its journal, log and shared memory.
  private static let companionSuffixes = ["-journal", "-wal", "-shm"]

  /// Starts a new archive for `destination` (which should not exist), creating its missing parent
  /// folders, and deletes the build files that killed processes left in its folder (see
  /// ``deleteAbandonedBuildFiles(besides:)``).
  ///
  /// - Parameter destination: the path the archive will be published at; not `:memory:`.
  /// - Throws: ``ArchiveError/database(path:_:)`` naming `destination` when the build file cannot
  ///   be created (`SQLITE_CANTOPEN`, with the system's reason) or set up.
  public init(at destination: String) throws(ArchiveError) {
    precondition(destination != ":memory:", "an in-memory archive has no file to publish")
    self.destination = destination
    // An empty file there, through a link, is replaced where it is.
    if let real = realpath(destination, nil) {
      target = String(cString: real)
      free(real)
    } else {
      target = URL(fileURLWithPath: destination).standardizedFileURL.path
    }
    let folder = URL(fileURLWithPath: target).deletingLastPathComponent()
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    Self.deleteAbandonedBuildFiles(besides: target)
    var created: (path: String, lock: Int32)?
    var failure = EEXIST
    // Another process's cleanup can delete a build file between its creation and its lock:
    // the file is locked, then checked to be still the one at its path.
    for _ in 0..<8 where created == nil {
      let name =
        Self.buildFilePrefix + "\(getpid())-"
        + String(UInt32.random(in: .min ... .max), radix: 16).leftPadding(toLength: 8)
      let path = folder.appendingPathComponent(name).path
      let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        failure = errno
        if failure == EEXIST { continue } else { break }
      }
      var opened = stat()
      var named = stat()
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0, fstat(descriptor, &opened) == 0,
        stat(path, &named) == 0, opened.st_ino == named.st_ino, opened.st_dev == named.st_dev
      {
        created = (path, descriptor)
      } else {
        failure = errno
        Glibc.close(descriptor)
      }
    }
    guard let created else {
      throw .database(
        path: destination,
        DatabaseError(
          extendedResultCode: SQLITE_CANTOPEN,
          message: "cannot create a file in \(folder.path): \(String(cString: strerror(failure)))"))
    }
    (buildPath, lock) = created
    do {
      let database = try Database(path: buildPath, mode: .createAlone)
      try Migrations.migrate(database)
      try Migrations.verifySchema(database)
      archive = Archive(building: database, path: destination)
    } catch {
      Glibc.close(lock)
      Self.deleteFiles(of: buildPath)
      throw .database(
        path: destination,
        error as? DatabaseError ?? .other("\(error)"))
    }
  }

  deinit {
    if !finished { Self.deleteFiles(of: buildPath) }
    Glibc.close(lock)
  }

  /// Publishes the archive at the destination: switches it to write-ahead logging, closes it and
  /// links it there, then syncs the folder so that the link survives a power loss
  /// (<https://man7.org/linux/man-pages/man2/link.2.html>). Call it after the last write; the
  /// archive is closed afterwards.
  ///
  /// On a file system without hard links the file is renamed to the destination instead, when
  /// nothing is there.
  ///
  /// - Returns: `true` when the archive is at the destination now; `false` when another file is
  ///   there, in which case the new archive is deleted and the destination left as it is.
  /// - Throws: ``ArchiveError/database(path:_:)`` when SQLite cannot switch or close the archive,
  ///   or the file cannot be linked there for another reason (`SQLITE_IOERR`, with the system's
  ///   reason); the new archive is deleted in either case.
  public func publish() throws(ArchiveError) -> Bool {
    precondition(!finished, "the archive is published already")
    finished = true
    do {
      guard let database = archive.writingDatabase else {
        preconditionFailure("a new archive has its writing connection")
      }
      try database.execute("PRAGMA journal_mode = WAL")
      try database.close()
    } catch {
      Self.deleteFiles(of: buildPath)
      throw .database(path: destination, error)
    }
    // Every publish holds an exclusive lock on the destination's folder from its check that no
    // archive is there to its link: another import's archive appears there before the check or
    // after the link, never between, so nothing an archive in use has beside it is deleted.
    // Closing the descriptor releases the lock.
    let folderLock = open(
      URL(fileURLWithPath: target).deletingLastPathComponent().path,
      O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folderLock >= 0 { flock(folderLock, LOCK_EX) }
    defer { if folderLock >= 0 { Glibc.close(folderLock) } }
    // A log, shared memory or journal at the destination with no archive there was left by one
    // deleted or moved without them, or by a process killed while it had one open. SQLite would
    // take the log or a hot journal for the new archive's and play it into it, corrupting it
    // (<https://www.sqlite.org/howtocorrupt.html>, "mispairing database files and hot journals").
    // A log with frames after its 32-byte header, or a journal that is not empty, is renamed, not
    // deleted: it may hold that archive's last imports (<https://www.sqlite.org/fileformat2.html>).
    // Queries leave an empty log behind, which holds nothing and is deleted.
    // An empty file there holds nothing (one made by `touch`, or by a program that opened the
    // path and wrote nothing): the new archive takes its place.
    var there = stat()
    let emptyFileThere =
      stat(target, &there) == 0 && there.st_mode & S_IFMT == S_IFREG && there.st_size == 0
    if emptyFileThere || (access(target, F_OK) != 0 && errno == ENOENT) {
      let seconds = Int(Date().timeIntervalSince1970)
      for suffix in Self.companionSuffixes {
        var status = stat()
        guard stat(target + suffix, &status) == 0 else { continue }
        let holdsData =
          suffix == "-wal" ? status.st_size > 32 : suffix == "-journal" && status.st_size > 0
        if holdsData, rename(target + suffix, target + suffix + ".orphaned-\(seconds)") == 0 {
          setAside.append(
            SetAsideFile(
              original: destination + suffix, renamed: destination + suffix + ".orphaned-\(seconds)"
            ))
        } else {
          unlink(target + suffix)
        }
      }
    }
    if emptyFileThere {
      guard rename(buildPath, target) == 0 else {
        let error = errno
        Self.deleteFiles(of: buildPath)
        throw .database(
          path: destination,
          DatabaseError(
            extendedResultCode: SQLITE_IOERR,
            message: "cannot put the new archive there: \(String(cString: strerror(error)))"))
      }
      syncFolder()
      return true
    }
    if link(buildPath, target) != 0 {
      let error = errno
      // A file system without hard links (FAT, some network file systems): renamed instead, when
      // nothing is at the destination, which leaves a moment for another process to create it.
      let noHardLinks = [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(error)
      if noHardLinks, access(target, F_OK) != 0, errno == ENOENT, rename(buildPath, target) == 0 {
        syncFolder()
        return true
      }
      Self.deleteFiles(of: buildPath)
      if error == EEXIST || noHardLinks { return false }
      throw .database(
        path: destination,
        DatabaseError(
          extendedResultCode: SQLITE_IOERR,
          message: "cannot link the new archive there: \(String(cString: strerror(error)))"))
    }
    unlink(buildPath)
    syncFolder()
    return true
  }

  /// Syncs the destination's folder, so that its new name survives a power loss.
  private func syncFolder() {
    let folder = open(
      URL(fileURLWithPath: target).deletingLastPathComponent().path,
      O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      Glibc.close(folder)
    }
  }

  /// Deletes a database file and what SQLite may have written beside it.
  private static func deleteFiles(of path: String) {
    for suffix in [""] + companionSuffixes { unlink(path + suffix) }
  }

  /// Deletes the build files in the folder of `archivePath` whose lock can be taken: the imports
  /// that made them were killed. Only names of the form `.chart-archive-build-PID-XXXXXXXX`
  /// (with `-journal`, `-wal` or `-shm` after them) are considered. Every import calls it, so that
  /// a killed first import leaves its file only until the next import into that folder.
  ///
  /// - Parameter archivePath: an archive's path; its folder is searched, not its subfolders.
  public static func deleteAbandonedBuildFiles(besides archivePath: String) {
    let folder = folder(of: archivePath)
    // The C library's directory calls, keeping only names that start as a build file's: every
    // import into an existing archive looks, and Foundation's listing costs tens of thousands of
    // instructions a file.
    guard let directory = opendir(folder) else { return }
    var names: [String] = []
    let prefix = Array(buildFilePrefix.utf8)
    while let entry = readdir(directory) {
      let bytes = DirectoryEntry.name(of: entry)
      guard bytes.starts(with: prefix), let name = String(validating: bytes, as: UTF8.self) else {
        continue
      }
      names.append(name)
    }
    closedir(directory)
    for name in names {
      guard let base = buildFileName(in: name) else { continue }
      let path = folder + "/" + base
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      if descriptor < 0 {
        // The build file is gone, and this is its journal, log or shared memory, left over.
        if base != name, errno == ENOENT { unlink(folder + "/" + name) }
        continue
      }
      defer { Glibc.close(descriptor) }
      guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
      deleteFiles(of: path)
    }
  }

  /// The folder of a file's path: what comes before its last `/` (`/` for a file in the root,
  /// `.` for a bare name). Foundation's `URL` would do it too, at some 600,000 instructions for
  /// the first URL a process makes, most of a one-week import's look for build files.
  static func folder(of path: String) -> String {
    guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
  }

  /// The build file's name that `name` is, or is the journal, log or shared memory of; `nil` for
  /// any other name.
  static func buildFileName(in name: String) -> String? {
    guard name.hasPrefix(buildFilePrefix) else { return nil }
    var base = Substring(name)
    for suffix in companionSuffixes where base.hasSuffix(suffix) {
      base = base.dropLast(suffix.count)
    }
    let parts = base.dropFirst(buildFilePrefix.count).split(
      separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = parts.first, !pid.isEmpty, pid.allSatisfy(\.isASCIIDigit),
      let random = parts.last, random.count == 8, random.allSatisfy(\.isASCIIHexDigit)
    else { return nil }
    return String(base)
  }
}

extension String {
  /// The string with zeros before it up to `length` characters.
  fileprivate func leftPadding(toLength length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
  fileprivate var isASCIIHexDigit: Bool { isASCII && isHexDigit }
}

/// A file a new archive found at its path and renamed aside (see ``NewArchive/setAside``).
public struct SetAsideFile: Hashable, Sendable {
  /// Its path before: the archive's path with `-wal` or `-journal` after it.
  public var original: String
  /// Its path now: the original with `.orphaned-SECONDS` after it (seconds since 1970).
  public var renamed: String
}
