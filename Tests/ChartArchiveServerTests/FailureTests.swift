import Foundation
import Synchronization
import Testing

@testable import ChartArchiveServer

/// The service's 500 and 503 answers: what failed in the user's terms, never the archive's path
/// or SQLite's words, which go to the log.
struct FailureTests {
  /// A damaged archive: the answer said `cannot use the archive /path/archive.sqlite: database
  /// disk image is malformed`, SQLite's words and where the file is.
  @Test func a500NamesNoFileAndTheLogSaysWhy() throws {
    let (folder, path) = try TestArchive.sample()
    let logged = Mutex<[String]>([])
    let service = try Service(path, log: { line in logged.withLock { $0.append(line) } })
    // Every page but the first (the header and the schema) overwritten: the tables are gone.
    let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let size = try file.seekToEnd()
    try file.seek(toOffset: 4_096)
    try file.write(contentsOf: Data(repeating: 0xA5, count: Int(size) - 4_096))
    try file.close()
    let api = service.get("/api/charts/hot-100/latest")
    #expect(api.status == 500)
    #expect(
      try api.problemDetail()
        == "the archive could not be read or written; the server's log says why")
    let page = service.get("/charts/hot-100")
    #expect(page.status == 500)
    #expect(page.header("Content-Type") == "text/html; charset=utf-8")
    #expect(!page.text.contains(path))
    #expect(!page.text.contains("malformed"))
    let lines = logged.withLock { $0 }
    #expect(lines.count == 2)
    #expect(lines.first?.hasPrefix("500 for GET /api/charts/hot-100/latest: ") == true)
    #expect(lines.allSatisfy { $0.contains(path) })
    _ = folder
  }
}
