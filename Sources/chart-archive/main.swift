import ChartArchiveCLI
import Foundation

let console = Console.standard(environment: ProcessInfo.processInfo.environment)
let status = ChartArchiveTool.run(Array(CommandLine.arguments.dropFirst()), console: console)
Console.flushStandardOutput()
exit(status.rawValue)
