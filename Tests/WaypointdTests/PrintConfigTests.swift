import Foundation
import Testing
import TestSupport

@Suite("waypointd --print-config", .timeLimit(.minutes(10)))
struct PrintConfigTests {
    @Test("the shipped file prints the defaults; errors are file:line: messages with exit 78")
    func printConfig() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let shipped = try ExternalTool.run(waypointd, ["--print-config", "--config", TestData.url("config/waypointd.conf").path])
        #expect(shipped.status == 0, "\(shipped.standardError)")
        #expect(shipped.standardOutput.contains("\nzone-degrees 20\n"))
        #expect(shipped.standardOutput.contains("\ngpsd 127.0.0.1:2947\n"))

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).conf")
        try "# a comment\npwm-chanel 2\nzone-degrees 500\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let bad = try ExternalTool.run(waypointd, ["--print-config", "--config", file.path])
        #expect(bad.status == 78)
        #expect(bad.standardError == """
            \(file.path):2: unknown key 'pwm-chanel'; did you mean 'pwm-channel'?
            \(file.path):3: zone-degrees: 500 is out of range (allowed: 1 to 179)

            """)
        let missing = try ExternalTool.run(waypointd, ["--print-config", "--config", "/nonexistent/waypointd.conf"])
        #expect(missing.status == 78)
        #expect(missing.standardError.contains("/nonexistent/waypointd.conf"))
    }

    @Test("a NUL byte in a config line is shown escaped, and the message goes on past it")
    func nulInLine() throws {
        let waypointd = try ExternalTool.built("waypointd")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nul-\(UUID().uuidString).conf")
        try Data("zone-degrees 2\u{0}5\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try ExternalTool.run(waypointd, ["--print-config", "--config", file.path])
        #expect(output.status == 78)
        let lines = output.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(output.standardError)")
        #expect(lines.first?.hasPrefix("\(file.path):1: zone-degrees: '2\\u{00}5' is not") == true, "\(output.standardError)")
        #expect(lines.first?.contains("(allowed: 1 to 179)") == true, "\(output.standardError)")
    }
}
