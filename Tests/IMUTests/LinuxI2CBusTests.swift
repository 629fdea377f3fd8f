import Foundation
import SystemSupport
import Testing

@testable import IMU

/// There is no I2C adapter on the build machine, so these tests drive the real code into its
/// error paths: a missing node, a node that is not an adapter, and libi2c's −errno convention.
@Suite("The Linux I2C bus: errors with context, libi2c's negative errno, EINTR retried", .timeLimit(.minutes(5)))
struct LinuxI2CBusTests {
    /// A fresh temporary directory, removed by the caller.
    private static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("waypointd-i2c-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        return directory
    }

    @Test("a missing bus node is ENOENT on open, naming bus, address and path")
    func missingNode() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bus = LinuxI2CBus(number: 7, deviceDirectory: directory.path + "/")
        #expect(bus.path == directory.path + "/i2c-7")
        let error = #expect(throws: I2CError.self) { try bus.device(at: 0x1E) }
        #expect(error == I2CError(bus: 7, address: 0x1E, register: nil, operation: "open \(bus.path)", errno: ENOENT))
    }

    @Test("a node that is not an I2C adapter is ENOTTY from ioctl(I2C_SLAVE)")
    func notAnAdapter() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data().write(to: directory.appendingPathComponent("i2c-1"))
        let bus = LinuxI2CBus(number: 1, deviceDirectory: directory.path)
        let error = #expect(throws: I2CError.self) { try bus.device(at: 0x68) }
        #expect(error?.errno.rawValue == ENOTTY)
        #expect(error?.address == 0x68 && error?.bus == 1 && error?.register == nil)
        #expect(error?.operation == "select address (I2C_SLAVE)")
    }

    @Test("libi2c's negative return becomes the errno, with the register, for reads and writes")
    func smbusErrors() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("i2c-2").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        try #require(descriptor >= 0)
        // Skips the address binding, which a regular file refuses, to reach the SMBus calls.
        let device = LinuxI2CDevice(bus: 2, address: 0x0D, descriptor: descriptor)
        let readError = #expect(throws: I2CError.self) { try device.readRegisters(0x06, count: 6) }
        #expect(readError == I2CError(bus: 2, address: 0x0D, register: 0x06, operation: "read 6 bytes", errno: ENOTTY))
        let writeError = #expect(throws: I2CError.self) { try device.writeRegister(0x09, 0x19) }
        #expect(writeError == I2CError(bus: 2, address: 0x0D, register: 0x09, operation: "write", errno: ENOTTY))
        #expect(try String(contentsOfFile: path, encoding: .isoLatin1) == "\u{1}\u{2}\u{3}", "nothing was written")
    }

    @Test("an SMBus call interrupted by a signal is retried; other errors are returned as errno")
    func smbusInterrupted() throws {
        var calls = 0
        let result = LinuxI2C.retryingInterrupts(smbus: {
            calls += 1
            return calls < 3 ? -EINTR : 6
        })
        #expect(calls == 3)
        #expect(try result.get() == 6)
        let failure = LinuxI2C.retryingInterrupts(smbus: { -EREMOTEIO })
        #expect(throws: Errno(rawValue: EREMOTEIO)) { try failure.get() }
    }

    @Test("a libc call interrupted by a signal is retried; −1 with errno otherwise")
    func libcInterrupted() throws {
        var calls = 0
        let result = LinuxI2C.retryingInterrupts(libc: {
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 5
        })
        #expect(calls == 3)
        #expect(try result.get() == 5)
        let failure = LinuxI2C.retryingInterrupts(libc: {
            errno = EACCES
            return -1
        })
        #expect(throws: Errno(rawValue: EACCES)) { try failure.get() }
    }
}
