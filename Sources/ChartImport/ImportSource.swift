import ChartFormats
import ChartRanking
import ChartStorage
public import Foundation

/// Where an import reads one chart file from.
public enum ImportSource: Hashable, Sendable {
  /// A file on disk, by its path as given (messages and the archive's record name it so).
  case file(String)
  /// A file's bytes already in memory (an upload), with the name it came under: its folder and
  /// file name give the chart's name and date as a path's do. (Boxed, so that a list of files,
  /// tens of thousands in a large import, takes a path's room each.)
  indirect case bytes(Data, name: String)

  /// The path or name, for messages and the archive's record of where a snapshot came from.
  public var name: String {
    switch self {
    case .file(let path): path
    case .bytes(_, let name): name
    }
  }

  /// Expands folders into their `*.json`, `*.csv`, `*.html` and `*.htm` files (hidden files and
  /// folders skipped), keeping the files named directly, and orders everything by the chart date
  /// in the file's name (see ``ChartDate/inFileName(_:)``), then by path: the order in which an
  /// import stores them.
  ///
  /// Symbolic links are followed, to files and to folders, as `find -L` does; a folder reached
  /// twice (through a link, or a link to one of its own parents) is read once.
  ///
  /// A path given may be a regular file or a named pipe (`<(curl …)`, read to its end); a chart
  /// file found in a folder must be a regular file. Anything else (a device such as `/dev/zero`,
  /// which never ends; a socket) is refused before anything is read.
  ///
  /// - Parameter paths: files and folders, as given.
  /// - Returns: the files' paths, each starting with the folder as given.
  /// - Throws: ``ImportSourceError`` naming every path that does not exist or cannot be read: a
  ///   folder that cannot be listed, a link to nothing, a path that is no file.
  public static func files(in paths: [String]) throws(ImportSourceError) -> [String] {
    var walk = FolderWalk()
    for path in paths {
      var status = stat()
      guard stat(path, &status) == 0 else {
        let looped = errno == ELOOP
        var link = stat()
        let dangling = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
        walk.problems.append(
          .init(path: path, kind: looped ? .linkLoop : dangling ? .linkToNothing : .missing))
        continue
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: walk.read(folder: path, status: status)
      case S_IFREG, S_IFIFO: walk.add(file: path)
      default: walk.problems.append(.init(path: path, kind: .notAFile(.init(status.st_mode))))
      }
    }
    if !walk.problems.isEmpty { throw ImportSourceError(problems: walk.problems) }
    return inStoringOrder(walk.files)
  }

  /// Whether a file's name says it is a chart file, which an import of a folder reads:
  /// `*.json`, `*.csv`, `*.html` or `*.htm`, in any case.
  static func isChartFileName(_ name: String) -> Bool { FolderWalk.isChartFile(name) }

  /// Orders paths by the chart date in the file's name (see ``ChartDate/inFileName(_:)``), then
  /// by path, those without a date last: the order in which an import stores them.
  static func inStoringOrder(_ paths: [String]) -> [String] {
    // The name after the last slash, found among the path's bytes: NSString's lastPathComponent
    // and splitting the path into characters cost some 20,000 instructions a file, which a whole
    // history's thousands of files wait for before the first is read.
    let dated = paths.map { path in
      let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map {
        String(path[path.utf8.index(after: $0)...])
      }
      return (path: path, date: ChartDate.inFileName(name ?? path))
    }
    return dated.enumerated().sorted { lhs, rhs in
      switch (lhs.element.date, rhs.element.date) {
      case (let left?, let right?) where left != right: return left < right
      case (nil, _?): return false
      case (_?, nil): return true
      default: return (lhs.element.path, lhs.offset) < (rhs.element.path, rhs.offset)
      }
    }.map(\.element.path)
  }
}

/// Lists the chart files under folders with the C library's directory calls (Foundation's
/// enumerator costs tens of thousands of instructions a file), following symbolic links.
private struct FolderWalk {
  var files: [String] = []
  var problems: [ImportSourceError.Problem] = []
  /// The folders read, by device and inode, so that none is read twice.
  private var seen: Set<[UInt64]> = []

  /// Reads a folder and, depth first in name order, the folders in it.
  mutating func read(folder: String, status: stat) {
    guard seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { return }
    guard let directory = opendir(folder) else {
      problems.append(.init(path: folder, kind: .unreadable(String(cString: strerror(errno)))))
      return
    }
    var names: [String] = []
    var unnamed: [ImportSourceError.Problem] = []
    let base = folder.hasSuffix("/") ? folder : folder + "/"
    while let entry = readdir(directory) {
      let bytes = DirectoryEntry.name(of: entry)
      guard bytes.first != UInt8(ascii: ".") else { continue }
      guard let name = String(validating: bytes, as: UTF8.self) else {
        // A path Swift cannot hold: reported, rather than left out without a word, when it is a
        // folder or a chart file's.
        let shown = String(decoding: bytes, as: UTF8.self)
        var status = stat()
        let found = (Array(base.utf8) + bytes + [0]).withUnsafeBufferPointer {
          $0.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
        }
        if found, status.st_mode & S_IFMT == S_IFDIR || Self.isChartFile(shown) {
          unnamed.append(.init(path: base + shown, kind: .nameNotUTF8))
        }
        continue
      }
      names.append(name)
    }
    closedir(directory)
    problems += unnamed.sorted { $0.path < $1.path }
    for name in names.sorted() {
      let path = base + name
      var status = stat()
      guard stat(path, &status) == 0 else {
        // A link to nothing, or a loop of links, is a problem only when it would be a chart
        // file's.
        let looped = errno == ELOOP
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK, Self.isChartFile(name) {
          problems.append(.init(path: path, kind: looped ? .linkLoop : .linkToNothing))
        }
        continue
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: read(folder: path, status: status)
      case S_IFREG where Self.isChartFile(name): add(file: path)
      // A chart file's name on something else: a pipe is read only when named itself.
      case _ where Self.isChartFile(name):
        problems.append(.init(path: path, kind: .notARegularFile(.init(status.st_mode))))
      default: continue
      }
    }
  }

  /// Adds a chart file, or the problem that this process may not read it: told with the
  /// folders that cannot be read, before anything is read.
  mutating func add(file path: String) {
    if access(path, R_OK) == 0 {
      files.append(path)
    } else {
      problems.append(.init(path: path, kind: .unreadable(String(cString: strerror(errno)))))
    }
  }

  /// Whether a file's name says it is a chart file: `*.json`, `*.csv`, `*.html` or `*.htm`, in
  /// any case.
  static func isChartFile(_ name: String) -> Bool {
    let lower = name.lowercased()
    return [".json", ".csv", ".html", ".htm"].contains { lower.hasSuffix($0) }
  }
}

/// Paths given to an import that cannot be read, each with what is wrong.
public struct ImportSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// One path and what is wrong with it.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    /// The path, as given (or as found in a folder given).
    public var path: String
    /// What is wrong.
    public var kind: Kind

    /// What can be wrong with a path.
    public enum Kind: Hashable, Sendable {
      /// Nothing is there.
      case missing
      /// A folder that cannot be listed, or a file that cannot be read, with the system's reason.
      case unreadable(String)
      /// A symbolic link whose target does not exist.
      case linkToNothing
      /// A symbolic link that leads back to itself, through other links or none.
      case linkLoop
      /// A chart file or a folder whose name is not UTF-8 text (shown with U+FFFD for the bytes
      /// that are not).
      case nameNotUTF8
      /// A path given that is neither a folder, a regular file nor a named pipe: a device, a
      /// socket.
      case notAFile(FileType)
      /// Something in a folder with a chart file's name that is not a regular file: a named pipe
      /// (read only when given itself), a device, a socket.
      case notARegularFile(FileType)
    }

    /// What a path that is not a regular file is.
    public enum FileType: Hashable, Sendable {
      case namedPipe, characterDevice, blockDevice, socket, other

      /// The type of a file of mode `mode` (`st_mode`).
      init(_ mode: mode_t) {
        self =
          switch mode & S_IFMT {
          case S_IFIFO: .namedPipe
          case S_IFCHR: .characterDevice
          case S_IFBLK: .blockDevice
          case S_IFSOCK: .socket
          default: .other
          }
      }

      /// `a character device`, …
      var words: String {
        switch self {
        case .namedPipe: "a named pipe"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "not a regular file"
        }
      }
    }

    /// `PATH: no such file or folder`, `PATH: cannot be read (REASON)`, `PATH: a link to nothing`,
    /// `PATH: its name is not UTF-8 text (rename it to import it)`, `PATH: a character device,
    /// not a file (…)`.
    public var description: String {
      let path = ChartFileError.printable(path)
      return switch kind {
      case .missing: "\(path): no such file or folder"
      case .unreadable(let reason): "\(path): cannot be read (\(reason))"
      case .linkToNothing: "\(path): a link to nothing"
      case .linkLoop: "\(path): a link that leads back to itself (a loop of links)"
      case .nameNotUTF8: "\(path): its name is not UTF-8 text (rename it to import it)"
      case .notAFile(let type):
        "\(path): \(type.words), not a file (a regular file, a folder or a named pipe is read)"
      case .notARegularFile(let type):
        "\(path): \(type.words), not a regular file (only regular files are read in a folder"
          + (type == .namedPipe ? "; give the pipe itself to read it)" : ")")
      }
    }
  }

  /// The problems, in the order found.
  public var problems: [Problem]

  /// One line per problem.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
