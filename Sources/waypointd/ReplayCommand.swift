@preconcurrency import Glibc
import CommandLineSupport
import Daemon
import SystemSupport

/// `waypointd replay FILE`.
enum ReplayCommand {
    static let help = """
        usage: waypointd replay FILE [--config PATH]

        Runs the navigation pipeline, set up by the config file the run used (default: the
        compiled-in settings), over a recording (JSON Lines, see the README) and prints one
        JSON object per IMU sample: {"t","state","heading","bearing","distance","error",
        "intensity","sharpness","correction"} (true heading in degrees; null where unknown;
        correction as in status: magnetic, coasting or none). Deterministic:
        the magnetic model is evaluated at the recorded fixes' dates. A line that cannot be read
        is reported on standard error with its number and skipped; the exit status is then 1.
        FILE - reads the recording from standard input (at most \(Replay.maximumRecordingBytes / 1_048_576) MiB, as a file).
        """

    static func run(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--config"], command: "replay")
        if arguments.wantsHelp {
            print(help)
            return .success
        }
        let configPath = try arguments.nonEmptyValue("--config", what: "a path")
        guard arguments.positionals.count == 1, let file = arguments.positionals.first else {
            throw UsageError("replay needs exactly one FILE", command: "replay")
        }
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try PrintConfigCommand.load(configPath)
        } catch {
            fputs("\(error)\n", stderr)
            return .configuration
        }
        let bytes: [UInt8]
        do throws(FileReadError) {
            bytes = file == "-" ? try standardInput() : try LinuxFileReading().contents(
                ofRegularFile: file, maximumBytes: Replay.maximumRecordingBytes, followingLinks: true)
        } catch {
            return cannotRead(file == "-" ? "standard input" : file, "\(error)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return cannotRead(file, "not UTF-8 text") }
        let errors = Replay.run(text, configuration: configuration) { print($0) }
        for error in errors { fputs("waypointd: \(file): \(error)\n", stderr) }
        return errors.isEmpty ? .success : .failure
    }

    /// A recording piped in (`replay -`), within the same bound as a file's.
    private static func standardInput() throws(FileReadError) -> [UInt8] {
        let bytes: [UInt8]
        do throws(Errno) {
            bytes = try FileDescriptor(rawValue: STDIN_FILENO).read(upToCount: Replay.maximumRecordingBytes + 1)
        } catch {
            throw .failed(error)
        }
        guard bytes.count <= Replay.maximumRecordingBytes else { throw .tooLarge(limitBytes: Replay.maximumRecordingBytes) }
        return bytes
    }

    /// Exit status 66 (EX_NOINPUT) for a recording that cannot be read, and why.
    private static func cannotRead(_ file: String, _ reason: String) -> ExitStatus {
        fputs("waypointd: cannot read \(file): \(reason)\n", stderr)
        return .noInput
    }
}
