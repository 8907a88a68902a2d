import ChartFormats
import ChartPresentation
import ChartRanking
import ChartStorage

/// The exit statuses of `chart-archive`, from BSD's sysexits.h where one fits.
public enum ExitCode: Int32, CaseIterable, Sendable {
  /// Done.
  case success = 0
  /// The answer is no: no such chart, snapshot or song, a search that matched several songs, or a
  /// failed `check`.
  case failure = 1
  /// EX_USAGE: the command line is wrong.
  case usage = 64
  /// EX_DATAERR: an input file (or the archive) holds bad data; nothing was stored.
  case dataError = 65
  /// EX_NOINPUT: an input file or folder, or the archive, does not exist.
  case noInput = 66
  /// EX_SOFTWARE: an internal error.
  case software = 70
  /// EX_IOERR: SQLite could not read or write the archive, or standard output could not be
  /// written (a full disk, an I/O error).
  case ioError = 74
  /// EX_TEMPFAIL: the archive stayed locked by another process, or `serve`'s port is in use;
  /// try again.
  case temporaryFailure = 75
  /// Standard output was closed by its reader (`chart-archive export hot-100 | head -1`): the
  /// status of a process ended by SIGPIPE (128 + 13), with nothing said.
  case outputClosed = 141
}

extension ExitCode {
  /// What the status means, in a sentence without its final period: what `--help`, the manual
  /// page's EXIT STATUS and the command reference's table (docs/commands.md) say.
  var meaning: String {
    switch self {
    case .success: "done"
    case .failure:
      "the answer is no: no such chart, snapshot or song, a search matching several songs, or a"
        + " failed check"
    case .usage: "usage error (the message and the usage line go to standard error)"
    case .dataError:
      "invalid input data, or a file that is not an archive this version can use; nothing was"
        + " stored"
    case .noInput: "an input file or folder, or the archive, does not exist"
    case .software: "an internal error"
    case .ioError:
      "SQLite could not read or write the archive, or standard output could not be written (a full"
        + " disk, an I/O error: what was written is incomplete)"
    case .temporaryFailure:
      "the archive stayed locked by another process, or serve's port is in use; try again"
    case .outputClosed:
      "standard output was closed by its reader (chart-archive export hot-100 | head -1): nothing"
        + " is said, as for other tools ended by SIGPIPE"
    }
  }
}

/// An error that ends a command: its message for standard error and its exit status.
struct CommandError: Error {
  var exitCode: ExitCode
  var message: String

  init(_ exitCode: ExitCode, _ message: String) {
    self.exitCode = exitCode
    self.message = message
  }

  /// The error's exit status and its message in the command line's words: what to run or pass
  /// to mend it, where there is something.
  init(_ error: ArchiveError) {
    let code: ExitCode =
      switch error {
      case .notFound: .noInput
      case .notAnArchive, .newerSchema, .conflictingSnapshot, .conflictingSnapshotsInOneImport,
        .frequencyConflict:
        .dataError
      case .invalidChartName, .sameSnapshot: .usage
      case .noSuchChart, .noSuchSnapshot, .noEarlierSnapshot, .notEnoughSnapshots: .failure
      case .database: error.isLocked ? .temporaryFailure : .ioError
      case .upgradeNotWritable, .damaged: .ioError
      }
    let hint: String? =
      switch error {
      case .notFound: "import charts first: chart-archive import PATH…"
      case .conflictingSnapshot: "use --replace to replace it"
      case .upgradeNotWritable:
        "run any chart-archive command on it once as a user who can write it; the upgrade keeps"
          + " every snapshot"
      case .frequencyConflict(_, let stored, _):
        "import it into another chart with --chart NAME, or give --frequency \(stored.rawValue) if"
          + " it is this chart"
      case .damaged:
        "nothing was written to it; chart-archive check tells what is wrong: restore it from a"
          + " backup, or import its charts again into a new archive"
      case .noSuchChart, .noSuchSnapshot: ErrorHints.hint(for: error)
      default: nil
      }
    self.init(code, error.description + (hint.map { " (\($0))" } ?? ""))
  }
}

/// The command line's words for what mends a chart file's problem.
enum Remedies {
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
