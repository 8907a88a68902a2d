import Foundation
import Testing

/// libxml2, libcsv, libevent and zlib are loaded when one of their functions is first called, not
/// when `chart-archive` starts (Sources/CLazyLibraries): the dynamic loader's own account of what
/// it loads (`LD_DEBUG=files`, <https://man7.org/linux/man-pages/man8/ld.so.8.html>) tells which a
/// run loaded.
@Suite struct LazyLibraryTests {
  /// The sonames loaded on first use.
  static let lazy = [
    "libxml2.so.2", "libcsv.so.3", "libevent_core-2.1.so.7", "libevent_extra-2.1.so.7",
    "libevent_pthreads-2.1.so.7", "libz.so.1",
  ]

  /// The file names of the shared objects a run loaded, from the loader's lines on standard error
  /// ("file=libxml2.so.2 [0];  dynamically loaded by …").
  private func loaded(_ run: Run) -> Set<String> {
    var names: Set<String> = []
    for line in run.error.split(separator: "\n") {
      guard let start = line.range(of: "file=") else { continue }
      let name = line[start.upperBound...].prefix { $0 != " " }
      names.insert(String(name.split(separator: "/").last ?? name))
    }
    return names
  }

  private func sample(_ name: String) -> String {
    packageRoot.appendingPathComponent("Tests/ChartFormatsTests/Samples/\(name)").path
  }

  @Test func startingLoadsNoneOfThem() throws {
    let run = try chartArchive(["--version"], environment: ["LD_DEBUG": "files"])
    #expect(run.status == 0)
    let files = loaded(run)
    #expect(files.contains("libsqlite3.so.0"))
    #expect(files.contains("libyajl.so.2"))
    for soname in Self.lazy { #expect(!files.contains(soname), "\(soname) loaded at start") }
    #expect(!files.contains { $0.hasPrefix("libicu") })
  }

  @Test func importingJSONLoadsNoneOfThem() throws {
    let folder = try TemporaryFolder()
    let run = try chartArchive(
      [
        "import", "Sample-data/hot-100/2024-01-06.json", "--db",
        folder.url.appendingPathComponent("archive.sqlite").path, "--quiet",
      ], environment: ["LD_DEBUG": "files"])
    #expect(run.status == 0)
    let files = loaded(run)
    #expect(files.contains("libsqlite3.so.0"))
    for soname in Self.lazy { #expect(!files.contains(soname), "\(soname) loaded") }
  }

  @Test func anHTMLTableLoadsLibxml2AndWhatItNeeds() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("archive.sqlite").path
    let run = try chartArchive(
      [
        "import", sample("kworb-global-daily-2024-03-22.html"), "--chart", "spotify-global",
        "--db", archive, "--quiet",
      ], environment: ["LD_DEBUG": "files"])
    #expect(run.status == 0)
    let files = loaded(run)
    #expect(files.contains("libxml2.so.2"))
    // zlib comes with libxml2, which needs it.
    for soname in Self.lazy where soname != "libxml2.so.2" && soname != "libz.so.1" {
      #expect(!files.contains(soname), "\(soname) loaded")
    }
    let entries = try chartArchive(["show", "spotify-global", "--db", archive, "--format", "json"])
    #expect(entries.status == 0)
    #expect(try (json(entries.output)["entries"] as? [Any])?.count == 6)
  }

  @Test func aCSVFileLoadsLibcsvAndOnlyIt() throws {
    let folder = try TemporaryFolder()
    let run = try chartArchive(
      [
        "import", sample("kworb-global-daily-2024-03-21.csv"), "--chart", "spotify-global",
        "--db", folder.url.appendingPathComponent("archive.sqlite").path, "--quiet",
      ], environment: ["LD_DEBUG": "files"])
    #expect(run.status == 0)
    let files = loaded(run)
    #expect(files.contains("libcsv.so.3"))
    for soname in Self.lazy where soname != "libcsv.so.3" {
      #expect(!files.contains(soname), "\(soname) loaded")
    }
  }

  /// A library that cannot be loaded ends the run as the dynamic loader ends one: a message naming
  /// it and exit status 127; the archive is as it was.
  @Test func aLibraryThatCannotBeLoadedEndsTheRunWith127() throws {
    let folder = try TemporaryFolder()
    let archive = folder.url.appendingPathComponent("archive.sqlite").path
    let first = try chartArchive(["import", "Sample-data/hot-100", "--db", archive, "--quiet"])
    try #require(first.status == 0, "\(first.error)")
    let before = try Data(contentsOf: URL(fileURLWithPath: archive))
    // An empty file where the loader looks first (LD_LIBRARY_PATH) is no shared object.
    let libraries = folder.url.appendingPathComponent("lib")
    try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
    try Data().write(to: libraries.appendingPathComponent("libcsv.so.3"))
    let run = try chartArchive(
      [
        "import", sample("kworb-global-daily-2024-03-21.csv"), "--chart", "spotify-global",
        "--db", archive,
      ], environment: ["LD_LIBRARY_PATH": libraries.path])
    #expect(run.status == 127)
    #expect(
      run.error
        == "chart-archive: error while loading shared libraries: \(libraries.path)/libcsv.so.3:"
        + " file too short\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
  }
}
