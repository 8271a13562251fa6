// The `alarmsim` executable: everything lives in AlarmSimCLI so tests can run it in-process.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AlarmSimCLI

var output = StandardOutput()
var errors = StandardError()
let status = AlarmSimCLI.main(arguments: Array(CommandLine.arguments.dropFirst()), output: &output, errors: &errors)
exit(status.rawValue)
