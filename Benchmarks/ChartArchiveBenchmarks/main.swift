// chart-archive-bench: the measurements Benchmarks/run cannot take from outside a process.
//
//   chart-archive-bench queries --db PATH --chart NAME [--count N] [--seed S]
//     In-library timings (no process start) of `history` for N songs picked at random, `diff` of
//     N random consecutive snapshots, and `report` of the latest snapshot N times; prints one JSON
//     object with p50 and p99 in microseconds, and the songs picked (for process timings).
//   chart-archive-bench pages --db PATH --chart NAME [--count N] [--seed S]
//     The web pages as `serve` answers them, inside the server (its router, no socket): N chart
//     pages of distinct random chart dates and N song pages of distinct random songs of the
//     chart, each rendered once (none answered from the server's cache); prints one JSON object
//     with p50 and p99 in microseconds and the pages' weight in bytes (largest and p99, without
//     images, uncompressed and gzipped).
//   chart-archive-bench records --db PATH --chart NAME [--count N]
//     In-library timings of each of the chart's leaderboards (`records`, 10 rows, the whole
//     chart), N times each in a read of its own, and of all of them in one read; prints one JSON
//     object with each kind's p50 and p99 in microseconds and its rows as "song_id|figure", to
//     compare with the same answers from the SQL views.
//   chart-archive-bench periods --db PATH --chart NAME --from Y1 --to Y2 [--rounds N]
//     In-library timings of the year chart (`period --year`, top 100) of each year from Y1 to Y2,
//     N rounds, each in a read of its own; prints one JSON object with p50 and p99 in
//     microseconds and each year's top 100 (song ID, rank, previous rank) for Benchmarks/run to
//     compare with the same answer from SQL.
//   chart-archive-bench artists --db PATH --chart NAME --artist NAME [--count N]
//     In-library timings of an artist's career on the chart (`artist NAME --chart NAME`, the
//     search excluded) N times, of the search for the name N times, and of each by-artist
//     leaderboard over the chart's whole history N / 10 times; prints one JSON object with p50 and
//     p99 in microseconds, and the answers (the artist's ID, songs, weeks and number ones; each
//     leaderboard's first row) for comparing with SQL on the views.
//   chart-archive-bench generate --out FOLDER --days D --regions R --size N [--seed S]
//     Writes a deterministic synthetic daily chart series in ChartArchive's format: R regions,
//     D days each, N entries a day, songs rising, peaking and falling like real ones.
import ChartArchiveServer
import ChartFormats
import ChartImport
import ChartRanking
import ChartStorage
import Foundation

/// A seeded generator (SplitMix64), the same sequence on every machine.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func option(_ name: String, in arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
  guard !sorted.isEmpty else { return 0 }
  return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}

func measure(_ count: Int, _ body: (Int) throws -> Void) rethrows -> (p50: Double, p99: Double) {
  var times: [Double] = []
  times.reserveCapacity(count)
  for index in 0..<count {
    let start = DispatchTime.now().uptimeNanoseconds
    try body(index)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
  }
  times.sort()
  return (percentile(times, 0.5), percentile(times, 0.99))
}

func queries(_ arguments: [String]) throws {
  guard let path = option("--db", in: arguments), let chart = option("--chart", in: arguments)
  else { fatalError("usage: queries --db PATH --chart NAME [--count N] [--seed S]") }
  let count = Int(option("--count", in: arguments) ?? "") ?? 1000
  var random = SeededGenerator(state: UInt64(option("--seed", in: arguments) ?? "") ?? 1)
  let archive = try Archive(path: path, access: .read, upgrade: .decidingFigures)
  let snapshots = try archive.read { try $0.snapshots(of: chart) }
  // Songs picked from random snapshots, so that each is a song of this chart.
  var songs: [(id: SongID, title: String, artist: String)] = []
  for _ in 0..<count {
    let snapshot = snapshots[Int.random(in: 0..<snapshots.count, using: &random)]
    let entries = try archive.read { try $0.entries(of: snapshot.id) }
    let entry = entries[Int.random(in: 0..<entries.count, using: &random)]
    songs.append((entry.song, entry.entry.title, entry.entry.artist))
  }
  let pairs = (0..<count).map { _ in Int.random(in: 1..<snapshots.count, using: &random) }
  // Each query in a read of its own, as a command or a request makes it.
  let history = try measure(count) { index in
    _ = try archive.read { try $0.history(of: songs[index].id) }
  }
  let diff = try measure(count) { index in
    _ = try archive.read {
      try $0.diff(from: snapshots[pairs[index] - 1], to: snapshots[pairs[index]])
    }
  }
  let latest = snapshots[snapshots.count - 1]
  let report = try measure(count) { _ in
    _ = try archive.read { try $0.report(on: latest, limit: 10) }
  }
  let result: [String: Any] = [
    "history_p50_us": history.p50, "history_p99_us": history.p99,
    "diff_p50_us": diff.p50, "diff_p99_us": diff.p99,
    "report_p50_us": report.p50, "report_p99_us": report.p99,
    "songs": songs.map { ["title": $0.title, "artist": $0.artist] },
    "diff_dates": pairs.map {
      [snapshots[$0 - 1].chartDate.iso8601, snapshots[$0].chartDate.iso8601]
    },
  ]
  let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
}

func artists(_ arguments: [String]) throws {
  guard let path = option("--db", in: arguments), let chart = option("--chart", in: arguments),
    let name = option("--artist", in: arguments)
  else { fatalError("usage: artists --db PATH --chart NAME --artist NAME [--count N]") }
  let count = Int(option("--count", in: arguments) ?? "") ?? 200
  let archive = try Archive(path: path, access: .read, upgrade: .decidingFigures)
  guard let artist = try archive.read({ try $0.artists(matching: name) }).first else {
    fatalError("no artist matches \(name)")
  }
  let search = try measure(count) { _ in _ = try archive.read { try $0.artists(matching: name) } }
  var career: ArtistCareer?
  let careers = try measure(count) { _ in
    career = try archive.read { try $0.careers(of: artist.id, onChart: chart) }.first
  }
  var result: [String: Any] = [
    "artist_id": artist.id.rawValue, "artist": artist.name,
    "songs": career?.entryCount ?? 0, "weeks": career?.weeksOnChart ?? 0,
    "number_ones": career?.numberOneCount ?? 0,
    "career_p50_us": careers.p50, "career_p99_us": careers.p99,
    "search_p50_us": search.p50, "search_p99_us": search.p99,
  ]
  for figure in ArtistLeaderboard.Figure.allCases {
    var first: ArtistLeaderboard.Row?
    let times = try measure(max(1, count / 10)) { _ in
      first = try archive.read { try $0.artistLeaderboard(figure, chart: chart, limit: 10) }.rows
        .first
    }
    result[figure.rawValue] = [
      "p50_us": times.p50, "p99_us": times.p99, "first": first?.artist.name ?? "",
      "figure": first?.figure ?? 0,
    ]
  }
  let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
}

func pages(_ arguments: [String]) throws {
  guard let path = option("--db", in: arguments), let chart = option("--chart", in: arguments)
  else { fatalError("usage: pages --db PATH --chart NAME [--count N] [--seed S]") }
  let count = Int(option("--count", in: arguments) ?? "") ?? 1000
  var random = SeededGenerator(state: UInt64(option("--seed", in: arguments) ?? "") ?? 1)
  let archive = try Archive(path: path, access: .read, upgrade: .decidingFigures)
  let snapshots = try archive.read { try $0.snapshots(of: chart) }
  // Distinct chart dates and songs, so that no request is answered from the server's cache.
  let dates = Array(snapshots.shuffled(using: &random).prefix(count))
  var songs: [SongID] = []
  var seen: Set<SongID> = []
  while songs.count < count, seen.count < 1_000_000 {
    let snapshot = snapshots[Int.random(in: 0..<snapshots.count, using: &random)]
    let entries = try archive.read { try $0.entries(of: snapshot.id) }
    let song = entries[Int.random(in: 0..<entries.count, using: &random)].song
    if seen.insert(song).inserted { songs.append(song) }
  }
  let router = try Router(configuration: ServerConfiguration(archivePath: path))
  var chartBytes: [Double] = []
  var songBytes: [Double] = []
  var gzippedBytes: [Double] = []
  func get(_ target: String, _ sizes: inout [Double], gzip: Bool = false) {
    let response = router.respond(
      to: HTTPRequest(
        method: "GET", target: target, headers: gzip ? ["Accept-Encoding": "gzip"] : [:]))
    guard response.status == 200 else { fatalError("\(target) answered \(response.status)") }
    sizes.append(Double(response.body.count))
  }
  let chartPages = measure(dates.count) { index in
    get("/charts/\(chart)/\(dates[index].chartDate.iso8601)", &gzippedBytes, gzip: true)
  }
  let songPages = measure(songs.count) { index in
    get("/songs/\(songs[index].rawValue)", &gzippedBytes, gzip: true)
  }
  // The same pages' weight uncompressed (a client that takes no gzip), not timed.
  for date in dates { get("/charts/\(chart)/\(date.chartDate.iso8601)", &chartBytes) }
  for song in songs { get("/songs/\(song.rawValue)", &songBytes) }
  chartBytes.sort()
  songBytes.sort()
  gzippedBytes.sort()
  let result: [String: Any] = [
    "chart_pages": dates.count, "song_pages": songs.count,
    "chart_page_p50_us": chartPages.p50, "chart_page_p99_us": chartPages.p99,
    "song_page_p50_us": songPages.p50, "song_page_p99_us": songPages.p99,
    "chart_page_bytes_max": chartBytes.last ?? 0,
    "chart_page_bytes_p99": percentile(chartBytes, 0.99),
    "song_page_bytes_max": songBytes.last ?? 0, "song_page_bytes_p99": percentile(songBytes, 0.99),
    "gzipped_bytes_max": gzippedBytes.last ?? 0,
  ]
  let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
}

func periods(_ arguments: [String]) throws {
  guard let path = option("--db", in: arguments), let chart = option("--chart", in: arguments),
    let first = Int(option("--from", in: arguments) ?? ""),
    let last = Int(option("--to", in: arguments) ?? "")
  else { fatalError("usage: periods --db PATH --chart NAME --from Y1 --to Y2 [--rounds N]") }
  let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 5
  let archive = try Archive(path: path, access: .read, upgrade: .decidingFigures)
  let years = Array(first...last)
  var answers: [String: [[Int64?]]] = [:]
  let timing = try measure(years.count * rounds) { index in
    let year = years[index % years.count]
    let period = try archive.read { reader in
      try reader.periodChart(
        of: chart, span: try reader.periodSpan(ofYear: year, chart: chart), limit: 100)
    }
    answers[String(year)] = period.songs.map {
      [
        $0.standing.song.rawValue, Int64($0.standing.rank),
        $0.standing.previousRank.map(Int64.init),
      ]
    }
  }
  let result: [String: Any] = [
    "year_p50_us": timing.p50, "year_p99_us": timing.p99, "years": years.count,
    "answers": answers.mapValues { $0.map { $0.map { $0.map { $0 as Any } ?? NSNull() } } },
  ]
  let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
}

func generate(_ arguments: [String]) throws {
  guard let folder = option("--out", in: arguments) else {
    fatalError("usage: generate --out FOLDER --days D --regions R --size N [--seed S]")
  }
  let days = Int(option("--days", in: arguments) ?? "") ?? 365
  let regions = Int(option("--regions", in: arguments) ?? "") ?? 1
  let size = Int(option("--size", in: arguments) ?? "") ?? 200
  var random = SeededGenerator(state: UInt64(option("--seed", in: arguments) ?? "") ?? 7)
  let manager = FileManager.default
  let start = try ChartDate(iso8601: "2017-01-01")
  for region in 0..<regions {
    let chart = "daily-top-\(size)-region-\(region + 1)"
    let regionFolder = URL(fileURLWithPath: folder).appendingPathComponent(chart)
    try manager.createDirectory(at: regionFolder, withIntermediateDirectories: true)
    // A pool of songs, each with a popularity that rises, peaks and falls.
    var songs: [(title: String, artist: String, born: Int, strength: Double)] = []
    var next = 0
    func newSong(day: Int) {
      next += 1
      songs.append(
        (
          "Song \(next) of region \(region + 1)",
          "Artist \(Int.random(in: 1...400, using: &random))",
          day, Double.random(in: 0.2...1, using: &random)
        ))
    }
    for _ in 0..<(size * 2) { newSong(day: -Int.random(in: 0...60, using: &random)) }
    var previousRanks: [String: Int] = [:]
    for day in 0..<days {
      for _ in 0..<Int.random(in: 2...6, using: &random) { newSong(day: day) }
      // Score: strength times a rise-and-fall curve over the song's age, with noise.
      let scored = songs.map { song -> (String, String, Double) in
        let age = Double(day - song.born)
        let curve = age < 0 ? 0 : (age + 1) * exp(-age / 30)
        return (
          song.title, song.artist,
          song.strength * curve * Double.random(in: 0.9...1.1, using: &random)
        )
      }
      let top = scored.sorted { $0.2 > $1.2 }.prefix(size)
      songs.removeAll { day - $0.born > 240 }
      let seconds = start.secondsSince1970 + Int64(day) * 86_400
      let text = ISO8601DateFormatter.string(
        from: Date(timeIntervalSince1970: TimeInterval(seconds)),
        timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
      var ranks: [String: Int] = [:]
      let entries = top.enumerated().map { index, song in
        ranks[song.0] = index + 1
        return ChartEntry(
          rank: index + 1, title: song.0, artist: song.1,
          publishedPreviousRank: previousRanks[song.0],
          streams: Int(song.2 * 100_000))
      }
      previousRanks = ranks
      let snapshot = Snapshot(
        chart: chart, chartDate: try ChartDate(iso8601: text), publishesPreviousRank: true,
        entries: entries)
      let json =
        NativeFormatWriter.jsonOpening + NativeFormatWriter.json(snapshot, frequency: .daily)
        + NativeFormatWriter.jsonClosing
      try Data(json.utf8).write(to: regionFolder.appendingPathComponent("\(text).json"))
    }
  }
}

func records(_ arguments: [String]) throws {
  guard let path = option("--db", in: arguments), let chart = option("--chart", in: arguments)
  else { fatalError("usage: records --db PATH --chart NAME [--count N]") }
  let count = Int(option("--count", in: arguments) ?? "") ?? 200
  let archive = try Archive(path: path, access: .read, upgrade: .decidingFigures)
  var result: [String: Any] = [:]
  for kind in RecordKind.allCases {
    var board: Leaderboard?
    let timing = try measure(count) { _ in
      board = try archive.read { try $0.leaderboard(kind, of: chart) }
    }
    let rows = board?.rows.map { row -> String in
      guard case .song(let song) = row.record.holder else { return "" }
      return "\(song.id.rawValue)|\(row.record.figure)"
    }
    result[kind.rawValue] = ["p50_us": timing.p50, "p99_us": timing.p99, "rows": rows ?? []]
  }
  let all = try measure(count) { _ in _ = try archive.read { try $0.records(of: chart) } }
  result["all"] = ["p50_us": all.p50, "p99_us": all.p99]
  let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
  FileHandle.standardOutput.write(data)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "queries": try queries(arguments)
case "pages": try pages(arguments)
case "records": try records(arguments)
case "periods": try periods(arguments)
case "artists": try artists(arguments)
case "generate": try generate(arguments)
default:
  FileHandle.standardError.write(
    Data("usage: chart-archive-bench queries|pages|records|periods|artists|generate …\n".utf8))
  exit(64)
}
