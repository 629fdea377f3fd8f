/// A mistake on the command line, reported with a pointer to the help and exit status 64.
public struct UsageError: Error, Sendable, Equatable {
    /// What was wrong, in words a person can act on.
    public let message: String
    /// The command whose help to point at, or nil for the program's own help.
    public let command: String?

    /// - Parameters:
    ///   - message: What was wrong.
    ///   - command: The command whose help to point at, or nil for the program's.
    public init(_ message: String, command: String? = nil) {
        self.message = message
        self.command = command
    }

    /// `unknown command 'chek'; did you mean 'check'?`, the suggestion from `commands`
    /// (``EditDistance/suggestions(for:among:)``) when one is close.
    public static func unknownCommand(_ word: String, among commands: [String]) -> UsageError {
        let hint = EditDistance.didYouMean(EditDistance.suggestions(for: word, among: commands)).map { "; \($0)" } ?? ""
        return UsageError("unknown command '\(word)'\(hint)")
    }

    /// `Try 'waypointctl go --help'.`: where to read more.
    /// - Parameter program: The program's name.
    public func hint(program: String) -> String {
        "Try '\(program) \(command.map { "\($0) " } ?? "")--help'."
    }
}
