import Foundation
import Haptics
import Testing

@Suite("LinuxSysfs on an ordinary directory")
struct LinuxSysfsTests {
    @Test("numbers are written in decimal with a newline, replacing what was there; a missing file is its errno")
    func writesNumbers() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("duty_cycle")
        try "40000\n".write(to: file, atomically: true, encoding: .utf8)
        let sysfs = LinuxSysfs(root: root.path)
        for value: UInt64 in [0, 7, 40_000, 1_000_000_007, .max] {
            try sysfs.write(value, to: "/duty_cycle")
            #expect(try String(contentsOf: file, encoding: .utf8) == "\(value)\n")
            #expect(try sysfs.read("/duty_cycle") == "\(value)")
        }
        #expect(throws: SysfsError(path: "/missing/duty_cycle", errno: ENOENT)) {
            try sysfs.write(1, to: "/missing/duty_cycle")
        }
    }
}
