import Foundation
import Testing

@testable import ChartArchiveCLI

/// The manual page: roff that groff and man read without a warning, with every subcommand and
/// option of the specifications and the sections a manual page has.
struct ManualPageTests {
  /// The page as `chart-archive manual` prints it, in a file.
  static func page() throws -> (folder: TemporaryFolder, path: String) {
    let run = try chartArchive(["manual"])
    try #require(run.status == 0)
    let folder = try TemporaryFolder()
    return (folder, try folder.write("chart-archive.1", run.output))
  }

  /// The page rendered as plain text (no bold or underlining) by groff.
  static func rendered() throws -> String {
    let (folder, path) = try Self.page()
    defer { withExtendedLifetime(folder) {} }
    return try runProgram("/usr/bin/groff", ["-man", "-Tutf8", "-P-cbou", path]).output
  }

  /// groff with every warning on, for a UTF-8 terminal and for an ASCII one (where the page's
  /// characters beyond ASCII have their fallbacks).
  @Test(
    .enabled(if: isInstalled("/usr/bin/groff"), "groff is not installed: skipped"),
    arguments: ["-Tutf8", "-Tascii"])
  func groffRendersItWithoutAWarning(device: String) throws {
    let (folder, path) = try Self.page()
    defer { withExtendedLifetime(folder) {} }
    let run = try runProgram("/usr/bin/groff", ["-man", device, "-ww", "-z", path])
    #expect(run.status == 0)
    #expect(run.error == "")
  }

  /// `man -l` with the warnings man-db asks groff for (as lintian runs it), in a UTF-8 locale and
  /// in none, at widths from a narrow terminal to a wide one.
  @Test(
    .enabled(if: isInstalled("/usr/bin/man"), "man is not installed: skipped"),
    arguments: [[:], ["LANG": "C.UTF-8"]])
  func manReadsItWithoutAWarning(locale: [String: String]) throws {
    let (folder, path) = try Self.page()
    defer { withExtendedLifetime(folder) {} }
    for width in ["60", "80", "120"] {
      let run = try runProgram(
        "/usr/bin/man", ["--warnings", "-l", path],
        environment: locale.merging(["MANWIDTH": width]) { $1 })
      #expect(run.status == 0)
      #expect(run.error == "", "\(locale) \(width) columns")
      #expect(run.output.hasPrefix("CHART-ARCHIVE(1)"))
    }
  }

  /// The rendered page's lines that head a section (not indented) or a subsection (three
  /// spaces), and the lines under each.
  static func sections(_ text: String, indent: Int) -> [(heading: String, lines: [String])] {
    var sections: [(heading: String, lines: [String])] = []
    let lead = String(repeating: " ", count: indent)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      let isHeading =
        line.hasPrefix(lead) && line.dropFirst(indent).first.map { $0 != " " } == true
      if isHeading {
        sections.append((String(line.dropFirst(indent)), []))
      } else if !sections.isEmpty, line.hasPrefix(lead + " ") || line.isEmpty {
        sections[sections.count - 1].lines.append(line)
      }
    }
    return sections
  }

  /// The words of lines, one space between each: prose as groff fills it at any width.
  static func collapsed(_ lines: [String]) -> String {
    lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
  }

  @Test(.enabled(if: isInstalled("/usr/bin/groff"), "groff is not installed: skipped"))
  func itHasTheSectionsOfAManualPage() throws {
    let sections = Self.sections(try Self.rendered(), indent: 0)
    #expect(
      sections.map(\.heading).dropFirst().dropLast() == [
        "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "FILES",
        "ENVIRONMENT", "EXAMPLES", "SEE ALSO",
      ])
    func section(_ name: String) -> String {
      Self.collapsed(sections.first { $0.heading == name }?.lines ?? [])
    }
    #expect(
      section("NAME")
        == "chart-archive - keep an archive of music chart snapshots in SQLite and report how"
        + " entries move: climbers, fallers, debuts, re-entries and drop-outs")
    #expect(
      section("FILES").hasPrefix(
        "~/.local/share/chart-archive/archive.sqlite The default archive, when neither --db nor"
          + " CHART_ARCHIVE_DB names one;"))
    let environment = sections.first { $0.heading == "ENVIRONMENT" }?.lines ?? []
    #expect(
      environment.filter { $0.hasPrefix("       ") && !$0.hasPrefix("        ") } == [
        "       CHART_ARCHIVE_DB", "       XDG_DATA_HOME",
        "       HOME   The home folder, which holds the default archive.", "       NO_COLOR",
        "       TERM   When dumb, tables are printed without colours.",
      ])
    #expect(section("ENVIRONMENT").contains("NO_COLOR When set and not empty, tables are printed"))
    let statuses = section("EXIT STATUS")
    for status in ExitCode.allCases {
      #expect(
        statuses.contains("\(status.rawValue) \(ManualPage.sentence(status.meaning))"),
        "exit status \(status.rawValue)")
    }
    #expect(section("EXAMPLES").contains(#"chart-archive history "Blinding Lights""#))
  }

  /// Every subcommand has its subsection, with its usage line, every option and its examples.
  @Test(.enabled(if: isInstalled("/usr/bin/groff"), "groff is not installed: skipped"))
  func itHasEverySubcommandAndOption() throws {
    let text = try Self.rendered()
    let commands = try #require(text.range(of: "\nCOMMANDS\n"))
    let end = try #require(text.range(of: "\nOPTIONS\n"))
    let subsections = Self.sections(String(text[commands.upperBound..<end.lowerBound]), indent: 3)
    #expect(subsections.map(\.heading) == ChartArchiveTool.subcommands.map { $0.name })
    for (command, subsection) in zip(ChartArchiveTool.subcommands, subsections) {
      let body = subsection.lines.joined(separator: "\n")
      #expect(body.hasPrefix("       chart-archive \(command.name)"), "\(command.name)")
      for option in command.options {
        let line =
          (option.shortName.map { $0 + ", " } ?? "") + option.name
          + (option.valueName.map { " " + $0 } ?? "")
        #expect(body.contains("\n              \(line)\n"), "\(command.name) \(line)")
      }
      for example in command.examples { #expect(body.contains("\n           \(example)\n")) }
    }
  }

  @Test(arguments: [
    ("--db path", #"\-\-db path"#),
    ("with --skip-invalid,", #"with \-\-skip\-invalid,"#),
    ("re-entries and drop-outs", "re-entries and drop-outs"),
    ("-1 is not on the chart", #"\-1 is not on the chart"#),
    (".start", #"\&.start"#),
    ("'quoted'", #"\&'quoted'"#),
    (#"a\b"#, #"a\eb"#),
    ("밤하늘 (Night Sky) …", #"\[uBC24]\[uD558]\[uB298] (Night Sky) \[u2026]"#),
  ])
  func textIsEscapedForRoff(text: String, roff: String) {
    #expect(ManualPage.roff(text) == roff)
  }

  /// The command reference's table of exit statuses (docs/commands.md) says what `--help` and
  /// the manual page say.
  @Test func theCommandReferenceListsTheExitStatusesOfTheTool() throws {
    let reference = try String(
      contentsOf: packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
    let section = try #require(reference.range(of: "## Exit status\n"))
    let rows = reference[section.upperBound...].split(separator: "\n").drop {
      !$0.hasPrefix("| 0 ")
    }
    .prefix { $0.hasPrefix("| ") }
    let listed = rows.map {
      $0.dropFirst(2).dropLast(2).replacingOccurrences(of: "`", with: "")
        .replacingOccurrences(of: #"\|"#, with: "|")
    }
    #expect(listed == ExitCode.allCases.map { "\($0.rawValue) | \($0.meaning)" })
  }
}
