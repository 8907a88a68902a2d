import ChartArchiveCLI
import Foundation

// A write to a closed pipe fails with EPIPE, which the tool handles, instead of killing the
// process; a file grown past the size limit (`ulimit -f`) fails with EFBIG instead of SIGXFSZ.
signal(SIGPIPE, SIG_IGN)
signal(SIGXFSZ, SIG_IGN)
let console = Console.standard(environment: Console.processEnvironment())
let status = ChartArchiveTool.run(Array(CommandLine.arguments.dropFirst()), console: console)
exit(status.rawValue)
