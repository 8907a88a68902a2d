import ChartRanking
import Foundation

/// One chart of a chart service's file: its entries, and where they stand in the chart when it
/// is published in pages.
struct ServiceChart {
  /// The chart's own name in the file, added to the chart's name when the file holds several.
  var name: String? = nil
  /// The entries, or `nil` when the file has no list of them (a problem of its own).
  var entries: [RawEntry]? = nil
  /// The page the entries are, when the chart is published in pages.
  var page: ChartPage? = nil
}

/// A file of one of the JSON formats that chart services serve, read into entries: the chart and
/// date it names, where to say they are, and its entries before they are checked.
struct ServiceFile {
  var format: ChartFormat
  var keys: EntryKeys
  /// The chart's name in the file, if it gives one.
  var chart: String?
  /// The chart date as written (ISO 8601), if the file gives one.
  var date: String?
  /// The field the date is in, for messages.
  var dateField: String
  /// How often the chart is published, as the file says (a ``ChartFrequency`` name), if it does.
  var frequency: String? = nil
  /// Whether the date field itself had a problem, reported already.
  var dateFieldProblem = false
  /// The file's charts: one for most formats; Apple Music's may hold several.
  var charts: [ServiceChart] = [ServiceChart()]
  var problems: [ChartFileProblem] = []

  /// The service format of a JSON value: `forced` when it is one, else the one its shape says,
  /// or `nil` for none.
  static func format(of json: JSONTree, forced: ChartFormat?) -> ChartFormat? {
    if let forced {
      return [.spotifyChartsJSON, .lastFMWeeklyTrackChart, .appleMusicCharts].contains(forced)
        ? forced : nil
    }
    guard case .object(let object) = json else { return nil }
    if case .object(let results) = object["results"], results["songs"] != nil {
      return .appleMusicCharts
    }
    if object["weeklytrackchart"] != nil { return .lastFMWeeklyTrackChart }
    if object["displayChart"] != nil { return .spotifyChartsJSON }
    if case .array(let list) = object["entries"], case .object(let first) = list.first,
      first["chartEntryData"] != nil || first["trackMetadata"] != nil
    {
      return .spotifyChartsJSON
    }
    return nil
  }

}

extension ServiceFile {
  /// Reads a file of a service format (see ``format(of:forced:)``).
  init(_ json: JSONTree, format: ChartFormat) {
    switch format {
    case .lastFMWeeklyTrackChart: self = Self.lastFMWeeklyTrackChart(json)
    case .appleMusicCharts: self = Self.appleMusicCharts(json)
    default: self = Self.spotifyCharts(json)
    }
  }

  /// Entries read from a list, each with a reader of its own.
  static func entries(
    _ list: [JSONTree], read: (inout NestedReader, inout RawEntry) -> Void
  ) -> [RawEntry] {
    list.map { json in
      var entry = RawEntry()
      guard json.isObject else {
        entry.isObject = false
        return entry
      }
      var reader = NestedReader(json)
      read(&reader, &entry)
      entry.problems += reader.problems
      return entry
    }
  }

  // MARK: - Spotify's charts site

  /// The names of the Spotify charts site's entry fields.
  static let spotifyKeys = EntryKeys(
    rank: "chartEntryData.currentRank", title: "trackMetadata.trackName",
    artist: "trackMetadata.artists", previousRank: "chartEntryData.previousRank",
    peakPosition: "chartEntryData.peakRank", weeksOnChart: "chartEntryData.appearancesOnChart",
    imageURL: "trackMetadata.displayImageUri", songURL: "trackMetadata.trackUri",
    streams: "chartEntryData.rankingMetric.value", previousRankNone: "-1")

  /// A chart as charts.spotify.com serves it to its pages: `{"displayChart": {"date",
  /// "chartMetadata": {"uri", "dimensions": {"recurrence"}}}, "entries": [{"chartEntryData": {"currentRank", "previousRank",
  /// "peakRank", "appearancesOnChart", "rankingMetric": {"value", "type"}, "entryStatus"},
  /// "trackMetadata": {"trackName", "trackUri", "displayImageUri", "artists": [{"name"}]}}]}`.
  /// `previousRank` -1 is not on the previous chart; the artists' names joined with ", " are one
  /// credit, as in Spotify's CSV download; `rankingMetric.value` is streams when its type is
  /// `STREAMS` (or not given); `entryStatus` is the published movement; `recurrence` (`DAILY`,
  /// `WEEKLY`) the chart's frequency.
  private static func spotifyCharts(_ json: JSONTree) -> ServiceFile {
    var file = NestedReader(json)
    let keys = spotifyKeys
    var read = ServiceFile(
      format: .spotifyChartsJSON, keys: keys, chart: file.string("displayChart.chartMetadata.uri"),
      date: file.string("displayChart.date"), dateField: "displayChart.date")
    read.dateFieldProblem = file.problems.contains { $0.field == "displayChart.date" }
    read.frequency = file.string("displayChart.chartMetadata.dimensions.recurrence")?.lowercased()
    if let list = file.array("entries") {
      guard list.count <= ChartFileReader.maximumRank else {
        read.problems = file.problems + [FieldReader.tooManyEntries(list.count, field: "entries")]
        return read
      }
      read.charts[0].entries = entries(list) { reader, entry in
        entry.rank = reader.int(keys.rank)
        entry.title = reader.string(keys.title)
        if let artists = reader.array(keys.artist) {
          // Each artist's name, or what is wrong with it, reported under the list's name.
          var names: [String] = []
          for (index, artist) in artists.enumerated() {
            guard case .object(let object) = artist else {
              reader.report(keys.artist, "artist \(index + 1) is not a JSON object")
              continue
            }
            switch object["name"] {
            case .string(let name): names.append(name)
            case nil, .null: reader.report(keys.artist, "artist \(index + 1) has no name")
            default: reader.report(keys.artist, "artist \(index + 1)'s name is not a string")
            }
          }
          // An empty list is no credit (reported as missing).
          if !artists.isEmpty, names.count == artists.count {
            entry.artist = names.joined(separator: ", ")
          }
        }
        entry.hasPreviousRank = reader.has(keys.previousRank)
        entry.previousRank = reader.int(keys.previousRank)
        if entry.previousRank == -1 { entry.previousRank = nil }
        entry.peakPosition = reader.int(keys.peakPosition)
        entry.weeksOnChart = reader.int(keys.weeksOnChart)
        entry.imageURL = reader.string(keys.imageURL!)
        entry.songURL = reader.string(keys.songURL!)
        let metric = reader.string("chartEntryData.rankingMetric.type")
        if metric == nil || metric == "STREAMS" {
          entry.streams = reader.int(keys.streams!, orText: true)
        }
        if let status = reader.string("chartEntryData.entryStatus") {
          entry.trend = TrendVocabulary.spotifyEntryStatus.trend(status)
          if entry.trend == nil {
            reader.report(
              "chartEntryData.entryStatus", TrendVocabulary.spotifyEntryStatus.problem(status))
          }
        }
      }
    } else if !file.problems.contains(where: { $0.field == "entries" }) {
      file.report("entries", "missing: expected an array of entries (spotify-charts-json format)")
    }
    read.problems += file.problems
    return read
  }

  // MARK: - Last.fm

  /// The names of a Last.fm weekly track chart's entry fields, within `weeklytrackchart.track[]`.
  static let lastFMKeys = EntryKeys(
    rank: "@attr.rank", title: "name", artist: "artist.#text", previousRank: "",
    peakPosition: "", weeksOnChart: "", imageURL: "image", songURL: "url", streams: "playcount")

  /// A listener's weekly track chart as Last.fm's API gives it (`user.getWeeklyTrackChart`,
  /// <https://www.last.fm/api/show/user.getWeeklyTrackChart>): `{"weeklytrackchart": {"track":
  /// [{"name", "artist": {"#text"}, "url", "playcount", "image": [{"size", "#text"}], "@attr":
  /// {"rank"}}], "@attr": {"from", "to", "user"}}}`. Numbers are written as text; the play count is
  /// the week's plays (kept as streams); the chart date is the end of the period, `to` (seconds
  /// since 1970, UTC: a date when it is a midnight, else a date and time); a period of 7 days is a
  /// weekly chart, of 1 a daily one. The image is the largest one given (`extralarge`). A chart of
  /// one track may give it as an object rather than a list of one.
  private static func lastFMWeeklyTrackChart(_ json: JSONTree) -> ServiceFile {
    var file = NestedReader(json)
    let keys = lastFMKeys
    let dateField = "weeklytrackchart.@attr.to"
    var read = ServiceFile(
      format: .lastFMWeeklyTrackChart, keys: keys, chart: nil, date: nil, dateField: dateField)
    let from = file.int("weeklytrackchart.@attr.from", orText: true)
    if let to = file.int(dateField, orText: true) {
      if let date = ChartDate(secondsSince1970: Int64(to)) {
        read.date = date.iso8601
      } else {
        file.report(dateField, "\(to) seconds since 1970 is not in the years 0001 to 9999")
      }
      if let from {
        if from >= to {
          file.report("weeklytrackchart.@attr.from", "\(from) is not before 'to' (\(to))")
        }
        switch to - from {
        case 7 * 86_400: read.frequency = ChartFrequency.weekly.rawValue
        case 86_400: read.frequency = ChartFrequency.daily.rawValue
        default: break
        }
      }
    }
    read.dateFieldProblem = file.problems.contains { $0.field == dateField }
    // A chart of one track may give it alone rather than in a list (Last.fm's JSON is made from
    // its XML).
    let one = file.value("weeklytrackchart.track").flatMap { $0.isObject ? [$0] : nil }
    if let list = one ?? file.array("weeklytrackchart.track") {
      guard list.count <= ChartFileReader.maximumRank else {
        read.problems =
          file.problems + [FieldReader.tooManyEntries(list.count, field: "weeklytrackchart.track")]
        return read
      }
      read.charts[0].entries = entries(list) { reader, entry in
        entry.rank = reader.int(keys.rank, orText: true)
        entry.title = reader.string(keys.title)
        entry.artist = reader.string(keys.artist)
        entry.songURL = reader.string(keys.songURL!)
        entry.streams = reader.int(keys.streams!, orText: true)
        if let images = reader.array(keys.imageURL!) {
          let sized = images.compactMap { image -> (size: String?, url: String)? in
            guard case .object(let object) = image, case .string(let url) = object["#text"],
              !url.isEmpty
            else { return nil }
            if case .string(let size) = object["size"] { return (size, url) }
            return (nil, url)
          }
          entry.imageURL = (sized.last { $0.size == "extralarge" } ?? sized.last)?.url
        }
      }
    } else if !file.problems.contains(where: { $0.field == "weeklytrackchart.track" }) {
      file.report(
        "weeklytrackchart.track",
        "missing: expected an array of entries (lastfm-weekly-chart format)")
    }
    read.problems += file.problems
    return read
  }

  // MARK: - Apple Music

  /// The names of an Apple Music chart's entry fields, within `results.songs[].data[]`.
  static let appleMusicKeys = EntryKeys(
    rank: "rank", title: "attributes.name", artist: "attributes.artistName", previousRank: "",
    peakPosition: "", weeksOnChart: "", imageURL: "attributes.artwork.url",
    songURL: "attributes.url", streams: nil, isrc: "attributes.isrc")

  /// Apple Music's catalog charts (`GET /v1/catalog/{storefront}/charts?types=songs`,
  /// <https://developer.apple.com/documentation/applemusicapi/get-catalog-charts>): `{"results":
  /// {"songs": [{"chart", "name", "orderId", "next"?, "href"?, "data": [{"id", "type", "href",
  /// "attributes": {"name", "artistName", "url", "isrc", "artwork": {"url", "width",
  /// "height"}}}]}]}}`; `isrc` is the recording's ISRC.
  /// The data are in chart order: the rank is a song's place in the list, after the page's offset.
  /// A page's `next` (`…&offset=20&…`) names the following page: the page's own offset is its
  /// `href`'s (0 when its address has none: the first page), else `next`'s less its songs. The artwork's URL template (`{w}x{h}bb.jpg`) is
  /// filled with the artwork's own width and height.
  private static func appleMusicCharts(_ json: JSONTree) -> ServiceFile {
    var file = NestedReader(json)
    var read = ServiceFile(
      format: .appleMusicCharts, keys: appleMusicKeys, chart: nil, date: nil, dateField: "date")
    guard let list = file.array("results.songs") else {
      if !file.problems.contains(where: { $0.field == "results.songs" }) {
        file.report(
          "results.songs", "missing: expected an array of charts (apple-music-charts format)")
      }
      read.problems = file.problems
      return read
    }
    read.charts = list.enumerated().map { index, json in
      let field = "results.songs[\(index + 1)]"
      guard json.isObject else {
        read.problems.append(ChartFileProblem(field: field, message: "expected a JSON object"))
        return ServiceChart()
      }
      var chart = NestedReader(json)
      let part = appleMusicChart(&chart)
      read.problems += chart.problems.map { problem in
        var problem = problem
        problem.field = problem.field.map { field + "." + $0 } ?? field
        return problem
      }
      return part
    }
    if list.isEmpty {
      read.charts = [ServiceChart(entries: [])]
    }
    read.problems = file.problems + read.problems
    return read
  }

  /// One chart (a page of it) of an Apple Music file: its name, where the page stands in the
  /// chart, and its songs, ranked from the page's offset.
  ///
  /// - Parameter chart: a reader of the chart's object, which keeps its problems.
  private static func appleMusicChart(_ chart: inout NestedReader) -> ServiceChart {
    var part = ServiceChart()
    part.name = chart.string("chart")
    let data = chart.array("data")
    let page = appleMusicPage(&chart, songs: data?.count)
    if let data {
      if data.count > ChartFileReader.maximumRank {
        chart.problems.append(FieldReader.tooManyEntries(data.count, field: "data"))
      } else {
        let first = page.offset.map { max(0, min($0, ChartFileReader.maximumRank)) } ?? 0
        part.entries = appleMusicEntries(data, after: first)
      }
    } else if !chart.problems.contains(where: { $0.field == "data" }) {
      chart.report("data", "missing: expected an array of songs (apple-music-charts format)")
    }
    part.page = page
    return part
  }

  /// Where a page of an Apple Music chart stands: its own offset (its `href`'s, 0 when the
  /// address has none; else its next page's less its songs) and its next page's (`next`'s), each
  /// checked: an offset in a chart, and the next page right after this one's songs.
  ///
  /// - Parameters:
  ///   - chart: a reader of the page's object, which keeps its problems.
  ///   - songs: how many songs the page holds, when it has its list of them.
  private static func appleMusicPage(_ chart: inout NestedReader, songs: Int?) -> ChartPage {
    // Where the page stands: its own offset, and its next page's.
    var nextOffset: Int?
    if let next = chart.string("next") {
      nextOffset = offset(in: next) ?? nil
      if nextOffset.map({ !(1...ChartFileReader.maximumRank).contains($0) }) ?? true {
        chart.report(
          "next", "expected the address of the next page, with offset=N, found '\(escaped(next))'")
        nextOffset = nil
      }
    }
    // The page's own address: without an offset, it is the chart's first page.
    var own: Int?
    if let href = chart.string("href") {
      switch offset(in: href) {
      case .some(.some(let offset)): own = offset
      case .some(nil):
        chart.report("href", "expected offset=N in the page's address, found '\(escaped(href))'")
      case nil: own = 0
      }
    }
    if own == nil, let nextOffset, let songs { own = nextOffset - songs }
    if let own, own < 0 || own >= ChartFileReader.maximumRank {
      chart.report(
        "href",
        "the page's offset \(own) is not in a chart (0 to \(ChartFileReader.maximumRank - 1))")
    } else if let own, let nextOffset, own + (songs ?? 0) != nextOffset {
      chart.report(
        "next",
        "the next page starts at offset \(nextOffset), not after this page's \(songs ?? 0)"
          + " songs from offset \(own)")
    }
    return ChartPage(offset: own, nextOffset: nextOffset)
  }

  /// The songs of a page of an Apple Music chart, ranked in the list's order after `first` (the
  /// page's offset), the artwork's URL template filled with its own width and height.
  private static func appleMusicEntries(_ data: [JSONTree], after first: Int) -> [RawEntry] {
    let keys = appleMusicKeys
    var rank = first
    return entries(data) { reader, entry in
      rank += 1
      entry.rank = rank
      entry.title = reader.string(keys.title)
      entry.artist = reader.string(keys.artist)
      entry.songURL = reader.string(keys.songURL!)
      entry.readISRC(reader.string(keys.isrc!), field: keys.isrc)
      entry.imageURL = reader.string(keys.imageURL!).map { template in
        guard let width = reader.int("attributes.artwork.width"),
          let height = reader.int("attributes.artwork.height")
        else { return template }
        return template.replacingOccurrences(of: "{w}", with: String(width))
          .replacingOccurrences(of: "{h}", with: String(height))
      }
    }
  }

  /// The `offset` of an address's query (`/v1/catalog/us/charts?…&offset=20`): `nil` when the
  /// query has none, `.some(nil)` when it is not a whole number of at most 9 digits.
  static func offset(in address: String) -> Int?? {
    guard let query = address.split(separator: "?", maxSplits: 1).dropFirst().first else {
      return nil
    }
    for pair in query.split(separator: "&") where pair.hasPrefix("offset=") {
      let digits = pair.dropFirst("offset=".count)
      guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber })
      else { return .some(nil) }
      return Int(digits)
    }
    return nil
  }
}
