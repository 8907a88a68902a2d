/// A shell completion script for `chart-archive`, made from the subcommands' specifications
/// (``Subcommand``, ``OptionSpec``, ``ArgumentSpec``): the subcommands with their abstracts, each
/// one's options and arguments, and the words each value may be (``ValueKind``). Chart names
/// come from the archive when the script runs: it calls `chart-archive completion --chart-names`
/// (with the `--db` of the line being completed), through the same path the line starts with.
///
/// The scripts follow each shell's conventions: bash's programmable completion (`complete -F`,
/// `COMP_WORDS`, `compgen`; bash 4 or later, bash-completion not needed), zsh's `_arguments`
/// (<https://zsh.sourceforge.io/Doc/Release/Completion-System.html>) and fish's `complete`
/// (<https://fishshell.com/docs/current/completions.html>).
struct CompletionScript {
  /// The shells with a script.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  /// The script's shell.
  let shell: Shell

  init(for shell: Shell) { self.shell = shell }

  /// The script, ending with a line end.
  var text: String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  // MARK: - What is completed

  /// One subcommand as completion sees it: its name, abstract, options (`--help` included) and
  /// arguments.
  struct Command {
    var name: String
    var abstract: String
    var options: [OptionSpec]
    var arguments: [ArgumentSpec]
  }

  /// Every subcommand, then `help`, whose argument is a subcommand's name.
  static var commands: [Command] {
    var commands: [Command] = []
    var names: [String] = []
    for subcommand in ChartArchiveTool.subcommands {
      names.append(subcommand.name)
      commands.append(
        Command(
          name: subcommand.name, abstract: subcommand.abstract,
          options: subcommand.options + [ChartArchiveTool.helpOption],
          arguments: subcommand.arguments))
    }
    let help = ArgumentSpec(
      name: "subcommand", help: "A subcommand.", isOptional: true, values: .choices(names))
    commands.append(
      Command(
        name: "help", abstract: "Show help information for a subcommand.", options: [],
        arguments: [help]))
    return commands
  }

  /// The tool's own options (before a subcommand), `--help` included.
  static var toolOptions: [OptionSpec] {
    ChartArchiveTool.toolOptions + [ChartArchiveTool.helpOption]
  }

  /// An option's names: the long one, then the short one if any.
  private static func names(_ option: OptionSpec) -> [String] {
    [option.name] + (option.shortName.map { [$0] } ?? [])
  }

  /// Text in single quotes for a POSIX shell (and fish): `'` written `'\''` (`\'` in fish).
  private static func quoted(_ text: String, fish: Bool = false) -> String {
    "'"
      + text.replacing("\\", with: fish ? "\\\\" : "\\")
      .replacing("'", with: fish ? "\\'" : "'\\''") + "'"
  }

  /// The heading comment of every script.
  private var heading: String {
    """
    # \(shell.rawValue) completion for chart-archive \(ChartArchiveTool.version), made by \
    `chart-archive completion \(shell.rawValue)`
    # from the tool's command specifications (do not edit: make it again).

    """
  }

  // MARK: - bash

  /// A value's kind as the bash script's functions name it: `text`, `file`, `chart`, `date` or
  /// `words W…`.
  private static func bashKind(_ values: ValueKind) -> String {
    switch values {
    case .text: "text"
    case .choices(let words): "words " + words.joined(separator: " ")
    case .chart: "chart"
    case .snapshotDate: "date"
    case .file, .fileOrFolder: "file"
    }
  }

  /// The bash script: the tables of options, option values and arguments made from the
  /// specifications (``bashLookups(_:)``), the helpers that complete a kind of value
  /// (``bashHelpers``), and the function bash calls (``bashCompletion(subcommands:)``).
  private var bash: String {
    let commands = Self.commands
    return heading + "\n" + Self.bashLookups(commands) + "\n" + Self.bashHelpers + "\n"
      + Self.bashCompletion(subcommands: commands.map(\.name).joined(separator: " "))
  }

  /// The bash functions that look a subcommand's options up, what an option's value is, and
  /// what an argument at an index is: a `case` each, made from the specifications.
  private static func bashLookups(_ commands: [Command]) -> String {
    let optionLists = bashOptionLists(commands)
    let optionValues = bashOptionValues(commands)
    let argumentValues = bashArgumentValues(commands)
    return """
      # _chart_archive_options SUBCOMMAND: the options of SUBCOMMAND ('' for the tool's own).
      _chart_archive_options() {
        case $1 in
      \(optionLists)  esac
      }

      # _chart_archive_option_values SUBCOMMAND OPTION: what the value of OPTION is (text, file,
      # chart, date, or words W...); fails for a flag or an option SUBCOMMAND does not take.
      _chart_archive_option_values() {
        case "$1 $2" in
      \(optionValues)    *) return 1 ;;
        esac
      }

      # _chart_archive_argument_values SUBCOMMAND INDEX: what the argument at INDEX (0 for the
      # first after SUBCOMMAND) is; fails when SUBCOMMAND takes no argument there.
      _chart_archive_argument_values() {
        case "$1 $2" in
      \(argumentValues)    *) return 1 ;;
        esac
      }

      """
  }

  /// The cases of `_chart_archive_options`: the tool's own options, then each subcommand's.
  private static func bashOptionLists(_ commands: [Command]) -> String {
    var cases = "    '') echo "
    cases += quoted(toolOptions.flatMap(names).joined(separator: " ")) + " ;;\n"
    for command in commands {
      cases +=
        "    \(command.name)) echo "
        + quoted(command.options.flatMap(names).joined(separator: " ")) + " ;;\n"
    }
    return cases
  }

  /// The cases of `_chart_archive_option_values`: each option that takes a value, by each of its
  /// names, the tool's own first.
  private static func bashOptionValues(_ commands: [Command]) -> String {
    var cases = ""
    for option in toolOptions where !option.isFlag {
      cases += "    \(quoted(" " + option.name))) echo \(quoted(bashKind(option.values))) ;;\n"
    }
    for command in commands {
      for option in command.options where !option.isFlag {
        for name in names(option) {
          cases +=
            "    \(quoted(command.name + " " + name))) echo " + quoted(bashKind(option.values))
            + " ;;\n"
        }
      }
    }
    return cases
  }

  /// The cases of `_chart_archive_argument_values`: each subcommand's arguments by index (a
  /// repeated one at any index from its own).
  private static func bashArgumentValues(_ commands: [Command]) -> String {
    var cases = ""
    for command in commands {
      for (index, argument) in command.arguments.enumerated() {
        let pattern =
          argument.repeats
          ? quoted(command.name + " ") + "*" : quoted("\(command.name) \(index)")
        cases += "    \(pattern)) echo \(quoted(bashKind(argument.values))) ;;\n"
      }
    }
    return cases
  }

  /// The bash functions that complete a kind of value: a path with `~/` expanded, and the words,
  /// dates, files or chart names (asked of the tool) that begin with the word being completed.
  private static let bashHelpers =
    """
    # _chart_archive_expand PATH: PATH with a leading ~/ made the home folder.
    _chart_archive_expand() {
      if [[ $1 == '~/'* ]]; then printf '%s\\n' "$HOME/${1#'~/'}"; else printf '%s\\n' "$1"; fi
    }

    # _chart_archive_complete KIND WORD ARCHIVE: fills COMPREPLY with the values of KIND that
    # begin with WORD; ARCHIVE is the line's --db, if any.
    _chart_archive_complete() {
      local kind=$1 word=$2 archive=$3 tool name
      local -a names=()
      case $kind in
        words\\ *) mapfile -t COMPREPLY < <(compgen -W "${kind#words }" -- "$word") ;;
        date) mapfile -t COMPREPLY < <(compgen -W 'latest previous' -- "$word") ;;
        file)
          compopt -o filenames 2>/dev/null
          mapfile -t COMPREPLY < <(compgen -f -- "$word")
          ;;
        chart)
          tool=$(_chart_archive_expand "${COMP_WORDS[0]}")
          if [[ -n $archive ]]; then
            mapfile -t names < <("$tool" completion --chart-names \\
              --db "$(_chart_archive_expand "$archive")" 2>/dev/null)
          else
            mapfile -t names < <("$tool" completion --chart-names 2>/dev/null)
          fi
          for name in "${names[@]}"; do
            if [[ $name == "$word"* ]]; then COMPREPLY+=("$(printf '%q' "$name")"); fi
          done
          ;;
      esac
    }

    """

  /// The function bash calls to complete a `chart-archive` line: it reads the words before the
  /// one completed (the subcommand, the archive, the arguments given) and completes an option's
  /// value, an option, a subcommand or an argument.
  ///
  /// - Parameter subcommands: the subcommands' names, separated by spaces.
  private static func bashCompletion(subcommands: String) -> String {
    """
    _chart_archive() {
      COMPREPLY=()
      local cword=$COMP_CWORD word=${COMP_WORDS[COMP_CWORD]} previous=
      local command= archive= index=0 kind item i=1
      ((cword > 0)) && previous=${COMP_WORDS[cword - 1]}
      # The words before the one completed: the subcommand, the archive, the arguments given.
      while ((i < cword)); do
        item=${COMP_WORDS[i]}
        if [[ $item == -* && ${COMP_WORDS[i + 1]} == = ]]; then
          # --option=value, split by bash at the =.
          ((i + 2 < cword)) || break
          [[ $item == --db ]] && archive=${COMP_WORDS[i + 2]}
          i=$((i + 3))
          continue
        fi
        if [[ $item == --db=* ]]; then
          archive=${item#--db=}
        elif [[ $item == -* ]]; then
          if _chart_archive_option_values "$command" "$item" >/dev/null; then
            [[ $item == --db ]] && archive=${COMP_WORDS[i + 1]}
            i=$((i + 2))
            continue
          fi
        elif [[ -z $command ]]; then
          command=$item
        else
          index=$((index + 1))
        fi
        i=$((i + 1))
      done
      if [[ $word == = && $previous == -* ]]; then
        # Right after --option=.
        kind=$(_chart_archive_option_values "$command" "$previous") &&
          _chart_archive_complete "$kind" '' "$archive"
      elif [[ $previous == = ]] && ((cword > 1)) && [[ ${COMP_WORDS[cword - 2]} == -* ]]; then
        kind=$(_chart_archive_option_values "$command" "${COMP_WORDS[cword - 2]}") &&
          _chart_archive_complete "$kind" "$word" "$archive"
      elif [[ $previous == -* ]] && kind=$(_chart_archive_option_values "$command" "$previous"); then
        _chart_archive_complete "$kind" "$word" "$archive"
      elif [[ $word == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_chart_archive_options "$command")" -- "$word")
      elif [[ -z $command ]]; then
        mapfile -t COMPREPLY < <(compgen -W \(Self.quoted(subcommands)) -- "$word")
      elif kind=$(_chart_archive_argument_values "$command" "$index"); then
        _chart_archive_complete "$kind" "$word" "$archive"
      fi
      return 0
    }

    complete -F _chart_archive chart-archive

    """
  }

  // MARK: - zsh

  /// Text for a description in brackets in an `_arguments` specification, inside single quotes.
  private static func zshDescription(_ text: String) -> String {
    text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
      .replacing(":", with: "\\:").replacing("'", with: "'\\''")
  }

  /// The `:message:action` of a value, for `_arguments`.
  private static func zshAction(_ name: String, _ values: ValueKind) -> String {
    let action =
      switch values {
      case .text: " "
      case .choices(let words): "(" + words.joined(separator: " ") + ")"
      case .chart: "_chart_archive_charts"
      case .snapshotDate: "(latest previous)"
      case .file, .fileOrFolder: "_files"
      }
    return ":" + name + ":" + action
  }

  /// An option's specifications for `_arguments`, a quoted word each.
  private static func zshOptions(_ option: OptionSpec) -> [String] {
    let value = option.valueName.map { zshAction($0, option.values) } ?? ""
    let exclusive = option.name == "--help" || option.name == "--version" ? "(- *)" : ""
    return names(option).map {
      "'" + exclusive + (option.repeats ? "*" : "") + $0 + (option.isFlag ? "" : "=") + "["
        + zshDescription(option.help) + "]" + value + "'"
    }
  }

  /// An argument's specification for `_arguments`, quoted.
  private static func zshArgument(_ argument: ArgumentSpec, at index: Int) -> String {
    let position =
      argument.repeats ? "*" : "\(index + 1)" + (argument.isOptional ? ":" : "")
    return "'" + position + zshAction(argument.name, argument.values) + "'"
  }

  private var zsh: String {
    let commands = Self.commands
    let continuation = " \\\n"
    let toolCall =
      "_arguments -C -A '-*'"
      + (Self.toolOptions.flatMap(Self.zshOptions) + ["'1: :->subcommand'", "'*:: :->argument'"])
      .map { continuation + "    " + $0 }.joined() + " && ret=0"
    var cases = ""
    for command in commands {
      let specs =
        command.options.flatMap(Self.zshOptions)
        + command.arguments.enumerated().map { Self.zshArgument($1, at: $0) }
      cases += "        \(command.name))\n          _arguments -S"
      for spec in specs { cases += continuation + "            " + spec }
      cases += " && ret=0\n          ;;\n"
    }
    let descriptions = commands.map {
      "        " + Self.quoted($0.name + ":" + $0.abstract.replacing(":", with: "\\:"))
    }.joined(separator: "\n")
    return "#compdef chart-archive\n" + heading + """

      # The names of the charts of the archive the line names with --db, else of the default one.
      _chart_archive_charts() {
        local archive=${opt_args[--db]:-$_chart_archive_archive}
        local tool=$_chart_archive_tool
        [[ $tool == '~/'* ]] && tool=$HOME/${tool#'~/'}
        [[ $archive == '~/'* ]] && archive=$HOME/${archive#'~/'}
        local -a charts
        charts=(${(f)"$($tool completion --chart-names ${archive:+--db} ${archive:+$archive} 2>/dev/null)"})
        _wanted charts expl chart compadd -a charts
      }

      _chart_archive() {
        local curcontext=$curcontext state line ret=1
        local _chart_archive_tool=$words[1] _chart_archive_archive
        typeset -A opt_args
        \(toolCall)
        _chart_archive_archive=${opt_args[--db]}
        case $state in
          subcommand)
            local -a subcommands=(
      \(descriptions)
            )
            _describe -t subcommands subcommand subcommands && ret=0
            ;;
          argument)
            curcontext=${curcontext%:*:*}:chart-archive-$words[1]:
            case $words[1] in
      \(cases)      esac
            ;;
        esac
        return ret
      }

      if [[ $funcstack[1] == _chart-archive ]]; then
        _chart_archive "$@"
      else
        compdef _chart_archive chart-archive
      fi

      """
  }

  // MARK: - fish

  /// The `complete` arguments that say what follows an option or fills an argument.
  private static func fishValues(_ values: ValueKind) -> String {
    switch values {
    case .text: "-x"
    case .choices(let words): "-x -a " + quoted(words.joined(separator: " "), fish: true)
    case .chart: "-x -a '(__chart_archive_charts)'"
    case .snapshotDate: "-x -a 'latest previous'"
    case .file, .fileOrFolder: "-r -F"
    }
  }

  /// The `complete` lines of an option, under a condition.
  private static func fishOption(_ option: OptionSpec, condition: String) -> String {
    var line = "complete -c chart-archive -n \(quoted(condition, fish: true))"
    line += " -l " + option.name.dropFirst(2)
    if let short = option.shortName { line += " -s " + short.dropFirst() }
    if !option.isFlag { line += " " + fishValues(option.values) }
    return line + " -d " + quoted(option.help, fish: true) + "\n"
  }

  /// The fish script: the function that lists the options taking a value
  /// (``fishValuedOptions(_:)``), the helpers that tell where the line is and list the chart
  /// names (``fishHelpers``), and a `complete` line for each option, subcommand and argument
  /// (``fishCompletions(_:)``).
  private var fish: String {
    let commands = Self.commands
    return heading + "\n" + Self.fishValuedOptions(commands) + "\n" + Self.fishHelpers + "\n"
      + Self.fishNoFiles + "\n" + Self.fishCompletions(commands)
  }

  /// The fish function that lists the options of a subcommand ('' for the tool's own) that take a
  /// value, which the line's reading skips the value of.
  private static func fishValuedOptions(_ commands: [Command]) -> String {
    var valued = "        case ''\n            printf '%s\\n' "
    valued += toolOptions.filter { !$0.isFlag }.flatMap(names).joined(separator: " ")
    valued += "\n"
    for command in commands {
      let valuedNames = command.options.filter { !$0.isFlag }.flatMap(names)
      if !valuedNames.isEmpty {
        valued +=
          "        case \(command.name)\n            printf '%s\\n' "
          + valuedNames.joined(separator: " ") + "\n"
      }
    }
    return """
      # The options of a subcommand ('' for the tool's own) that take a value, one a line.
      function __chart_archive_valued_options
          switch $argv[1]
      \(valued)    end
      end

      """
  }

  /// The fish functions that tell whether the line is at a subcommand (and at which of its
  /// arguments), and that list the chart names of the line's archive (asked of the tool).
  private static let fishHelpers =
    """
    # Whether the line being completed is at subcommand COMMAND ('' before one), and, when
    # FIRST is given, at its argument FIRST (0 for the first) or later, up to LAST if given.
    function __chart_archive_at --argument-names want first last
        set -l tokens (commandline -opc)
        set -l command ''
        set -l index 0
        set -l skip 0
        for token in $tokens[2..-1]
            if test $skip -eq 1
                set skip 0
                continue
            end
            switch $token
                case '-*=*'
                case '-*'
                    if contains -- $token (__chart_archive_valued_options $command)
                        set skip 1
                    end
                case '*'
                    if test -z "$command"
                        set command $token
                    else
                        set index (math $index + 1)
                    end
            end
        end
        test "$command" = "$want"; or return 1
        test -z "$first"; and return 0
        test $index -ge $first; or return 1
        test -z "$last"; or test $index -le $last
    end

    # The names of the charts of the archive the line names with --db, else of the default one.
    function __chart_archive_charts
        set -l tokens (commandline -opc)
        set -l archive
        for i in (seq 2 (count $tokens))
            switch $tokens[$i]
                case --db
                    set archive $tokens[(math $i + 1)]
                case '--db=*'
                    set archive (string replace -- --db= '' $tokens[$i])
            end
        end
        set -l tool (string replace -r -- '^~/' "$HOME/" $tokens[1])
        if test -n "$archive"
            set archive (string replace -r -- '^~/' "$HOME/" $archive)
            $tool completion --chart-names --db $archive 2>/dev/null
        else
            $tool completion --chart-names 2>/dev/null
        end
    end

    """

  /// The `complete` line that keeps fish from completing file names but where a file is asked
  /// for.
  private static let fishNoFiles =
    """
    # No file names but where a file is asked for.
    complete -c chart-archive -f

    """

  /// A `complete` line for each of the tool's options and subcommands, then, per subcommand, for
  /// each option and argument.
  private static func fishCompletions(_ commands: [Command]) -> String {
    var lines = "# The tool's own options, then the subcommands.\n"
    for option in toolOptions {
      lines += fishOption(option, condition: "__chart_archive_at ''")
    }
    for command in commands {
      lines +=
        "complete -c chart-archive -n \"__chart_archive_at ''\" -a \(command.name) -d "
        + quoted(command.abstract, fish: true) + "\n"
    }
    for command in commands {
      lines += "\n# \(command.name)\n"
      for option in command.options {
        lines += fishOption(option, condition: "__chart_archive_at \(command.name)")
      }
      for (index, argument) in command.arguments.enumerated() {
        let range = argument.repeats ? "\(index)" : "\(index) \(index)"
        lines +=
          "complete -c chart-archive -n "
          + quoted("__chart_archive_at \(command.name) \(range)", fish: true) + " "
          + fishValues(argument.values) + " -d " + quoted(argument.help, fish: true) + "\n"
      }
    }
    return lines
  }
}
