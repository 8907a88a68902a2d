import ChartStorage
import Dispatch
import Synchronization

/// Looks for damaged pages in an archive (``ArchiveReader/damagedPages(limit:)``) on a thread of
/// its own while an import stores into it: the import waits for the answer before it commits,
/// and commits nothing into a damaged archive. The check reads the whole file (about 15 ms for
/// the whole Hot 100); beside a one-week import it adds nothing to the import's time.
final class DamageCheck: Sendable {
  private let answer = Mutex<Result<[DamagedPage], ArchiveError>?>(nil)
  private let done = DispatchSemaphore(value: 0)
  private let path: String

  /// Starts checking an archive whose reads run beside its writes (see
  /// ``Archive/readsBesideWrites``); `nil` for one whose reads would wait for the import (an
  /// archive being built, which has nothing to be damaged yet).
  init?(_ archive: Archive) {
    guard archive.readsBesideWrites else { return nil }
    path = archive.path
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let result: Result<[DamagedPage], ArchiveError>
      do {
        result = .success(try archive.read { try $0.damagedPages() })
      } catch let error as ArchiveError {
        result = .failure(error)
      } catch {
        result = .failure(.database(path: archive.path, .other("\(error)")))
      }
      answer.withLock { $0 = result }
      done.signal()
    }
  }

  /// Waits for the check's answer.
  ///
  /// - Throws: ``ArchiveError/damaged(path:pages:)`` when pages are damaged; the error of the
  ///   check when it could not read the archive.
  func wait() throws(ArchiveError) {
    done.wait()
    done.signal()
    let pages = try answer.withLock { $0! }.get()
    if !pages.isEmpty { throw .damaged(path: path, pages: pages) }
  }
}
