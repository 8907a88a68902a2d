import ChartRanking
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

  /// Expands folders into their `*.json` and `*.csv` files (hidden files and folders skipped),
  /// keeping the files named directly, and orders everything by the chart date in the file's name
  /// (see ``ChartDate/inFileName(_:)``), then by path: the order in which an import stores them.
  ///
  /// - Parameter paths: files and folders, as given.
  /// - Returns: the files' paths, each starting with the folder as given.
  /// - Throws: ``ImportSourceError`` naming every path that does not exist or cannot be read: a
  ///   folder that cannot be listed, a link to nothing.
  public static func files(in paths: [String]) throws(ImportSourceError) -> [String] {
    let manager = FileManager.default
    var files: [String] = []
    var problems: [ImportSourceError.Problem] = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
        problems.append(.init(path: path, kind: .missing))
        continue
      }
      guard isDirectory.boolValue else {
        files.append(path)
        continue
      }
      let root = URL(fileURLWithPath: path)
      let walker = manager.enumerator(
        at: root, includingPropertiesForKeys: [.isDirectoryKey],
        options: [.skipsHiddenFiles],
        errorHandler: { url, error in
          problems.append(.init(path: url.path, kind: .unreadable(error.localizedDescription)))
          return true
        })
      while let url = walker?.nextObject() as? URL {
        let name = url.lastPathComponent.lowercased()
        guard name.hasSuffix(".json") || name.hasSuffix(".csv") else { continue }
        // The path as the user wrote it, for messages and the archive's record.
        let relative = String(url.path.dropFirst(root.path.count)).drop { $0 == "/" }
        let full = (path.hasSuffix("/") ? path : path + "/") + relative
        var isFolder: ObjCBool = false
        if !manager.fileExists(atPath: full, isDirectory: &isFolder) {
          problems.append(.init(path: full, kind: .linkToNothing))
        } else if !isFolder.boolValue {
          files.append(full)
        }
      }
    }
    if !problems.isEmpty { throw ImportSourceError(problems: problems) }
    // The name after the last slash: NSString's lastPathComponent costs some 20,000 instructions
    // a file, which a whole history's thousands of files wait for before the first is read.
    let dated = files.map { path in
      (path: path, date: ChartDate.inFileName(String(path.split(separator: "/").last ?? "")))
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
      /// A folder that cannot be listed, with the system's reason.
      case unreadable(String)
      /// A symbolic link whose target does not exist.
      case linkToNothing
    }

    /// `PATH: no such file or folder`, `PATH: cannot be read (REASON)`, `PATH: a link to nothing`.
    public var description: String {
      switch kind {
      case .missing: "\(path): no such file or folder"
      case .unreadable(let reason): "\(path): cannot be read (\(reason))"
      case .linkToNothing: "\(path): a link to nothing"
      }
    }
  }

  /// The problems, in the order found.
  public var problems: [Problem]

  /// One line per problem.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
