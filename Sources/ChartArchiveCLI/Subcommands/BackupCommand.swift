import ChartPresentation
import ChartStorage
import Foundation

/// `chart-archive backup DEST`: a whole, checked copy of the archive, also while it is in use.
enum BackupCommand: Subcommand {
  static let name = "backup"
  static let abstract =
    "Copy the archive into a new file, whole and checked, even while it is in use."
  static let discussion = """
    Copies the archive into a new archive file at the destination, whole and consistent even
    while serve reads the archive and an import writes it: SQLite's online backup copies every
    page within one read transaction, so the copy is the archive as one import left it, all of it
    (snapshots, songs and figures), whatever is in its write-ahead log (-wal) too. The copy is
    built in a hidden file beside the destination, checked with SQLite's quick_check, and only
    then put at the destination, whose missing folders are created. Prints what the copy holds.

    A file at the destination is never written over (exit status 73), but for an empty one; a
    copy that cannot be written (a full disk, a folder that cannot be written) or that fails its
    check (the archive is damaged: chart-archive check tells) leaves nothing there (exit status
    74).

    To restore a backup, stop what uses the archive (serve, imports), move the archive aside with
    its -wal and -shm files, and back the copy up into the archive's place:
    chart-archive backup --db COPY ARCHIVE.
    """
  static let examples = [
    "chart-archive backup /var/backups/chart-archive/$(date +%F).sqlite",
    "chart-archive backup --db archive-copy.sqlite ~/.local/share/chart-archive/archive.sqlite",
  ]
  static let arguments = [
    ArgumentSpec(
      name: "destination",
      help: "The copy's path, where nothing is yet; its missing folders are created.",
      values: .file)
  ]
  static let options = [SharedOptions.format, SharedOptions.database]

  static func run(_ arguments: ParsedArguments, console: Console) throws -> ExitCode {
    let format = try SharedOptions.outputFormat(arguments)
    let destination = arguments.argument("destination")!
    guard !destination.isEmpty else { throw UsageError("<destination> needs a file path") }
    // Refused before any copy is made; the backup itself refuses one that appears meanwhile.
    try refuseExisting(destination)
    let archive = try SharedOptions.openArchive(arguments, console: console)
    let charts: [ChartSummary]?
    do {
      charts = try archive.backup(to: destination)
    } catch .database(let path, let error) where path == destination && error.isDamage {
      // Pages are copied as they are: a copy that fails its check is of a damaged archive.
      throw CommandError(
        .ioError,
        "the archive \(archive.path) is damaged: its copy fails SQLite's check (\(error)), and"
          + " nothing was left at \(destination) (chart-archive check tells what is wrong)")
    } catch .database(let path, let error) where path == destination && !error.isBusy {
      throw CommandError(.ioError, "cannot write the backup \(destination): \(error)")
    } catch {
      throw CommandError(error)
    }
    guard let charts else { throw exists(destination) }
    console.show(BackupView(archive: archive.path, backup: destination, charts: charts), as: format)
    return .success
  }

  /// Throws the error of an existing destination when something but an empty file is there
  /// (through a symbolic link too): a folder, a file with data, a device.
  private static func refuseExisting(_ destination: String) throws(CommandError) {
    var status = stat()
    guard stat(destination, &status) == 0 else { return }
    let emptyFile = status.st_mode & S_IFMT == S_IFREG && status.st_size == 0
    guard !emptyFile else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
      throw CommandError(
        .cannotCreate,
        "\(destination) is a folder: give the copy's file name in it ("
          + (destination.hasSuffix("/") ? destination : destination + "/") + "archive.sqlite)")
    }
    throw exists(destination)
  }

  /// The error of a destination where something is already.
  private static func exists(_ destination: String) -> CommandError {
    CommandError(
      .cannotCreate,
      "\(destination) exists already, and a backup writes over nothing: give another path, or"
        + " move that file away first")
  }
}
