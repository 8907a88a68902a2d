import Foundation
import Glibc

/// The bytes of a chart file as the readers take them: a regular file read into memory when it
/// is at most ``ChartFileReader/largestFileReadWhole``, else mapped into memory, whose
/// pages a reader of a long file lets go of behind it (``letGo(_:)``), so that what the file
/// keeps resident stays bounded whatever its size; or a named pipe's bytes (`<(curl …)`), read
/// to its end, in memory up to ``ChartFileReader/largestFileReadWhole`` and beyond that copied
/// into a temporary file (unlinked at once, in the system's temporary folder: `TMPDIR`, else
/// `/tmp`) that is then mapped.
///
/// Nothing else is read: a device, a socket or a folder is refused before any byte is (a device
/// such as `/dev/zero` never ends). The lines of a pipe that is not JSON or HTML are measured as
/// they come, so that one longer than ``ChartFileReader/maximumLineLength`` (the bytes of
/// `/dev/zero` through a pipe) is refused once it is that long.
final class FileBytes: @unchecked Sendable {
  /// The bytes (the mapping, for a mapped file: no copy).
  let data: Data
  /// Where the mapping starts, for a mapped file.
  private let mapping: UnsafeMutableRawPointer?

  /// Bytes already in memory (an upload's).
  init(_ data: Data) {
    self.data = data
    mapping = nil
  }

  /// Opens a file.
  ///
  /// - Throws: ``ChartFileError`` when the file cannot be read (with the system's words), is not
  ///   a regular file or a named pipe, or is a pipe with a line longer than
  ///   ``ChartFileReader/maximumLineLength``.
  init(path: String) throws(ChartFileError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Self.unreadable(path) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw Self.unreadable(path) }
    switch status.st_mode & S_IFMT {
    case S_IFREG where Int(status.st_size) <= ChartFileReader.largestFileReadWhole:
      (data, mapping) = (try Self.read(descriptor, count: Int(status.st_size), path: path), nil)
    case S_IFREG:
      (data, mapping) = try Self.map(descriptor, count: Int(status.st_size), path: path)
    case S_IFIFO:
      let read = try Self.readPipe(descriptor, path: path)
      guard let spool = read.spool else {
        (data, mapping) = (read.bytes, nil)
        return
      }
      defer { close(spool) }
      var written = stat()
      guard fstat(spool, &written) == 0 else { throw Self.unreadable(path) }
      (data, mapping) = try Self.map(spool, count: Int(written.st_size), path: path)
    default:
      throw ChartFileError(
        path: path,
        "cannot be read: \(FileKind(status.st_mode).words), not a file (only a regular file or a"
          + " named pipe is read)")
    }
  }

  /// The number of bytes.
  var count: Int { data.count }

  /// Lets go of the pages of a mapped file that lie wholly within `range` (byte offsets): they no
  /// longer count in the process's memory, and are read again from the file (from the system's
  /// cache) if touched again. Nothing for bytes in memory.
  func letGo(_ range: Range<Int>) {
    guard let mapping, !range.isEmpty else { return }
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let start = (range.lowerBound + page - 1) / page * page
    let end = min(range.upperBound, data.count) / page * page
    guard end > start else { return }
    madvise(mapping + start, end - start, MADV_DONTNEED)
  }

  /// Tells the system how the mapping will be read: in order (it reads ahead), or here and there
  /// (it maps the pages touched only, not their neighbours).
  func willRead(inOrder: Bool) {
    guard let mapping, !data.isEmpty else { return }
    madvise(mapping, data.count, inOrder ? MADV_SEQUENTIAL : MADV_RANDOM)
  }

  /// The first `count` bytes of a file read into memory: fewer when it ends sooner (it shrank
  /// since its size was asked), no more when it grew. A file of one chart is read so: mapping
  /// and unmapping it costs the system more than reading it, and a mapped file that shrinks while
  /// read ends the process.
  private static func read(_ descriptor: Int32, count: Int, path: String) throws(ChartFileError)
    -> Data
  {
    var data = Data(count: count)
    var filled = 0
    var failed = false
    data.withUnsafeMutableBytes { buffer in
      while filled < count {
        let read = Glibc.read(descriptor, buffer.baseAddress! + filled, count - filled)
        if read == 0 { break }
        if read < 0 {
          if errno == EINTR { continue }
          failed = true
          return
        }
        filled += read
      }
    }
    if failed { throw unreadable(path) }
    if filled < count { data.count = filled }
    return data
  }

  /// The file's bytes mapped read-only: the mapping goes with the `Data`.
  private static func map(_ descriptor: Int32, count: Int, path: String) throws(ChartFileError)
    -> (Data, UnsafeMutableRawPointer?)
  {
    guard count > 0 else { return (Data(), nil) }
    let address = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else { throw unreadable(path) }
    let data = Data(
      bytesNoCopy: address, count: count, deallocator: .custom { munmap($0, $1) })
    return (data, address)
  }

  /// A pipe read to its end: the bytes, or a temporary file holding them when they are more than
  /// ``ChartFileReader/largestFileReadWhole``.
  private static func readPipe(_ descriptor: Int32, path: String) throws(ChartFileError)
    -> (bytes: Data, spool: Int32?)
  {
    var bytes = Data()
    var spool: Int32?
    var total = 0
    var lines = LineMeter()
    var tokens = TokenMeter()
    // What the pipe holds, known by its first byte: JSON's strings and numbers are measured, a
    // CSV's lines, and HTML, a web page of one chart, is refused past its bound.
    var kind: ChartFormat.Kind?
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { buffer.deallocate() }
    do throws(ChartFileError) {
      while true {
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        if count == 0 { break }
        if count < 0 {
          if errno == EINTR { continue }
          throw unreadable(path)
        }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
        total += count
        if kind == nil, let first = chunk.first(where: { !isBlank($0) }) {
          kind = first == UInt8(ascii: "<") ? .html : "{[".utf8.contains(first) ? .json : .csv
        }
        try measure(chunk, kind: kind, total: total, lines: &lines, tokens: &tokens, path: path)
        if spool == nil, bytes.count + count > ChartFileReader.largestFileReadWhole {
          // Only text is worth keeping on disk: a pipe of binary bytes (`<(cat /dev/urandom)`)
          // is refused at its first 16 MiB rather than copied without end.
          guard isText(bytes) else {
            throw ChartFileError(path: path, "not a chart file: not UTF-8 text (a binary file?)")
          }
          let file = try temporaryFile(path: path)
          spool = file
          let pending = [UInt8](bytes)
          bytes = Data()
          guard pending.withUnsafeBytes({ write($0, to: file) }) else { throw unwritten(path) }
        }
        if let spool {
          guard write(chunk, to: spool) else { throw unwritten(path) }
        } else {
          bytes.append(contentsOf: chunk)
        }
      }
    } catch {
      if let spool { close(spool) }
      throw error
    }
    return (bytes, spool)
  }

  /// Whether `bytes` are UTF-8 text without a NUL, but for a sequence cut at their end.
  static func isText(_ bytes: Data) -> Bool {
    var end = bytes.endIndex
    // A sequence cut at the end: its continuation bytes (at most 3) and its lead are left out.
    var continuations = 0
    while continuations < 3, end > bytes.startIndex, bytes[end - 1] & 0xC0 == 0x80 {
      end -= 1
      continuations += 1
    }
    if end > bytes.startIndex, bytes[end - 1] >= 0xC0 { end -= 1 }
    let text = bytes[bytes.startIndex..<end]
    return !text.contains(0) && String(validating: text, as: UTF8.self) != nil
  }

  /// Measures the next bytes of a pipe (`total` so far) as its kind is measured: a CSV's lines
  /// (also before its first byte that is not blank, `kind` still unknown), JSON's strings and
  /// numbers, HTML's size.
  ///
  /// - Throws: ``ChartFileError`` for a line or a field beyond its bound, an HTML document
  ///   beyond the bound of its kind.
  private static func measure(
    _ chunk: UnsafeRawBufferPointer, kind: ChartFormat.Kind?, total: Int, lines: inout LineMeter,
    tokens: inout TokenMeter, path: String
  ) throws(ChartFileError) {
    switch kind {
    case .json:
      guard tokens.scan(chunk) != nil else { return }
      throw ChartFileError(path: path, problems: [.fieldTooLong("a string or a number")])
    case .html:
      guard total > ChartFileReader.maximumFileSize(of: .html) else { return }
      throw ChartFileError(
        path: path,
        problems: [
          .fileTooLarge(.html, size: total, manyWeeks: "a web page holds one chart", atLeast: true)
        ])
    case .csv, nil:
      guard let line = lines.scan(chunk) else { return }
      throw ChartFileError(path: path, problems: [.lineTooLong(line: line)])
    }
  }

  /// An unlinked temporary file, open for reading and writing.
  private static func temporaryFile(path: String) throws(ChartFileError) -> Int32 {
    let folder = FileManager.default.temporaryDirectory.path
    var template = Array((folder + "/chart-archive-pipe-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw ChartFileError(
        path: path,
        "cannot be read: no temporary file for the pipe's bytes in \(folder)"
          + " (\(String(cString: strerror(errno))))")
    }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    return descriptor
  }

  /// Writes all of `bytes` to a file; `false` when it cannot (`errno` says why).
  private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += written
    }
    return true
  }

  /// A pipe's bytes that could not be written to the temporary file, with the system's words.
  private static func unwritten(_ path: String) -> ChartFileError {
    ChartFileError(
      path: path,
      "cannot be read: its bytes could not be kept in a temporary file"
        + " (\(String(cString: strerror(errno))))")
  }

  /// `cannot be read (REASON)`, the system's words for `errno`.
  private static func unreadable(_ path: String) -> ChartFileError {
    ChartFileError(path: path, "cannot be read (\(String(cString: strerror(errno))))")
  }

  /// Whether a byte is white space before a JSON text, or a byte of a UTF-8 byte order mark.
  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 || byte == 0xEF || byte == 0xBB
      || byte == 0xBF
  }
}

/// What kind of file a path is, from its `st_mode`, for messages.
struct FileKind {
  /// `a character device`, `a folder`, …
  let words: String

  init(_ mode: mode_t) {
    words =
      switch mode & S_IFMT {
      case S_IFCHR: "a character device"
      case S_IFBLK: "a block device"
      case S_IFSOCK: "a socket"
      case S_IFDIR: "a folder"
      case S_IFIFO: "a named pipe"
      case S_IFLNK: "a symbolic link"
      default: "neither a file nor a folder"
      }
  }
}
