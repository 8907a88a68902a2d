import CYAJL
import ChartRanking
public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Reads the usual chart file straight from yajl's events into a ``JSONFileFields``, without building a
/// JSON tree first: one object with a chart date and a list of entries whose fields have the
/// expected types (billboard's weekly `data` or the native `entries`), or an export's list of
/// such snapshots.
///
/// It reads only what it is sure of and gives up, returning `nil`, at anything else: a syntax
/// error, a field it does not know, a key given twice, a value of another type, a number that is
/// not a plain integer, text that is not UTF-8, a lone surrogate escape, too many entries. The
/// file is then read again through the tree (``JSONTree/parse(_:)`` and
/// ``JSONFileFields/init(json:forced:)``), which says what is wrong and where; so for any file the two
/// readers give the same ``JSONFileFields`` (a test compares them on every sample and malformed file).
enum StreamingReader {
  /// How reading an export as it streams by ended.
  enum ExportOutcome {
    /// Every snapshot was read and handed over.
    case read
    /// The taker asked to stop.
    case stopped
    /// The file is not an export: its object holds another field, or it is not an object.
    case notAnExport
    /// A snapshot's strings take more than ``ChartFileReader/maximumSnapshotSize``; its number.
    case snapshotTooLarge(Int)
    /// A string or a number longer than ``ChartFileReader/maximumFieldLength``, at a byte.
    case fieldTooLong(offset: Int)
    /// The JSON is not valid (yajl's words, if it gave some), or holds something the streaming
    /// reader does not read (a field, a type), at a byte.
    case unread(message: String?, offset: Int)
  }

  /// Reads an export (`{"snapshots": [...]}`) as it streams by, a megabyte at a time, handing
  /// each snapshot over once read: memory holds one snapshot at a time, whatever the file's size.
  /// The pages of a mapped file larger than ``DatasetIndex/pagesKept`` are let go of once read.
  ///
  /// - Parameter snapshotRead: called with each snapshot, in order, the bytes read so far and
  ///   the export's decisions (which come before its snapshots, as `export` writes them);
  ///   returns whether to go on.
  static func readExport(
    _ bytes: FileBytes, snapshotRead: @escaping (JSONFileFields, Int, [SongDecision]) -> Bool
  ) -> (ExportOutcome, snapshots: Int) {
    let reader = EventReader()
    var count = 0
    var fed = 0
    reader.snapshotRead = { [unowned reader] snapshot in
      count += 1
      return snapshotRead(snapshot, fed, reader.file.decisions ?? [])
    }
    let context = Unmanaged.passUnretained(reader).toOpaque()
    let outcome = withUnsafePointer(to: EventReader.callbacks) { callbacks -> ExportOutcome in
      guard let handle = yajl_alloc(callbacks, nil, context) else {
        return .unread(message: "out of memory", offset: 0)
      }
      defer { yajl_free(handle) }
      return bytes.data.withUnsafeBytes { file in
        let text = JSONTree.withoutByteOrderMark(file)
        let start = file.count - text.count
        var tokens = TokenMeter()
        var offset = start
        while offset < file.count {
          let chunk = UnsafeRawBufferPointer(
            rebasing: file[offset..<min(offset + (1 << 20), file.count)])
          if let long = tokens.scan(chunk) { return .fieldTooLong(offset: offset + long) }
          fed = offset + chunk.count
          let status = yajl_parse(
            handle, chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), chunk.count)
          if status != yajl_status_ok {
            let at = offset + min(yajl_get_bytes_consumed(handle), chunk.count)
            return ended(reader, handle, chunk, at: max(at - 1, start), snapshots: count)
          }
          if file.count > DatasetIndex.pagesKept { bytes.letGo(offset..<offset + chunk.count) }
          offset += chunk.count
        }
        guard yajl_complete_parse(handle) == yajl_status_ok, reader.isDone else {
          return ended(reader, handle, nil, at: max(file.count - 1, start), snapshots: count)
        }
        return .read
      }
    }
    return (outcome, count)
  }

  /// Why a streaming read of an export stopped at byte `offset`.
  private static func ended(
    _ reader: EventReader, _ handle: yajl_handle, _ chunk: UnsafeRawBufferPointer?, at offset: Int,
    snapshots: Int
  ) -> ExportOutcome {
    if reader.stopped { return .stopped }
    if reader.snapshotTooLarge { return .snapshotTooLarge(snapshots + 1) }
    if !reader.isExport { return .notAnExport }
    var message: String?
    let start = chunk?.baseAddress?.assumingMemoryBound(to: UInt8.self)
    if let error = yajl_get_error(handle, 0, start, chunk?.count ?? 0) {
      message = JSONTree.tidy(String(cString: error))
      yajl_free_error(handle, error)
    }
    // yajl's own words only for what it refuses; the reader stopping is "client cancelled".
    if message?.contains("client cancelled") ?? false { message = nil }
    return .unread(message: message, offset: offset)
  }

  /// The ``JSONFileFields`` of `bytes`, or `nil` when the tree must read it.
  static func fileFields(_ bytes: UnsafeRawBufferPointer) -> JSONFileFields? {
    let text = JSONTree.withoutByteOrderMark(bytes)
    let reader = EventReader()
    let context = Unmanaged.passUnretained(reader).toOpaque()
    let parsed = withUnsafePointer(to: EventReader.callbacks) { callbacks -> Bool in
      guard let handle = yajl_alloc(callbacks, nil, context) else { return false }
      defer { yajl_free(handle) }
      let start = text.baseAddress?.assumingMemoryBound(to: UInt8.self)
      return yajl_parse(handle, start, text.count) == yajl_status_ok
        && yajl_complete_parse(handle) == yajl_status_ok
    }
    guard parsed, reader.isDone, JSONTree.loneSurrogateEscape(in: text) == nil else { return nil }
    return reader.file
  }
}

/// The state of one streaming read. yajl calls back for every event, one at a time, so the
/// run-time exclusivity checks on it are skipped.
private final class EventReader {
  /// The object whose fields are being read: the file's, or one snapshot of an export's.
  enum Level {
    case file, snapshot
  }

  /// Where the reader is in the file.
  enum Place {
    /// Before the file's object.
    case start
    /// In an object, after the key of `field` when there is one.
    case object(Level, field: ObjectField?)
    /// In the file's list of snapshots (an export).
    case snapshots
    /// In a list of entries.
    case list(Level, ObjectField)
    /// In the file's `decisions`, built as a tree by ``EventReader/decisions``.
    case decisions
    /// In an entry of a list, after the key of `field` when there is one.
    case entry(Level, ObjectField, field: EntryField?)
    /// After the file's object.
    case done
  }

  /// The fields of a file's object or of a snapshot's that the reader reads.
  enum ObjectField: Int, CaseIterable {
    case chart, chartDate, date, frequency, data, entries, snapshots, decisions

    var name: String {
      switch self {
      case .chart: "chart"
      case .chartDate: "chart_date"
      case .date: "date"
      case .frequency: "frequency"
      case .data: "data"
      case .entries: "entries"
      case .snapshots: "snapshots"
      case .decisions: "decisions"
      }
    }

    /// Whether the field holds text (or null).
    var isText: Bool {
      switch self {
      case .chart, .chartDate, .date, .frequency: true
      case .data, .entries, .snapshots, .decisions: false
      }
    }

    /// The names of a list's entry fields.
    var entryKeys: EntryKeys { self == .data ? .billboardWeekly : .native }
  }

  /// An entry's fields.
  enum EntryField: Int, CaseIterable {
    case rank, title, artist, previousRank, peakPosition, weeksOnChart, imageURL, songURL, streams
    case run
    /// The native format's mark of an entry tied with another at its rank: `true`, `false` or
    /// null.
    case tie
    /// The native format's ISRC.
    case isrc

    var isText: Bool {
      self == .title || self == .artist || self == .imageURL || self == .songURL || self == .isrc
    }

    func name(in keys: EntryKeys) -> String? {
      switch self {
      case .rank: keys.rank
      case .title: keys.title
      case .artist: keys.artist
      case .previousRank: keys.previousRank
      case .peakPosition: keys.peakPosition
      case .weeksOnChart: keys.weeksOnChart
      case .imageURL: keys.imageURL
      case .songURL: keys.songURL
      case .streams: keys.streams
      case .run: keys.run
      case .tie: keys.tie
      case .isrc: keys.isrc
      }
    }
  }

  /// Each list's field names as UTF-8 bytes, in ``EntryField`` order (`nil`: no such field).
  static let entryNames: [[[UInt8]?]] = [ObjectField.data, .entries].map { list in
    EntryField.allCases.map { $0.name(in: list.entryKeys).map { Array($0.utf8) } }
  }
  static let objectNames: [[UInt8]] = ObjectField.allCases.map { Array($0.name.utf8) }

  @exclusivity(unchecked) var place = Place.start
  @exclusivity(unchecked) var file = JSONFileFields()
  @exclusivity(unchecked) var snapshot = JSONFileFields()
  @exclusivity(unchecked) var snapshots: [JSONFileFields] = []
  /// The fields seen in the file's object and in the current snapshot's, one bit each.
  @exclusivity(unchecked) var fileFieldsSeen = 0
  @exclusivity(unchecked) var snapshotFieldsSeen = 0
  @exclusivity(unchecked) var entry = RawEntry()
  @exclusivity(unchecked) var entryFieldsSeen = 0
  /// The entries of the list being read; its room is kept from one list to the next.
  @exclusivity(unchecked) var entries: [RawEntry] = []
  /// Called with each snapshot of an export once it is read, instead of keeping it (see
  /// ``StreamingReader/readExport(_:snapshotRead:)``): whether to go on.
  var snapshotRead: ((JSONFileFields) -> Bool)?
  /// The tree of the file's `decisions` while it is read; `nil` elsewhere. Every event in it goes
  /// to it, and the decisions are read from the tree once it is whole.
  var decisions: TreeBuilder?
  /// Whether `snapshotRead` asked to stop.
  var stopped = false
  /// Whether the file's list of snapshots began: the file is an export.
  var isExport = false
  /// The bytes of the strings of the snapshot being read, against
  /// ``ChartFileReader/maximumSnapshotSize``, when snapshots are handed over as read; and whether
  /// they went past it.
  var snapshotBytes = 0
  var snapshotTooLarge = false

  var isDone: Bool {
    if case .done = place { true } else { false }
  }

  /// Whether `bytes` are the same as `name`.
  static func matches(_ name: [UInt8], _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    name.count == count
      && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes, count) == 0 }
  }

  /// Changes the object of `level`.
  func update(_ level: Level, _ change: (inout JSONFileFields) -> Void) {
    switch level {
    case .file: change(&file)
    case .snapshot: change(&snapshot)
    }
  }

  /// A map key. Returns 0 (stop) at a field the reader does not read or one given twice.
  func key(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let bytes else { return 0 }
    switch place {
    case .object(let level, nil):
      guard let index = Self.objectNames.firstIndex(where: { Self.matches($0, bytes, count) })
      else { return 0 }
      let field = ObjectField.allCases[index]
      // A snapshot of an export has no snapshots or decisions of its own.
      if level == .snapshot, field == .snapshots || field == .decisions { return 0 }
      // An export read as it streams by is as `export` writes it: its object holds its decisions,
      // then its snapshots, and nothing else.
      if level == .file, snapshotRead != nil, field != .snapshots,
        field != .decisions || fileFieldsSeen & (1 << ObjectField.snapshots.rawValue) != 0
      {
        return 0
      }
      let seen = level == .file ? fileFieldsSeen : snapshotFieldsSeen
      guard seen & (1 << index) == 0 else { return 0 }
      if level == .file { fileFieldsSeen |= 1 << index } else { snapshotFieldsSeen |= 1 << index }
      place = .object(level, field: field)
      if field == .decisions {
        decisions = TreeBuilder(text: UnsafeRawBufferPointer(start: nil, count: 0))
        place = .decisions
      }
      return 1
    case .entry(let level, let list, nil):
      let names = Self.entryNames[list == .data ? 0 : 1]
      guard
        let index = names.firstIndex(where: { name in
          name.map { Self.matches($0, bytes, count) } ?? false
        }),
        entryFieldsSeen & (1 << index) == 0
      else { return 0 }
      entryFieldsSeen |= 1 << index
      let field = EntryField.allCases[index]
      if field == .previousRank { entry.hasPreviousRank = true }
      place = .entry(level, list, field: field)
      return 1
    default:
      return 0
    }
  }

  /// A string value.
  func string(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    if snapshotRead != nil {
      snapshotBytes += count
      if snapshotBytes > ChartFileReader.maximumSnapshotSize {
        snapshotTooLarge = true
        return 0
      }
    }
    guard count <= ChartFileReader.maximumFieldLength,
      let text = JSONTree.text(ofUTF8: bytes, count: count)
    else { return 0 }
    switch place {
    case .object(let level, .some(let field)) where field.isText:
      update(level) { object in
        switch field {
        case .chart: object.chart = text
        case .chartDate: object.chartDate = text
        case .date: object.date = text
        default: object.frequency = text
        }
      }
      place = .object(level, field: nil)
      return 1
    case .entry(let level, let list, .some(let field)) where field.isText:
      switch field {
      case .title: entry.title = text
      case .artist: entry.artist = text
      case .imageURL: entry.imageURL = text
      case .isrc:
        // One that is not an ISRC is left to the tree, which says what is wrong.
        entry.readISRC(text, field: "isrc")
        guard entry.problems.isEmpty else { return 0 }
      default: entry.songURL = text
      }
      place = .entry(level, list, field: nil)
      return 1
    default:
      return 0
    }
  }

  /// A number value: only a plain integer, as ``JSONTree/integer`` reads it.
  func number(_ bytes: UnsafePointer<CChar>?, _ count: Int) -> Int32 {
    guard case .entry(let level, let list, .some(let field)) = place, !field.isText, let bytes
    else { return 0 }
    // A plain integer that fits, as `Int(_:)` reads it: JSON has no leading "+", and a fraction
    // or an exponent is left to the tree (``JSONTree/wholeNumber(_:)``).
    let digits = UnsafeBufferPointer(
      start: UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: count)
    guard field != .tie, let value = Self.integer(digits) else { return 0 }
    switch field {
    case .rank: entry.rank = value
    case .previousRank: entry.previousRank = value
    case .peakPosition: entry.peakPosition = value
    case .weeksOnChart: entry.weeksOnChart = value
    case .run: entry.run = value
    default: entry.streams = value
    }
    place = .entry(level, list, field: nil)
    return 1
  }

  /// The integer that `digits` spell, as `Int(_:)` reads ASCII text: an optional `-` (or `+`)
  /// then decimal digits, `nil` for anything else or a value out of `Int`'s range. Read in place,
  /// without making a `String` of each number.
  static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let negative = digits.first == UInt8(ascii: "-")
    if negative || digits.first == UInt8(ascii: "+") { index = 1 }
    guard index < digits.count else { return nil }
    var value = 0
    while index < digits.count {
      let digit = Int(digits[index]) &- 48
      guard digit >= 0, digit < 10 else { return nil }
      // Accumulated below zero when negative, so that Int.min is read too.
      let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowedAgain) =
        negative
        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflowed, !overflowedAgain else { return nil }
      value = next
      index += 1
    }
    return value
  }

  /// A boolean value: only the native format's `tie`.
  func boolean(_ flag: Bool) -> Int32 {
    guard case .entry(let level, let list, .tie) = place else { return 0 }
    entry.tied = flag
    place = .entry(level, list, field: nil)
    return 1
  }

  /// A null value: a field without a value (`nil`), as the tree reads it.
  func null() -> Int32 {
    switch place {
    case .object(let level, .some(let field)) where field.isText:
      place = .object(level, field: nil)
      return 1
    case .entry(let level, let list, .some):
      place = .entry(level, list, field: nil)
      return 1
    default:
      return 0
    }
  }

  func startMap() -> Int32 {
    switch place {
    case .start:
      place = .object(.file, field: nil)
    case .snapshots:
      snapshot = JSONFileFields()
      snapshotFieldsSeen = 0
      snapshotBytes = 0
      place = .object(.snapshot, field: nil)
    case .list(let level, let list):
      entry = RawEntry()
      entryFieldsSeen = 0
      place = .entry(level, list, field: nil)
    default:
      return 0
    }
    return 1
  }

  func endMap() -> Int32 {
    switch place {
    case .object(.file, nil):
      place = .done
    case .object(.snapshot, nil):
      place = .snapshots
      if let snapshotRead {
        guard snapshotRead(snapshot) else {
          stopped = true
          return 0
        }
      } else {
        snapshots.append(snapshot)
      }
    case .entry(let level, let list, nil):
      guard entries.count < ChartFileReader.maximumRank else { return 0 }
      // Moved into the list rather than copied: the next entry starts afresh anyway.
      var read = RawEntry()
      swap(&read, &entry)
      entries.append(consume read)
      place = .list(level, list)
    default:
      return 0
    }
    return 1
  }

  func startArray() -> Int32 {
    switch place {
    case .object(.file, .snapshots):
      snapshots = []
      isExport = true
      place = .snapshots
    case .object(let level, .some(let field)) where field == .data || field == .entries:
      entries.removeAll(keepingCapacity: true)
      place = .list(level, field)
    default:
      return 0
    }
    return 1
  }

  func endArray() -> Int32 {
    switch place {
    case .snapshots:
      file.snapshots = snapshots
      place = .object(.file, field: nil)
    case .list(let level, let list):
      // A copy of its own size: the list being read keeps its room for the next one, and an
      // export of many small snapshots keeps no spare room per snapshot.
      let read = Array(entries[...])
      update(level) { object in
        if list == .data {
          object.billboardEntries = read
          object.hasDataKey = true
        } else {
          object.entries = read
          object.hasEntriesKey = true
        }
      }
      place = .object(level, field: nil)
    default:
      return 0
    }
    return 1
  }

  /// Calls `body` with the reader whose address yajl hands each callback. The caller of
  /// `yajl_parse` holds the reader until the parse ends, so no callback retains and releases it
  /// (two atomic operations for each of a Hot 100 import's 5 million events).
  static func with(_ context: UnsafeMutableRawPointer?, _ body: (EventReader) -> Int32) -> Int32 {
    Unmanaged<EventReader>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
  }

  /// Hands an event inside the file's `decisions` to their tree (each callback checks that
  /// ``decisions`` is set first, so that every other event costs one comparison); once the tree
  /// is whole, reads the decisions from it, giving up at a
  /// problem (the tree reader then says what it is).
  func inDecisions(_ event: (TreeBuilder) -> Int32) -> Int32 {
    guard let builder = decisions, event(builder) != 0 else { return 0 }
    guard builder.levels.isEmpty, let root = builder.root else { return 1 }
    decisions = nil
    var problems: [ChartFileProblem] = []
    file.decisions = SongDecision.read(root, problems: &problems)
    guard problems.isEmpty else { return 0 }
    place = .object(.file, field: nil)
    return 1
  }

  static let callbacks = yajl_callbacks(
    yajl_null: { context in
      with(context) { reader in
        reader.decisions == nil ? reader.null() : reader.inDecisions { $0.add(.null) }
      }
    },
    yajl_boolean: { context, flag in
      with(context) { reader in
        reader.decisions == nil
          ? reader.boolean(flag != 0) : reader.inDecisions { $0.add(.bool(flag != 0)) }
      }
    },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { context, bytes, count in
      with(context) { reader in
        // A decision has no numbers.
        reader.decisions == nil ? reader.number(bytes, count) : 0
      }
    },
    yajl_string: { context, bytes, count in
      with(context) { reader in
        guard reader.decisions != nil else { return reader.string(bytes, count) }
        return reader.inDecisions { builder in
          builder.string(bytes, count).map { builder.add(.string($0)) } ?? 0
        }
      }
    },
    yajl_start_map: { context in
      with(context) { reader in
        reader.decisions == nil
          ? reader.startMap() : reader.inDecisions { $0.open(isObject: true) }
      }
    },
    yajl_map_key: { context, bytes, count in
      with(context) { reader in
        guard reader.decisions != nil else { return reader.key(bytes, count) }
        return reader.inDecisions { builder in
          guard let key = builder.string(bytes, count), !builder.levels.isEmpty else { return 0 }
          builder.levels[builder.levels.count - 1].keys.append(key)
          return 1
        }
      }
    },
    yajl_end_map: { context in
      with(context) { reader in
        reader.decisions == nil ? reader.endMap() : reader.inDecisions { $0.close() }
      }
    },
    yajl_start_array: { context in
      with(context) { reader in
        reader.decisions == nil
          ? reader.startArray() : reader.inDecisions { $0.open(isObject: false) }
      }
    },
    yajl_end_array: { context in
      with(context) { reader in
        reader.decisions == nil ? reader.endArray() : reader.inDecisions { $0.close() }
      }
    })
}

extension ChartFileReader {
  /// Whether the streaming reader either leaves `data` to the tree or reads it as the tree does:
  /// for the fuzzer, which checks it on every input it makes.
  @_spi(Fuzzing) public static func streamingReaderAgreesWithTheTree(on data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      guard let streamed = StreamingReader.fileFields(bytes) else { return true }
      let tree = (try? JSONTree.parse(bytes)).flatMap { JSONFileFields(json: $0, forced: nil) }
      return streamed == tree
    }
  }
}
