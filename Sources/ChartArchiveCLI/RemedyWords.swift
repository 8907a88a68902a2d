import ChartFormats

/// The command line's words for what mends a chart file's problem.
enum RemedyWords {
  /// `pass --chart NAME`, `pass --date YYYY-MM-DD …`.
  static func wording(_ remedy: ChartFileProblem.Remedy) -> String {
    switch remedy {
    case .nameTheChart: "pass --chart NAME"
    case .dateTheChart:
      "pass --date YYYY-MM-DD or name the file YYYY-MM-DD.json (or YYYY-MM-DDTHH-MM.json)"
    case .giveTimeZone: "pass --timezone ZONE (an IANA name such as Asia/Seoul)"
    }
  }

  /// A chart file's problems, one line each, in the command line's words.
  static func describe(_ error: ChartFileError) -> String {
    error.description(wordingRemedy: wording)
  }
}
