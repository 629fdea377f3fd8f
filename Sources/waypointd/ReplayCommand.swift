@preconcurrency import Glibc
import Daemon
import Foundation

/// `waypointd replay FILE`.
enum ReplayCommand {
    static let help = """
        usage: waypointd replay FILE

        Runs the navigation pipeline over a recording (JSON Lines, see the README) and prints one
        JSON object per IMU sample: {"t","state","heading","bearing","distance","error",
        "intensity","sharpness"} (true heading in degrees; null where unknown). Deterministic:
        the magnetic model is evaluated at the recorded fixes' dates. A line that cannot be read
        is reported on standard error with its number and skipped; the exit status is then 1.
        """

    static func run(_ words: [String]) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            print(help)
            return 0
        }
        guard words.count == 1 else {
            fputs("waypointd: replay needs exactly one FILE\nTry 'waypointd replay --help'.\n", stderr)
            return 64
        }
        let text: String
        do {
            text = try String(contentsOfFile: words[0], encoding: .utf8)
        } catch {
            fputs("waypointd: cannot read \(words[0]): \(error.localizedDescription)\n", stderr)
            return 66
        }
        let errors = Replay.run(text) { print($0) }
        for error in errors { fputs("waypointd: \(words[0]): \(error)\n", stderr) }
        return errors.isEmpty ? 0 : 1
    }
}
