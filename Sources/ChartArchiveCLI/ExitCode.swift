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
  /// EX_DATAERR: an input file (or the archive) holds bad data; nothing was stored (`import
  /// --move-to`: nothing of the files it rejected, the others stored and moved).
  case dataError = 65
  /// EX_NOINPUT: an input file or folder, or the archive, does not exist.
  case noInput = 66
  /// EX_SOFTWARE: an internal error.
  case software = 70
  /// EX_CANTCREAT: the file to create is there already (`backup`'s destination): nothing was
  /// written over it.
  case cannotCreate = 73
  /// EX_IOERR: SQLite could not read or write the archive, or standard output could not be
  /// written (a full disk, an I/O error), or `import --move-to` could not move a file out of its
  /// spool (it stays there).
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
  /// page's EXIT STATUS and the README's table say.
  var meaning: String {
    switch self {
    case .success: "done"
    case .failure:
      "the answer is no: no such chart, snapshot or song, a search matching several songs, or a"
        + " failed check"
    case .usage: "usage error (the message and the usage line go to standard error)"
    case .dataError:
      "invalid input data, or a file that is not an archive this version can use; nothing was"
        + " stored (import --move-to: nothing of the files it rejected)"
    case .noInput: "an input file or folder, or the archive, does not exist"
    case .software: "an internal error"
    case .cannotCreate:
      "the file to create exists already (backup's destination): nothing was written over it"
    case .ioError:
      "SQLite could not read or write the archive, or standard output could not be written (a full"
        + " disk, an I/O error: what was written is incomplete), or the archive was renamed over or"
        + " deleted while it was written (the write is undone), or import --move-to could not move a"
        + " file out of its spool (it stays there)"
    case .temporaryFailure:
      "the archive stayed locked by another process, or serve's port is in use; try again"
    case .outputClosed:
      "standard output was closed by its reader (chart-archive export hot-100 | head -1): nothing"
        + " is said, as for other tools ended by SIGPIPE"
    }
  }
}
