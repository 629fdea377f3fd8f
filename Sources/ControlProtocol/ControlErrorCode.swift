/// The `code` of an `ERROR` reply: why a request was refused.
public enum ControlErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The line is not a JSON object.
    case badJSON = "bad-json"
    /// `cmd` is missing or names no command this protocol version knows.
    case unknownCommand = "unknown-command"
    /// An argument is missing, of the wrong type or out of range.
    case badArgument = "bad-argument"
    /// The line is longer than the protocol's limit; it was skipped up to its newline.
    case lineTooLong = "line-too-long"
    /// The daemon could not carry out a valid request.
    case `internal` = "internal"
}
