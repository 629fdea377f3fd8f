/// How `waypointctl` ends, following sysexits(3) where a convention exists.
enum ExitStatus: Int32 {
    /// Everything asked for was done.
    case success = 0
    /// The work ran but something failed: the daemon answered an error, or a batch line was bad.
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// The daemon could not be reached (EX_UNAVAILABLE).
    case unavailable = 69
}

/// A mistake on the command line, reported with the usage hint and exit status 64.
struct UsageError: Error {
    /// What was wrong, in words a person can act on.
    let message: String
    /// The command whose help to point at, or nil for the top-level help.
    let command: String?

    init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }
}
