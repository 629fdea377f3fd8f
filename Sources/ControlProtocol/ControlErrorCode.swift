/// The `code` of an `ERROR` reply: why a request was refused.
public enum ControlErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    /// The line is not a JSON object (or not UTF-8).
    case badJSON = "bad-json"
    /// `cmd` is missing or names no command this protocol version knows.
    case unknownCommand = "unknown-command"
    /// An argument is missing, of the wrong type or out of range.
    case badArgument = "bad-argument"
    /// The line is longer than the protocol's limit; it was skipped up to its newline.
    case lineTooLong = "line-too-long"
    /// The daemon already serves as many clients as it allows; the connection is closed.
    case tooManyClients = "too-many-clients"
    /// The client sent no complete request for the idle timeout (10 s) after connecting or
    /// its last reply, while not watching; the connection is closed, freeing its slot.
    case timeout = "timeout"
    /// The request names something that does not exist, e.g. a recent destination beyond the list.
    case notFound = "not-found"
    /// The request is valid but cannot be carried out now: a calibration without enough
    /// coverage, `finish` with no calibration running. The message says what to do.
    case refused = "refused"
    /// The daemon could not carry out a valid request.
    case `internal` = "internal"
}
