/// A small command-line reader: options (`--name value`, `--name=value`, flags) anywhere,
/// positional arguments in order, `--` to end options. A negative number such as `-33.86` is
/// positional, so southern and western coordinates need no quoting tricks.
struct Arguments {
    private(set) var positionals: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Splits `words` by the option names a command accepts.
    /// - Parameters:
    ///   - words: the arguments after the command name.
    ///   - valueOptions: options that take a value, e.g. `["--date"]`.
    ///   - flagOptions: options that take none, e.g. `["--batch"]`.
    ///   - command: the command, for error messages.
    /// - Throws: `UsageError` for an unknown option, a missing value or a repeated option.
    init(_ words: [String], valueOptions: Set<String> = [], flagOptions: Set<String> = [], command: String)
        throws(UsageError)
    {
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" || Double(word) != nil {
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
            if flagOptions.contains(name) {
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
                throw UsageError("unknown option '\(name)' for '\(command)'", command: command)
            }
        }
    }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { options[name] }

    /// Whether a flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
