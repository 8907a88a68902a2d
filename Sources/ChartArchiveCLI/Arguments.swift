import ChartRanking

/// A usage error: what was wrong with the command line. Exit status 64 (EX_USAGE).
struct UsageError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// The command line of one subcommand, parsed against its specs.
struct ParsedArguments {
  var positionals: [String: [String]] = [:]
  var options: [String: [String]] = [:]
  var flags: Set<String> = []
  var wantsHelp = false

  func argument(_ name: String) -> String? { positionals[name]?.first }
  func arguments(_ name: String) -> [String] { positionals[name] ?? [] }
  func option(_ name: String) -> String? { options[name]?.last }
  func flag(_ name: String) -> Bool { flags.contains(name) }

  /// Parses arguments: options anywhere (`--name value` or `--name=value`), `--` ends options,
  /// `-h`/`--help` asks for help.
  ///
  /// - Throws: ``UsageError`` for an unknown option, a missing value, a missing or extra argument.
  static func parse(
    _ arguments: [String], options specs: [OptionSpec], arguments argumentSpecs: [ArgumentSpec]
  ) throws(UsageError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var positionals: [String] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        parsed.wantsHelp = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let spec = specs.first(where: { $0.name == name || $0.shortName == name }) else {
        // A negative number is a value, not an option.
        if Int(argument) != nil {
          positionals.append(argument)
          continue
        }
        let closest = Suggestions.closest(to: name, among: specs.map { $0.name }).first
        throw UsageError(
          "unknown option '\(name)'" + (closest.map { " (did you mean \($0)?)" } ?? ""))
      }
      name = spec.name
      if spec.isFlag {
        if inlineValue != nil { throw UsageError("the flag '\(name)' takes no value") }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else if index < arguments.count {
        value = arguments[index]
        index += 1
      } else {
        throw UsageError("missing value for '\(name) <\(spec.valueName!)>'")
      }
      if !spec.repeats, parsed.options[name] != nil {
        throw UsageError("'\(name)' was given more than once")
      }
      parsed.options[name, default: []].append(value)
    }
    if parsed.wantsHelp { return parsed }
    var remaining = positionals[...]
    for spec in argumentSpecs {
      if spec.repeats {
        if remaining.isEmpty, !spec.isOptional {
          throw UsageError("missing expected argument '<\(spec.name)>'")
        }
        parsed.positionals[spec.name] = Array(remaining)
        remaining = []
      } else if let value = remaining.first {
        parsed.positionals[spec.name] = [value]
        remaining = remaining.dropFirst()
      } else if !spec.isOptional {
        throw UsageError("missing expected argument '<\(spec.name)>'")
      }
    }
    if let extra = remaining.first { throw UsageError("unexpected argument '\(extra)'") }
    return parsed
  }
}
