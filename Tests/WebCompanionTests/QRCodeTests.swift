import Testing
import WebCompanion

/// The pairing link's QR code. The expected sizes are ISO/IEC 18004's capacity table (byte mode,
/// level M: version 5 holds 84 bytes, version 6 holds 106; a version-V code is 17 + 4V modules
/// wide), not libqrencode's answers.
@Suite(.timeLimit(.minutes(5))) struct QRCodeTests {
    static let link = "http://192.168.43.20:8740/pair?token=" + String(repeating: "3f", count: 32)

    @Test func aPairingLinkIsAVersion6Code() throws {
        #expect(Self.link.utf8.count == 101)
        let modules = try #require(QRCode.modules(Self.link))
        #expect(modules.count == 41 && modules.allSatisfy { $0.count == 41 })
        // The three finder patterns: a dark 7×7 ring around a light ring around a dark 3×3 square.
        for (top, left) in [(0, 0), (0, 34), (34, 0)] {
            for row in 0..<7 {
                for column in 0..<7 {
                    let ring = max(abs(row - 3), abs(column - 3))
                    #expect(modules[top + row][left + column] == (ring != 2), "finder at \(top),\(left): \(row),\(column)")
                }
            }
        }
        // The timing pattern between them alternates.
        #expect((8...32).allSatisfy { modules[6][$0] == ($0 % 2 == 0) })
    }

    @Test func theTerminalDrawingHasTheQuietZoneAndTwoRowsALine() throws {
        let lines = try #require(QRCode.terminalLines(Self.link))
        #expect(lines.count == (41 + 2 * QRCode.quietZone + 1) / 2)
        // The first two rows are the quiet zone: all light, full blocks.
        #expect(lines[0] == "\u{1B}[40;37m" + String(repeating: "█", count: 49) + "\u{1B}[0m")
        #expect(QRCode.modules(String(repeating: "x", count: 3000)) == nil, "past a version 40 code")
    }
}
