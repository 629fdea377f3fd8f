/// A refused request: the `{"class":"ERROR","code":…,"message":…}` reply.
public struct ControlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem, for programs.
    public var code: ControlErrorCode
    /// What exactly went wrong, for people, e.g. `lat 91 is outside [-90, 90]`.
    public var message: String

    /// An error from its parts.
    ///
    /// - Parameters:
    ///   - code: The kind of problem.
    ///   - message: A sentence for people.
    public init(_ code: ControlErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
