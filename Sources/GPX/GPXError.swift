/// Why a GPX file was not read. Every case that comes from a place in the file names its line
/// and column (from 1), so the person who made it can find the problem.
public enum GPXError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the file: line and column, from 1.
    public struct Position: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
        public var description: String { "line \(line), column \(column)" }
    }

    /// Larger than ``GPXReader/Limits/maximumBytes``.
    case tooLarge(bytes: Int, limit: Int)
    /// Not well-formed XML (expat's reason), invalid UTF-8 included.
    case notXML(reason: String, at: Position)
    /// A document type declaration: GPX needs none, and one is how entity expansion and
    /// external entity attacks come in, so none is read.
    case documentTypeRefused(at: Position)
    /// The root element is not `gpx`.
    case notGPX(root: String, at: Position)
    /// Elements nested deeper than ``GPXReader/Limits/maximumDepth``.
    case tooDeep(limit: Int, at: Position)
    /// More points than ``GPXReader/Limits/maximumPoints``.
    case tooManyPoints(limit: Int, at: Position)
    /// A text or attribute value longer than ``GPXReader/Limits/maximumTextBytes``.
    case textTooLong(element: String, limit: Int, at: Position)
    /// A point without its `lat` or `lon`.
    case missingAttribute(element: String, attribute: String, at: Position)
    /// A value that is not what GPX allows there: a latitude out of range, a number that is
    /// not a decimal.
    case badValue(element: String, value: String, reason: String, at: Position)

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            "the file is \(bytes) bytes; GPX files of at most \(limit) bytes are read"
        case .notXML(let reason, let position):
            "not well-formed XML at \(position): \(reason)"
        case .documentTypeRefused(let position):
            "a document type declaration (<!DOCTYPE …>) at \(position): GPX needs none, and none is read "
                + "(entity declarations could expand without bound or read other files)"
        case .notGPX(let root, let position):
            "not a GPX file: the root element at \(position) is <\(root)>, not <gpx>"
        case .tooDeep(let limit, let position):
            "elements nested more than \(limit) deep at \(position)"
        case .tooManyPoints(let limit, let position):
            "more than \(limit) points (at \(position))"
        case .textTooLong(let element, let limit, let position):
            "<\(element)> at \(position) holds more than \(limit) bytes of text"
        case .missingAttribute(let element, let attribute, let position):
            "<\(element)> at \(position) has no \(attribute)"
        case .badValue(let element, let value, let reason, let position):
            "<\(element)> at \(position): '\(value)' \(reason)"
        }
    }
}
