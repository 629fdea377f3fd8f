#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Where `waypointctl` writes: results to standard output, diagnostics to standard error.
enum Console {
    /// Writes one line of results.
    static func output(_ line: String, terminator: String = "\n") {
        print(line, terminator: terminator)
    }

    /// Writes one diagnostic line, prefixed with the program name as Unix tools do.
    static func error(_ message: String) {
        // Results and diagnostics may go to the same terminal: keep their order.
        fflush(stdout)
        fputs("waypointctl: \(message)\n", stderr)
    }
}
