import SystemSupport

/// What makes the contents of a state file unusable, naming the field where there is one
/// (`destination.lat`, `recent[2].name`, `calibration.matrix[1]`).
///
/// The same checks run before a save, so the daemon never writes a file it would refuse to read.
public enum StateFileDefect: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file has no bytes at all: the classic remains of a write that was not atomic.
    case empty
    /// The name is a symbolic link, which is not followed out of the state directory.
    case symbolicLink
    /// The name is a directory, FIFO, socket or device rather than a file.
    case notRegularFile(FileSystem.Kind)
    /// The file is longer than any file the daemon writes.
    case tooLarge(limitBytes: Int)
    /// The bytes are not JSON; the detail says where the parser stopped.
    case invalidJSON(detail: String)
    /// A required field is absent.
    case missingField(String)
    /// A field has the wrong JSON type; `expected` says what it should be.
    case wrongType(field: String, expected: String)
    /// The `version` field names a format this build does not know.
    case unknownVersion(Int)
    /// A number is infinite or not a number.
    case nonFinite(field: String)
    /// A number is outside the range its field allows, given as text such as `[-90, 90]`.
    case outOfRange(field: String, value: Double, allowed: String)
    /// An array has the wrong number of elements.
    case wrongCount(field: String, expected: Int, found: Int)
    /// A soft-iron matrix that cannot be inverted, so it cannot be a calibration.
    case singularMatrix(field: String)
    /// A field's value is of the right type but not acceptable, for the reason given.
    case invalidValue(field: String, reason: String)

    public var description: String {
        switch self {
        case .empty:
            return "the file is empty"
        case .symbolicLink:
            return "it is a symbolic link, and state files are read only from the state directory itself"
        case .notRegularFile(.directory):
            return "it is a directory, not a file"
        case .notRegularFile:
            return "it is a FIFO, socket or device, not a file"
        case .tooLarge(let limit):
            return "the file is larger than \(limit) bytes"
        case .invalidJSON(let detail):
            return "not valid JSON: \(detail)"
        case .missingField(let field):
            return "\(field) is missing"
        case .wrongType(let field, let expected):
            return "\(field) must be \(expected)"
        case .unknownVersion(let version):
            return "unknown format version \(version) (this build reads version \(StateFileCoding.currentVersion))"
        case .nonFinite(let field):
            return "\(field) is not a finite number"
        case .outOfRange(let field, let value, let allowed):
            return "\(field) is \(value), outside \(allowed)"
        case .wrongCount(let field, let expected, let found):
            return "\(field) must have \(expected) elements, not \(found)"
        case .singularMatrix(let field):
            return "\(field) is singular, so it cannot correct the magnetometer"
        case .invalidValue(let field, let reason):
            return "\(field): \(reason)"
        }
    }
}
