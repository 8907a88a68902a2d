import CPNG
import Foundation
import Testing

/// The pages in a real browser: Debian's headless Chromium (`chromium`, installed by
/// `script/setup --test-tools`) loads every page kind from a running `serve` on Sample-data and
/// on the made-up chart with hostile titles, its rendered DOM (`--dump-dom`) is checked, and a
/// screenshot of each page at a phone's width and a desktop's is checked not to be blank. Skipped,
/// saying so, where Chromium is not installed.
@Suite(.serialized)
struct BrowserCheckTests {
  static let chromium = "/usr/bin/chromium"
  static let chromiumIsInstalled = FileManager.default.isExecutableFile(atPath: chromium)

  /// Runs headless Chromium with a profile of its own in `folder`.
  static func browse(_ arguments: [String], in folder: TemporaryFolder) throws -> Run {
    try StartedProcess(
      URL(fileURLWithPath: chromium),
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
        "--user-data-dir=\(folder.path)/profile",
      ] + arguments,
      environment: ["HOME": folder.path]
    ).wait()
  }

  /// The page as the browser built it.
  static func dom(_ url: String, in folder: TemporaryFolder) throws -> String {
    let run = try browse(["--dump-dom", url], in: folder)
    #expect(run.status == 0, "\(url): \(run.error)")
    return run.output
  }

  /// A screenshot's pixels (RGBA, 8 bits each), read with libpng's simplified API.
  static func pixels(ofPNG path: String) throws -> (width: Int, height: Int, rgba: [UInt8]) {
    var image = png_image()
    image.version = UInt32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_file(&image, path) != 0 else {
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
    image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    var buffer = [UInt8](repeating: 0, count: Int(image.width * image.height * 4))
    guard png_image_finish_read(&image, nil, &buffer, 0, nil) != 0 else {
      png_image_free(&image)
      throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path])
    }
    return (Int(image.width), Int(image.height), buffer)
  }

  /// How much of a screenshot is not its most common colour (the background), from 0 to 1, and
  /// that colour: a blank page is all background.
  static func inkAndBackground(_ path: String) throws -> (ink: Double, background: [UInt8]) {
    let (width, height, rgba) = try pixels(ofPNG: path)
    var counts: [UInt32: Int] = [:]
    for index in stride(from: 0, to: rgba.count, by: 4) {
      let color =
        UInt32(rgba[index]) << 16 | UInt32(rgba[index + 1]) << 8 | UInt32(rgba[index + 2])
      counts[color, default: 0] += 1
    }
    let (color, count) = counts.max { $0.value < $1.value }!
    return (
      1 - Double(count) / Double(width * height),
      [UInt8(color >> 16), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
    )
  }

  @Test(
    .enabled(
      if: chromiumIsInstalled,
      "chromium is not installed (script/setup --test-tools installs it): browser check skipped"))
  func everyPageKindInAHeadlessBrowser() throws {
    let server = try PageServer(archive: try PageFixture.archive.get())
    let folder = try TemporaryFolder()
    let snooze = try PageFixture.songID(["Snooze"])
    let hostileSong = try PageFixture.songID(["alert(1)"])

    // The made-up chart: 20 entries, their markers, the titles as text.
    let chart = try Self.dom(
      server.url("/charts/\(PageFixture.chartSegment)/2024-03-16"), in: folder)
    #expect(PageMarkup.entryCount(chart) == 20)
    #expect(Array(PageMarkup.markers(chart).prefix(20)) == PageMarkup.thirdWeekMarkers)
    #expect(chart.contains(">&lt;script&gt;alert(1)&lt;/script&gt;</bdi></a>"))
    #expect(chart.contains(">&lt;/title&gt;&lt;img src=x onerror=alert(2)&gt;</bdi></a>"))
    #expect(!chart.contains("<script"))
    #expect(chart.contains("<title>hostile &lt;b&gt;\"chart\"&lt;/b&gt; &amp; co · 2024-03-16"))
    // Sample-data's Hot 100: 100 entries.
    let hot = try Self.dom(server.url("/charts/hot-100"), in: folder)
    #expect(PageMarkup.entryCount(hot) == 100)
    #expect(PageMarkup.markers(hot).prefix(3) == ["▲8", "▲17", "▲21"])
    // A song's page: one point per chart date, the line broken off the chart.
    let song = try Self.dom(server.url("/songs/\(snooze)"), in: folder)
    let path = try #require(song.firstMatch(of: /<path d="([^"]+)"/)?.1)
    #expect(path.filter { $0 == "M" || $0 == "L" } == "MLM")
    let hostile = try Self.dom(server.url("/songs/\(hostileSong)"), in: folder)
    let hostilePath = try #require(hostile.firstMatch(of: /<path d="([^"]+)"/)?.1)
    #expect(hostilePath.filter { $0 == "M" || $0 == "L" } == "MLL")
    #expect(!hostile.contains("<script"))

    // Every page kind, at a phone's width and a desktop's: not blank.
    let pages = [
      "/", "/charts/hot-100", "/charts/app-daily/2024-05-03",
      "/charts/\(PageFixture.chartSegment)/2024-03-16", "/songs/\(snooze)", "/songs/\(hostileSong)",
      "/charts/hot-100/diff?from=2023-12-23&to=2024-01-13",
      "/charts/\(PageFixture.chartSegment)/report?date=2024-03-16", "/search?q=christmas",
      "/charts/hot-100/records", "/charts/hot-100/years/2024", "/charts/nothing",
    ]
    for (index, page) in pages.enumerated() {
      for (name, size) in [("phone", "390,844"), ("desktop", "1280,900")] {
        let file = folder.path + "/page-\(index)-\(name).png"
        let run = try Self.browse(
          ["--window-size=\(size)", "--screenshot=\(file)", server.url(page)], in: folder)
        #expect(run.status == 0, "\(page) at \(size): \(run.error)")
        let (ink, background) = try Self.inkAndBackground(file)
        #expect(ink > 0.01, "\(page) at \(size) is blank")
        #expect(background == [255, 255, 255], "\(page) at \(size)")
      }
    }
    // Dark mode: the same page on a dark background.
    let dark = folder.path + "/dark.png"
    _ = try Self.browse(
      [
        "--force-dark-mode", "--blink-settings=preferredColorScheme=0", "--window-size=1280,900",
        "--screenshot=\(dark)", server.url("/songs/\(snooze)"),
      ], in: folder)
    let (ink, background) = try Self.inkAndBackground(dark)
    #expect(ink > 0.01)
    #expect(background == [0x0d, 0x11, 0x17])
    #expect(server.stop() == 0)
  }
}
