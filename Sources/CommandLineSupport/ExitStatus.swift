/// How `waypointd` and `waypointctl` end: sysexits(3) where a convention exists, so scripts
/// and systemd can tell a typo from a missing device from a bad config file.
public enum ExitStatus: Int32, Sendable {
    /// Everything asked for was done.
    case success = 0
    /// The work ran but something failed: the daemon answered an error, a check failed, a
    /// batch line or a recording line was bad.
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// Input data was malformed, e.g. a simulation events file (EX_DATAERR).
    case dataError = 65
    /// An input file could not be read (EX_NOINPUT).
    case noInput = 66
    /// A service or device could not be reached: the daemon, gpsd (EX_UNAVAILABLE).
    case unavailable = 69
    /// An output file or socket could not be created (EX_CANTCREAT).
    case cannotCreate = 73
    /// EX_SOFTWARE: the program itself failed (a stop that did not finish in time).
    case software = 70
    /// Try again later: e.g. another process holds the motor (EX_TEMPFAIL).
    case temporaryFailure = 75
    /// The configuration file is wrong (EX_CONFIG).
    case configuration = 78
    /// Stopped by ^C (SIGINT) or SIGTERM before it was done, as a shell reports 128 + SIGINT.
    case interrupted = 130
}
