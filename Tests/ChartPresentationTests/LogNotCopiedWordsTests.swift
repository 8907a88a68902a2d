import ChartPresentation
import ChartStorage
import Testing

/// The warning of an import stored in the write-ahead log that could not be copied into the file.
/// It advised more room whatever the reason; a file damaged while the log was copied into it (cut
/// short by another program) needs `check`, not room.
struct LogNotCopiedWordsTests {
  /// SQLite's result code (`SQLITE_FULL` is 13, `SQLITE_CORRUPT` 11), its message, and what the
  /// warning then says to do.
  @Test(arguments: [
    (
      13, "database or disk is full",
      "it is copied in the next time the archive is opened with room to spare"
    ),
    (
      11, "database disk image is malformed",
      "the archive may be damaged: chart-archive check tells what is wrong"
    ),
  ])
  func theWarningSaysWhatToKeepAndWhatToDo(code: Int32, message: String, next: String) {
    let error = ArchiveError.database(
      path: "/data/a.sqlite", DatabaseError(extendedResultCode: code, message: message))
    #expect(
      ImportWords.logNotCopied(error, path: "/data/a.sqlite")
        == "the import is stored in /data/a.sqlite-wal, the archive's write-ahead log, and could"
        + " not be copied into /data/a.sqlite (\(message)): keep /data/a.sqlite-wal beside the"
        + " archive, and never move or delete one without the other; \(next)")
  }
}
