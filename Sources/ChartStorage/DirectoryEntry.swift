package import Glibc

/// A record of a directory stream, as `readdir` returns it.
package enum DirectoryEntry {
  /// The name of a directory entry `readdir` returned, up to its NUL, read in place: a record in
  /// the directory stream's buffer is only `d_reclen` bytes long, shorter than `dirent` (whose
  /// `d_name` has 256 bytes), so loading the whole structure, or its whole `d_name`, can read past
  /// the end of the buffer (<https://man7.org/linux/man-pages/man3/readdir.3.html>).
  package static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
    let record = UnsafeRawPointer(entry)
    let lengthOffset = MemoryLayout<dirent>.offset(of: \dirent.d_reclen)!
    let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
    let recordLength = Int(record.load(fromByteOffset: lengthOffset, as: UInt16.self))
    let start = (record + nameOffset).assumingMemoryBound(to: UInt8.self)
    let length = strnlen(
      UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self), max(0, recordLength - nameOffset)
    )
    return Array(UnsafeBufferPointer(start: start, count: length))
  }
}
