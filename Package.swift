// swift-tools-version:6.0
import PackageDescription

/// libxml2's headers, as `pkg-config --cflags libxml-2.0` gives them on Debian.
let libxml2Headers = "/usr/include/libxml2"

let package = Package(
  name: "ChartArchive",
  products: [
    .executable(name: "chart-archive", targets: ["chart-archive"]),
    .library(name: "ChartRanking", targets: ["ChartRanking"]),
    .library(name: "ChartStorage", targets: ["ChartStorage"]),
    .library(name: "ChartFormats", targets: ["ChartFormats"]),
    .library(name: "ChartImport", targets: ["ChartImport"]),
    .library(name: "ChartPresentation", targets: ["ChartPresentation"]),
  ],
  targets: [
    // SQLite from the system (Debian: libsqlite3-dev).
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // libcsv from the system (Debian: libcsv-dev): the RFC 4180 reader under the CSV formats.
    .systemLibrary(name: "CCSV", providers: [.apt(["libcsv-dev"])]),
    // yajl from the system (Debian: libyajl-dev): the streaming JSON parser under the JSON formats.
    .systemLibrary(name: "CYAJL", providers: [.apt(["libyajl-dev"])]),
    // libxml2 from the system (Debian: libxml2-dev): its HTML parser reads chart tables saved as
    // web pages. Its headers' folder is given below (`libxml2Headers`) rather than by pkg-config,
    // whose `-lxml2` would load it, with ICU, at every start (see CLazyLibraries).
    .systemLibrary(name: "CLibXML2", providers: [.apt(["libxml2-dev"])]),
    // libevent from the system (Debian: libevent-dev): evhttp, the HTTP server under `serve`.
    .systemLibrary(name: "CEvent", providers: [.apt(["libevent-dev"])]),
    // zlib from the system (Debian: zlib1g-dev): gzip for the HTTP service's responses.
    .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
    // The C libraries above that only some commands use (libxml2, libcsv, libevent, zlib), loaded
    // when one of their functions is first called: their modules declare them and link nothing.
    .target(
      name: "CLazyLibraries", dependencies: ["CLibXML2", "CCSV", "CEvent", "CZlib"],
      cSettings: [.unsafeFlags(["-I" + libxml2Headers])]),
    // Where a thread runs (sched_getcpu, sched_setaffinity), which Swift's Glibc module leaves out.
    .target(name: "CThreadPlacement"),
    // Reading a mapped file that may shrink (a SIGBUS turned into an answer), for the damage
    // check's scan of the archive's pages.
    .target(name: "CMappedFile"),
    // libpng from the system (Debian: libpng-dev), for the tests only: the browser check reads
    // its screenshots with it.
    .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    // Pure Swift: the chart model, movements, peak position, weeks on chart, diffs, reports.
    .target(name: "ChartRanking"),
    // The archive: one SQLite file, its schema migrations (from the top-level Migrations/ folder,
    // embedded in the binary) and every SQL statement of the product.
    .target(
      name: "ChartStorage",
      dependencies: ["CSQLite", "CMappedFile", "ChartRanking"],
      resources: [.embedInCode("Migrations")]
    ),
    // Readers for the chart file formats the importer accepts, the native format's writer and the
    // product's one JSON encoder.
    .target(
      name: "ChartFormats",
      dependencies: ["CCSV", "CYAJL", "CLibXML2", "CLazyLibraries", "ChartRanking"]),
    // The importer: sources (paths or bytes) → checked snapshots → one write transaction;
    // outcomes as values, progress through a callback.
    .target(
      name: "ChartImport",
      dependencies: ["ChartRanking", "ChartFormats", "ChartStorage", "CThreadPlacement"]),
    // View models and renderers: query results → text (table, JSON, CSV), HTML pages and SVG
    // pictures, for every front end; the pages' style sheet and icon embedded in the binary.
    .target(
      name: "ChartPresentation",
      dependencies: ["ChartRanking", "ChartFormats", "ChartStorage", "ChartImport"],
      resources: [.embedInCode("Assets")]),
    // The HTTP service: requests → the same library calls → the same views; statuses, caching
    // headers, the access log.
    .target(
      name: "ChartArchiveServer",
      dependencies: [
        "CEvent", "CZlib", "CLazyLibraries", "ChartRanking", "ChartStorage", "ChartFormats",
        "ChartImport", "ChartPresentation",
      ]),
    // The `chart-archive` command line: arguments → library calls → rendered text; exit codes.
    .target(
      name: "ChartArchiveCLI",
      dependencies: [
        "ChartRanking", "ChartStorage", "ChartFormats", "ChartImport", "ChartPresentation",
        "ChartArchiveServer",
      ],
      plugins: ["BuildCommit"]),
    // Writes the git commit of the checkout into the CLI before each build, for `--version`.
    .plugin(name: "BuildCommit", capability: .buildTool()),
    .executableTarget(name: "chart-archive", dependencies: ["ChartArchiveCLI"]),
    // Measurements for Benchmarks/run: in-library query timings, the server's page rendering and a
    // synthetic chart generator.
    .executableTarget(
      name: "chart-archive-bench",
      dependencies: [
        "ChartRanking", "ChartStorage", "ChartFormats", "ChartImport", "ChartArchiveServer",
      ],
      path: "Benchmarks/ChartArchiveBenchmarks"),

    .testTarget(name: "ChartRankingTests", dependencies: ["ChartRanking"]),
    // The import engine builds the archives the storage tests read (ChartStorage itself stores
    // nothing but rows).
    .testTarget(
      name: "ChartStorageTests",
      dependencies: ["ChartStorage", "ChartRanking", "ChartImport", "CMappedFile"]),
    .testTarget(
      name: "ChartFormatsTests", dependencies: ["ChartFormats", "ChartRanking"],
      // Real-shaped files of every format and malformed ones, read by the tests from their path;
      // Fuzz/run seeds its fuzzers with them too.
      exclude: ["Samples", "Malformed"]),
    .testTarget(
      name: "ChartPresentationTests",
      dependencies: ["ChartPresentation", "ChartStorage", "ChartFormats", "ChartRanking"]),
    .testTarget(
      name: "ChartImportTests",
      // ChartPresentation for the words every front end gives what an import found.
      dependencies: [
        "ChartImport", "ChartStorage", "ChartFormats", "ChartRanking", "ChartPresentation",
      ]),
    // The HTTP service asked in this process through its router (the command line run in the
    // process too, for the answers it must equal); the tests that need a socket are the CLI's.
    .testTarget(
      name: "ChartArchiveServerTests",
      dependencies: [
        "ChartArchiveServer", "ChartArchiveCLI", "ChartImport", "ChartStorage", "ChartFormats",
        "ChartRanking",
      ]),
    .testTarget(
      name: "ChartArchiveCLITests",
      dependencies: [
        "ChartArchiveCLI", "ChartFormats", "ChartRanking", "ChartStorage", "chart-archive", "CPNG",
      ]
    ),
  ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .swiftLanguageMode(.v6),
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      // CLibXML2's headers, for every module that imports it or a module that does.
      .unsafeFlags(["-Xcc", "-I" + libxml2Headers]),
      // Release builds reach the metadata of each concrete generic type (a `[String: String]`, a
      // `Set<Int64>`) through the type's metadata accessor instead of demangling its name at run
      // time, which searches every protocol conformance of the binary the first time each name
      // is met: some 1.7 ms of a one-week import (docs/development.md, "How an import spends its
      // time").
      .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
        .when(configuration: .release)),
    ]
}
