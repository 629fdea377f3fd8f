import Foundation
import Testing
import TestSupport

/// `waypointctl watch` on a real terminal (tmux, read back with `capture-pane`) against the real
/// daemon while the simulated wearer turns to face the destination (issue 18, item 5).
@Suite("watch in a real terminal", .timeLimit(.minutes(10)))
struct WatchInTmuxTests {
    /// One captured screen: its ring (the rows between the lubber mark and `state`), as lines.
    struct Frame {
        let lines: [String]
        var ring: [String] {
            guard let state = lines.firstIndex(where: { $0.hasPrefix("  state") }) else { return [] }
            return Array(lines[2..<state])
        }
        /// Where each ring glyph (., #, *) is: the ring's layout, whatever the glyphs.
        var layout: [[Int]] { ring.map { line in line.enumerated().compactMap { ".#*".contains($0.element) ? $0.offset : nil } } }
        var pin: (row: Int, column: Int)? {
            for (row, line) in ring.enumerated() {
                if let index = line.firstIndex(of: "*") { return (row, line.distance(from: line.startIndex, to: index)) }
            }
            return nil
        }
        var header: String { lines.first ?? "" }
        func glyph(_ row: Int, _ column: Int) -> Character? {
            guard ring.indices.contains(row), column >= 0 else { return nil }
            let line = Array(ring[row])
            return line.indices.contains(column) ? line[column] : nil
        }
    }

    @Test("while the wearer turns: every frame has one ring layout and width; the pin and its zone move with the heading")
    func turning() async throws {
        let tmux = try ExternalTool.find("tmux", hint: "apt-get install tmux")
        let waypointctl = try ExternalTool.built("waypointctl")
        let daemon = try await SimulatedDaemon()
        // 176 m due east of the simulated start: the wearer turns from west through north to it.
        #expect(try daemon.client().request(#"{"cmd":"go","lat":48.8556,"lon":2.3010,"name":"east"}"#)?["class"] as? String == "OK")
        let server = "waypoint-test-\(getpid())"
        let tmuxArguments = ["-L", server, "-f", "/dev/null"]
        defer { _ = try? ExternalTool.run(tmux, tmuxArguments + ["kill-server"]) }
        // Through system(3), not Foundation's Process: the tmux server this starts would inherit
        // Process's pipes, and Process reports an exit only once they close, which the server
        // never does while it runs.
        let command = (tmuxArguments + [
            "new-session", "-d", "-x", "60", "-y", "20", "\(waypointctl.path) --socket \(daemon.socket) watch --hz 5",
        ]).map { "'" + $0 + "'" }.joined(separator: " ")
        try #require(system("'\(tmux.path)' \(command) </dev/null >/dev/null 2>&1") == 0, "tmux new-session failed")


        var frames: [Frame] = []
        for _ in 0..<16 {
            try await Task.sleep(for: .milliseconds(400))
            let capture = try ExternalTool.run(tmux, tmuxArguments + ["capture-pane", "-p", "-t", "0"])
            let lines = capture.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.contains(where: { $0.hasPrefix("  state   guiding") }) { frames.append(Frame(lines: lines)) }
        }
        try #require(frames.count >= 8, "\(frames.count) guiding frames of 16; \(daemon.log)")
        let first = frames[0]
        #expect(first.ring.count == 13, "60×20: a ring of radius 6 (20 rows less 6 for text)\n\(first.lines.joined(separator: "\n"))")
        var pins: Set<[Int]> = []
        var headers: Set<String> = []
        for frame in frames {
            let screen = frame.lines.joined(separator: "\n")
            #expect(frame.layout == first.layout, "the ring's cells moved:\n\(screen)")
            #expect(frame.lines.count == first.lines.count)
            #expect(frame.header.prefix { $0 == " " }.count == first.header.prefix { $0 == " " }.count, "header shifted:\n\(screen)")
            #expect(frame.lines.allSatisfy { $0.count <= 60 })
            let pin = try #require(frame.pin, "no pin:\n\(screen)")
            pins.insert([pin.row, pin.column])
            headers.insert(frame.header)
            // The zone is around the pin: a # on the ring next to it.
            let neighbours = [(-1, -2), (-1, -1), (-1, 0), (-1, 1), (-1, 2), (0, -2), (0, -1), (0, 1), (0, 2), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2)]
            #expect(neighbours.contains { frame.glyph(pin.row + $0.0, pin.column + $0.1) == "#" }, "no zone beside the pin:\n\(screen)")
            #expect(frame.lines.contains { $0.hasPrefix("  target  east, ") && ($0.hasSuffix("right") || $0.hasSuffix("left") || $0.hasSuffix("on course")) }, "\(screen)")
        }
        #expect(headers.count >= 3, "the heading changed: \(headers)")
        #expect(pins.count >= 3, "the pin moved with it: \(pins)")
    }
}
