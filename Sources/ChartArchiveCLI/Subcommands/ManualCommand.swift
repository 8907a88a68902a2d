/// `chart-archive manual`: the manual page, made from the subcommands' specifications (see
/// ``ManualPage``).
enum ManualCommand: Subcommand {
  static let name = "manual"
  static let abstract = "Print the manual page, chart-archive(1), in roff."
  static let discussion = """
    The page says what --help says, every subcommand in one page, with the exit statuses, the
    files and the environment variables the tool reads. script/install and the Debian package
    install it, for man chart-archive; the example shows it without installing it.
    """
  static let examples = ["chart-archive manual | man -l -"]
  static let arguments: [ArgumentSpec] = []
  static let options: [OptionSpec] = []

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    console.write(ManualPage().text)
    return .success
  }
}
