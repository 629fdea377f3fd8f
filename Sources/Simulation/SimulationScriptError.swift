/// A line of a ``SimulationScript`` that could not be read.
public struct SimulationScriptError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
