// waypoint-web: the phone companion's server and its session commands (README, "The phone
// companion"; waypoint-web(8)).
@preconcurrency import Glibc
import SystemSupport

SignalStream.ignoreQuietly()
let arguments = Array(CommandLine.arguments.dropFirst())
// Before any thread starts: the signals the command takes are blocked here, so that every
// thread inherits the mask and one sent in the first instant waits for the signal thread
// instead of being lost; main then waits in AsyncMain with its mask kept.
SignalStream.block(WaypointWeb.signalsTaken(by: arguments.first))
exit(AsyncMain.run { await WaypointWeb.run(arguments) }.rawValue)
