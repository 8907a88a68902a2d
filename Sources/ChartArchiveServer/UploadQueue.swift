import ChartStorage
import Foundation
import Synchronization

/// The uploads waiting to be written, and the thread that writes them: one at a time, in the order
/// they arrived, each on the archive's writer, so that no worker thread waits for the archive
/// (a worker hands an upload over and answers other requests meanwhile).
///
/// An upload not begun within ``ServerConfiguration/uploadWaitMilliseconds`` of its arrival (the
/// uploads before it took that long, or another program holds the write lock: the writer waits
/// for the lock only as long as the upload may still wait) is answered 503 with `Retry-After`, by
/// its worker if the thread has not begun it. Past ``ServerConfiguration/maximumWaitingUploads``
/// uploads or ``ServerConfiguration/maximumWaitingUploadBytes`` of files waiting, one is answered
/// 503 at once.
final class UploadQueue: Sendable {
  /// An upload handed over: its request, when it must begin, and what hands its answer back to
  /// its worker. Either the thread begins it or its worker answers it 503, once.
  final class Upload: Sendable {
    let request: HTTPRequest
    /// When it arrived and when it must begin, in monotonic seconds.
    let arrived: Double
    let deadline: Double
    /// Hands the answer to the worker's loop, from the uploads' thread.
    let deliver: @Sendable (HTTPResponse) -> Void
    private let state = Mutex(State.waiting)

    enum State { case waiting, begun, expired }

    init(
      request: HTTPRequest, arrived: Double, deadline: Double,
      deliver: @escaping @Sendable (HTTPResponse) -> Void
    ) {
      self.request = request
      self.arrived = arrived
      self.deadline = deadline
      self.deliver = deliver
    }

    /// Moves a waiting upload on, to begun (the thread) or expired (its worker, at the deadline);
    /// whether it was still waiting.
    func claim(_ next: State) -> Bool {
      state.withLock { state in
        guard state == .waiting else { return false }
        state = next
        return true
      }
    }
  }

  private struct Waiting {
    var uploads: [Upload] = []
    var bytes = 0
    var closed = false
  }

  private let router: Router
  private let waiting = Mutex(Waiting())
  /// Signalled once for each upload added, and on closing.
  private let added = DispatchSemaphore(value: 0)
  /// Signalled when the thread ends.
  private let ended = DispatchSemaphore(value: 0)

  init(router: Router) { self.router = router }

  /// Adds an upload at the end; `false` when the queue is full or closed (the upload is not
  /// taken).
  func add(_ upload: Upload) -> Bool {
    let configuration = router.configuration
    let taken = waiting.withLock { waiting -> Bool in
      guard !waiting.closed, waiting.uploads.count < configuration.maximumWaitingUploads,
        waiting.bytes + upload.request.body.count <= configuration.maximumWaitingUploadBytes
      else { return false }
      waiting.uploads.append(upload)
      waiting.bytes += upload.request.body.count
      return true
    }
    if taken { added.signal() }
    return taken
  }

  /// Starts the thread.
  func start() {
    let thread = Thread { [self] in
      while let upload = next() { write(upload) }
      ended.signal()
    }
    thread.name = "uploads"
    thread.start()
  }

  /// The next upload, waiting for one; `nil` once closed and empty.
  private func next() -> Upload? {
    while true {
      added.wait()
      let found = waiting.withLock { waiting -> (Upload?, Bool) in
        guard !waiting.uploads.isEmpty else { return (nil, waiting.closed) }
        let upload = waiting.uploads.removeFirst()
        waiting.bytes -= upload.request.body.count
        return (upload, false)
      }
      if let upload = found.0 { return upload }
      if found.1 { return nil }
    }
  }

  /// Writes an upload if it is still waiting: the writer waits for the archive's lock as long as
  /// the upload may still wait.
  private func write(_ upload: Upload) {
    // Answered by its worker already, at its deadline.
    guard upload.claim(.begun) else { return }
    let left = upload.deadline - monotonicSeconds()
    guard left > 0 else {
      upload.deliver(router.uploadsBusy(upload.request))
      return
    }
    router.uploads?.setWriteBusyTimeout(milliseconds: Int(left * 1_000))
    upload.deliver(router.respond(to: upload.request))
  }

  /// Takes no more uploads, and waits for the thread to write those taken (each begun by its
  /// deadline, or answered 503).
  func close() {
    let wasOpen = waiting.withLock { waiting -> Bool in
      defer { waiting.closed = true }
      return !waiting.closed
    }
    guard wasOpen else { return }
    added.signal()
    ended.wait()
  }
}
