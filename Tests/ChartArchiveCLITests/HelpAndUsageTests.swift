import ChartFormats
import ChartRanking
import Foundation
import Testing

@testable import ChartArchiveCLI

struct HelpAndUsageTests {
  @Test func helpGoesToStandardOutputAndExitsZero() throws {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let run = try chartArchive(arguments)
      #expect(run.status == 0)
      #expect(run.output.hasPrefix("OVERVIEW: Keep an archive of music chart snapshots"))
      #expect(run.output.contains("\nSUBCOMMANDS:\n  import                Import chart files"))
      #expect(run.error == "")
    }
  }

  @Test func subcommandHelpHasTheUsualSections() throws {
    let viaHelp = try chartArchive(["help", "diff"])
    let viaFlag = try chartArchive(["diff", "--help"])
    #expect(viaHelp.status == 0)
    #expect(viaHelp.output == viaFlag.output)
    #expect(
      viaHelp.output.contains(
        "USAGE: chart-archive diff <chart> [<older>] [<newer>] [--format <format>] [--db <path>]"))
    for section in ["OVERVIEW:", "ARGUMENTS:", "OPTIONS:"] {
      #expect(viaHelp.output.contains(section))
    }
  }

  @Test func anOptionTooLongForItsColumnHasItsHelpOnTheNextLineInTheColumn() throws {
    let help = try chartArchive(["import", "--help"]).output
    #expect(
      help.contains(
        "\n  --frequency <frequency>\n" + String(repeating: " ", count: 24)
          + "How often the chart is published:"))
    #expect(help.contains("\n  --chart <name>        The chart's name for every file.\n"))
  }

  @Test func versionPrintsTheToolAndItsVersion() throws {
    for arguments in [["--version"], ["-V"], ["--db", "/nonexistent", "--version"]] {
      let run = try chartArchive(arguments)
      #expect(run.status == 0)
      #expect(run.output == "chart-archive 0.1.0\n")
      #expect(run.error == "")
    }
  }

  /// `--verbose` adds the schema version (the last migration's number), the SQLite library's
  /// version (the sqlite3 shell's, which loads the same library) and the commit of the checkout
  /// the tool was built from.
  @Test func verboseVersionSaysTheSchemaSQLiteAndCommit() throws {
    let run = try chartArchive(["--version", "--verbose"])
    #expect(run.status == 0)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines.first == "chart-archive 0.1.0")
    let migrations = try FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Migrations").path)
    #expect(migrations.max() == "0018_snapshots_by_size.sql")
    #expect(lines.dropFirst().first == "schema version: 18")
    if isInstalled("/usr/bin/sqlite3") {
      let shell = try runProgram("/usr/bin/sqlite3", ["--version"]).output
      #expect(lines.dropFirst(2).first == "SQLite version: " + shell.prefix { $0 != " " })
    }
    #expect(lines.dropFirst(2).first?.hasPrefix("SQLite version: 3.") == true)
    // The commit the build plugin wrote before the last `swift build`: a commit of this
    // checkout. `swift test` alone does not always run the plugin again after a commit (a known
    // limit of SwiftPM's prebuild commands), so the commit may be an earlier build's here;
    // script/test-package checks a fresh build's against HEAD exactly.
    let commit = String(lines.last?.dropFirst("git commit: ".count) ?? "")
    #expect(lines.last?.hasPrefix("git commit: ") == true)
    let hash = String(commit.prefix(40))
    #expect(hash.count == 40 && hash.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(commit == hash || commit == hash + "-dirty")
    if isInstalled("/usr/bin/git") {
      let type = try runProgram("/usr/bin/git", ["cat-file", "-t", hash])
      #expect(type.output == "commit\n", "\(hash) is no commit of this checkout")
    }
    #expect(try chartArchive(["-V", "--verbose"]).output == run.output)
    #expect(try chartArchive(["--verbose", "--version"]).output == run.output)
  }

  @Test(arguments: [
    (["--verbose"], "Error: --verbose goes with --version\n"),
    (["--version", "import"], "Error: unexpected argument 'import'\n"),
    (["--version", "--limit", "3"], "Error: unknown option '--limit'\n"),
  ])
  func versionUsageErrors(arguments: [String], message: String) throws {
    let run = try chartArchive(arguments)
    #expect(run.status == 64)
    #expect(run.output == "")
    #expect(
      run.error
        == message
        + "Usage: chart-archive <subcommand>\n  See 'chart-archive --help' for more information.\n")
  }

  @Test(arguments: [
    (
      ["frobnicate"],
      "Error: unknown subcommand 'frobnicate'\nUsage: chart-archive <subcommand>\n"
        + "  See 'chart-archive --help' for more information.\n"
    ),
    (
      ["show"],
      "Error: missing expected argument '<chart>'\nUsage: chart-archive show <chart>"
        + " [<date>] [--limit <n>] [--format <format>] [--db <path>]\n"
        + "  See 'chart-archive show --help' for more information.\n"
    ),
    (
      ["charts", "--colour"],
      "Error: unknown option '--colour'\nUsage: chart-archive charts"
        + " [<action>] [<name> ...] [--format <format>] [--db <path>]\n"
        + "  See 'chart-archive charts --help' for more information.\n"
    ),
    (
      // A misspelled subcommand or option gets the closest one's name.
      ["shwo"],
      "Error: unknown subcommand 'shwo' (did you mean show?)\nUsage: chart-archive <subcommand>\n"
        + "  See 'chart-archive --help' for more information.\n"
    ),
    (
      ["show", "hot-100", "--limt", "3"],
      "Error: unknown option '--limt' (did you mean --limit?)\nUsage: chart-archive show <chart>"
        + " [<date>] [--limit <n>] [--format <format>] [--db <path>]\n"
        + "  See 'chart-archive show --help' for more information.\n"
    ),
    (
      ["charts", "--format", "xml"],
      "Error: unknown format 'xml' (expected table, json or csv)\n"
        + "Usage: chart-archive charts [<action>] [<name> ...] [--format <format>]"
        + " [--db <path>]\n"
        + "  See 'chart-archive charts --help' for more information.\n"
    ),
    (
      ["report", "hot-100", "2023-02-30", "--db", "/nonexistent"],
      "Error: <date>: '2023-02-30' is"
        + " not a valid ISO 8601 date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM:SSZ)\n"
        + "Usage: chart-archive report <chart> [<date>] [--limit <n>] [--format <format>]"
        + " [--db <path>]\n  See 'chart-archive report --help' for more information.\n"
    ),
    (
      // An option's value is named by the option ("<date>:" named the --date of import).
      ["audit", "hot-100", "--from", "2024-02-30", "--db", "/nonexistent"],
      "Error: --from: '2024-02-30' is"
        + " not a valid ISO 8601 date (YYYY-MM-DD) or date and time (YYYY-MM-DDTHH:MM:SSZ)\n"
        + "Usage: chart-archive audit <chart> [--from <date>] [--to <date>] [--summary]"
        + " [--format <format>] [--db <path>]\n  See 'chart-archive audit --help' for more"
        + " information.\n"
    ),
    (
      // A date and time without a zone names the option that gives one.
      ["import", "x.json", "--date", "2024-05-01 20:00:00", "--db", "/nonexistent"],
      "Error: --date: '2024-05-01 20:00:00' is a date and time without a time zone: pass"
        + " --timezone ZONE (an IANA name such as Asia/Seoul), or write it with Z or an offset\n"
        + "Usage: chart-archive import <path> ... [--chart <name>] [--date <date>]"
        + " [--timezone <zone>] [--format <format>] [--frequency <frequency>] [--replace]"
        + " [--allow-ties] [--skip-invalid] [--move-to <folder>] [--output-format <format>]"
        + " [--quiet] [--db <path>]\n  See 'chart-archive import"
        + " --help' for more information.\n"
    ),
    (
      // A command without --timezone: the zone goes in the date (it said to give one).
      ["show", "app-hourly", "2024-05-05T13:00:00", "--db", "/nonexistent"],
      "Error: <date>: '2024-05-05T13:00:00' is a date and time without a time zone: write it with"
        + " Z or an offset ('2024-05-05T13:00:00Z', '2024-05-05T13:00:00+09:00')\n"
        + "Usage: chart-archive show <chart> [<date>] [--limit <n>] [--format <format>]"
        + " [--db <path>]\n  See 'chart-archive show --help' for more information.\n"
    ),
    (
      ["history", " ", "--db", "/nonexistent"],
      "Error: <query> is empty: give a title, or part of a title or artist credit\n"
        + "Usage: chart-archive history [<query>] [--artist <artist>] [--chart <name>]"
        + " [--song <id>] [--format <format>] [--db <path>]\n"
        + "  See 'chart-archive history --help' for more information.\n"
    ),
    (
      ["audit", "hot-100", "--from", "2024-01-13", "--to", "2024-01-06", "--db", "/nonexistent"],
      "Error: --from 2024-01-13 is after --to 2024-01-06: give the earlier chart date first\n"
        + "Usage: chart-archive audit <chart> [--from <date>] [--to <date>] [--summary]"
        + " [--format <format>] [--db <path>]\n"
        + "  See 'chart-archive audit --help' for more information.\n"
    ),
  ])
  func usageErrorsExit64WithTheUsage(arguments: [String], expected: String) throws {
    let run = try chartArchive(arguments)
    #expect(run.status == 64)
    #expect(run.output == "")
    #expect(run.error == expected)
  }

  @Test func noArgumentsIsAUsageError() throws {
    let run = try chartArchive([])
    #expect(run.status == 64)
    #expect(run.output == "")
    #expect(
      run.error
        == "Error: missing subcommand\nUsage: chart-archive <subcommand>\n"
        + "  See 'chart-archive --help' for more information.\n")
  }

  /// `--db` before the subcommand, as an alias gives it to every command, is ignored by those
  /// that read no archive (it was an unknown option to `formats`); given after one, it is still
  /// an unknown option there.
  @Test func aDatabaseBeforeASubcommandWithoutOneIsIgnored() throws {
    let plain = try chartArchive(["formats", "--format", "csv"])
    let leading = try chartArchive(["--db", "/nonexistent/a.sqlite", "formats", "--format", "csv"])
    #expect(leading.status == 0)
    #expect(leading.output == plain.output)
    #expect(leading.error == "")
    let manual = try chartArchive(["--db=/nonexistent/a.sqlite", "manual"])
    #expect(manual.status == 0)
    #expect(manual.output == (try chartArchive(["manual"])).output)
    let after = try chartArchive(["formats", "--db", "/nonexistent/a.sqlite"])
    #expect(after.status == 64)
    #expect(after.error.hasPrefix("Error: unknown option '--db'"))
  }

  @Test func aMissingArchiveIsNotCreatedByAQuery() throws {
    let folder = try TemporaryFolder()
    let path = folder.url.appendingPathComponent("none.sqlite").path
    let run = try chartArchive(["charts", "--db", path])
    #expect(run.status == 66)
    #expect(
      run.error
        == "Error: no archive at \(path) (import charts first: chart-archive import PATH…)\n")
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func theArchiveDefaultsToTheEnvironmentThenXDG() throws {
    let folder = try TemporaryFolder()
    let fromVariable = folder.url.appendingPathComponent("env.sqlite").path
    #expect(
      try SharedOptions.databasePath(
        ParsedArguments(), environment: ["CHART_ARCHIVE_DB": fromVariable, "HOME": "/h"])
        == fromVariable)
    #expect(
      try SharedOptions.databasePath(
        ParsedArguments(), environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"])
        == "/x/chart-archive/archive.sqlite")
    #expect(
      try SharedOptions.databasePath(
        ParsedArguments(), environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
        == "/h/.local/share/chart-archive/archive.sqlite")
    let run = try chartArchive(
      ["import", "Sample-data/app-daily"], environment: ["CHART_ARCHIVE_DB": fromVariable])
    #expect(run.status == 0)
    #expect(FileManager.default.fileExists(atPath: fromVariable))
  }

  @Test func argumentsParseOptionsAnywhere() throws {
    let parsed = try ParsedArguments.parse(
      ["--db=a.sqlite", "hot-100", "--limit", "5", "--", "--2024"],
      options: [
        OptionSpec(name: "--db", valueName: "path", help: ""),
        OptionSpec(name: "--limit", valueName: "n", help: ""),
      ],
      arguments: [
        ArgumentSpec(name: "chart", help: ""),
        ArgumentSpec(name: "date", help: "", isOptional: true),
      ])
    #expect(parsed.option("--db") == "a.sqlite")
    #expect(parsed.option("--limit") == "5")
    #expect(parsed.argument("chart") == "hot-100")
    #expect(parsed.argument("date") == "--2024")
  }
}
