/// What the bash completion offers, read from the command tables themselves (`waypointctl
/// --completions [COMMAND]`), so that it cannot fall behind them: the commands, one a line; or,
/// for one command, the words its first argument may be, then its options, an option that takes
/// a value followed by ` VALUE`.
enum Completions {
    /// The commands that do not ask the daemon, with their options.
    static let localCommands: [(name: String, valueOptions: [String], flagOptions: [String])] = [
        (LocateCommand.name, LocateCommand.valueOptions, LocateCommand.flagOptions),
        (BearingCommand.name, BearingCommand.valueOptions, BearingCommand.flagOptions),
        (DeclinationCommand.name, DeclinationCommand.valueOptions, DeclinationCommand.flagOptions),
    ]

    /// Every command, in the order the help lists them.
    static var commandNames: [String] { DaemonCommand.names + localCommands.map(\.name) + ["help"] }

    /// The lines for `command` (nil: the commands); nil for a command there is not.
    static func lines(for command: String?) -> [String]? {
        func options(values: [String], flags: [String]) -> [String] { values.map { $0 + " VALUE" } + flags + ["--help"] }
        switch command {
        case nil, "help"?:
            return commandNames
        case let name? where DaemonCommand.names.contains(name):
            let entry = DaemonCommand.table.first { $0.name == name }!
            return entry.words + options(values: entry.valueOptions + [DaemonCommandEntry.socketOptionName], flags: entry.flagOptions)
        case let name?:
            return localCommands.first { $0.name == name }.map { options(values: $0.valueOptions, flags: $0.flagOptions) }
        }
    }
}
