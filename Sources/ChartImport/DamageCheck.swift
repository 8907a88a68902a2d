import CThreadPlacement
import ChartStorage
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Looks for damaged pages in an archive on a thread of its own while an import stores into it:
/// the import waits for the answer before it commits, and commits nothing into a damaged
/// archive. The check reads the whole file's page headers (``PageHeaderScan``, about 3 ms for the
/// whole Hot 100 on a 2-core machine, most of it mapping the file's pages) and asks
/// SQLite (``ArchiveReader/damagedPages(limit:)``, 15 ms more) only about a file with suspect
/// pages, so that a one-week import stays a few milliseconds.
///
/// The scan needs the file's path only: an import into an existing archive starts it before it
/// opens the archive (``init(scanning:)``), and hands the archive over once open
/// (``attach(_:)``), which the check needs only to ask SQLite about suspect pages. The scan is
/// then most of the way through when the import is ready to commit.
final class DamageCheck: Sendable {
  private let answer = Mutex<Result<[DamagedPage], ArchiveError>?>(nil)
  private let done = DispatchSemaphore(value: 0)
  /// The archive once open: `.some(nil)` when there is none to ask (it failed to open, or its
  /// reads would wait for the import).
  private let archive = Mutex<Archive??>(nil)
  private let attached = DispatchSemaphore(value: 0)
  private let path: String

  /// Starts scanning the archive file at `path`, which exists: before the archive is opened.
  ///
  /// The scan, some 3 ms of CPU for the whole Hot 100 (most of it mapping the file's pages),
  /// runs on a thread of its own started off the CPU the calling thread runs on, when there is
  /// another (``PlacedThread``), at a lower priority than the import's others: the import's
  /// storing thread is not made to share its CPU with it, as it was on a 2-core machine for some
  /// 3 ms of a one-week import, and the reading thread, which the storing thread soon waits for,
  /// goes first.
  init(scanning path: String) {
    self.path = path
    PlacedThread.start(offCPU: chart_archive_current_cpu()) { [self] in
      // The reading thread, which the storing thread soon waits for, goes first on their CPU: the
      // scan's answer is waited for last (see `Importer`).
      _ = chart_archive_lower_thread_priority(Self.niceness)
      let suspects = PageHeaderScan.suspectPages(inFileAt: path)
      let result: Result<[DamagedPage], ArchiveError>
      if suspects == [] {
        result = .success([])
      } else {
        attached.wait()
        // The thread lets go of the archive before it answers: an archive closed by its last
        // owner copies its write-ahead log into its file, which must not wait for the check.
        let held = archive.withLock { archive in
          defer { archive = .some(nil) }
          return archive ?? nil
        }
        result = held.map { Self.damagedPages(of: $0, suspects: suspects) } ?? .success([])
      }
      answer.withLock { $0 = result }
      done.signal()
    }
  }

  /// How much lower the scan's thread runs than the import's others (a nice value): at 10, the
  /// system gives a CPU they both wait for to the other some 90 % of the time.
  static let niceness: Int32 = 10

  /// Starts checking an archive whose reads run beside its writes (see
  /// ``Archive/readsBesideWrites``); `nil` for one whose reads would wait for the import (an
  /// archive being built, which has nothing to be damaged yet).
  convenience init?(_ archive: Archive) {
    guard archive.readsBesideWrites else { return nil }
    self.init(scanning: archive.path)
    attach(archive)
  }

  /// Hands the check the archive it scans, once open, to ask SQLite about suspect pages; `nil`
  /// when there is none to ask (the archive failed to open). An archive whose reads would wait
  /// for the import is not asked either. Only the first call counts.
  func attach(_ opened: Archive?) {
    let first = archive.withLock { held in
      guard case .none = held else { return false }
      held = .some(opened.flatMap { $0.readsBesideWrites ? $0 : nil })
      return true
    }
    if first { attached.signal() }
  }

  /// The damaged pages of `archive`, whose file has `suspects` (`nil`: the scan could not tell).
  private static func damagedPages(of archive: Archive, suspects: [Int]?) -> Result<
    [DamagedPage], ArchiveError
  > {
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

  /// Waits for the check to end, whatever it found (an import that stopped before asking). An
  /// archive not handed over by then is none: the check does not wait for it.
  func finish() {
    attach(nil)
    done.wait()
    done.signal()
  }

  /// Waits for the check's answer, then looks at the file's length again: a file cut short after
  /// the scan read it (by another program, while the import stored) lacks pages the scan saw.
  ///
  /// - Throws: ``ArchiveError/damaged(path:pages:)`` when pages are damaged or missing; the error
  ///   of the check when it could not read the archive.
  func wait() throws(ArchiveError) {
    finish()
    var pages = try answer.withLock { $0! }.get()
    if pages.isEmpty { pages = Self.missingPage(of: path) }
    if !pages.isEmpty { throw .damaged(path: path, pages: pages) }
  }
}
