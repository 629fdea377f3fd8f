/// The one command-line reader of `waypointd` and `waypointctl`: options (`--name value`,
/// `--name=value`, flags) anywhere, positional arguments in order, `--` to end options.
///
/// A word that starts with `-` and then a digit or a point (`-33.8568`, `-33.8568,151.2153`,
/// `-48S 2E`) is positional, never an option: no option name starts with a digit, and every
/// walker south of the equator or west of Greenwich types such words.
public struct Arguments: Sendable {
    /// The positional arguments, in order.
    public private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []
    /// The command these arguments were read for, for messages.
    public let command: String?

    /// Splits `words` by the option names a command accepts. `--help` and `-h` are always
    /// accepted, as ``wantsHelp``.
    /// - Parameters:
    ///   - words: the arguments after the command name.
    ///   - valueOptions: options that take a value, e.g. `["--date"]`.
    ///   - flagOptions: options that take none, e.g. `["--batch"]`.
    ///   - command: the command, for error messages (`unknown option '--x' for 'go'`); nil for
    ///     the program itself.
    /// - Throws: `UsageError` for an unknown option, a missing value or a repeated option.
    public init(_ words: [String], valueOptions: Set<String> = [], flagOptions: Set<String> = [], command: String?)
        throws(UsageError)
    {
        self.command = command
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if name == "--help" || name == "-h" {
                flags.insert("--help")
            } else if flagOptions.contains(name) {
                guard inlineValue == nil else { throw UsageError("\(name) takes no value", command: command) }
                guard flags.insert(name).inserted else { throw UsageError("\(name) given twice", command: command) }
            } else if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < words.count {
                    value = words[index]
                    index += 1
                } else {
                    throw UsageError("\(name) needs a value", command: command)
                }
                guard options[name] == nil else { throw UsageError("\(name) given twice", command: command) }
                options[name] = value
            } else {
                let scope = command.map { " for '\($0)'" } ?? ""
                throw UsageError("unknown option '\(name)'\(scope)", command: command)
            }
        }
    }

    /// Whether `word` is read as an option: it starts with `-`, is not `-` alone (standard
    /// input, by convention), and is not a negative number or coordinate.
    public static func looksLikeOption(_ word: String) -> Bool {
        let characters = Array(word.prefix(2))
        guard characters.first == "-", characters.count == 2 else { return false }
        return !(characters[1].isASCII && (characters[1].isNumber || characters[1] == "."))
    }

    /// The value of an option, if given.
    public func value(_ name: String) -> String? { options[name] }

    /// The value of an option that must not be empty (a path, a directory), if given.
    /// - Parameters:
    ///   - name: The option, e.g. `--config`.
    ///   - what: What it names, for the message: `a path`, `a directory`.
    /// - Throws: `UsageError` (`--config needs a path`) when it was given empty.
    public func nonEmptyValue(_ name: String, what: String) throws(UsageError) -> String? {
        guard let value = options[name] else { return nil }
        guard !value.isEmpty else { throw UsageError("\(name) needs \(what)", command: command) }
        return value
    }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Whether `--help` or `-h` was given.
    public var wantsHelp: Bool { flags.contains("--help") }

    /// Throws unless there are no positional arguments: for commands that take none.
    public func expectNoPositionals() throws(UsageError) {
        guard positionals.isEmpty else {
            let name = command ?? "this command"
            throw UsageError("\(name) takes no arguments; got '\(positionals.joined(separator: " "))'", command: command)
        }
    }
}
