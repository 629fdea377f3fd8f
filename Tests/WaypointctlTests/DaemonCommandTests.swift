import Foundation
import TestSupport
import Testing

/// The built `waypointctl` against a fake daemon on a temporary socket: the exact request line
/// each command sends, what it prints, and how it exits.
@Suite("waypointctl daemon commands against a fake daemon", .timeLimit(.minutes(5)))
struct DaemonCommandTests {
    static let status =
        #"{"class":"STATUS","state":"guiding","fix":{"time":"2026-05-01T12:00:00.5Z","mode":3,"lat":48.8556,"lon":2.2986,"eph":4.8},"heading":{"true":292.4,"magnetic":290.3,"declination":2.09,"reliable":true},"destination":{"lat":48.8584,"lon":2.2945,"name":"Eiffel Tower"},"bearing":316.03,"distance":432.1,"error":23.65,"haptic":{"intensity":0.55,"sharpness":0.3,"duty":0.48,"pattern":null},"calibration":"stored","muted":false,"added":"later"}"#
    static let ok = #"{"class":"OK"}"#

    /// What a run printed, how it ended, and what the fake daemon received.
    struct Run {
        let output: ExternalTool.Output
        let requests: [String]
    }

    /// Runs `waypointctl --socket FAKE arguments` against a fake daemon answering `replies`.
    private func run(
        _ arguments: [String], replies: [[String]], greeting: String? = FakeDaemon.greeting,
        ending: FakeDaemon.Ending = .waitForClient, socketAfterCommand: Bool = false
    ) throws -> Run {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try FakeDaemon(greeting: greeting, replies: replies, ending: ending)
        let words =
            socketAfterCommand ? arguments + ["--socket", daemon.path] : ["--socket", daemon.path] + arguments
        let output = try ExternalTool.run(waypointctl, words)
        daemon.waitUntilFinished()
        return Run(output: output, requests: daemon.requests)
    }

    @Test("status prints the summary; status --json the line as it came")
    func status() throws {
        let summary = try run(["status"], replies: [[Self.status]])
        #expect(summary.requests == [#"{"cmd":"status"}"#])
        #expect(summary.output.status == 0, "\(summary.output.standardError)")
        #expect(summary.output.standardError.isEmpty)
        #expect(
            summary.output.standardOutput == """
                state: guiding
                heading: 292° (WNW, west-northwest)
                destination: Eiffel Tower, 48°51'30.2"N 2°17'40.2"E
                distance: 432 m
                bearing: 316° (NW, northwest)
                turn: 24° right
                fix: 3D, estimated error 4.8 m
                position: 48°51'20.2"N 2°17'55.0"E
                motor: intensity 55%, duty 48%
                calibration: stored
                muted: no

                """)
        let json = try run(["status", "--json"], replies: [[Self.status]], socketAfterCommand: true)
        #expect(json.requests == [#"{"cmd":"status"}"#])
        #expect(json.output.standardOutput == Self.status + "\n")
    }

    @Test(
        "go sends the coordinate in degrees whatever form it was typed in",
        arguments: [
            ["48.8584", "2.2945"], ["48.8584 2.2945"], ["geo:48.8584,2.2945"], ["48.8584N", "2.2945E"],
            ["48°51'30.24\"N 2°17'40.2\"E"],
        ])
    func goForms(_ coordinate: [String]) throws {
        // Before sending it, go asks for the fix to see whether the coordinate looks swapped.
        // After OK it asks again, for the arrival radius in effect.
        let result = try run(["go"] + coordinate, replies: [[Self.status], [Self.ok], [Self.status]])
        #expect(result.requests.first == #"{"cmd":"status"}"# && result.requests.last == #"{"cmd":"status"}"#)
        #expect(result.output.status == 0, "\(result.output.standardError)")
        let request = try #require(result.requests.dropFirst().first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(request.utf8)) as? [String: Any])
        #expect(object["cmd"] as? String == "go")
        #expect(abs((object["lat"] as? Double ?? 0) - 48.8584) < 1e-9, "\(request)")
        #expect(abs((object["lon"] as? Double ?? 0) - 2.2945) < 1e-9, "\(request)")
        #expect(object["name"] == nil)
        #expect(result.output.standardOutput == "destination set: 48°51'30.2\"N 2°17'40.2\"E\n")
    }

    @Test("go with a name, and a southern, western place")
    func goNamed() throws {
        let named = try run(
            ["go", "48.8584", "2.2945", "--name", "  Eiffel Tower "],
            replies: [[Self.status], [Self.ok], [Self.status.replacingOccurrences(of: #""name":"Eiffel Tower"}"#, with: #""name":"Eiffel Tower","radius":15}"#)]])
        #expect(
            named.requests == [#"{"cmd":"status"}"#, #"{"cmd":"go","lat":48.8584,"lon":2.2945,"name":"Eiffel Tower"}"#, #"{"cmd":"status"}"#])
        #expect(named.output.standardOutput == "destination set: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E (arrival within 15 m)\n")
        #expect(named.output.standardError.isEmpty, "the fix is near: no refusal")
        let south = try run(["go", "-22.9519", "-43.2105"], replies: [[Self.status], [Self.ok], [Self.status]])
        #expect(south.requests == [#"{"cmd":"status"}"#, #"{"cmd":"go","lat":-22.9519,"lon":-43.2105}"#, #"{"cmd":"status"}"#])
        #expect(south.output.standardOutput == "destination set: 22°57'06.8\"S 43°12'37.8\"W\n")
    }

    @Test("calibrate start --wait (issue 30, item 14): says what is still missing as it changes, returns 0 once a fit would be good, 1 on --timeout")
    func calibrateWait() async throws {
        // It waits seconds in real time: on a thread of its own, not one of the few the other
        // tests' awaits resume on (a watch test must see its lines and signal in time).
        func runAside(_ arguments: [String], replies: [[String]]) async throws -> Run {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try Self().run(arguments, replies: replies) }) }.start()
            }
        }
        let started = #"{"class":"CALIBRATION","state":"running","samples":0,"missing":["tilt it nose-down and to the left","turn it face-down, nose-up and to the right"],"ready":false,"message":"turn the device slowly"}"#
        let half = #"{"class":"CALIBRATION","state":"running","samples":300,"missing":["turn it face-down, nose-up and to the right"],"ready":false}"#
        let done = #"{"class":"CALIBRATION","state":"running","samples":700,"missing":[],"ready":true}"#
        let result = try await runAside(["calibrate", "start", "--wait"], replies: [[started], [half], [half], [done]])
        #expect(result.output.status == 0, "\(result.output.standardError)")
        #expect(result.requests.first == #"{"action":"start","cmd":"calibrate"}"#)
        #expect(result.requests.dropFirst().allSatisfy { $0 == #"{"action":"status","cmd":"calibrate"}"# })
        let lines = result.output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "missing: turn it face-down, nose-up and to the right" }.count == 2, "once at start, once when it changed: \(lines)")
        #expect(lines.last == "ready: the fit is good; run: waypointctl calibrate finish", "\(lines)")

        let timedOut = try await runAside(["calibrate", "start", "--wait", "--timeout", "1"], replies: [[started], [half], [half], [half]])
        #expect(timedOut.output.status == 1)
        #expect(timedOut.output.standardError.contains("not ready after 1 s; still missing: turn it face-down, nose-up and to the right"), "\(timedOut.output.standardError)")
        let usage = try run(["calibrate", "finish", "--wait"], replies: [])
        #expect(usage.output.status == 64 && usage.output.standardError.contains("--wait only with start"))
    }

    @Test("go --recent N sends the number, then asks which place that was")
    func goRecent() throws {
        let result = try run(["go", "--recent", "2"], replies: [[Self.ok], [Self.status]])
        #expect(result.requests == [#"{"cmd":"go","recent":2}"#, #"{"cmd":"status"}"#])
        #expect(result.output.status == 0)
        #expect(result.output.standardOutput == "destination set: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E\n")
    }

    @Test(
        "the other commands: the request each sends and what it prints",
        arguments: [
            (["mute", "on"], #"{"cmd":"mute","on":true}"#, ok, "guidance vibration muted; patterns still play\n"),
            (["mute", "off"], #"{"cmd":"mute","on":false}"#, ok, "guidance vibration on\n"),
            (["buzz"], #"{"cmd":"buzz","pattern":"test"}"#, ok, "playing test\n"),
            (["buzz", "gps-lost"], #"{"cmd":"buzz","pattern":"gps-lost"}"#, ok, "playing gps-lost\n"),
            (
                ["recent"], #"{"cmd":"recent"}"#,
                #"{"class":"RECENT","destinations":[{"lat":48.8584,"lon":2.2945,"name":"Eiffel Tower"},{"lat":48.853,"lon":2.3499,"name":null}]}"#,
                "1: Eiffel Tower, 48°51'30.2\"N 2°17'40.2\"E\n2: 48°51'10.8\"N 2°20'59.6\"E\n"
            ),
            (["recent"], #"{"cmd":"recent"}"#, #"{"class":"RECENT","destinations":[]}"#, "no recent destinations\n"),
            (
                ["calibrate"], #"{"action":"status","cmd":"calibrate"}"#,
                #"{"class":"CALIBRATION","state":"none","samples":null,"octants":null,"quality":null,"created":null,"message":"no calibration; run calibrate start"}"#,
                "calibration: none (the heading is unreliable until one is made)\nmessage: no calibration; run calibrate start\n"
            ),
            (
                ["calibrate", "start"], #"{"action":"start","cmd":"calibrate"}"#,
                #"{"class":"CALIBRATION","state":"running","samples":0,"octants":[0,0,0,0,0,0,0,0],"missing":["tilt it nose-down and to the left"],"ready":false,"quality":null,"created":null,"message":"turn the device"}"#,
                "calibration: running (turn the device slowly through a figure eight)\nsamples: 0\nmissing: tilt it nose-down and to the left\nready: not yet\nmessage: turn the device\n"
            ),
        ] as [([String], String, String, String)])
    func commands(_ arguments: [String], request: String, reply: String, printed: String) throws {
        let result = try run(arguments, replies: [[reply]])
        #expect(result.requests == [request])
        #expect(result.output.status == 0, "\(result.output.standardError)")
        #expect(result.output.standardOutput == printed)
        #expect(result.output.standardError.isEmpty)
    }

    @Test("go typed longitude first (issue 30, item 3): refused with exit 65 and the suggestion, nothing set; --force sets it")
    func swappedRefused() throws {
        // The fix is at 48.8556, 2.2986 (Paris); 2.2945 48.8584 is in the Indian Ocean. GeodSolve -i
        // (GeographicLib) gives 6793686.3 m to it and 432.98 m to 48.8584 2.2945.
        let result = try run(["go", "2.2945", "48.8584"], replies: [[Self.status]])
        #expect(result.output.status == 65)
        #expect(result.requests == [#"{"cmd":"status"}"#], "nothing but the question was sent")
        #expect(result.output.standardOutput.isEmpty)
        #expect(
            result.output.standardError
                == "waypointctl: go: 2.2945 48.8584 is 6794 km from here, but 48.8584 2.2945 (the same numbers, "
                + "latitude first) is 433 m away: if you meant that, run 'waypointctl go 48.8584 2.2945'; "
                + "to go to 2.2945 48.8584 all the same, add --force\n")
        let forced = try run(["go", "2.2945", "48.8584", "--force"], replies: [[Self.ok], [Self.status]])
        #expect(forced.output.status == 0, "\(forced.output.standardError)")
        #expect(forced.requests == [#"{"cmd":"go","lat":2.2945,"lon":48.8584}"#, #"{"cmd":"status"}"#])
        #expect(forced.output.standardError.isEmpty)
        // Out of range as typed, in range swapped: refused, with the order spelled out.
        let refused = try run(["go", "151.2153", "-33.8568"], replies: [])
        #expect(refused.output.status == 64)
        #expect(
            refused.output.standardError.hasPrefix(
                "waypointctl: '151.2153 -33.8568': latitude 151.2153 is out of range (must be between -90 and 90); "
                    + "latitude comes first: did you mean '-33.8568 151.2153'?\n"))
    }

    @Test("go and place add with what a phone shares (issue 26): the link's name, no swap question for a link, a short plus code completed near the fix")
    func sharedPlaces() throws {
        // A link names its latitude: no status question; the name comes from the link.
        let link = "https://maps.apple.com/?ll=48.858370,2.294481&q=Eiffel%20Tower"
        let linked = try run(["go", link], replies: [[Self.ok], [Self.status]])
        #expect(linked.output.status == 0, "\(linked.output.standardError)")
        #expect(linked.requests == [#"{"cmd":"go","lat":48.85837,"lon":2.294481,"name":"Eiffel Tower"}"#, #"{"cmd":"status"}"#])
        // A short code: the fix first (48.8556, 2.2986), then the completed place.
        let short = try run(["go", "V75V+8Q"], replies: [[Self.status], [Self.ok], [Self.status]])
        #expect(short.output.status == 0, "\(short.output.standardError)")
        #expect(short.requests == [#"{"cmd":"status"}"#, #"{"cmd":"go","lat":48.8583125,"lon":2.2944375}"#, #"{"cmd":"status"}"#])
        #expect(short.output.standardError == "waypointctl: 8FW4V75V+8Q: the short code completed near the current fix\n")
        // --near instead of the fix: nothing asked.
        let near = try run(["place", "add", "Tower", "V75V+8Q", "--near", "48.86,2.35"], replies: [[Self.ok]])
        #expect(near.requests == [#"{"action":"add","cmd":"place","lat":48.8583125,"lon":2.2944375,"name":"Tower"}"#])
        // No fix yet: refused with what to do, nothing set.
        let idle = #"{"class":"STATUS","state":"no-fix","heading":{"reliable":false},"destination":null}"#
        let noFix = try run(["place", "add", "Tower", "V75V+8Q"], replies: [[idle]])
        #expect(noFix.output.status == 65)
        #expect(noFix.requests == [#"{"cmd":"status"}"#])
        #expect(noFix.output.standardError.contains("has no fix yet: give --near COORDINATE"), "\(noFix.output.standardError)")
    }

    @Test("clear says whether there was anything to clear (issue 18, item 6)")
    func clearTwice() throws {
        let idle = #"{"class":"STATUS","state":"idle","heading":{"reliable":false},"destination":null}"#
        let first = try run(["clear"], replies: [[Self.status], [Self.ok]])
        #expect(first.requests == [#"{"cmd":"status"}"#, #"{"cmd":"clear"}"#])
        #expect(first.output.standardOutput == "destination cleared; guidance stopped\n")
        let second = try run(["clear"], replies: [[idle], [Self.ok]])
        #expect(second.output.status == 0)
        #expect(second.output.standardOutput == "no destination was set; nothing to clear\n")
    }

    @Test("an ERROR reply: its code and message on standard error, exit 1")
    func errorReply() throws {
        let result = try run(
            ["go", "--recent", "5"],
            replies: [[#"{"class":"ERROR","code":"not-found","message":"there is only 1 recent destination"}"#]])
        #expect(result.output.status == 1)
        #expect(result.output.standardOutput.isEmpty)
        #expect(
            result.output.standardError
                == "waypointctl: error from waypointd: not-found: there is only 1 recent destination\n")
        let refused = try run(
            ["calibrate", "finish"], replies: [[#"{"class":"ERROR","code":"refused","message":"coverage 40%; keep turning"}"#]])
        #expect(refused.requests == [#"{"action":"finish","cmd":"calibrate"}"#])
        #expect(refused.output.status == 1)
        #expect(refused.output.standardError.contains("refused: coverage 40%; keep turning"))
    }

    @Test("too many clients: the daemon's ERROR instead of a greeting, exit 1")
    func tooManyClients() throws {
        let result = try run(
            ["status"], replies: [],
            greeting:
                #"{"class":"ERROR","code":"too-many-clients","message":"too many clients (at most 32); try again later"}"#,
            ending: .close)
        #expect(result.output.status == 1)
        #expect(result.output.standardError.contains("too-many-clients: too many clients (at most 32)"))
    }

    @Test("another protocol version: a warning, and the command still runs")
    func protocolMismatch() throws {
        let result = try run(
            ["clear"], replies: [[Self.status], [Self.ok]], greeting: #"{"class":"VERSION","release":"2.0.0","proto":2}"#)
        #expect(result.output.status == 0)
        #expect(result.output.standardError.contains("warning: waypointd (release 2.0.0) speaks control protocol 2"))
        #expect(result.output.standardOutput == "destination cleared; guidance stopped\n")
    }

    @Test("a daemon that hangs up, answers nonsense or the wrong thing")
    func badDaemons() throws {
        let hangUp = try run(["status"], replies: [[]], ending: .close)
        #expect(hangUp.output.status == 69)
        #expect(hangUp.output.standardError.contains("waypointd closed the connection on /tmp/waypointctl-test-"))
        let nonsense = try run(["status"], replies: [["hello"]])
        #expect(nonsense.output.status == 1)
        #expect(nonsense.output.standardError.contains("unreadable reply from waypointd on /tmp/"))
        #expect(nonsense.output.standardError.contains("not a JSON object (not valid JSON)"))
        let wrong = try run(["status"], replies: [[#"{"class":"RECENT","destinations":[]}"#]])
        #expect(wrong.output.status == 1)
        #expect(wrong.output.standardError == "waypointctl: waypointd answered RECENT to status\n")
        let silent = try run(["status"], replies: [], greeting: nil, ending: .close)
        #expect(silent.output.status == 69)
    }

    @Test("a daemon that never answers: exit 69 after the reply timeout, not a hang")
    func timeout() throws {
        let start = ContinuousClock.now
        let result = try run(["status"], replies: [[]])
        let elapsed = ContinuousClock.now - start
        #expect(result.output.status == 69)
        #expect(result.output.standardError.contains("no reply from waypointd on /tmp/"))
        #expect(result.output.standardError.contains("within 5 s"))
        #expect(elapsed >= .seconds(4.5) && elapsed < .seconds(10))
    }

    @Test("watch without a terminal: a line per update until SIGINT, then exit 0")
    func watchPlain() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let idle =
            #"{"class":"STATUS","state":"idle","heading":{"true":10,"reliable":true},"destination":null,"muted":false}"#
        let daemon = try FakeDaemon(replies: [[Self.ok, Self.status, idle, Self.status]])
        // At 0.1 Hz the client waits 35 s for an update before calling the daemon stuck: ample
        // time for this test to see the lines and send SIGINT, even with every core busy.
        let child = try ChildProcess(waypointctl, ["watch", "--hz", "0.1", "--socket", daemon.path])
        let arrived = await child.wait(timeout: .seconds(10)) { output, _ in output.count >= 3 }
        #expect(arrived)
        kill(child.processID, SIGINT)
        #expect(child.waitForExit() == 0)
        daemon.waitUntilFinished()
        #expect(daemon.requests == [#"{"cmd":"watch","enable":true,"hz":0.1}"#])
        #expect(
            child.output.map(\.text) == [
                "guiding; heading 292° WNW; Eiffel Tower 432 m at 316° NW, 24° right; motor 55%",
                "idle; heading 10° N; no destination; motor off",
                "guiding; heading 292° WNW; Eiffel Tower 432 m at 316° NW, 24° right; motor 55%",
            ])
        #expect(child.errors.isEmpty)
    }

    @Test("watch: SIGTERM ends it cleanly too; a daemon that goes away ends it with 69")
    func watchEnds() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try FakeDaemon(replies: [[Self.ok, Self.status]])
        let child = try ChildProcess(waypointctl, ["--socket", daemon.path, "watch", "--hz", "0.1"])
        #expect(await child.wait(timeout: .seconds(10)) { output, _ in output.count >= 1 })
        kill(child.processID, SIGTERM)
        #expect(child.waitForExit() == 0)
        #expect(daemon.requests.first == #"{"cmd":"watch","enable":true,"hz":0.1}"#)

        let gone = try run(["watch"], replies: [[Self.ok, Self.status]], ending: .close)
        #expect(gone.output.status == 69)
        #expect(gone.output.standardOutput.hasPrefix("guiding; heading 292° WNW"))
        #expect(gone.output.standardError.contains("waypointd closed the connection"))
        let dropped = try run(
            ["watch"], replies: [[Self.ok, #"{"class":"ERROR","code":"internal","message":"you fell behind"}"#]])
        #expect(dropped.output.status == 1)
        #expect(dropped.output.standardError.contains("internal: you fell behind"))
    }
}
