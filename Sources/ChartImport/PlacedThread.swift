import CThreadPlacement
import Foundation

/// The import's own threads (the reading thread, the damage check's), started off the CPU of the
/// thread that stores: on a 2-core machine each then has a CPU to run on while the storing thread
/// works. Once running, they may run on any CPU: a reading thread kept off one for good could not
/// give way when the storing thread came to its CPU (one 15-round run of the Hot 100 import took
/// some 3 % longer so, another as long).
///
/// A new thread runs where the system puts it, most often on its creator's CPU; there it waits
/// behind its creator, which goes on working. In a one-week import's timeline (perf, sched
/// events), the damage check's scan began some 3 ms after it was started, and the reading thread
/// read its one file only once the storing thread had opened the archive and waited for it (some
/// 1.5 ms), while the other CPU was idle or ran the scan.
enum PlacedThread {
  /// Runs `body` on a new thread started off CPU `cpu` (the calling thread's, from
  /// `chart_archive_current_cpu`), when there is another; on any CPU when there is none, or the
  /// thread cannot be started so (then on a thread of Foundation's).
  static func start(offCPU cpu: Int32, _ body: @escaping @Sendable () -> Void) {
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    let status = chart_archive_start_thread_off_cpu(
      cpu,
      { argument in
        Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue().body()
        return nil
      }, job)
    guard status != 0 else { return }
    Unmanaged<Job>.fromOpaque(job).release()
    Thread.detachNewThread(body)
  }

  /// What a thread started by ``start(offCPU:_:)`` runs.
  private final class Job: Sendable {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
