/// The manual page chart-archive(1), in roff with the man macros (groff_man(7)), made from the
/// same specifications as `--help`: NAME and DESCRIPTION from the tool's overview, SYNOPSIS, a
/// section per subcommand (its usage, abstract, discussion, arguments, options and examples),
/// the tool's own OPTIONS, EXIT STATUS from ``ExitCode``, FILES (the default archive),
/// ENVIRONMENT and EXAMPLES (every subcommand's).
///
/// Lines are filled to the left margin only and words are not hyphenated (`.ad l`, `.nh`). Text
/// is ASCII roff: a backslash is `\e`, each dash of a word that starts with one (an option) `\-`,
/// so that no line breaks inside an option, a character beyond ASCII `\[uXXXX]`, and a line that
/// would start with `.` or `'` starts with `\&`, so that `groff -man` reads the page without a
/// warning whatever the input encoding.
struct ManualPage {
  /// The page, ending with a line end.
  var text: String {
    let head = """
      .\\" chart-archive(1), made by `chart-archive manual` from the tool's command specifications.
      .TH CHART\\-ARCHIVE 1 "" "chart\\-archive \(ChartArchiveTool.version)" "User Commands"
      .ad l
      .nh

      """
    var page = """
      .SH NAME
      chart\\-archive \\- \(Self.roff(Self.summary(ChartArchiveTool.overview)))
      .SH SYNOPSIS
      \\fBchart\\-archive\\fR [\\fB\\-\\-db\\fR \\fIpath\\fR] \\fIsubcommand\\fR [\\fIargument\\fR ...]\
       [\\fIoption\\fR ...]
      .br
      \\fBchart\\-archive\\fR \\fB\\-\\-version\\fR [\\fB\\-\\-verbose\\fR]
      .br
      \\fBchart\\-archive\\fR \\fB\\-\\-help\\fR | \\fBhelp\\fR [\\fIsubcommand\\fR]
      .SH DESCRIPTION
      \(Self.roff(ChartArchiveTool.overview))
      .PP
      Every subcommand reads or writes one archive: the file \\fB\\-\\-db\\fR names, else the one\
       \\fBCHART_ARCHIVE_DB\\fR names, else the default archive (see \\fBFILES\\fR). Query\
       subcommands print a table for people, or JSON or CSV with \\fB\\-\\-format\\fR; every\
       subcommand has \\fB\\-\\-help\\fR.
      .SH COMMANDS

      """
    for command in ChartArchiveTool.subcommands { page += Self.section(command) }
    page += ".SH OPTIONS\n"
    for option in ChartArchiveTool.toolOptions + [ChartArchiveTool.helpOption] {
      page += Self.item(option)
    }
    page += ".SH \"EXIT STATUS\"\n"
    for status in ExitCode.allCases {
      page += ".TP\n.B \(status.rawValue)\n\(Self.roff(Self.sentence(status.meaning)))\n"
    }
    let defaultArchive =
      (try? SharedOptions.databasePath(ParsedArguments(), environment: ["HOME": "~"]))
      ?? "~/.local/share/chart-archive/archive.sqlite"
    page += """
      .SH FILES
      .TP
      .I \(Self.roff(defaultArchive))
      The default archive, when neither \\fB\\-\\-db\\fR nor \\fBCHART_ARCHIVE_DB\\fR names one;\
       \\fI$XDG_DATA_HOME/chart\\-archive/archive.sqlite\\fR when \\fBXDG_DATA_HOME\\fR is set.\
       While a process has the archive open, SQLite keeps its write-ahead log beside it, in files\
       named after it with \\fI\\-wal\\fR and \\fI\\-shm\\fR at the end; a \\fI\\-wal\\fR file found\
       there belongs with the archive (it may hold the last import), and is moved or copied with\
       it.
      .SH ENVIRONMENT
      .TP
      .B CHART_ARCHIVE_DB
      The archive's path, when \\fB\\-\\-db\\fR is not given.
      .TP
      .B XDG_DATA_HOME
      The folder the default archive's folder, \\fIchart\\-archive\\fR, is in, when it is an\
       absolute path; else \\fI~/.local/share\\fR.
      .TP
      .B HOME
      The home folder, which holds the default archive.
      .TP
      .B NO_COLOR
      When set and not empty, tables are printed without colours (see https://no\\-color.org).\
       Colours are only ever used when standard output is a terminal.
      .TP
      .B TERM
      When \\fIdumb\\fR, tables are printed without colours.
      .SH EXAMPLES

      """
    for command in ChartArchiveTool.subcommands where !command.examples.isEmpty {
      page += Self.preformatted(command.examples)
    }
    page += """
      .SH "SEE ALSO"
      .BR sqlite3 (1)

      """
    return head + Self.fallbacks(for: page) + page
  }

  /// What a device without a glyph (groff's `-Tascii`, for a terminal that is not UTF-8) prints
  /// for the characters beyond ASCII of the page: `...` for `…`, `^` and `v` for `▲` and `▼`.
  private static let asciiFallbacks: [UInt32: String] = [
    0x2026: "...", 0x25B2: "^", 0x25BC: "v", 0x2192: "\\-\\>", 0x2013: "\\-", 0x2014: "\\-\\-",
  ]

  /// `.char` requests that give each character beyond ASCII the page uses (`\[uXXXX]`) a
  /// fallback where the device has no glyph for it (`?` when none is known).
  private static func fallbacks(for page: String) -> String {
    var codes: Set<UInt32> = []
    for piece in page.split(separator: "\\[u").dropFirst() {
      if let code = UInt32(piece.prefix { $0 != "]" }, radix: 16) { codes.insert(code) }
    }
    return codes.sorted().map { code in
      let name = "\\[u" + String(code, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
      return ".if !c\(name) .char \(name) \(asciiFallbacks[code] ?? "?")\n"
    }.joined()
  }

  // MARK: - Sections

  /// A subcommand's section: a subsection named after it with its usage, abstract, discussion,
  /// arguments, options and examples.
  private static func section(_ command: any Subcommand.Type) -> String {
    var text = ".SS \(command.name)\n" + synopsis(command) + ".PP\n" + roff(command.abstract) + "\n"
    text += discussion(command.discussion)
    if !command.arguments.isEmpty {
      text += ".PP\nArguments:\n.RS\n"
      for argument in command.arguments {
        text +=
          ".TP\n\\fI\(roff(argument.name))\\fR" + (argument.repeats ? " ..." : "") + "\n"
          + roff(argument.help) + "\n"
      }
      text += ".RE\n"
    }
    text += ".PP\nOptions:\n.RS\n"
    for option in command.options + [ChartArchiveTool.helpOption] { text += item(option) }
    text += ".RE\n"
    if !command.examples.isEmpty {
      text += ".PP\n" + (command.examples.count == 1 ? "Example:" : "Examples:") + "\n"
      text += preformatted(command.examples)
    }
    return text
  }

  /// A subcommand's usage line: names bold, values italic, what may be left out in brackets.
  private static func synopsis(_ command: any Subcommand.Type) -> String {
    var parts = ["\\fBchart\\-archive \(roff(command.name))\\fR"]
    for argument in command.arguments {
      var part = "\\fI\(roff(argument.name))\\fR"
      if argument.repeats { part += " ..." }
      parts.append(argument.isOptional ? "[\(part)]" : part)
    }
    for option in command.options {
      parts.append("[\(optionName(option))]")
    }
    return ".PP\n" + parts.joined(separator: " ") + "\n"
  }

  /// An option's names in bold and its value's name in italics.
  private static func optionName(_ option: OptionSpec) -> String {
    (option.shortName.map { "\\fB\(roff($0))\\fR, " } ?? "") + "\\fB\(roff(option.name))\\fR"
      + (option.valueName.map { " \\fI\(roff($0))\\fR" } ?? "")
  }

  /// An option as a tagged paragraph: its names, then its help.
  private static func item(_ option: OptionSpec) -> String {
    ".TP\n" + optionName(option) + "\n" + roff(option.help) + "\n"
  }

  /// A discussion's text as paragraphs (see ``Subcommand/discussion``): prose filled, indented
  /// lines kept as they are, a heading line bold.
  private static func discussion(_ text: String) -> String {
    var output = ""
    var kept: [String] = []
    var inParagraph = false
    func flush() {
      if !kept.isEmpty { output += preformatted(kept) }
      kept = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("  ") {
        kept.append(String(line.dropFirst(2)))
        inParagraph = false
        continue
      }
      flush()
      if line.isEmpty {
        inParagraph = false
      } else if line.hasSuffix(":"), line.allSatisfy({ $0.isUppercase || $0 == " " || $0 == ":" }) {
        output += ".PP\n.B \"\(roff(String(line.dropLast())))\"\n"
        inParagraph = false
      } else {
        if !inParagraph { output += ".PP\n" }
        output += roff(String(line)) + "\n"
        inParagraph = true
      }
    }
    flush()
    return output
  }

  /// Lines kept as they are, indented.
  private static func preformatted(_ lines: [String]) -> String {
    ".PP\n.RS 4\n.nf\n" + lines.map { roff($0) + "\n" }.joined() + ".fi\n.RE\n"
  }

  // MARK: - Text

  /// `text` with its first letter capitalized and a period at the end.
  static func sentence(_ text: String) -> String {
    guard let first = text.first else { return text }
    let body = first.uppercased() + text.dropFirst()
    return body.hasSuffix(".") ? body : body + "."
  }

  /// A sentence as the NAME section gives it: its first letter small, no period at the end.
  static func summary(_ text: String) -> String {
    guard let first = text.first else { return text }
    let body = first.lowercased() + text.dropFirst()
    return body.hasSuffix(".") ? String(body.dropLast()) : body
  }

  /// Text for a roff line: see ``ManualPage``. A word that starts with a dash (an option,
  /// `--skip-invalid`) has every dash `\-`, which groff does not break a line at.
  static func roff(_ text: String) -> String {
    var output = ""
    var previous: Character?
    var inOption = false
    for character in text {
      if character.isWhitespace {
        inOption = false
      } else if character == "-", !(previous.map { $0.isLetter || $0.isNumber } ?? false) {
        inOption = true
      }
      switch character {
      case "\\": output += "\\e"
      case "-" where inOption: output += "\\-"
      case _ where character.isASCII: output.append(character)
      default:
        for scalar in character.unicodeScalars {
          output +=
            "\\[u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4) + "]"
        }
      }
      previous = character
    }
    if output.hasPrefix(".") || output.hasPrefix("'") { output = "\\&" + output }
    return output
  }
}

extension String {
  /// The text after as many `0`s as make it `length` characters long.
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}
