@preconcurrency import Glibc
internal import CI2C
import SystemSupport

/// The kernel's I2C bus `/dev/i2c-N` through i2c-dev and libi2c's SMBus calls.
///
/// Each device address gets its own file descriptor, bound to the address once with
/// `ioctl(I2C_SLAVE)`, so drivers for chips at different addresses never re-bind a shared
/// descriptor between transfers. Devices are cached: asking twice for an address returns the same
/// device. Not thread-safe: one poller owns the bus.
public final class LinuxI2CBus: I2CBus {
    /// The bus number: the `N` in `/dev/i2c-N`.
    public let number: Int
    /// The directory holding the `i2c-N` nodes: `/dev` on a Pi, a temporary directory in tests.
    public let deviceDirectory: String
    private var devices: [UInt8: LinuxI2CDevice] = [:]

    /// The bus `/dev/i2c-<number>`; nothing is opened until the first `device(at:)`.
    /// - Parameters:
    ///   - number: the bus number (1 on a Raspberry Pi's GPIO header).
    ///   - deviceDirectory: where the `i2c-N` node lives; tests pass a temporary directory.
    public init(number: Int, deviceDirectory: String = "/dev") {
        self.number = number
        self.deviceDirectory = deviceDirectory.hasSuffix("/") ? String(deviceDirectory.dropLast()) : deviceDirectory
    }

    /// The path of the bus's device node, e.g. `/dev/i2c-1`.
    public var path: String { "\(deviceDirectory)/i2c-\(number)" }

    /// The device at `address`: opens the bus node and binds a descriptor to the address.
    ///
    /// Corresponds to `open(O_RDWR | O_CLOEXEC)` and `ioctl(I2C_SLAVE)`.
    /// - Parameter address: the 7-bit address.
    /// - Throws: `I2CError` with no register: ENOENT when the bus does not exist (is I2C enabled
    ///   in `config.txt`?), EACCES without permission (the `i2c` group), ENOTTY when the node is
    ///   not an I2C adapter, EBUSY when a kernel driver has claimed the address.
    public func device(at address: UInt8) throws(I2CError) -> any I2CDevice {
        if let device = devices[address] { return device }
        let path = self.path
        let descriptor: CInt
        switch LinuxI2C.open(path) {
        case .success(let opened): descriptor = opened
        case .failure(let error):
            throw I2CError(
                bus: number, address: address, register: nil, operation: "open \(path)", errno: error)
        }
        if case .failure(let error) = LinuxI2C.selectAddress(descriptor, address) {
            LinuxI2C.close(descriptor)
            throw I2CError(
                bus: number, address: address, register: nil, operation: "select address (I2C_SLAVE)",
                errno: error)
        }
        let device = LinuxI2CDevice(bus: number, address: address, descriptor: descriptor)
        devices[address] = device
        return device
    }
}

/// One device on a Linux I2C bus: a descriptor bound to its address, closed when the device goes.
public final class LinuxI2CDevice: I2CDevice {
    /// The bus number.
    public let bus: Int
    /// The 7-bit address.
    public let address: UInt8
    private let descriptor: CInt

    /// A device over an open descriptor it now owns (already bound to `address`, except in tests).
    init(bus: Int, address: UInt8, descriptor: CInt) {
        self.bus = bus
        self.address = address
        self.descriptor = descriptor
    }

    deinit { LinuxI2C.close(descriptor) }

    /// Reads `count` consecutive registers in one SMBus "I2C block" read.
    ///
    /// Corresponds to `i2c_smbus_read_i2c_block_data`.
    /// - Parameters:
    ///   - register: the first register (any ST multi-read bit is the driver's business).
    ///   - count: 1…32 bytes, the SMBus block limit (`I2C_SMBUS_BLOCK_MAX`).
    /// - Throws: `I2CError` carrying the register and errno: EREMOTEIO or ENXIO when the chip does
    ///   not acknowledge, EIO on a bus error, ETIMEDOUT when the bus hangs; EIO also when fewer
    ///   bytes came back than asked for.
    public func readRegisters(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        precondition((1...LinuxI2C.blockMaximum).contains(count), "an SMBus block read carries 1 to 32 bytes")
        // The operation's text is built only for an error: a read that succeeds allocates nothing.
        func operation() -> String { "read \(count) byte\(count == 1 ? "" : "s")" }
        switch LinuxI2C.readBlock(descriptor, register: register, count: count) {
        case .success(let bytes):
            guard bytes.count == count else {
                throw I2CError(
                    bus: bus, address: address, register: register, operation: "\(operation()) (got \(bytes.count))",
                    errno: EIO)
            }
            return bytes
        case .failure(let error):
            throw I2CError(
                bus: bus, address: address, register: register, operation: operation(), errno: error)
        }
    }

    /// Writes one register.
    ///
    /// Corresponds to `i2c_smbus_write_byte_data`.
    /// - Parameters:
    ///   - register: the register.
    ///   - value: the byte to write.
    /// - Throws: `I2CError` carrying the register and errno.
    public func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        if case .failure(let error) = LinuxI2C.writeByte(descriptor, register: register, value: value) {
            throw I2CError(bus: bus, address: address, register: register, operation: "write", errno: error)
        }
    }
}

/// The C calls behind the Linux bus, each wrapped once where its return convention is read:
/// libc returns −1 and sets errno; libi2c returns the negative errno (and leaves errno set too,
/// but the return value is the contract). Both retry EINTR.
enum LinuxI2C {
    /// `I2C_SMBUS_BLOCK_MAX`: the most bytes one SMBus block transfer carries.
    static let blockMaximum = 32

    /// Opens a bus node. Corresponds to `open(path, O_RDWR | O_CLOEXEC)`.
    static func open(_ path: String) -> Result<CInt, Errno> {
        retryingInterrupts(libc: { Glibc.open(path, O_RDWR | O_CLOEXEC) })
    }

    /// Binds the descriptor to a 7-bit address. Corresponds to `ioctl(fd, I2C_SLAVE, address)`.
    static func selectAddress(_ descriptor: CInt, _ address: UInt8) -> Result<Void, Errno> {
        retryingInterrupts(libc: { ioctl(descriptor, UInt(I2C_SLAVE), CInt(address)) }).map { _ in () }
    }

    /// Reads up to `count` bytes from `register` on. Corresponds to
    /// `i2c_smbus_read_i2c_block_data`, which returns the number of bytes read or −errno.
    static func readBlock(_ descriptor: CInt, register: UInt8, count: Int) -> Result<RegisterBlock, Errno> {
        var block = RegisterBlock()
        var result = Result<Int32, Errno>.success(0)
        block.fill { buffer in
            result = retryingInterrupts(smbus: {
                i2c_smbus_read_i2c_block_data(descriptor, register, UInt8(count), buffer.baseAddress)
            })
            guard case .success(let read) = result else { return 0 }
            return min(Int(read), count)
        }
        return result.map { _ in block }
    }

    /// Writes one register. Corresponds to `i2c_smbus_write_byte_data`, which returns 0 or −errno.
    static func writeByte(_ descriptor: CInt, register: UInt8, value: UInt8) -> Result<Void, Errno> {
        retryingInterrupts(smbus: { i2c_smbus_write_byte_data(descriptor, register, value) }).map { _ in () }
    }

    /// Closes a descriptor. Corresponds to `close`. Not retried on EINTR: Linux has released the
    /// descriptor by then, and a retry could close one another thread just opened.
    static func close(_ descriptor: CInt) {
        let result = Glibc.close(descriptor)
        precondition(result == 0 || errno != EBADF, "closed a descriptor that was not open")
    }

    /// A failed call's error, checked: a bad descriptor or buffer is a programming error, not
    /// a bus fault.
    private static func checked<Value>(_ result: Result<Value, Errno>) -> Result<Value, Errno> {
        if case .failure(let error) = result {
            precondition(
                error.rawValue != EBADF && error.rawValue != EFAULT, "a bad descriptor or buffer is a programming error")
        }
        return result
    }

    /// A libc call (−1 and errno), EINTR retried.
    static func retryingInterrupts(libc call: () -> CInt) -> Result<CInt, Errno> {
        checked(SystemCall.valueOrErrno(call))
    }

    /// A libi2c call (−errno), EINTR retried.
    static func retryingInterrupts(smbus call: () -> Int32) -> Result<Int32, Errno> {
        checked(SystemCall.valueOrNegatedErrno(call))
    }
}
