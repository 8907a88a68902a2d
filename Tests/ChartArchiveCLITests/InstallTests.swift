import Foundation
import Testing

/// script/install and script/uninstall, with the built tool (`--binary`, no release build): what
/// is installed where, that it runs from there, and that uninstalling leaves the prefix as it was.
@Suite(.serialized)
struct InstallTests {
  /// Every file and folder under `folder`, relative to it, sorted.
  static func tree(_ folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var paths: [String] = []
    while let path = enumerator?.nextObject() as? String { paths.append(path) }
    return paths.sorted()
  }

  /// Runs `script/NAME` with arguments.
  static func script(_ name: String, _ arguments: [String]) throws -> Run {
    try runProgram(
      "/bin/bash", [packageRoot.appendingPathComponent("script/\(name)").path] + arguments,
      environment: ["TOOL": toolURL.path])
  }

  @Test func installsTheToolItsManualAndCompletionsThenUninstallsExactlyThat() throws {
    let folder = try TemporaryFolder()
    let prefix = folder.path + "/prefix"
    // Something of the user's, already there: it stays.
    try folder.write("prefix/share/notes.txt", "mine")
    let before = Self.tree(prefix)

    let install = try Self.script("install", ["--prefix", prefix, "--binary", toolURL.path])
    #expect(install.status == 0, "\(install.error)")
    #expect(
      Self.tree(prefix) == [
        "bin", "bin/chart-archive", "share", "share/bash-completion",
        "share/bash-completion/completions", "share/bash-completion/completions/chart-archive",
        "share/chart-archive", "share/chart-archive/installed-files", "share/fish",
        "share/fish/vendor_completions.d", "share/fish/vendor_completions.d/chart-archive.fish",
        "share/man", "share/man/man1", "share/man/man1/chart-archive.1.gz", "share/notes.txt",
        "share/zsh", "share/zsh/site-functions", "share/zsh/site-functions/_chart-archive",
      ])
    let installed = try runProgram(prefix + "/bin/chart-archive", ["--version"])
    #expect(installed.output == "chart-archive 0.1.0\n")
    for (shell, path) in [
      ("bash", "share/bash-completion/completions/chart-archive"),
      ("zsh", "share/zsh/site-functions/_chart-archive"),
      ("fish", "share/fish/vendor_completions.d/chart-archive.fish"),
    ] {
      #expect(
        try String(contentsOfFile: prefix + "/" + path, encoding: .utf8)
          == chartArchive(["completion", shell]).output)
    }
    let manual = try runProgram(
      "/bin/gzip", ["-dc", prefix + "/share/man/man1/chart-archive.1.gz"])
    #expect(manual.output == (try chartArchive(["manual"]).output))

    // Installing again changes nothing of what is recorded.
    let record = try String(
      contentsOfFile: prefix + "/share/chart-archive/installed-files", encoding: .utf8)
    #expect(try Self.script("install", ["--prefix", prefix, "--binary", toolURL.path]).status == 0)
    #expect(
      try String(contentsOfFile: prefix + "/share/chart-archive/installed-files", encoding: .utf8)
        == record)
    #expect(record.split(separator: "\n").filter { $0.hasPrefix("file ") }.count == 5)

    let uninstall = try Self.script("uninstall", ["--prefix", prefix])
    #expect(uninstall.status == 0, "\(uninstall.error)")
    #expect(Self.tree(prefix) == before)
    #expect(uninstall.error.contains("removed \(prefix)/bin/chart-archive\n"))
  }

  @Test func aFileChangedSinceItWasInstalledIsKept() throws {
    let folder = try TemporaryFolder()
    let prefix = folder.path + "/prefix"
    #expect(try Self.script("install", ["--prefix", prefix, "--binary", toolURL.path]).status == 0)
    let changed = prefix + "/share/fish/vendor_completions.d/chart-archive.fish"
    try Data("# mine\n".utf8).write(to: URL(fileURLWithPath: changed))
    let uninstall = try Self.script("uninstall", ["--prefix", prefix])
    #expect(uninstall.status == 1)
    #expect(uninstall.error.contains("kept \(changed): it changed since it was installed\n"))
    #expect(
      Self.tree(prefix) == [
        "share", "share/fish", "share/fish/vendor_completions.d",
        "share/fish/vendor_completions.d/chart-archive.fish",
      ])
  }

  @Test func uninstallingWhatWasNotInstalledSaysSo() throws {
    let folder = try TemporaryFolder()
    let run = try Self.script("uninstall", ["--prefix", folder.path])
    #expect(run.status == 66)
    #expect(
      run.error
        == "script/uninstall: nothing recorded in \(folder.path)/share/chart-archive/installed-files:"
        + " script/install did not install under \(folder.path)\n")
  }

  @Test(arguments: ["install", "uninstall", "package", "test-package"])
  func eachScriptParses(name: String) throws {
    let run = try runProgram(
      "/bin/bash", ["-n", packageRoot.appendingPathComponent("script/\(name)").path])
    #expect(run.status == 0)
    #expect(run.error == "")
  }
}
