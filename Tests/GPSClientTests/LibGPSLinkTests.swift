import Foundation
import GPSClient  // linked as the daemon links it
import Testing

@Suite("How libgps is linked", .timeLimit(.minutes(10)))
struct LibGPSLinkTests {
    /// libgps.so would bring libdbus-1 and, through it, libsystemd, libgcrypt and four more
    /// libraries (about 1 MB resident); the static archive with CGPSLink's D-Bus stand-ins brings
    /// none of them. This test process links GPSClient as the daemon does.
    @Test("libgps comes from its static archive: no libgps.so and no libdbus in the process")
    func staticArchive() throws {
        // The libraries a program needs are mapped before main, so the map shows them all.
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("libgps.so"), "libgps.so is mapped")
        #expect(!maps.contains("libdbus-1.so"), "libdbus is mapped")
        #expect(!maps.contains("libgcrypt.so"), "libgcrypt is mapped")
    }
}
