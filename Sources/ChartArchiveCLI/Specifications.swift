/// What the value of an option or argument is, for the completion scripts and the manual page:
/// the words a shell offers when completing it.
enum ValueKind: Equatable {
  /// Any text: nothing is offered.
  case text
  /// One of these words (`--format`: `table`, `json`, `csv`).
  case choices([String])
  /// A chart of the archive (the one `--db` names, else the default): its names are offered.
  case chart
  /// A chart date, or `latest` or `previous`: the two words are offered.
  case snapshotDate
  /// A file's path.
  case file
  /// A file's or a folder's path.
  case fileOrFolder
}

/// An option a subcommand accepts: `--name VALUE`, or a flag `--name` when it takes no value.
struct OptionSpec {
  var name: String
  var valueName: String?
  var help: String
  /// Whether the option may be given more than once.
  var repeats = false
  /// What its value is (nothing for a flag).
  var values = ValueKind.text
  /// A one-letter name it also answers to (`-V`), or `nil`.
  var shortName: String?

  var isFlag: Bool { valueName == nil }
}

/// A positional argument of a subcommand.
struct ArgumentSpec {
  var name: String
  var help: String
  var isOptional = false
  /// Whether it takes all remaining positional arguments (at least one unless optional).
  var repeats = false
  /// What its value is.
  var values = ValueKind.text
}
