import ChartRanking
import Foundation

/// Where a CSV chart format keeps each field: its header, found in the file's first rows.
struct CSVLayout {
  /// A field a CSV chart format can have.
  enum Field: Int, CaseIterable {
    case rank, title, artist, previousRank, peakPosition, weeksOnChart, imageURL, songURL, streams
    case date
    case region, chart, trend
    /// kworb's "Artist - Title" in one cell.
    case artistAndTitle
    /// The song's run as the source numbers it.
    case run
    /// The address of the chart's page, whose path names the chart (the "Hot Stuff" dataset's
    /// `url`, `http://www.billboard.com/charts/hot-100/2020-01-11`).
    case chartURL
    /// A song's key made of its title and artist run together (the "Hot Stuff" dataset's
    /// `song_id`): part of the header, not kept.
    case songKey
    /// The recording's ISRC (the native CSV's `isrc`).
    case isrc
  }

  /// The format the header is of.
  let format: ChartFormat
  /// The 0-based row of the header.
  let headerRow: Int
  /// The header's names, as written.
  let names: [Field: String]
  /// The 0-based column of each field.
  let columns: [Field: Int]
  /// The 0-based column of each field by its raw value, -1 for none: what reading a row asks,
  /// several times a row, without hashing the field.
  private let columnOfField: [Int]
  /// What the format writes in its previous-rank column for "not on the previous chart" without
  /// saying why (see ``previousRankNoneMarkers(of:)``), kept: every row asks.
  private let previousRankNoneMarkers: Set<String>

  init(format: ChartFormat, headerRow: Int, names: [Field: String], columns: [Field: Int]) {
    self.format = format
    self.headerRow = headerRow
    self.names = names
    self.columns = columns
    columnOfField = Field.allCases.map { columns[$0] ?? -1 }
    previousRankNoneMarkers = Self.previousRankNoneMarkers(of: format)
  }

  /// The headers of the CSV formats: each field's column name, lowercased.
  static let headers: [(ChartFormat, [Field: String])] = [
    (
      .streamingCSV,
      [
        .rank: "position", .title: "track name", .artist: "artist", .streams: "streams",
        .songURL: "url",
      ]
    ),
    (
      .streamingCSV,
      [
        .rank: "track_position", .title: "track_name", .artist: "artist_name",
        .streams: "stream_count", .songURL: "track_url", .region: "region_name", .date: "date",
      ]
    ),
    (
      .weeklyCSV,
      [
        .date: "chart_week", .rank: "current_week", .title: "title", .artist: "performer",
        .previousRank: "last_week", .peakPosition: "peak_pos", .weeksOnChart: "wks_on_chart",
      ]
    ),
    (
      .chartsCSV,
      [
        .title: "title", .rank: "rank", .date: "date", .artist: "artist", .songURL: "url",
        .region: "region", .chart: "chart", .trend: "trend", .streams: "streams",
      ]
    ),
    (
      .nativeCSV,
      [
        .chart: "chart", .date: "chart_date", .rank: "rank", .previousRank: "previous_rank",
        .peakPosition: "peak_position", .weeksOnChart: "weeks_on_chart", .title: "title",
        .artist: "artist", .imageURL: "image_url", .songURL: "song_url", .streams: "streams",
      ]
    ),
    (
      .ukChartCSV,
      [
        .date: "chart_date", .rank: "chart_position", .artist: "chart_artist",
        .title: "chart_title", .previousRank: "chart_movement", .peakPosition: "chart_peak",
        .weeksOnChart: "chart_weeks",
      ]
    ),
    // kworb's daily tables count days on chart, its weekly ones weeks.
    (.kworbCSV, kworbFields(onChart: "days")),
    (.kworbCSV, kworbFields(onChart: "wks")),
    // Spotify's weekly download, then its daily one, which counts days on chart.
    (.spotifyChartsCSV, spotifyChartsFields(onChart: "weeks_on_chart")),
    (.spotifyChartsCSV, spotifyChartsFields(onChart: "days_on_chart")),
    // The "Hot Stuff" dataset as TidyTuesday writes it, then as data.world does.
    (
      .hotStuffCSV,
      hotStuffFields([
        "url", "week_id", "week_position", "song", "performer", "song_id", "instance",
        "previous_week_position", "peak_position", "weeks_on_chart",
      ])
    ),
    (
      .hotStuffCSV,
      hotStuffFields([
        "url", "weekid", "week position", "song", "performer", "songid", "instance",
        "previous week position", "peak position", "weeks on chart",
      ])
    ),
    (
      .kaggleHot100CSV,
      [
        .date: "date", .rank: "rank", .title: "song", .artist: "artist",
        .previousRank: "last-week", .peakPosition: "peak-rank", .weeksOnChart: "weeks-on-board",
      ]
    ),
  ]

  /// The columns of the "Hot Stuff" dataset, named in its order: `url` (the chart's page),
  /// `week_id` (the chart date, M/D/YYYY), `week_position` (rank), `song` (title), `performer`
  /// (artist), `song_id` (title and performer run together, not kept), `instance` (the song's
  /// run), `previous_week_position`, `peak_position`, `weeks_on_chart`.
  private static func hotStuffFields(_ names: [String]) -> [Field: String] {
    let fields: [Field] = [
      .chartURL, .date, .rank, .title, .artist, .songKey, .run, .previousRank, .peakPosition,
      .weeksOnChart,
    ]
    return Dictionary(uniqueKeysWithValues: zip(fields, names))
  }

  /// The columns of Spotify's chart download (charts.spotify.com, since 2022): `rank, uri,
  /// artist_names, track_name, source, peak_rank, previous_rank, weeks_on_chart, streams`, the
  /// count of days on chart in a daily chart's. `source` (the label) is not kept.
  private static func spotifyChartsFields(onChart: String) -> [Field: String] {
    [
      .rank: "rank", .songURL: "uri", .artist: "artist_names", .title: "track_name",
      .peakPosition: "peak_rank", .previousRank: "previous_rank", .weeksOnChart: onChart,
      .streams: "streams",
    ]
  }

  /// The columns of a kworb.net chart table (`Pos, P+, Artist and Title, Days, Pk, (x?), Streams,
  /// Streams+, 7Day, 7Day+, Total`; `Wks` for `Days` in a weekly table) that are kept: `(x?)` (the
  /// times at the peak) and the changes and totals of streams are not.
  private static func kworbFields(onChart: String) -> [Field: String] {
    [
      .rank: "pos", .trend: "p+", .artistAndTitle: "artist and title", .weeksOnChart: onChart,
      .peakPosition: "pk", .streams: "streams",
    ]
  }

  /// What a format writes in its previous-rank column for "not on the previous chart" without
  /// saying why: `-` in a weekly chart CSV and ChartArchive's, -1 in Spotify's download; none in
  /// the UK chart's, which says `New` or `RE` (see ``movementMarkers``).
  private static func previousRankNoneMarkers(of format: ChartFormat) -> Set<String> {
    switch format {
    case .spotifyChartsCSV: ["-1"]
    case .ukChartCSV, .kaggleHot100CSV: []
    // R's word for a missing value, as TidyTuesday's copy may write it.
    case .hotStuffCSV: ["NA"]
    default: ["-"]
    }
  }

  /// Whether the format's numbers may be written as decimals that are whole (`1.0`, as pandas
  /// writes a column of numbers with empty cells in it).
  private var readsWholeDecimals: Bool { format == .kaggleHot100CSV || format == .hotStuffCSV }

  /// The words a format may write in its previous-rank column instead of a rank, saying how the
  /// entry moved: the UK chart's `New` and `RE`, also in weekly chart CSVs.
  private var movementMarkers: TrendVocabulary? {
    switch format {
    case .ukChartCSV, .weeklyCSV: .chartMarkers
    default: nil
    }
  }

  /// The words the format's `trend` column uses, when it has one.
  private var trendVocabulary: TrendVocabulary { format == .kworbCSV ? .kworb : .chartsCSV }

  /// The header `export --format csv` writes: the native CSV's columns in order, then `isrc` when
  /// the chart's entries have ISRCs, `run` when the chart's source numbers its runs and `trend`
  /// when it publishes trends.
  static let nativeHeader = [
    "chart", "chart_date", "rank", "previous_rank", "peak_position", "weeks_on_chart", "title",
    "artist", "image_url", "song_url", "streams",
  ]

  /// The columns a format's header may have besides those it must have, each read when present:
  /// the native CSV's `isrc`, `run` and `trend`, which an export writes only for a chart whose
  /// entries have ISRCs, or whose source numbers runs or publishes trends.
  static func optionalFields(of format: ChartFormat) -> [Field: String] {
    format == .nativeCSV ? [.isrc: "isrc", .run: "run", .trend: "trend"] : [:]
  }

  /// Finds the layout of a CSV file from its header, in its first or (after a note line) second
  /// row.
  ///
  /// - Parameters:
  ///   - rows: the file's rows.
  ///   - forced: the format named with `--format`, the only one tried when set.
  /// - Returns: the layout, or `nil` when no known header is there.
  static func detect(_ rows: [[String]], forced: ChartFormat?) -> CSVLayout? {
    for headerRow in 0..<min(2, rows.count) {
      let header = rows[headerRow].map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      for (format, fields) in headers where forced == nil || forced == format {
        var columns: [Field: Int] = [:]
        for (field, name) in fields {
          guard let column = header.firstIndex(of: name) else { break }
          columns[field] = column
        }
        if columns.count == fields.count {
          var names = fields
          for (field, name) in optionalFields(of: format) {
            guard let column = header.firstIndex(of: name) else { continue }
            columns[field] = column
            names[field] = name
          }
          return CSVLayout(format: format, headerRow: headerRow, names: names, columns: columns)
        }
      }
    }
    return nil
  }

  /// A whole number written with commas between groups of three digits, as kworb writes them
  /// (`1,466,839`); `nil` for anything else (`1,46`, `,123`).
  static func numberWithThousandsSeparators(_ text: String) -> Int? {
    let groups = text.split(separator: ",", omittingEmptySubsequences: false)
    guard groups.count > 1, (1...3).contains(groups[0].count),
      groups.dropFirst().allSatisfy({ $0.count == 3 }),
      groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
    else { return nil }
    return Int(groups.joined())
  }

  /// A whole number written as a decimal whose fraction is zeros (`12.0`), as pandas writes the
  /// numbers of a column that has empty cells; `nil` for anything else (`1.5`, `.0`, `1.`).
  static func wholeNumber(writtenAsDecimal text: String) -> Int? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
      parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), parts[1].allSatisfy({ $0 == "0" })
    else { return nil }
    return Int(parts[0])
  }

  /// How the format writes its chart dates when they are not ISO 8601 alone: the reading into
  /// ISO 8601, and the shapes it takes, for messages. `nil` for ISO 8601 only.
  var writtenDates: (read: (String) -> String?, shapes: String)? {
    switch format {
    case .ukChartCSV: (Self.isoDate(writtenInUKChart:), "D/M/YYYY, YYYYMMDD or YYYY-MM-DD")
    case .hotStuffCSV: (Self.isoDate(writtenInUSChart:), "M/D/YYYY or YYYY-MM-DD")
    default: nil
    }
  }

  /// A chart date as the UK chart's CSVs write it, in ISO 8601: D/M/YYYY (`7/3/2024`, `07/03/2024`,
  /// day first as in the UK), YYYYMMDD (`20240307`) or YYYY-MM-DD.
  ///
  /// - Returns: `YYYY-MM-DD`, or `nil` when the text is none of these or names no day of the
  ///   proleptic Gregorian calendar (`31/2/2024`).
  static func isoDate(writtenInUKChart text: String) -> String? {
    isoDate(text, dayFirst: true)
  }

  /// A chart date as the "Hot Stuff" dataset writes it, in ISO 8601: M/D/YYYY (`1/4/2020`,
  /// `01/04/2020`, month first as in the US), or YYYY-MM-DD.
  ///
  /// - Returns: `YYYY-MM-DD`, or `nil` when the text is neither or names no day of the proleptic
  ///   Gregorian calendar (`2/30/2020`).
  static func isoDate(writtenInUSChart text: String) -> String? {
    isoDate(text, dayFirst: false)
  }

  /// A date written with slashes, day first (D/M/YYYY, also YYYYMMDD) or month first (M/D/YYYY),
  /// or YYYY-MM-DD, in ISO 8601.
  private static func isoDate(_ text: String, dayFirst: Bool) -> String? {
    func padded(_ part: Substring, _ width: Int) -> String? {
      guard (1...width).contains(part.count), part.allSatisfy(\.isASCII),
        part.allSatisfy(\.isNumber)
      else { return nil }
      return String(repeating: "0", count: width - part.count) + part
    }
    var iso: String?
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    if parts.count == 3, parts[2].count == 4,
      let day = padded(parts[dayFirst ? 0 : 1], 2),
      let month = padded(parts[dayFirst ? 1 : 0], 2), let year = padded(parts[2], 4)
    {
      iso = "\(year)-\(month)-\(day)"
    } else if dayFirst, text.utf8.count == 8, let digits = padded(Substring(text), 8) {
      iso = "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.suffix(2))"
    } else if text.utf8.count == 10 {
      iso = text
    }
    guard let iso, let date = try? ChartDate(iso8601: iso), !date.hasTime else { return nil }
    return date.iso8601
  }

  /// The field names of the header found, for messages.
  var keys: EntryKeys {
    EntryKeys(
      rank: names[.rank] ?? "rank", title: names[.title] ?? names[.artistAndTitle] ?? "title",
      artist: names[.artist] ?? names[.artistAndTitle] ?? "artist",
      previousRank: names[.previousRank] ?? "last_week",
      peakPosition: names[.peakPosition] ?? "peak_pos",
      weeksOnChart: names[.weeksOnChart] ?? "wks_on_chart", imageURL: names[.imageURL],
      songURL: names[.songURL], streams: names[.streams], run: names[.run],
      previousRankNone: previousRankNoneMarkers.isEmpty
        ? "empty" : previousRankNoneMarkers.sorted().joined(separator: " or "), isrc: names[.isrc])
  }

  func has(_ field: Field) -> Bool { columnOfField[field.rawValue] >= 0 }

  func name(of field: Field) -> String { names[field] ?? "date" }

  /// A field's text in a row, trimmed; `nil` when the format has no such column, the row is too
  /// short, or the text is empty.
  func value(_ field: Field, in row: [String]) -> String? {
    let column = columnOfField[field.rawValue]
    guard column >= 0, column < row.count else { return nil }
    let cell = row[column]
    // Most cells have no space at either end: they are taken as they are, without Foundation's
    // trimming, which copies every cell through an NSString.
    guard let first = cell.unicodeScalars.first, let last = cell.unicodeScalars.last else {
      return nil
    }
    if !Self.isSpace(first), !Self.isSpace(last) { return cell }
    let text = cell.trimmingCharacters(in: .whitespaces)
    return text.isEmpty ? nil : text
  }

  /// A text cell (a chart's name, a title, an artist, a URL) as the file means it: in
  /// ChartArchive's own CSV, without the apostrophe its writer puts before a text that starts like
  /// a formula (see ``CSVWriter/readText(_:)``); as written in any other format, whose apostrophes
  /// are the text's own.
  func text(_ cell: String) -> String {
    format == .nativeCSV ? CSVWriter.readText(cell) : cell
  }

  /// Whether a scalar is one of Foundation's `CharacterSet.whitespaces`: a tab, or a space
  /// separator of Unicode (general category Zs).
  private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isASCII
      ? scalar == " " || scalar == "\t" : scalar.properties.generalCategory == .spaceSeparator
  }

  /// The entry of a row, with a problem for each field that does not read.
  func entry(from row: [String], row number: Int) -> RawEntry {
    var entry = RawEntry(row: number)
    func integer(_ field: Field, noneMarkers: Set<String> = [], or words: [String] = []) -> Int? {
      guard let text = value(field, in: row), !noneMarkers.contains(text) else { return nil }
      if let number = Int(text) { return number }
      if format == .kworbCSV, let number = Self.numberWithThousandsSeparators(text) {
        return number
      }
      if readsWholeDecimals, let number = Self.wholeNumber(writtenAsDecimal: text) {
        return number
      }
      var message = wholeNumberProblem(text)
      let others = noneMarkers.sorted() + words
      if !others.isEmpty, message.hasPrefix("expected a whole number") {
        // The words the column may hold besides a number.
        let choices = ["a whole number"] + others
        message =
          "expected " + choices.dropLast().joined(separator: ", ") + " or \(choices.last!), found"
          + " '\(escaped(text))'"
      }
      entry.problems.append(ChartFileProblem(field: names[field], message: message))
      return nil
    }
    // A rank written `=8` or `8=` (as the UK chart writes a tie) is rank 8, shared.
    if let text = value(.rank, in: row), text.hasPrefix("=") != text.hasSuffix("="),
      let rank = Int(text.hasPrefix("=") ? text.dropFirst() : text.dropLast())
    {
      entry.rank = rank
      entry.tied = true
    } else {
      entry.rank = integer(.rank)
    }
    entry.title = columns[.title].flatMap { $0 < row.count ? row[$0] : nil }.flatMap {
      $0.isEmpty ? nil : text($0)
    }
    entry.artist = columns[.artist].flatMap { $0 < row.count ? row[$0] : nil }.flatMap {
      $0.isEmpty ? nil : text($0)
    }
    if let text = value(.artistAndTitle, in: row) {
      // kworb writes "Artist - Title": the artist is what comes before the first " - ", so that a
      // title with " - " in it ("Despacito - Remix") stays whole.
      if let dash = text.range(of: " - ") {
        entry.artist = String(text[..<dash.lowerBound])
        entry.title = String(text[dash.upperBound...])
      } else {
        entry.problems.append(
          ChartFileProblem(
            field: names[.artistAndTitle],
            message: "expected 'Artist - Title', found '\(escaped(text))'"))
      }
    } else if has(.artistAndTitle) {
      entry.problems.append(ChartFileProblem(field: names[.artistAndTitle], message: "missing"))
    }
    if has(.previousRank) {
      // The native CSV leaves the cell empty when the source published no previous ranks.
      entry.hasPreviousRank = format != .nativeCSV || value(.previousRank, in: row) != nil
      if let markers = movementMarkers, let text = value(.previousRank, in: row),
        let marker = markers.trend(text)
      {
        entry.trend = marker
      } else {
        entry.previousRank = integer(
          .previousRank, noneMarkers: previousRankNoneMarkers, or: movementMarkers?.words ?? [])
      }
    }
    entry.peakPosition = integer(.peakPosition)
    entry.weeksOnChart = integer(.weeksOnChart)
    entry.imageURL = value(.imageURL, in: row).map(text)
    entry.songURL = value(.songURL, in: row).map(text)
    entry.streams = integer(.streams)
    entry.run = integer(.run)
    readTrend(in: row, into: &entry)
    entry.readISRC(value(.isrc, in: row), field: names[.isrc])
    return entry
  }

  /// Reads a row's published trend, when the format has a `trend` column: in the native CSV in
  /// ``PublishedTrend/notation``, in another format in its own words; a problem when it does not
  /// read.
  private func readTrend(in row: [String], into entry: inout RawEntry) {
    guard let text = value(.trend, in: row) else { return }
    if format == .nativeCSV {
      entry.trend = PublishedTrend(notation: text)
      if entry.trend == nil {
        entry.problems.append(RawEntry.notATrend(text, field: names[.trend]))
      }
    } else {
      entry.trend = trendVocabulary.trend(text)
      if entry.trend == nil {
        entry.problems.append(
          ChartFileProblem(field: names[.trend], message: trendVocabulary.problem(text)))
      }
    }
  }
}
