/// The command-line client: picks the command and turns its outcome into an exit status.
enum Waypointctl {
    /// Runs one invocation.
    /// - Parameter words: the arguments after the program name.
    static func run(_ words: [String]) -> ExitStatus {
        guard let first = words.first else {
            Console.error("no command given")
            Console.error("Try 'waypointctl --help'.")
            return .usage
        }
        let rest = Array(words.dropFirst())
        switch first {
        case "--help", "-h", "help":
            if let topic = rest.first, let text = Help.text(for: topic) {
                Console.output(text)
            } else {
                Console.output(Help.overview)
            }
            return .success
        case "--version":
            Console.output(Help.version)
            return .success
        default:
            break
        }
        if rest.contains("--help") || rest.contains("-h"), let text = Help.text(for: first) {
            Console.output(text)
            return .success
        }
        do throws(UsageError) {
            switch first {
            case BearingCommand.name: return try BearingCommand.run(rest)
            case DeclinationCommand.name: return try DeclinationCommand.run(rest)
            default: throw UsageError("unknown command '\(first)'")
            }
        } catch {
            Console.error(error.message)
            Console.error("Try 'waypointctl \(error.command.map { "\($0) " } ?? "")--help'.")
            return .usage
        }
    }
}
