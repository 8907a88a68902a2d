import CThreadPlacement
import ChartFormats
import ChartRanking
import ChartStorage
import Foundation

/// A chart file read and checked, with the song keys of its snapshots' entries.
struct PreparedFile {
  var file: DecodedChartFile
  /// ``SongKeys`` of each snapshot's entries, same order as `file.snapshots`.
  var keys: [[SongKeys]]
  /// Whether more of the source's snapshots follow, in parts of their own: a dataset of many
  /// weeks is read a few weeks at a time (see
  /// ``ChartFileReader/read(contentsOf:weeksPerPart:deliver:)``).
  var continues = false
  /// The fraction of the source's chart dates read with this part (0 to 1; 1 for a whole file).
  var fractionRead = 1.0
}

/// Reads chart files on a background thread, a few ahead of the import that stores them, so that
/// parsing and folding titles for song identity (on one core) and SQLite's writing (on the other)
/// overlap. Results come back in the sources' order; a dataset of many weeks comes back in parts,
/// so that its first weeks are stored while the rest are read.
final class ReadAhead: @unchecked Sendable {
  /// How many snapshots a part of a dataset holds.
  static let weeksPerPart = 8
  /// How many entries may wait, read, before the consumer takes them (about 550 bytes each with
  /// their song keys: some 35 MB), besides the parts and files counted by `depth`: a file of one
  /// snapshot holds up to 100,000 entries, a part of a dataset a snapshot of 4 MiB. One part or
  /// file waits whatever its entries.
  static let entriesAhead = 65_536

  // Every mutable property is guarded by `condition`.
  private let condition = NSCondition()
  /// What was read of each source and not yet taken: its parts, the last of them (a whole file,
  /// or a part that does not continue) or a failure ending it.
  private var results: [Int: [Result<PreparedFile, ChartFileError>]] = [:]
  /// The entries of the parts and files in `results`.
  private var entriesWaiting = 0
  /// The parts and files in `results`.
  private var partsWaiting = 0
  /// Whether the reading thread waits for room: ``file(at:)`` then wakes it only once half the
  /// room is free (see ``hasRoomToWake``), not at every file taken.
  private var readerWaitsForRoom = false
  /// How many times ``file(at:)`` woke the reading thread waiting for room.
  private var wakeUpsForRoom = 0
  private var consumed = 0
  private var recycled: [PreparedFile] = []
  private var recycledSnapshots: [RetiredSnapshots] = []
  private var cancelled = false
  /// Whether the reading thread is done: every source read, or the import ended early.
  private var readerEnded = false
  private let depth: Int

  /// Starts reading, on a thread started off the calling thread's CPU (see ``PlacedThread``).
  ///
  /// - Parameters:
  ///   - sources: the files or uploaded bytes, in the order they will be asked for.
  ///   - reader: the reader to read them with.
  ///   - depth: how many files may wait, read, before the consumer takes them.
  init(sources: [ImportSource], reader: ChartFileReader, depth: Int = 16) {
    self.depth = depth
    PlacedThread.start(offCPU: chart_archive_current_cpu()) { [self] in
      Thread.current.name = "chart-reader"
      defer {
        condition.lock()
        readerEnded = true
        condition.broadcast()
        condition.unlock()
      }
      var recentKeys = RecentKeys()
      for (index, source) in sources.enumerated() {
        condition.lock()
        while index - consumed >= depth || entriesWaiting >= Self.entriesAhead, !cancelled {
          readerWaitsForRoom = true
          condition.wait()
        }
        let stop = cancelled
        // Files stored since the last one read are freed here, off the storing thread.
        let stored = takeRecycled()
        condition.unlock()
        withExtendedLifetime(stored) {}
        if stop { return }
        /// Hands a part over, waiting while `depth` parts of the source wait; drops it when the
        /// import ended early (nobody will take it). Returns whether the import goes on.
        @discardableResult
        func publish(_ result: Result<PreparedFile, ChartFileError>) -> Bool {
          condition.lock()
          // Entries waiting can be taken: the consumer takes every source before this one.
          while results[index, default: []].count >= depth || entriesWaiting >= Self.entriesAhead,
            !cancelled
          {
            readerWaitsForRoom = true
            condition.wait()
          }
          let goesOn = !cancelled
          if goesOn {
            results[index, default: []].append(result)
            entriesWaiting += Self.entries(in: result)
            partsWaiting += 1
          }
          condition.broadcast()
          // The parts stored meanwhile are freed here, off the storing thread.
          let stored = takeRecycled()
          condition.unlock()
          withExtendedLifetime(stored) {}
          return goesOn
        }
        // A part is handed over when the next is read, so that the last says it is the last.
        var pending: PreparedFile?
        do throws(ChartFileError) {
          // Returns whether to read on: the rest of a dataset is not read for an import that
          // ended early.
          func deliver(_ file: DecodedChartFile, fractionRead: Double) -> Bool {
            if let pending, !publish(.success(pending)) { return false }
            pending = PreparedFile(
              file: file,
              keys: file.snapshots.map { snapshot in
                recentKeys.startSnapshot(of: snapshot.chart, entryCount: snapshot.entries.count)
                return snapshot.entries.map { recentKeys.keys(of: $0) }
              },
              continues: true, fractionRead: fractionRead)
            return true
          }
          switch source {
          case .file(let path):
            try reader.read(contentsOf: path, weeksPerPart: Self.weeksPerPart, deliver: deliver)
          case .bytes(let data, let name):
            try reader.decode(data, path: name, weeksPerPart: Self.weeksPerPart, deliver: deliver)
          }
          pending?.continues = false
          publish(.success(pending!))
        } catch {
          if let pending { publish(.success(pending)) }
          publish(.failure(error))
        }
      }
    }
  }

  /// What the storing thread gave back, to free after `condition` is unlocked (it must be
  /// locked).
  private func takeRecycled() -> (files: [PreparedFile], snapshots: [RetiredSnapshots]) {
    defer {
      recycled = []
      recycledSnapshots = []
    }
    return (recycled, recycledSnapshots)
  }

  /// The file at `index` (asked for in order, 0 first), waiting until it is read; when it
  /// ``PreparedFile/continues``, the next part of it, until a part that does not or a failure.
  func file(at index: Int) -> Result<PreparedFile, ChartFileError> {
    condition.lock()
    defer { condition.unlock() }
    while results[index]?.first == nil { condition.wait() }
    let result = results[index]!.removeFirst()
    if results[index]!.isEmpty { results[index] = nil }
    entriesWaiting -= Self.entries(in: result)
    partsWaiting -= 1
    consumed = index + 1
    if readerWaitsForRoom, hasRoomToWake {
      readerWaitsForRoom = false
      wakeUpsForRoom += 1
      condition.broadcast()
    }
    return result
  }

  /// Whether the reading thread, waiting for room, is woken: once half of `depth` and of
  /// ``entriesAhead`` is free, so that it reads several files at each wake-up rather than one.
  /// Waking it at every file taken cost the storing thread, the import's bottleneck, some 6 % of
  /// a Hot 100 import (3,150 voluntary context switches, against some 300 now). The files still
  /// waiting keep the storing thread busy meanwhile; an empty queue always wakes it.
  private var hasRoomToWake: Bool {
    partsWaiting <= depth / 2 && entriesWaiting <= Self.entriesAhead / 2
  }

  /// The entries of a file or a part read (none for a failure).
  private static func entries(in result: Result<PreparedFile, ChartFileError>) -> Int {
    guard case .success(let prepared) = result else { return 0 }
    return prepared.keys.reduce(0) { $0 + $1.count }
  }

  /// Reads the rest of a file whose last part taken ``PreparedFile/continues``, and drops it.
  ///
  /// - Returns: the failure that ends it, if one does.
  func skipRest(of index: Int) -> ChartFileError? {
    while true {
      switch file(at: index) {
      case .success(let part):
        let continues = part.continues
        recycle(part)
        if !continues { return nil }
      case .failure(let error): return error
      }
    }
  }

  /// Takes back a file that was stored, to free its memory on the reading thread: the storing
  /// thread is the import's bottleneck.
  func recycle(_ file: consuming PreparedFile) {
    condition.lock()
    recycled.append(file)
    condition.unlock()
  }

  /// Takes back snapshots that song linking no longer needs (see
  /// ``SnapshotStore/takeRetiredSnapshots()``), to free their keys on the reading thread.
  func recycle(_ snapshots: consuming RetiredSnapshots) {
    guard !snapshots.isEmpty else { return }
    condition.lock()
    recycledSnapshots.append(snapshots)
    condition.unlock()
  }

  /// Waits until the reading thread is done, and tells how many parts (or files) wait to be taken:
  /// for tests.
  func partsWaitingWhenTheReaderEnds() -> Int {
    condition.lock()
    defer { condition.unlock() }
    while !readerEnded { condition.wait() }
    return results.values.reduce(0) { $0 + $1.count }
  }

  /// Waits until the reading thread waits for room, or is done: for tests, which take files at
  /// known moments so.
  func waitUntilTheReaderWaits() {
    while true {
      condition.lock()
      let waits = readerWaitsForRoom || readerEnded
      condition.unlock()
      if waits { return }
      usleep(200)
    }
  }

  /// How many times ``file(at:)`` woke the reading thread waiting for room: for tests.
  var wakeUpsOfTheReader: Int {
    condition.lock()
    defer { condition.unlock() }
    return wakeUpsForRoom
  }

  /// Stops reading ahead (the import ended early): what was read and not taken is let go.
  func cancel() {
    condition.lock()
    cancelled = true
    results = [:]
    entriesWaiting = 0
    partsWaiting = 0
    condition.broadcast()
    condition.unlock()
  }

  deinit { cancel() }
}
