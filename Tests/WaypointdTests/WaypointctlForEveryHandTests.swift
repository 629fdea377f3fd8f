import Foundation
import Testing
import TestSupport

/// Issue 18 through the built `waypointctl` and the real `waypointd --simulate`: coordinates in
/// every hemisphere and form, names that cannot reach a terminal raw, one recent entry per place.
@Suite("waypointctl for every hand", .timeLimit(.minutes(10)))
struct WaypointctlForEveryHandTests {
    /// A place in each hemisphere, with its decimal degrees as typed and as degrees, minutes
    /// and seconds (worked out by hand: 0.8568° = 51.408' = 51' 24.48").
    struct Place {
        let latitude: String
        let longitude: String
        let dms: String
        var latitudeDegrees: Double { Double(latitude)! }
        var longitudeDegrees: Double { Double(longitude)! }
        /// Unsigned, with hemisphere letters: `33.8568S 151.2153E`.
        var lettered: (String, String) {
            let lat = latitude.hasPrefix("-") ? String(latitude.dropFirst()) + "S" : latitude + "N"
            let lon = longitude.hasPrefix("-") ? String(longitude.dropFirst()) + "W" : longitude + "E"
            return (lat, lon)
        }

        /// Every documented form: as one argument and as two.
        var forms: [[String]] {
            let (lat, lon) = lettered
            return [
                [latitude, longitude], ["\(latitude) \(longitude)"], ["\(latitude),\(longitude)"],
                ["geo:\(latitude),\(longitude)"], [lat, lon], ["\(lat) \(lon)"], [dms],
            ]
        }
    }

    static let places = [
        Place(latitude: "48.8584", longitude: "2.2945", dms: #"48°51'30.24"N 2°17'40.2"E"#),  // Paris: N, E
        Place(latitude: "-33.8568", longitude: "151.2153", dms: #"33°51'24.48"S 151°12'55.08"E"#),  // Sydney: S, E
        Place(latitude: "40.6892", longitude: "-74.0445", dms: #"40°41'21.12"N 74°2'40.2"W"#),  // New York: N, W
        Place(latitude: "-22.9519", longitude: "-43.2105", dms: #"22°57'6.84"S 43°12'37.8"W"#),  // Rio: S, W
    ]

    @Test("every form, one argument or two, in all four hemispheres: go, bearing and declination agree")
    func hemispheres() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        let client = try daemon.client()
        for place in Self.places {
            let reference = try ExternalTool.run(waypointctl, ["declination", place.latitude, place.longitude])
            #expect(reference.status == 0, "\(reference.standardError)")
            for form in place.forms {
                let go = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go"] + form)
                #expect(go.status == 0, "go \(form): \(go.standardError)")
                let destination = try #require(client.request(#"{"cmd":"status"}"#)?.object("destination"))
                let tolerance = form == [place.dms] ? 1e-9 + 0.005 / 3600 : 1e-12
                #expect(abs((destination["lat"] as? Double ?? .nan) - place.latitudeDegrees) <= tolerance, "go \(form)")
                #expect(abs((destination["lon"] as? Double ?? .nan) - place.longitudeDegrees) <= tolerance, "go \(form)")

                let decimal = "\(place.latitude) \(place.longitude)"
                let bearing = try ExternalTool.run(waypointctl, ["bearing"] + (form.count == 2 ? form + [place.latitude, place.longitude] : form + [decimal]))
                #expect(bearing.status == 0, "bearing \(form): \(bearing.standardError)")
                #expect(bearing.standardOutput.contains("distance         0.0 m"), "bearing \(form): \(bearing.standardOutput)")

                let declination = try ExternalTool.run(waypointctl, ["declination"] + form)
                #expect(declination.status == 0, "declination \(form): \(declination.standardError)")
                if form != [place.dms] {
                    #expect(declination.standardOutput == reference.standardOutput, "declination \(form)")
                }
            }
        }
        // A sign and a letter together: the parser's own message, not "unknown option".
        let both = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go", "-48S 2E"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("has both a sign and a hemisphere letter"), "\(both.standardError)")
        // -- still ends options.
        let ended = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go", "--", "-33.8568", "151.2153"])
        #expect(ended.status == 0, "\(ended.standardError)")
    }

    /// No raw control character or bidirectional override in `text`.
    static func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                || (0x2066...0x2069).contains($0.value)
        }
    }

    @Test("random Unicode names (seeded): refused or kept, nothing printed by status, recent or watch --plain is raw")
    func nameFuzz() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        var generator = SeededGenerator(seed: 18)
        // What attackers and accidents bring: C0, DEL, C1, bidi overrides and isolates, and
        // ordinary text from several scripts, combining marks and emoji.
        let pools: [ClosedRange<UInt32>] = [
            0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x20...0x7E, 0xC0...0x24F, 0x300...0x36F,
            0x4E00...0x4E80, 0x1F300...0x1F5FF, 0x2000...0x200F,
        ]
        let client = try daemon.client()
        var accepted = 0
        var refused = 0
        for round in 0..<60 {
            let length = Int.random(in: 1...12, using: &generator)
            var name = ""
            for _ in 0..<length {
                let pool = pools.randomElement(using: &generator)!
                if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &generator)) { name.unicodeScalars.append(scalar) }
            }
            // Half through waypointctl (which checks first), half straight to the socket.
            let latitude = 48.85 + Double(round) * 1e-3
            if round.isMultiple(of: 2) {
                // A NUL cannot be passed in an argument; the socket half covers it.
                let argument = name.replacingOccurrences(of: "\u{0}", with: "")
                let go = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go", "\(latitude)", "2.29", "--name", argument])
                #expect(Self.isPrintable(go.standardOutput + go.standardError), "\(go.standardOutput)\(go.standardError)")
                if go.status == 0 { accepted += 1 } else { refused += 1 }
            } else {
                let line = try String(
                    decoding: JSONSerialization.data(withJSONObject: ["cmd": "go", "lat": latitude, "lon": 2.29, "name": name]),
                    as: UTF8.self)
                let reply = try #require(client.request(line))
                if reply["class"] as? String == "OK" {
                    accepted += 1
                } else {
                    refused += 1
                    #expect(reply["code"] as? String == "bad-argument", "\(reply)")
                }
            }
            for command in [["status"], ["recent"], ["status", "--json"]] {
                let output = try ExternalTool.run(waypointctl, ["--socket", daemon.socket] + command)
                #expect(output.status == 0)
                #expect(Self.isPrintable(output.standardOutput + output.standardError), "\(command): \(output.standardOutput)")
            }
        }
        #expect(accepted > 5 && refused > 5, "accepted \(accepted), refused \(refused)")
        let watch = try ChildProcess(waypointctl, ["--socket", daemon.socket, "watch", "--plain", "--hz", "10"])
        _ = await watch.wait(timeout: .seconds(5)) { output, _ in !output.isEmpty }
        watch.terminate()
        #expect(!watch.output.isEmpty)
        #expect(watch.output.allSatisfy { Self.isPrintable($0.text) }, "\(watch.output.map(\.text))")
    }

    @Test("one recent entry per place: four names for one spot (two refused) leave one entry, the newest name")
    func recentsByPlace() async throws {
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        func go(_ extra: [String]) throws -> ExternalTool.Output {
            try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go", "48.8584", "2.2945"] + extra)
        }
        #expect(try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "go", "-33.8568", "151.2153"]).status == 0)
        #expect(try go(["--name", "evil"]).status == 0)
        #expect(try go([]).status == 0)
        let spaces = try go(["--name", "   "])
        #expect(spaces.status == 64)
        #expect(spaces.standardError.contains("name is only whitespace"), "\(spaces.standardError)")
        let escape = try go(["--name", "Eiffel\u{1B}[2J\u{1B}[41mX\nline2"])
        #expect(escape.status == 64)
        #expect(escape.standardError.contains("U+001B (escape) at position 7"), "\(escape.standardError)")
        #expect(try go(["--name", " Eiffel Tower "]).status == 0)
        let recent = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "recent"])
        #expect(
            recent.standardOutput == """
                1: Eiffel Tower, 48°51'30.2"N 2°17'40.2"E
                2: 33°51'24.5"S 151°12'55.1"E

                """)
        let clear = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "clear"])
        #expect(clear.standardOutput == "destination cleared; guidance stopped\n")
        let again = try ExternalTool.run(waypointctl, ["--socket", daemon.socket, "clear"])
        #expect(again.standardOutput == "no destination was set; nothing to clear\n")
        // A directory given as the socket is named as one.
        let directory = try ExternalTool.run(waypointctl, ["--socket", daemon.tree.root.path, "status"])
        #expect(directory.status == 69)
        #expect(directory.standardError.contains("\(daemon.tree.root.path) is a directory, not waypointd's socket"), "\(directory.standardError)")
    }

    @Test("real clients: socat and nc -N, writing and half-closing as shell scripts do, get each reply; a bad name is refused")
    func realClients() async throws {
        let socat = try ExternalTool.find("socat", hint: "apt-get install socat")
        let nc = try ExternalTool.find("nc", hint: "apt-get install netcat-openbsd")
        let daemon = try await SimulatedDaemon()
        let status = try ExternalTool.run(socat, ["-", "UNIX-CONNECT:\(daemon.socket)"], input: #"{"cmd":"status"}"# + "\n")
        let lines = status.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(status.standardOutput)\(status.standardError)")
        #expect(lines.first?.hasPrefix(#"{"class":"VERSION""#) == true)
        #expect(lines.last?.contains(#""class":"STATUS""#) == true)
        let refused = try ExternalTool.run(
            nc, ["-N", "-U", daemon.socket], input: #"{"cmd":"go","lat":1,"lon":2,"name":"a\u001b[2Jb"}"# + "\n")
        #expect(
            refused.standardOutput.hasSuffix(
                #"{"class":"ERROR","code":"bad-argument","message":"name has U+001B (escape) at position 2; "#
                    + #"names may not hold control characters or bidirectional overrides"}"# + "\n"),
            "\(refused.standardOutput)")
        let kept = try ExternalTool.run(
            nc, ["-N", "-U", daemon.socket], input: #"{"cmd":"go","lat":1,"lon":2,"name":"  bench\t "}"# + "\n")
        #expect(kept.standardOutput.contains("bad-argument"), "a tab inside is a control character, trimmed or not")
        let trimmed = try ExternalTool.run(
            socat, ["-", "UNIX-CONNECT:\(daemon.socket)"],
            input: #"{"cmd":"go","lat":1,"lon":2,"name":"  bench  "}"# + "\n" + #"{"cmd":"status"}"# + "\n")
        #expect(trimmed.standardOutput.contains(#""name":"bench""#), "\(trimmed.standardOutput)")
    }
}
