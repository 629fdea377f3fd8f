/// A failed I2C transfer: which bus, device and register, and the kernel's errno.
public struct I2CError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `/dev/i2c-N` bus number.
    public var bus: Int
    /// The 7-bit device address.
    public var address: UInt8
    /// The register, when the transfer had one.
    public var register: UInt8?
    /// What was attempted, e.g. `read 6 bytes`.
    public var operation: String
    /// The errno (EIO, EREMOTEIO or ENXIO for a device that does not acknowledge).
    public var errno: Int32

    /// An error from its parts.
    public init(bus: Int, address: UInt8, register: UInt8?, operation: String, errno: Int32) {
        self.bus = bus
        self.address = address
        self.register = register
        self.operation = operation
        self.errno = errno
    }

    public var description: String {
        let registerText = register.map { " register 0x\(String($0, radix: 16, uppercase: true))" } ?? ""
        return "i2c-\(bus) device 0x\(String(address, radix: 16, uppercase: true))\(registerText): \(operation) failed (errno \(errno))"
    }
}
