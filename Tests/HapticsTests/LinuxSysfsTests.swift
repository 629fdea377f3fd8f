import Foundation
import Haptics
import Testing

@Suite("LinuxSysfs on an ordinary directory", .timeLimit(.minutes(5)))
struct LinuxSysfsTests {
    /// A temporary directory holding `duty_cycle` with `initial`, removed by the returned closure.
    static func directory(holding initial: String) throws -> (root: URL, file: URL, remove: () -> Void) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("duty_cycle")
        try initial.write(to: file, atomically: true, encoding: .utf8)
        return (root, file, { try? FileManager.default.removeItem(at: root) })
    }

    @Test("an attribute kept open takes numbers in decimal with a newline, each replacing all of the last")
    func keptOpenReplacesTheValue() throws {
        let (root, file, remove) = try Self.directory(holding: "40000\n")
        defer { remove() }
        let sysfs = LinuxSysfs(root: root.path)
        let dutyCycle = try sysfs.openAttribute("/duty_cycle")
        #expect(dutyCycle.path == "/duty_cycle")
        // Longer then shorter, on an ordinary file: without the truncation before each write,
        // 7 after UInt64.max would read "7\n446744073709551615\n".
        for value: UInt64 in [0, 7, 40_000, 1_000_000_007, .max, 7, 40_000, 0] {
            try dutyCycle.write(value)
            #expect(try String(contentsOf: file, encoding: .utf8) == "\(value)\n")
            #expect(try sysfs.read("/duty_cycle") == "\(value)")
        }
        try dutyCycle.close()
    }

    @Test("an attribute kept open writes to the file it opened, not to the path again")
    func keptOpenUsesItsDescriptor() throws {
        let (root, file, remove) = try Self.directory(holding: "0\n")
        defer { remove() }
        let dutyCycle = try LinuxSysfs(root: root.path).openAttribute("/duty_cycle")
        // What the kernel does to an attribute once opened, a rename does to an ordinary file:
        // only a write through the descriptor reaches it.
        let moved = root.appendingPathComponent("duty_cycle.moved")
        try FileManager.default.moveItem(at: file, to: moved)
        try dutyCycle.write(25_000)
        #expect(try String(contentsOf: moved, encoding: .utf8) == "25000\n")
        #expect(!FileManager.default.fileExists(atPath: file.path), "the path was not opened again")
        try dutyCycle.close()
        try dutyCycle.close()  // a second time does nothing
    }

    @Test("errors name the path below the root and the errno, at open and at write")
    func errorsNameThePath() throws {
        let (root, _, remove) = try Self.directory(holding: "0\n")
        defer { remove() }
        let sysfs = LinuxSysfs(root: root.path)
        #expect(throws: SysfsError(path: "/missing/duty_cycle", errno: ENOENT)) {
            _ = try sysfs.openAttribute("/missing/duty_cycle")
        }
        #expect(throws: SysfsError(path: "/", errno: EISDIR)) { _ = try sysfs.openAttribute("/") }
    }

    @Test(
        "a write that fails through an attribute kept open names the attribute",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func writeFailureNamesThePath() throws {
        // /dev/full, a character device and not sysfs: it opens for writing, and the truncation
        // before each value, which only a regular file allows, fails with EINVAL.
        let full = try LinuxSysfs(root: "/dev").openAttribute("/full")
        #expect(throws: SysfsError(path: "/full", errno: EINVAL)) { try full.write(1) }
        try full.close()
    }

    @Test("rare writes by path: text with a newline, replacing what was there; a missing file is its errno")
    func writesByPath() throws {
        let (root, file, remove) = try Self.directory(holding: "40000\n")
        defer { remove() }
        let sysfs = LinuxSysfs(root: root.path)
        try sysfs.write("7", to: "/duty_cycle")
        #expect(try String(contentsOf: file, encoding: .utf8) == "7\n")
        #expect(throws: SysfsError(path: "/missing/duty_cycle", errno: ENOENT)) {
            try sysfs.write("1", to: "/missing/duty_cycle")
        }
    }
}
