import Foundation

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
  /// How many connections each worker thread keeps open at most; at the limit it stops accepting
  /// until one closes.
  public var maximumConnectionsPerThread = 512

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
