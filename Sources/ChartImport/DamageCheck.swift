import ChartStorage
import Dispatch
import Synchronization

/// Looks for damaged pages in an archive on a thread of its own while an import stores into it:
/// the import waits for the answer before it commits, and commits nothing into a damaged
/// archive. The check reads the whole file's page headers (``PageHeaderScan``, about 5 ms for the
/// whole Hot 100) and asks SQLite (``ArchiveReader/damagedPages(limit:)``, 15 ms more) only about
/// a file with suspect pages, so that a one-week import stays a few milliseconds.
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
    // The thread lets go of the archive before it answers: an archive closed by its last owner
    // copies its write-ahead log into its file, which must not wait for the check.
    let held = Mutex<Archive?>(archive)
    DispatchQueue.global(qos: .userInitiated).async { [self] in
      let result = Self.damagedPages(of: held)
      held.withLock { $0 = nil }
      answer.withLock { $0 = result }
      done.signal()
    }
  }

  /// The damaged pages of the archive `held` holds.
  private static func damagedPages(of held: borrowing Mutex<Archive?>) -> Result<
    [DamagedPage], ArchiveError
  > {
    guard let archive = held.withLock({ $0 }) else { return .success([]) }
    if PageHeaderScan.suspectPages(inFileAt: archive.path) == [] { return .success([]) }
    do {
      return .success(try archive.read { try $0.damagedPages() })
    } catch let error as ArchiveError {
      return .failure(error)
    } catch {
      return .failure(.database(path: archive.path, .other("\(error)")))
    }
  }

  /// Waits for the check to end, whatever it found (an import that stopped before asking).
  func finish() {
    done.wait()
    done.signal()
  }

  /// Waits for the check's answer.
  ///
  /// - Throws: ``ArchiveError/damaged(path:pages:)`` when pages are damaged; the error of the
  ///   check when it could not read the archive.
  func wait() throws(ArchiveError) {
    finish()
    let pages = try answer.withLock { $0! }.get()
    if !pages.isEmpty { throw .damaged(path: path, pages: pages) }
  }
}
