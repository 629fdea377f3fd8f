import SystemSupport

/// A failed I2C transfer: which bus, device and register, and the kernel's error.
public struct I2CError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `/dev/i2c-N` bus number.
    public var bus: Int
    /// The 7-bit device address.
    public var address: UInt8
    /// The register, when the transfer had one.
    public var register: UInt8?
    /// What was attempted, e.g. `read 6 bytes`.
    public var operation: String
    /// The kernel's error (EIO, EREMOTEIO, or ENXIO for a device that does not acknowledge).
    public var errno: Errno

    /// An error from its parts.
    public init(bus: Int, address: UInt8, register: UInt8?, operation: String, errno: Errno) {
        self.bus = bus
        self.address = address
        self.register = register
        self.operation = operation
        self.errno = errno
    }

    /// An error from its parts, the error as the C library's number.
    public init(bus: Int, address: UInt8, register: UInt8?, operation: String, errno: Int32) {
        self.init(bus: bus, address: address, register: register, operation: operation, errno: Errno(rawValue: errno))
    }

    public var description: String {
        let registerText = register.map { " register 0x\(String($0, radix: 16, uppercase: true))" } ?? ""
        return "i2c-\(bus) device 0x\(String(address, radix: 16, uppercase: true))\(registerText): \(operation) failed: \(errno)"
    }
}
