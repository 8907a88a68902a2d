import ChartStorage
import Dispatch
import Glibc
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
    let suspects = PageHeaderScan.suspectPages(inFileAt: archive.path)
    if suspects == [] { return .success([]) }
    // SQLite failing to walk a file whose pages look wrong (it may say the disk is full) tells of
    // those pages, whose tables it cannot name.
    let unreadable = (suspects ?? []).map { DamagedPage(table: "", page: $0) }
    do {
      let pages = try archive.read { try $0.damagedPages() }
      return .success(pages.isEmpty ? missingPage(of: archive.path) : pages)
    } catch let error as ArchiveError {
      return !unreadable.isEmpty && !error.isLocked ? .success(unreadable) : .failure(error)
    } catch {
      return !unreadable.isEmpty
        ? .success(unreadable) : .failure(.database(path: archive.path, .other("\(error)")))
    }
  }

  /// The page a file cut short lacks, which `dbstat` reads as zeros and does not report; looked
  /// at three times 20 ms apart, so that a file another program's checkpoint is extending (its
  /// header first) is not taken for one cut short.
  private static func missingPage(of path: String) -> [DamagedPage] {
    for attempt in 0..<3 {
      guard let page = PageHeaderScan.missingPage(inFileAt: path) else { return [] }
      if attempt == 2 { return [DamagedPage(table: "", page: page)] }
      usleep(20_000)
    }
    return []
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
