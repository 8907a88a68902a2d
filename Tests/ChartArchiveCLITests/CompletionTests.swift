import Foundation
import Testing

@testable import ChartArchiveCLI

/// The completion scripts: each parses in its shell, and completes what the command
/// specifications say.
struct CompletionTests {
  /// Runs bash with the bash script loaded and `complete LINE…` completing the words given after
  /// the tool (the last the one completed), printing the candidates on one line.
  static func bashCompletion(_ words: [String], archive: String? = nil) throws -> Run {
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try runProgram(
      "/bin/bash",
      [
        "-c",
        """
        source <("$TOOL" completion bash) || exit 1
        COMP_WORDS=("$TOOL" \(quoted.joined(separator: " "))) COMP_CWORD=\(words.count)
        _chart_archive
        echo "${COMPREPLY[*]}"
        """,
      ], environment: ["TOOL": toolURL.path, "CHART_ARCHIVE_DB": archive ?? "/nonexistent.sqlite"])
  }

  @Test(arguments: CompletionScript.Shell.allCases)
  func eachShellHasItsScript(shell: CompletionScript.Shell) throws {
    let run = try chartArchive(["completion", shell.rawValue])
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(run.output == CompletionScript(for: shell).text)
    #expect(
      run.output.hasPrefix(shell == .zsh ? "#compdef chart-archive\n" : "# \(shell) completion"))
  }

  @Test func theBashScriptParses() throws {
    let run = try bash(#"bash -n <("$TOOL" completion bash)"#)
    #expect(run.status == 0)
    #expect(run.error == "")
  }

  @Test(.enabled(if: isInstalled("/usr/bin/zsh"), "zsh is not installed: skipped"))
  func theZshScriptParses() throws {
    let folder = try TemporaryFolder()
    let script = try folder.write("_chart-archive", try chartArchive(["completion", "zsh"]).output)
    let run = try runProgram("/usr/bin/zsh", ["-n", script])
    #expect(run.status == 0)
    #expect(run.error == "")
  }

  @Test(.enabled(if: isInstalled("/usr/bin/fish"), "fish is not installed: skipped"))
  func theFishScriptParses() throws {
    let folder = try TemporaryFolder()
    let script = try folder.write(
      "chart-archive.fish", try chartArchive(["completion", "fish"]).output)
    let run = try runProgram("/usr/bin/fish", ["--no-execute", script])
    #expect(run.status == 0)
    #expect(run.error == "")
  }

  @Test(arguments: [
    (["sh"], "show"),
    (["s"], "snapshots show songs serve"),
    (["--ver"], "--version --verbose"),
    (["show", "--"], "--limit --format --db --help"),
    (["show", "--format", ""], "table json csv"),
    (["show", "--format", "=", "j"], "json"),
    (["show", "--format", "="], "table json csv"),
    (["export", "--format", ""], "json csv"),
    (["import", "--frequency", "w"], "weekly"),
    (["import", "--format", "kworb"], "kworb-csv kworb-html"),
    (["show", "hot-100", "l"], "latest"),
    (["diff", "hot-100", "latest", "p"], "previous"),
    (["help", "re"], "report records"),
    (["help", "rec"], "records"),
    (["completion", "f"], "fish"),
    (["show", "hot-100", "latest", ""], ""),
    (["history", "--limit"], ""),
  ])
  func bashCompletes(words: [String], expected: String) throws {
    let run = try Self.bashCompletion(words)
    #expect(run.status == 0)
    #expect(run.error == "")
    #expect(run.output == expected + "\n")
  }

  /// Chart names come from the archive the line names with --db (before or after the
  /// subcommand, as one word or two), else from $CHART_ARCHIVE_DB.
  /// The charts of Sample-data, in name order.
  static let sampleCharts = [
    "app-daily", "app-hourly", "app-monthly", "app-total", "app-weekly", "hot-100",
  ]

  @Test func bashCompletesChartNamesFromTheArchive() throws {
    let (folder, archive) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let cases: [([String], String)] = [
      (["show", "--db", archive, "h"], "hot-100"),
      (["--db", archive, "report", ""], Self.sampleCharts.joined(separator: " ")),
      (
        ["snapshots", "--db", "=", archive, "a"],
        Self.sampleCharts.dropLast().joined(separator: " ")
      ),
      (["history", "--db", archive, "--chart", ""], Self.sampleCharts.joined(separator: " ")),
      (["import", "--db", archive, "--chart", "app-d"], "app-daily"),
      (["show", "--db", folder.path + "/none.sqlite", ""], ""),
    ]
    for (words, expected) in cases {
      #expect(try Self.bashCompletion(words).output == expected + "\n", "\(words)")
    }
    #expect(try Self.bashCompletion(["diff", "h"], archive: archive).output == "hot-100\n")
  }

  @Test func bashCompletesFileNames() throws {
    let folder = try TemporaryFolder()
    try folder.write("charts/2024-01-06.json", "{}")
    try folder.write("charts/2024-01-13.json", "{}")
    let prefix = folder.path + "/charts/2024-01"
    let run = try Self.bashCompletion(["import", prefix])
    #expect(run.output == "\(prefix)-06.json \(prefix)-13.json\n")
  }

  /// Each subcommand's options, in the bash script, are those of its specification.
  @Test func theBashScriptHasEverySubcommandsOptions() throws {
    for command in ChartArchiveTool.subcommands {
      let run = try bash(
        #"source <("$TOOL" completion bash) && _chart_archive_options "# + command.name)
      let expected = (command.options + [ChartArchiveTool.helpOption]).flatMap {
        [$0.name] + ($0.shortName.map { [$0] } ?? [])
      }
      #expect(run.output == expected.joined(separator: " ") + "\n", "\(command.name)")
    }
  }

  @Test(.enabled(if: isInstalled("/usr/bin/fish"), "fish is not installed: skipped"))
  func fishCompletes() throws {
    let (folder, archive) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let bin = folder.url.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      at: bin.appendingPathComponent("chart-archive"), withDestinationURL: toolURL)
    let script = try folder.write(
      "chart-archive.fish", try chartArchive(["completion", "fish"]).output)
    let run = try runProgram(
      "/usr/bin/fish",
      [
        "--no-config", "-c",
        """
        source \(script)
        complete -C 'chart-archive sh'
        complete -C 'chart-archive show --db \(archive) h'
        complete -C 'chart-archive import --frequency w'
        """,
      ], environment: ["PATH": bin.path + ":/usr/bin:/bin"])
    #expect(run.error == "")
    #expect(
      run.output
        == "show\tShow a snapshot of a chart with each entry's movement, peak and weeks.\n"
        + "hot-100\tThe chart's name, such as hot-100.\n"
        + "weekly\tHow often the chart is published: hourly, daily, weekly, monthly, yearly, all-time."
        + " Default: guessed from the chart's name.\n")
  }

  @Test func chartNamesForTheScripts() throws {
    let (folder, archive) = try sampleArchive()
    defer { withExtendedLifetime(folder) {} }
    let run = try chartArchive(["completion", "--chart-names", "--db", archive])
    #expect(run.status == 0)
    #expect(run.output == Self.sampleCharts.map { $0 + "\n" }.joined())
  }

  @Test(arguments: [
    (["completion"], "Error: missing expected argument '<shell>' (bash, zsh or fish)\n"),
    (["completion", "tcsh"], "Error: unknown shell 'tcsh' (expected bash, zsh or fish)\n"),
    (
      ["completion", "bash", "--chart-names"],
      "Error: give a <shell> or --chart-names, not both ('bash')\n"
    ),
    (
      ["completion", "bash", "--db", "a.sqlite"],
      "Error: --db goes with --chart-names: a script finds the archive when it runs\n"
    ),
  ])
  func completionUsageErrors(arguments: [String], message: String) throws {
    let run = try chartArchive(arguments)
    #expect(run.status == 64)
    #expect(run.output == "")
    #expect(
      run.error
        == message + "Usage: chart-archive completion [<shell>] [--chart-names] [--db <path>]\n"
        + "  See 'chart-archive completion --help' for more information.\n")
  }
}
