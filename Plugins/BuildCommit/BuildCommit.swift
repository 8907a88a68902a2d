import Foundation
import PackagePlugin

/// Writes `BuildCommit.swift` before every build of the target that uses it: the git commit of
/// the package's checkout (`git rev-parse HEAD`, with `-dirty` when tracked files differ from
/// it), or `unknown` when the package is not a git checkout or git is missing.
///
/// A prebuild command (it runs before each build, since the commit changes without any file of
/// the target changing), run with the system's shell; the file is rewritten only when the commit
/// changed, so that an unchanged commit compiles nothing again.
@main
struct BuildCommit: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
    let output = context.pluginWorkDirectoryURL.appending(path: "generated")
    return [
      .prebuildCommand(
        displayName: "Recording the git commit of the build",
        executable: URL(fileURLWithPath: "/bin/sh"),
        arguments: ["-c", script, "build-commit", context.package.directoryURL.path, output.path],
        outputFilesDirectory: output)
    ]
  }

  /// `$1` the package's folder, `$2` the folder of the generated file.
  private let script = #"""
    set -eu
    commit=$(git -C "$1" rev-parse HEAD 2>/dev/null) || commit=unknown
    if [ "$commit" != unknown ] && ! git -C "$1" diff --quiet HEAD -- 2>/dev/null; then
      commit="$commit-dirty"
    fi
    mkdir -p "$2"
    new="$2/BuildCommit.swift.new"
    {
      echo '/// The git commit this build was made from (`git rev-parse HEAD`, `-dirty` when tracked'
      echo '/// files differed from it), or `unknown`; written before each build.'
      echo "let buildCommit = \"$commit\""
    } >"$new"
    if cmp -s "$new" "$2/BuildCommit.swift"; then rm "$new"; else mv "$new" "$2/BuildCommit.swift"; fi
    """#
}
