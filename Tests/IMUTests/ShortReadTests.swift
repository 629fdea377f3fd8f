import Foundation
import IMU
import Testing

/// A device whose block reads come back short, as an SMBus block read can.
private final class ShortDevice: I2CDevice {
    let bus = 1
    let address: UInt8 = 0x1C
    let bytesReturned: Int
    init(bytesReturned: Int) { self.bytesReturned = bytesReturned }
    func readRegisters(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        RegisterBlock(repeating: 0x55, count: min(count, bytesReturned))
    }
    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {}
}

@Suite("Short register reads", .timeLimit(.minutes(5)))
struct ShortReadTests {
    @Test("a short block read is an EIO naming the register and the byte counts, never a trap")
    func shortReads() throws {
        let short = ShortDevice(bytesReturned: 2)
        do {
            _ = try short.readExactly(0x28, count: 6)
            Issue.record("a short read was accepted")
        } catch {
            #expect(error.errno.rawValue == EIO)
            #expect(error.register == 0x28)
            #expect(error.operation == "read 6 bytes (got 2)")
        }
        #expect(try short.readExactly(0x28, count: 2) == [0x55, 0x55])
        #expect(throws: I2CError.self) { try ShortDevice(bytesReturned: 0).readRegister(0x0F) }
        #expect(try short.readRegister(0x0F) == 0x55)
    }
}
