import CommandLineSupport
@preconcurrency import Glibc

/// The command-line client: reads the global options, picks the command and turns its outcome
/// into an exit status.
enum Waypointctl {
    /// Runs one invocation.
    /// - Parameters:
    ///   - words: The arguments after the program name.
    ///   - socketEnvironment: `$WAYPOINT_SOCKET`, if set.
    static func run(_ words: [String], socketEnvironment: String? = nil) -> ExitStatus {
        do throws(UsageError) {
            var index = 0
            var globalSocket: String?
            // Global options come before the command.
            while index < words.count, words[index].hasPrefix("-") {
                let word = words[index]
                index += 1
                switch word {
                case "--help", "-h":
                    let topic = index < words.count ? Help.text(for: words[index]) : nil
                    Console.output(topic ?? Help.overview)
                    return .success
                case "--version":
                    Console.output(Help.version)
                    return .success
                case "--completions":
                    // For the bash completion: what it may offer, from the tables (Completions).
                    guard let lines = Completions.lines(for: index < words.count ? words[index] : nil) else { return .usage }
                    for line in lines { Console.output(line) }
                    return .success
                case "--socket":
                    guard index < words.count else { throw UsageError("--socket needs a path") }
                    globalSocket = words[index]
                    index += 1
                case _ where word.hasPrefix("--socket="):
                    globalSocket = String(word.dropFirst("--socket=".count))
                default:
                    throw UsageError("unknown option '\(word)'")
                }
                if globalSocket?.isEmpty == true { throw UsageError("--socket needs a path") }
            }
            guard index < words.count else { throw UsageError("no command given") }
            let command = words[index]
            let rest = Array(words[(index + 1)...])
            if command == "help" {
                Console.output(rest.first.flatMap(Help.text(for:)) ?? Help.overview)
                return .success
            }
            if rest.contains("--help") || rest.contains("-h"), let text = Help.text(for: command) {
                Console.output(text)
                return .success
            }
            switch command {
            case BearingCommand.name: return try BearingCommand.run(rest)
            case DeclinationCommand.name: return try DeclinationCommand.run(rest)
            case LocateCommand.name:
                return try LocateCommand.run(rest) { option in
                    SocketPath.resolve(option: option ?? globalSocket, environment: socketEnvironment)
                }
            case _ where DaemonCommand.names.contains(command):
                let (daemonCommand, commandSocket) = try DaemonCommand.parse(
                    name: command, words: rest, now: Double(time(nil)))
                if globalSocket != nil && commandSocket != nil {
                    throw UsageError("--socket given twice", command: command)
                }
                if commandSocket?.isEmpty == true { throw UsageError("--socket needs a path", command: command) }
                let path = SocketPath.resolve(option: commandSocket ?? globalSocket, environment: socketEnvironment)
                return daemonCommand.run(socketPath: path)
            default:
                throw UsageError.unknownCommand(
                    command,
                    among: DaemonCommand.names + [LocateCommand.name, BearingCommand.name, DeclinationCommand.name, "help"])
            }
        } catch {
            Console.error(error.message)
            Console.error(error.hint(program: "waypointctl"))
            return .usage
        }
    }
}
