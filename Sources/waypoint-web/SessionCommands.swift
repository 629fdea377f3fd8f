@preconcurrency import Glibc
import CommandLineSupport
import ControlProtocol
import Geodesy
import SystemSupport
import TextFormats
import WebCompanion

/// `pair`, `token`, `sessions`, `revoke`: the session book in the state directory, written
/// here and read by the running server (``SessionBook``).
enum SessionCommands {
    static func pair(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: ["--listen", "--state-dir", "--config"], flagOptions: ["--json"], command: "pair")
        if arguments.wantsHelp {
            print("""
                usage: waypoint-web pair [--listen HOST:PORT] [--state-dir DIR] [--config FILE] [--json]
                Prints a link that pairs one phone: open it on the phone (or scan the QR code) within 10
                minutes; it works once. HOST:PORT is where the phone reaches the Pi (the config's listen
                address by default; a name from host-names works too). --json prints {"url": "…"}.
                """)
            return .success
        }
        try arguments.expectNoPositionals()
        guard let configuration = CommonOptions.configuration(arguments) else { return .configuration }
        let host = arguments.value("--listen") ?? configuration.listen.description
        guard host.contains(":"), !configuration.listen.isWildcard || arguments.value("--listen") != nil else {
            throw UsageError(
                "the server listens on every address (\(configuration.listen)); say which one the phone uses: --listen 192.168.43.20:\(configuration.listen.port)",
                command: "pair")
        }
        let token: String
        do throws(SessionBook.Failure) {
            token = try SessionBook(directory: configuration.stateDirectory).makePairing(now: CommonOptions.wallSeconds())
        } catch {
            CommonOptions.fail(error.description)
            return .cannotCreate
        }
        let scheme = configuration.tlsCertificatePath == nil ? "http" : "https"
        let url = "\(scheme)://\(host)/pair?token=\(token)"
        if arguments.has("--json") {
            print(JSONWriter.line([("url", .string(url))]))
            return .success
        }
        print("Open this link on the phone within 10 minutes (it works once):\n\n  \(url)\n")
        if isatty(STDOUT_FILENO) == 1, let lines = QRCode.terminalLines(url) {
            print("or scan this code with the phone's camera:\n")
            for line in lines { print(line) }
        }
        return .success
    }

    static func token(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(
            words, valueOptions: ["--name", "--state-dir", "--config"], flagOptions: ["--json"], command: "token")
        if arguments.wantsHelp {
            print("""
                usage: waypoint-web token [--name NAME] [--state-dir DIR] [--config FILE] [--json]
                Makes a session for a script and prints its token, for 'Authorization: Bearer TOKEN'. It
                lasts session-days (30 by default); end it with waypoint-web revoke ID.
                """)
            return .success
        }
        try arguments.expectNoPositionals()
        guard let configuration = CommonOptions.configuration(arguments) else { return .configuration }
        let name = try arguments.nonEmptyValue("--name", what: "a name for the token")
        let session: SessionBook.Session
        do throws(SessionBook.Failure) {
            session = try SessionBook(directory: configuration.stateDirectory).makeSession(
                kind: "script", name: name, now: CommonOptions.wallSeconds(), days: configuration.sessionDays)
        } catch {
            CommonOptions.fail(error.description)
            return .cannotCreate
        }
        if arguments.has("--json") {
            print(JSONWriter.line([("id", .string(session.id)), ("token", .string(session.token))]))
        } else {
            print("token \(session.id): \(session.token)\nuse it as the header  Authorization: Bearer \(session.token)")
        }
        return .success
    }

    static func sessions(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--state-dir", "--config"], flagOptions: ["--json"], command: "sessions")
        if arguments.wantsHelp {
            print("usage: waypoint-web sessions [--state-dir DIR] [--config FILE] [--json]\nLists the paired phones and the scripts' tokens.")
            return .success
        }
        try arguments.expectNoPositionals()
        guard let configuration = CommonOptions.configuration(arguments) else { return .configuration }
        let sessions = SessionBook(directory: configuration.stateDirectory).list()
        let now = CommonOptions.wallSeconds()
        if arguments.has("--json") {
            let items = sessions.map { session -> JSONValue in
                .object([
                    "id": .string(session.id), "kind": .string(session.kind), "name": session.name.map(JSONValue.string) ?? .null,
                    "created": .string(UTCTime(posixSeconds: session.createdSeconds).iso8601),
                    "used": .string(UTCTime(posixSeconds: session.usedSeconds).iso8601),
                    "expires": .string(UTCTime(posixSeconds: session.expiresSeconds).iso8601),
                    "expired": .bool(session.expiresSeconds <= now),
                ])
            }
            print(String(decoding: JSONWriter.bytes(.array(items), layout: .compact), as: UTF8.self))
            return .success
        }
        guard !sessions.isEmpty else {
            print("no sessions: pair a phone with waypoint-web pair")
            return .success
        }
        print("ID        KIND    CREATED               LAST USED             EXPIRES               NAME")
        for session in sessions {
            let ended = session.expiresSeconds <= now ? " (expired)" : ""
            let columns = [session.id, session.kind.padding(6), day(session.createdSeconds), day(session.usedSeconds), day(session.expiresSeconds)]
            print(columns.joined(separator: "  ") + "  " + PlaceName.printable(session.name ?? "") + ended)
        }
        return .success
    }

    static func revoke(_ words: [String]) throws(UsageError) -> ExitStatus {
        let arguments = try Arguments(words, valueOptions: ["--state-dir", "--config"], command: "revoke")
        if arguments.wantsHelp {
            print("usage: waypoint-web revoke ID [--state-dir DIR] [--config FILE]\nEnds a session (IDs from waypoint-web sessions); its phone must pair again.")
            return .success
        }
        guard arguments.positionals.count == 1 else { throw UsageError("give one session ID (from waypoint-web sessions)", command: "revoke") }
        guard let configuration = CommonOptions.configuration(arguments) else { return .configuration }
        let id = arguments.positionals[0]
        do throws(SessionBook.Failure) {
            guard try SessionBook(directory: configuration.stateDirectory).revoke(id: id) else {
                CommonOptions.fail("no session '\(id)': waypoint-web sessions lists them")
                return .noInput
            }
        } catch {
            CommonOptions.fail(error.description)
            return .cannotCreate
        }
        print("revoked \(id)")
        return .success
    }

    private static func day(_ seconds: Double) -> String {
        String(UTCTime(posixSeconds: seconds).iso8601.prefix(19)) + "Z"
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
