import ChartFormats
import ChartStorage
import Foundation

/// A folder that chart files arrive in (a spool), and the folders they leave it for once imported.
///
/// A writer (a scraper) writes each file under a temporary name, which the spool leaves alone, and
/// renames it when it is whole: a name starting with a dot (`.2024-01-06.json`), or ending in
/// `.part` (`2024-01-06.json.part`). The spool takes the regular files directly in its folder
/// whose names are chart files' (`*.json`, `*.csv`, `*.html`, `*.htm`, in any case, as an import
/// of a folder does); folders in it, and anything else, stay where they are.
///
/// A file leaves the spool only after its import committed, for one of three folders of the
/// destination ``Destination``: `imported/`, `unchanged/` or `rejected/`. A move never writes over
/// a file, and is on disk (`fsync`) before the file is removed from the spool: a machine that stops
/// in between leaves the file in both places, never in neither.
public enum Spool {
  /// Where a file went, by what its import did.
  public enum Destination: String, CaseIterable, Sendable {
    /// Its import stored something new (a new or replacing snapshot, a decision kept).
    case imported
    /// Everything in it was in the archive already.
    case unchanged
    /// Its import refused it: nothing of it was stored. Its report is beside it.
    case rejected
  }

  /// What is in a spool's folder.
  public struct Listing: Equatable, Sendable {
    /// The chart files waiting, as paths starting with the folder as given, in the order an import
    /// stores them (the chart date in the name, then the path; see ``ImportSource/files(in:)``).
    public var files: [String]
    /// The regular files whose names are neither chart files' nor temporary names (`notes.txt`),
    /// in name order: the spool leaves them where they are.
    public var others: [String]
  }

  /// The suffix of the file beside a rejected file that holds its import's report:
  /// `2024-01-06.json.report.txt`.
  public static let reportSuffix = ".report.txt"

  /// Whether a file's name is a temporary one, which the spool leaves alone: it starts with a dot,
  /// or ends in `.part`.
  public static func isTemporaryName(_ name: String) -> Bool {
    name.hasPrefix(".") || name.hasSuffix(".part")
  }

  /// Lists a spool's folder (not the folders in it).
  ///
  /// - Parameter folder: the spool's folder.
  /// - Returns: the chart files waiting and the other files.
  /// - Throws: ``SpoolError`` when the folder cannot be listed.
  public static func list(_ folder: String) throws(SpoolError) -> Listing {
    guard let directory = opendir(folder) else {
      throw SpoolError(path: folder, operation: .list, code: errno)
    }
    var names: [String] = []
    while let entry = readdir(directory) {
      let bytes = DirectoryEntry.name(of: entry)
      // A name that is not UTF-8 is no chart file's a path can hold: left, as an import leaves it.
      guard let name = String(validating: bytes, as: UTF8.self), !isTemporaryName(name) else {
        continue
      }
      names.append(name)
    }
    closedir(directory)
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    var listing = Listing(files: [], others: [])
    for name in names.sorted() {
      var status = stat()
      guard stat(base + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      if ImportSource.isChartFileName(name) {
        listing.files.append(base + name)
      } else {
        listing.others.append(base + name)
      }
    }
    listing.files = ImportSource.inStoringOrder(listing.files)
    return listing
  }

  /// Holds a spool for one process at a time (`flock` on its folder): a second run on the same
  /// spool (a timer's beside a path unit's, or one started by hand) waits for the first to end,
  /// then finds what is left, so that no file is imported and moved by two at once.
  ///
  /// - Parameter folder: the spool's folder.
  /// - Returns: the lock, held until the value is released.
  /// - Throws: ``SpoolError`` when the folder cannot be opened or locked.
  public static func lock(_ folder: String) throws(SpoolError) -> SpoolLock {
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw SpoolError(path: folder, operation: .lock, code: errno) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else {
        let code = errno
        close(descriptor)
        throw SpoolError(path: folder, operation: .lock, code: code)
      }
    }
    return SpoolLock(descriptor: descriptor)
  }

  /// Makes `done/imported`, `done/unchanged` and `done/rejected` where they are missing (and
  /// `done`).
  ///
  /// - Throws: ``SpoolError`` naming the folder that could not be made.
  public static func makeFolders(in done: String) throws(SpoolError) {
    for destination in Destination.allCases { try makeFolder(folder(destination, in: done)) }
  }

  /// Makes a folder and the folders above it that are missing, as `mkdir -p` does.
  private static func makeFolder(_ path: String) throws(SpoolError) {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFDIR else {
        throw SpoolError(path: path, operation: .makeFolder, code: ENOTDIR)
      }
      return
    }
    if mkdir(path, 0o777) == 0 { return }
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard errno == ENOENT, parent != path else {
      throw SpoolError(path: path, operation: .makeFolder, code: errno)
    }
    try makeFolder(parent)
    // Made meanwhile by another process: as good.
    guard mkdir(path, 0o777) == 0 || errno == EEXIST else {
      throw SpoolError(path: path, operation: .makeFolder, code: errno)
    }
  }

  /// The folder of a destination: `done/imported`, …
  public static func folder(_ destination: Destination, in done: String) -> String {
    (done.hasSuffix("/") ? done : done + "/") + destination.rawValue
  }

  /// Moves a file into a folder under its own name, or, when a file has that name (or a name with
  /// one of `suffixes` after it), the first free of `NAME.2.EXT`, `NAME.3.EXT`, … (the chart date
  /// in the name stays readable): never over a file. The file is linked there (copied, and synced,
  /// when the folder is on another file system or mount) and the folder synced before it is
  /// removed from where it was.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - folder: where it goes.
  ///   - suffixes: the suffixes of files that go beside it (``reportSuffix``), whose names must be
  ///     free too.
  /// - Returns: the file's new path.
  /// - Throws: ``SpoolError``: the file is where it was (a copy may be left in `folder` under a
  ///   name starting with a dot when the error came after the copy).
  public static func move(_ path: String, into folder: String, besides suffixes: [String] = [])
    throws(SpoolError) -> String
  {
    let name = URL(fileURLWithPath: path).lastPathComponent
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    var placed = try place(name, in: base, besides: suffixes) { link(path, $0) }
    if case .failure(let code) = placed {
      guard [EXDEV, EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code) else {
        throw SpoolError(path: path, operation: .move(to: folder), code: code)
      }
      // Another file system (or mount, as a service's own view of the folders may be): a copy,
      // on disk under a hidden name before it takes a visible one.
      let copy = base + ".\(name).moving-\(getpid())"
      try Self.copy(path, to: copy)
      defer { unlink(copy) }
      placed = try place(name, in: base, besides: suffixes) { target in
        if link(copy, target) == 0 { return 0 }
        let code = errno
        guard [EPERM, ENOTSUP, EOPNOTSUPP, EMLINK, ENOSYS].contains(code) else {
          errno = code
          return -1
        }
        // A file system without hard links: renamed instead, when nothing has the name.
        guard access(target, F_OK) != 0 else {
          errno = EEXIST
          return -1
        }
        return rename(copy, target)
      }
    }
    switch placed {
    case .success(let target):
      syncFolder(base)
      unlink(path)
      syncFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
      return target
    case .failure(let code):
      throw SpoolError(path: path, operation: .move(to: folder), code: code)
    }
  }

  /// Writes a new file, never over one, and syncs it and its folder.
  ///
  /// - Throws: ``SpoolError`` (`EEXIST` when something has the name).
  public static func writeNewFile(_ text: String, at path: String) throws(SpoolError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard descriptor >= 0 else { throw SpoolError(path: path, operation: .write, code: errno) }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    guard writeAll(bytes[...], to: descriptor), fsync(descriptor) == 0 else {
      throw SpoolError(path: path, operation: .write, code: errno)
    }
    syncFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
  }

  /// What placing a file under a free name gave.
  private enum Placed {
    case success(String)
    case failure(Int32)
  }

  /// Tries `name`, then `NAME.2.EXT`, … in `base` with `place` (which returns 0, or -1 with
  /// `errno` set), until one is free: a name taken (`EEXIST`, or a file beside it) is passed over.
  private static func place(
    _ name: String, in base: String, besides suffixes: [String], _ place: (String) -> Int32
  ) throws(SpoolError) -> Placed {
    for number in 1...10_000 {
      let target = base + numbered(name, number)
      if suffixes.contains(where: { access(target + $0, F_OK) == 0 }) { continue }
      if place(target) == 0 { return .success(target) }
      guard errno == EEXIST else { return .failure(errno) }
    }
    return .failure(EEXIST)
  }

  /// `2024-01-06.json` numbered 2: `2024-01-06.2.json`; 1 is the name itself.
  static func numbered(_ name: String, _ number: Int) -> String {
    guard number > 1 else { return name }
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return name + ".\(number)"
    }
    return name[..<dot] + ".\(number)" + name[dot...]
  }

  /// Copies a file's bytes into a new file (written over when it is there: a hidden name of
  /// this process's), synced.
  private static func copy(_ path: String, to copy: String) throws(SpoolError) {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw SpoolError(path: path, operation: .read, code: errno) }
    defer { close(source) }
    let target = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
    guard target >= 0 else { throw SpoolError(path: copy, operation: .write, code: errno) }
    defer { close(target) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else { throw SpoolError(path: path, operation: .read, code: errno) }
      if count == 0 { break }
      guard writeAll(buffer[..<count], to: target) else {
        throw SpoolError(path: copy, operation: .write, code: errno)
      }
    }
    guard fsync(target) == 0 else { throw SpoolError(path: copy, operation: .write, code: errno) }
  }

  /// Writes all of `bytes`; `false` with `errno` set when a write fails.
  private static func writeAll(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Bool {
    var rest = bytes
    while !rest.isEmpty {
      let written = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      rest = rest.dropFirst(written)
    }
    return true
  }

  /// Syncs a folder, so that the names made and removed in it survive a power loss.
  private static func syncFolder(_ path: String) {
    let folder = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }
}

/// A spool held by this process (see ``Spool/lock(_:)``), until the value is released.
public final class SpoolLock {
  private let descriptor: Int32

  init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { close(descriptor) }
}

/// What went wrong with a spool's files: the path, what was being done, and the system's error.
public struct SpoolError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was being done.
  public enum Operation: Equatable, Sendable {
    /// Listing the spool's folder.
    case list
    /// Locking the spool's folder.
    case lock
    /// Making a destination folder.
    case makeFolder
    /// Moving the file into the folder.
    case move(to: String)
    /// Reading the file.
    case read
    /// Writing the file.
    case write
  }

  /// The file or folder.
  public var path: String
  /// What was being done.
  public var operation: Operation
  /// The system's error (`errno`).
  public var code: Int32

  /// `cannot move PATH into FOLDER (REASON)`, …
  public var description: String {
    let path = ChartFileError.printable(path)
    let reason = String(cString: strerror(code))
    return switch operation {
    case .list: "cannot list the spool \(path) (\(reason))"
    case .lock: "cannot lock the spool \(path) (\(reason))"
    case .makeFolder: "cannot make the folder \(path) (\(reason))"
    case .move(let folder):
      "cannot move \(path) into \(ChartFileError.printable(folder)) (\(reason))"
    case .read: "cannot read \(path) (\(reason))"
    case .write: "cannot write \(path) (\(reason))"
    }
  }
}
