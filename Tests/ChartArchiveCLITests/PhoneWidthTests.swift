import Foundation
import Testing

/// Every page at a phone's width (390 px) in headless Chromium, as the browser laid it out: the
/// page no wider than the window (`document.documentElement.scrollWidth`), and no element
/// reaching past its right edge, not even inside a box that scrolls sideways (a picture or a
/// table cut off at the right, as the song page's picture and the diff's tables were). And a
/// cover that does not load (Sample-data's addresses lead nowhere) shows the placeholder, without
/// script. Skipped, saying so, where Chromium is not installed; each page's answer waited for at
/// most until 60 seconds from the start.
@Suite(.serialized)
struct PhoneWidthTests {
  /// The window's width, the page's, and the elements past the window's right edge (tag and
  /// class, at most five).
  static let widths = """
    [innerWidth, document.documentElement.scrollWidth,
     [...document.querySelectorAll('body *')]
       .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
       .slice(0, 5).map(e => e.tagName + '.' + (e.getAttribute('class') || ''))]
    """

  @Test(
    .enabled(
      if: BrowserCheckTests.chromiumIsInstalled,
      "chromium is not installed (script/setup --test-tools installs it): phone check skipped"))
  func everyPageFitsAPhone() throws {
    let server = try PageServer(archive: try PageFixture.archive.get())
    defer { _ = server.stop() }
    let folder = try TemporaryFolder()
    let browser = try DevToolsBrowser(
      BrowserCheckTests.chromium, profile: folder.path, seconds: 60)
    let snooze = try PageFixture.songID(["Snooze"])
    let nightSky = try PageFixture.songID(["Night Sky"])
    let hostileSong = try PageFixture.songID(["alert(1)"])
    let pages = [
      "/", "/charts/hot-100", "/charts/hot-100/2023-12-30", "/charts/app-daily",
      "/charts/app-hourly/2024-05-05T13:00:00Z", "/charts/\(PageFixture.chartSegment)/2024-03-16",
      "/songs/\(snooze)", "/songs/\(nightSky)", "/songs/\(hostileSong)",
      "/charts/hot-100/diff?from=2023-12-23&to=2024-01-13",
      "/charts/app-hourly/diff?from=2024-05-05T12:00:00Z&to=2024-05-05T14:00:00Z",
      "/charts/\(PageFixture.chartSegment)/diff?from=2024-03-02&to=2024-03-16",
      "/charts/hot-100/report?date=2024-01-13", "/charts/app-daily/report?date=2024-05-01",
      "/search?q=christmas", "/search?q=a", "/search?q=", "/search?q=chrismas",
      "/charts/hot-100/records", "/charts/app-daily/records?limit=3",
      "/charts/hot-100/years/2024", "/charts/app-daily/years/2024", "/artists/1", "/artists/2",
      // The error pages: no chart, no snapshot of a date, no page, no song, a bad date.
      "/charts/nothing", "/charts/hot-100/2024-01-01", "/nowhere", "/songs/999999",
      "/charts/hot-100/report?date=yesterday",
    ]
    for page in pages {
      let measured = try #require(
        try browser.evaluate(Self.widths, at: server.url(page)) as? [Any])
      #expect(measured[0] as? Int == 390, "\(page)")
      #expect(measured[1] as? Int == 390, "\(page) is \(measured[1]) px wide")
      #expect(measured[2] as? [String] == [], "\(page): past the right edge")
    }
    // Sample-data's covers do not load: each shows the placeholder drawn over the broken image.
    let cover = try #require(
      try browser.evaluate(
        """
        [...document.querySelectorAll('ol.entries img')].map(image => [image.naturalWidth, getComputedStyle(image, '::before').content,
          getComputedStyle(image, '::before').position])
        """, at: server.url("/charts/app-daily")) as? [[Any]])
    // The 10 entries and the 3 climbers.
    #expect(cover.count == 13)
    for image in cover {
      #expect(image[0] as? Int == 0)
      #expect(image[1] as? String == "\"♪\"")
      #expect(image[2] as? String == "absolute")
    }
  }
}
