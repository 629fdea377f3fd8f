import CommandLineSupport
import Testing

/// The one argument reader of both programs (issue 18, item 1): coordinates south of the
/// equator and west of Greenwich are positional in every form, whatever follows them.
@Suite("Arguments", .timeLimit(.minutes(5)))
struct ArgumentsTests {
    @Test(
        "a word starting with a minus and a digit or point is positional",
        arguments: [
            "-33.8568,151.2153", "-33.8568 151.2153", "-33.8568", "-48S 2E", "-0.5", "-.5", "-1", "-90,-180",
            "-33°51'24.5\"S",
        ])
    func negativeNumbers(word: String) throws {
        let arguments = try Arguments([word, "--name", "x"], valueOptions: ["--name"], command: "go")
        #expect(arguments.positionals == [word])
        #expect(arguments.value("--name") == "x")
    }

    @Test("options anywhere, with a value inline or after; flags; -- ends options; - is positional")
    func forms() throws {
        let arguments = try Arguments(
            ["1", "--name=a b", "--json", "2", "--", "--not-an-option", "-"], valueOptions: ["--name"],
            flagOptions: ["--json"], command: "go")
        #expect(arguments.positionals == ["1", "2", "--not-an-option", "-"])
        #expect(arguments.value("--name") == "a b")
        #expect(arguments.has("--json"))
        #expect(!arguments.has("--other"))
        #expect(!arguments.wantsHelp)
        #expect(try Arguments(["-h"], command: "go").wantsHelp)
        #expect(try Arguments(["x", "--help"], command: nil).wantsHelp)
    }

    @Test(
        "mistakes are named, with the command",
        arguments: [
            (["--fast"], "unknown option '--fast' for 'go'"),
            (["-x"], "unknown option '-x' for 'go'"),
            (["--name"], "--name needs a value"),
            (["--name", "a", "--name=b"], "--name given twice"),
            (["--json=1"], "--json takes no value"),
            (["--json", "--json"], "--json given twice"),
        ])
    func mistakes(words: [String], message: String) {
        #expect(throws: UsageError(message, command: "go")) {
            try Arguments(words, valueOptions: ["--name"], flagOptions: ["--json"], command: "go")
        }
    }

    @Test("an empty path is refused where one is needed; no positionals where none are taken")
    func emptyAndExtra() throws {
        let arguments = try Arguments(["--config", "", "stray"], valueOptions: ["--config"], command: "check")
        #expect(throws: UsageError("--config needs a path", command: "check")) {
            try arguments.nonEmptyValue("--config", what: "a path")
        }
        #expect(throws: UsageError("check takes no arguments; got 'stray'", command: "check")) {
            try arguments.expectNoPositionals()
        }
        #expect(try Arguments(["--config", "a"], valueOptions: ["--config"], command: nil).nonEmptyValue("--config", what: "a path") == "a")
        #expect(try Arguments([], command: nil).nonEmptyValue("--config", what: "a path") == nil)
    }

    @Test("the hint names the program and the command")
    func hint() {
        #expect(UsageError("x", command: "go").hint(program: "waypointctl") == "Try 'waypointctl go --help'.")
        #expect(UsageError("x").hint(program: "waypointd") == "Try 'waypointd --help'.")
    }

    @Test("exit statuses are sysexits(3)'s")
    func exitStatuses() {
        let expected: [(CommandLineSupport.ExitStatus, Int32)] = [
            (.success, 0), (.failure, 1), (.usage, 64), (.dataError, 65), (.noInput, 66), (.unavailable, 69),
            (.cannotCreate, 73), (.temporaryFailure, 75), (.configuration, 78),
        ]
        for (status, code) in expected { #expect(status.rawValue == code) }
    }
}
