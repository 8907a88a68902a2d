import Foundation
import Glibc

/// What `chart-archive serve` is told.
public struct ServerConfiguration: Sendable {
  /// The archive file.
  public var archivePath: String
  /// The address to listen on: loopback unless told otherwise.
  public var host = "127.0.0.1"
  /// The port; 0 for one the system chooses (printed when the server starts).
  public var port = 8080
  /// Worker threads, each with its own event loop: one per processor by default.
  public var threads = ProcessInfo.processInfo.activeProcessorCount
  /// The bearer token uploads must present; `nil` for a server with no write endpoint at all.
  public var uploadToken: String?
  /// The chart behind each feed category (`daily` → `app-daily`).
  public var feeds = ServerConfiguration.defaultFeeds
  /// The origin allowed to read the API from a web page (`Access-Control-Allow-Origin`), if any.
  public var corsOrigin: String?
  /// The largest request body accepted (an upload's file), in bytes.
  public var maximumBodyBytes = 32 * 1024 * 1024
  /// The largest request line and headers accepted, in bytes.
  public var maximumHeaderBytes = 16 * 1024
  /// How long a client may take to send a request, or keep a connection idle, in seconds.
  public var timeoutSeconds = 10
  /// How long an upload may wait to be written, in milliseconds: for the uploads before it
  /// (written one at a time, in the order they arrived) and for the archive's write lock (another
  /// program's import). Past it, it is answered 503 with `Retry-After`.
  public var uploadWaitMilliseconds = 800
  /// How many uploads may wait at once; past it, an upload is answered 503 at once.
  public var maximumWaitingUploads = 8
  /// How many bytes the files of the uploads waiting may hold together; past it, an upload is
  /// answered 503 at once.
  public var maximumWaitingUploadBytes = 64 * 1024 * 1024
  /// The `Retry-After` of a 503, in seconds.
  public var retryAfterSeconds = 5

  /// How many connections each worker thread holds at most, whether they have sent a request or
  /// not: at the limit, the one that has waited longest for its request is closed to make room
  /// (``fitConnections(toFileLimit:)`` lowers it to what the process's file limit allows).
  public var maximumConnectionsPerThread = 512

  /// How many connections the server holds at most: its threads' limits together.
  public var maximumConnections: Int { max(1, threads) * maximumConnectionsPerThread }

  /// The file descriptors the server keeps for itself besides its connections: the standard
  /// streams, the listening socket and each thread's copy of it, each event loop's own (its
  /// epoll and the pipe and eventfd that wake it), the archive's SQLite connections (up to eight
  /// readers and the writers, each with the file and its log, and the shared memory), with room
  /// to spare.
  public static func reservedFiles(threads: Int) -> Int { 64 + 8 * max(1, threads) }

  /// Lowers the connections a thread holds so that, with ``reservedFiles(threads:)``, they fit in
  /// the process's limit on open files (at least 4 a thread, whatever the limit).
  public mutating func fitConnections(toFileLimit files: Int) {
    let perThread = (files - Self.reservedFiles(threads: threads)) / max(1, threads)
    maximumConnectionsPerThread = max(4, min(maximumConnectionsPerThread, perThread))
  }

  /// The feeds a chart app asks for and the charts they come from, unless `--feed` says
  /// otherwise: `total` → `app-total`, `time` (hourly) → `app-hourly`, `daily` → `app-daily`,
  /// `weekly` → `app-weekly`, `monthly` → `app-monthly`.
  public static let defaultFeeds = [
    "total": "app-total", "time": "app-hourly", "daily": "app-daily", "weekly": "app-weekly",
    "monthly": "app-monthly",
  ]

  /// A configuration serving the archive at a path, with the defaults above.
  public init(archivePath: String) { self.archivePath = archivePath }
}

/// The process's limit on open files (`RLIMIT_NOFILE`, getrlimit(2)): every connection takes one.
public enum FileLimit {
  /// Raises the soft limit to the hard one, where it is lower and may be raised (the hard limit
  /// only root may raise), and returns the limit then in force and the one before, when it was
  /// raised.
  public static func raised() -> (files: Int, before: Int?) {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (1_024, nil) }
    let before = limit.rlim_cur
    if limit.rlim_cur < limit.rlim_max {
      var raised = limit
      raised.rlim_cur = limit.rlim_max
      if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
    }
    let files = Int(clamping: limit.rlim_cur)
    return (files, limit.rlim_cur == before ? nil : Int(clamping: before))
  }
}
