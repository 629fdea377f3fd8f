import SystemSupport

/// Why a configuration could not be used. The daemon prints it and exits 78 (EX_CONFIG).
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There is no file at the path.
    case missing(path: String)
    /// The file exists but cannot be read as text: permissions, a directory, too large, not
    /// UTF-8. The reason is the system's words for it.
    case unreadable(path: String, reason: String)
    /// The file was read and has these problems, in line order: all of them, not just the first.
    case invalid([Problem])

    /// One problem on one line of a config file.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The file's name as given to the parser (the path, for `Configuration.load`).
        public var file: String
        /// 1-based line number.
        public var line: Int
        /// What is wrong.
        public var kind: Kind

        /// A problem from its parts.
        public init(file: String, line: Int, kind: Kind) {
            self.file = file
            self.line = line
            self.kind = kind
        }

        /// `file:line: message`, as compilers and chrony write it. The message quotes the line,
        /// so its control characters are escaped: a NUL would otherwise cut it short.
        public var description: String { "\(file):\(line): " + TextEscaping.escaped(kind.description) }
    }

    /// What is wrong with a line.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The key is not one the daemon knows; the closest known key, when one is close.
        case unknownKey(String, suggestion: String?)
        /// The key has no value; what it expects.
        case missingValue(key: String, expected: String)
        /// The value is not a number of the kind the key takes (plain decimals only: no NaN,
        /// infinity, hex or exponent); the kind and the allowed range.
        case notANumber(key: String, text: String, expected: String, allowed: String)
        /// The number is outside the key's range.
        case outOfRange(key: String, text: String, allowed: String)
        /// The value is not one the key accepts, and why.
        case badValue(key: String, text: String, reason: String)
        /// The key was already set, on `firstLine`.
        case duplicateKey(String, firstLine: Int)
        /// Values that are fine alone contradict each other (e.g. a floor duty above the rated
        /// duty); reported on the line of the later key.
        case inconsistent(String)

        public var description: String {
            switch self {
            case .unknownKey(let key, let suggestion?):
                return "unknown key '\(key)'; did you mean '\(suggestion)'?"
            case .unknownKey(let key, nil):
                return "unknown key '\(key)'"
            case .missingValue(let key, let expected):
                return "missing value for '\(key)' (expected \(expected))"
            case .notANumber(let key, let text, let expected, let allowed):
                return "\(key): '\(text)' is not \(expected) (allowed: \(allowed))"
            case .outOfRange(let key, let text, let allowed):
                return "\(key): \(text) is out of range (allowed: \(allowed))"
            case .badValue(let key, let text, let reason):
                return "\(key): bad value '\(text)': \(reason)"
            case .duplicateKey(let key, let firstLine):
                return "duplicate key '\(key)' (first set on line \(firstLine))"
            case .inconsistent(let message):
                return message
            }
        }
    }

    /// What the daemon prints: one `file:line: message` per problem, one per line.
    public var description: String {
        switch self {
        case .missing(let path):
            return "\(path): cannot read the configuration: no such file"
        case .unreadable(let path, let reason):
            return "\(path): cannot read the configuration: \(reason)"
        case .invalid(let problems):
            return problems.map(\.description).joined(separator: "\n")
        }
    }
}
