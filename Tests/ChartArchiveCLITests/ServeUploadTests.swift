import ChartStorage
import Foundation
import Synchronization
import Testing

/// Uploads to `chart-archive serve` over real connections: written on a thread of their own, one
/// at a time in the order they arrived, answered 503 within a second when the archive cannot be
/// written, copied into the archive file after each, and the token file's permissions.
@Suite(.serialized)
struct ServeUploadTests {
  static let token = "s3cret-token-for-uploads"

  /// An upload of one entry to a chart on a date, on a connection of its own.
  static func upload(port: UInt16, chart: String = "app-new", date: String) throws -> HTTPReply {
    try ServedArchive.request(
      port: port, "POST", "/api/charts/\(chart)/snapshots?date=\(date)&format=app-feed",
      headers: [("Authorization", "Bearer " + token)],
      body: Array(#"[{"title": "Song of \#(date)", "artist": "A"}]"#.utf8))
  }

  /// Runs `count` bodies at once, each on a thread of its own, and waits for them all.
  static func atOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
      group.enter()
      Thread.detachNewThread {
        body(index)
        group.leave()
      }
    }
    group.wait()
  }

  /// Holds the archive's write lock from another connection (as another program's import does)
  /// until `release` is signalled.
  static func holdWriteLock(
    _ archive: String, released release: DispatchSemaphore
  ) throws -> DispatchSemaphore {
    let holder = try Archive(path: archive, access: .write)
    let locked = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      try? holder.write { _ in
        locked.signal()
        release.wait()
      }
      done.signal()
    }
    locked.wait()
    return done
  }

  /// Four uploads at once while another program holds the write lock were answered after 10, 20,
  /// 30 and 40 s (or not at all), and GETs on their worker threads waited as long. Each is now
  /// answered 503 with `Retry-After` within a second, in words that name no file, and GETs go on.
  @Test func uploadsWhileTheArchiveIsLockedAreAnswered503AndGETsGoOn() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive([
      "--db", archive, "--threads", "2", "--token-file", try tokenFile(in: folder, Self.token),
    ])
    let release = DispatchSemaphore(value: 0)
    let done = try Self.holdWriteLock(archive, released: release)
    let port = server.port
    let replies = Mutex<[(status: Int, retry: String?, detail: String, seconds: Double)]>([])
    let gets = Mutex<[Double]>([])
    Self.atOnce(5) { index in
      if index == 4 {
        // GETs while the uploads wait.
        let end = Date().addingTimeInterval(1.2)
        while Date() < end {
          let start = Date()
          let reply = try? ServedArchive.request(port: port, "GET", "/api/charts/hot-100/latest")
          let seconds = reply?.status == 200 ? Date().timeIntervalSince(start) : .infinity
          gets.withLock { $0.append(seconds) }
        }
        return
      }
      let start = Date()
      let reply = try? Self.upload(port: port, date: "2030-01-0\(index + 1)")
      let detail = (try? reply?.json() as? [String: Any])?["detail"] as? String ?? ""
      replies.withLock {
        $0.append(
          (
            reply?.status ?? 0, reply?.header("retry-after"), detail,
            Date().timeIntervalSince(start)
          ))
      }
    }
    release.signal()
    done.wait()
    for reply in replies.withLock({ $0 }) {
      #expect(reply.status == 503)
      #expect(reply.retry == "5")
      #expect(reply.seconds < 1.5, "answered after \(reply.seconds) s")
      #expect(
        reply.detail
          == "the archive could not be written within 800 ms: other uploads or another program"
          + " are writing it; try again in 5 s"
          || reply.detail == "the archive is being written by another program; try again in 5 s",
        "\(reply.detail)")
    }
    let latencies = gets.withLock { $0 }
    #expect(latencies.count > 3)
    #expect(latencies.max() ?? .infinity < 0.5, "GETs took up to \(latencies.max() ?? 0) s")
    #expect(server.stop() == 0)
  }

  /// Uploads that arrive while others wait are written one at a time, in the order they
  /// arrived (not the order of their dates).
  @Test func uploadsAreWrittenInTheOrderTheyArrived() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive([
      "--db", archive, "--threads", "2", "--token-file", try tokenFile(in: folder, Self.token),
    ])
    let release = DispatchSemaphore(value: 0)
    let done = try Self.holdWriteLock(archive, released: release)
    let dates = ["2030-01-04", "2030-01-02", "2030-01-03", "2030-01-01"]
    let statuses = Mutex<[String: Int]>([:])
    let port = server.port
    Self.atOnce(4) { index in
      // One after the other, 60 ms apart; the lock is released after the last has arrived.
      usleep(UInt32(index) * 60_000)
      if index == 3 {
        Thread.detachNewThread {
          usleep(60_000)
          release.signal()
        }
      }
      let reply = try? Self.upload(port: port, date: dates[index])
      statuses.withLock { $0[dates[index]] = reply?.status ?? 0 }
    }
    done.wait()
    #expect(statuses.withLock { $0 } == Dictionary(uniqueKeysWithValues: dates.map { ($0, 201) }))
    let stored = try rows(
      archive,
      "SELECT chart_date FROM snapshots JOIN charts ON charts.id = chart_id"
        + " WHERE charts.name = 'app-new' ORDER BY snapshots.id")
    #expect(stored == dates)
    #expect(server.stop() == 0)
  }

  /// An upload lived in the write-ahead log only: a copy of the archive file alone lacked it.
  /// Each upload is now copied into the file, as far as readers let it, and the rest as the
  /// service ends.
  @Test func uploadsAreCopiedIntoTheArchiveFile() throws {
    let (folder, archive) = try sampleArchive()
    let server = try ServedArchive([
      "--db", archive, "--token-file", try tokenFile(in: folder, Self.token),
    ])
    func copiedDates(_ name: String) throws -> [String] {
      let copy = folder.url.appendingPathComponent(name).path
      try FileManager.default.copyItem(atPath: archive, toPath: copy)
      return try rows(
        copy,
        "SELECT chart_date FROM snapshots JOIN charts ON charts.id = chart_id"
          + " WHERE charts.name = 'app-new' ORDER BY chart_date")
    }
    #expect(try Self.upload(port: server.port, date: "2030-01-01").status == 201)
    #expect(try copiedDates("copy-1.sqlite") == ["2030-01-01"])
    // A reader of this process in the middle of a read keeps the next upload in the log...
    let reader = try Archive(path: archive, access: .read)
    let reading = DispatchSemaphore(value: 0)
    let finish = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      _ = try? reader.read { reader in
        _ = try reader.charts()
        reading.signal()
        finish.wait()
      }
    }
    reading.wait()
    #expect(try Self.upload(port: server.port, date: "2030-01-02").status == 201)
    #expect(try copiedDates("copy-2.sqlite") == ["2030-01-01"])
    finish.signal()
    // ... until the service ends (the reader's connection stays open: SQLite would copy the log
    // itself when the last connection closes).
    #expect(server.stop() == 0)
    #expect(try copiedDates("copy-3.sqlite") == ["2030-01-01", "2030-01-02"])
    _ = reader
  }

  /// A token file that others may read or write is refused at start, as ssh refuses a private
  /// key, with the chmod that fixes it; one its owner alone may read is taken.
  @Test func aTokenFileOthersMayReadIsRefused() throws {
    let (folder, archive) = try sampleArchive()
    let file = try folder.write("token", Self.token)
    for (mode, words) in [
      (0o644, "other users may read it (mode 644)"),
      (0o666, "other users may read and write it and its group may write it (mode 666)"),
      (0o620, "its group may write it (mode 620)"),
    ] {
      chmod(file, mode_t(mode))
      let run = try chartArchive(["serve", "--port", "0", "--db", archive, "--token-file", file])
      #expect(run.status == 65)
      #expect(
        run.error
          == "Error: \(file): the token file is not private: \(words); run chmod 600 \(file)\n")
    }
    chmod(file, 0o640)
    let server = try ServedArchive(["--db", archive, "--token-file", file])
    #expect(try Self.upload(port: server.port, date: "2030-01-01").status == 201)
    #expect(server.stop() == 0)
  }
}
