import Foundation
import Testing

@testable import ChartImport

/// A path given may be a regular file, a folder or a named pipe; a chart file found in a folder
/// must be a regular file. A device (`/dev/zero` never ends) or a pipe in a folder is refused
/// before any byte is read.
struct SourceFileTypeTests {
  /// The files `ImportSource.files(in:)` gives, or the words of the problems it finds.
  private func files(in paths: [String]) -> Result<[String], Refusal> {
    Result { () throws(Refusal) in
      do throws(ImportSourceError) {
        return try ImportSource.files(in: paths)
      } catch {
        throw Refusal(words: error.description)
      }
    }
  }

  private struct Refusal: Error, Equatable {
    var words: String
  }

  @Test func aDeviceGivenIsRefused() {
    #expect(
      files(in: ["/dev/zero"])
        == .failure(
          Refusal(
            words:
              "/dev/zero: a character device, not a file (a regular file, a folder or a named pipe is"
              + " read)")))
  }

  @Test func aNamedPipeGivenIsRead() throws {
    let folder = try TemporaryFolder()
    let pipe = folder.path + "/chart.csv"
    #expect(mkfifo(pipe, 0o600) == 0)
    #expect(try files(in: [pipe]).get() == [pipe])
  }

  @Test func aNamedPipeInAFolderIsRefused() throws {
    let folder = try TemporaryFolder()
    let pipe = folder.path + "/2024-01-06.csv"
    #expect(mkfifo(pipe, 0o600) == 0)
    #expect(
      files(in: [folder.path])
        == .failure(
          Refusal(
            words:
              "\(pipe): a named pipe, not a regular file (only regular files are read in a folder;"
              + " give the pipe itself to read it)")))
  }

  /// A link in a folder to a device, with a chart file's name; without one it is passed over.
  @Test func aDeviceInAFolderIsRefused() throws {
    let folder = try TemporaryFolder()
    let link = folder.path + "/2024-01-06.json"
    #expect(symlink("/dev/zero", link) == 0)
    #expect(symlink("/dev/zero", folder.path + "/zero") == 0)
    #expect(
      files(in: [folder.path])
        == .failure(
          Refusal(
            words:
              "\(link): a character device, not a regular file (only regular files are read in a"
              + " folder)")))
  }
}
