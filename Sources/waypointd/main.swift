// waypointd: the navigation daemon and its subcommands (DESIGN.md §4).
@preconcurrency import Glibc
import SystemSupport

// A file size limit (systemd's LimitFSIZE=, ulimit -f) must make a save fail with EFBIG, which
// the state store handles by keeping the previous file, rather than kill the daemon mid-guidance.
signal(SIGXFSZ, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
// Before any thread starts: the signals the command takes are blocked here, so that every
// thread inherits the mask and one sent in the first instant waits for the signal thread
// instead of being lost. main then waits in AsyncMain, its mask kept (top-level await would
// park it in dispatch_main's sigsuspend, open to every signal).
SignalStream.block(Waypointd.signalsTaken(by: arguments.first))
exit(AsyncMain.run { await Waypointd.run(arguments) }.rawValue)
