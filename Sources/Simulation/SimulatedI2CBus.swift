@preconcurrency import Glibc
import IMU

/// An I2C bus of chip emulators, for `--simulate` and for tests: addresses with no emulator do
/// not acknowledge (ENXIO), faults can be injected, and every transfer is kept in a transcript.
public final class SimulatedI2CBus: I2CBus {
    /// One transfer as the bus saw it.
    public struct Transfer: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: Sendable, Hashable { case read, write }
        public let kind: Kind
        public let address: UInt8
        public let register: UInt8
        /// Bytes read, or the one byte written.
        public let bytes: RegisterBlock

        public var description: String {
            let hex = bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
            let register = "0x" + String(self.register, radix: 16, uppercase: true)
            return kind == .read ? "read 0x\(String(address, radix: 16)) \(register): \(hex)"
                : "write 0x\(String(address, radix: 16)) \(register) <- \(hex)"
        }
    }

    public let number: Int
    private var emulators: [UInt8: any RegisterEmulator] = [:]
    private var faults: [UInt8: [Int32]] = [:]
    /// Every transfer, in order (faulted ones are not included).
    public private(set) var transcript: [Transfer] = []
    /// Whether to record transfers (off for long simulations).
    public var isRecording = true
    /// Whether the board is cut off: every transfer fails with EREMOTEIO, as a Pi's I2C
    /// controller reports a device that no longer acknowledges (a loose cable).
    public var isDisconnected = false

    /// An empty bus with the given number.
    public init(number: Int = 1) { self.number = number }

    /// Puts an emulator on the bus at its address.
    public func attach(_ emulator: any RegisterEmulator) { emulators[emulator.address] = emulator }

    /// Makes the next transfers to `address` fail with these errnos, one each, in order.
    public func injectFaults(at address: UInt8, _ errnos: [Int32]) { faults[address, default: []] += errnos }

    /// Forgets the transcript.
    public func clearTranscript() { transcript.removeAll() }

    public func device(at address: UInt8) throws(I2CError) -> any I2CDevice {
        SimulatedDevice(bus: self, address: address)
    }

    fileprivate func transfer(
        _ kind: Transfer.Kind, address: UInt8, register: UInt8, count: Int, value: UInt8
    ) throws(I2CError) -> RegisterBlock {
        // The operation's text is built only for an error: a transfer that succeeds allocates nothing.
        func operation() -> String { kind == .read ? "read \(count) byte\(count == 1 ? "" : "s")" : "write" }
        if var pending = faults[address], !pending.isEmpty {
            let errno = pending.removeFirst()
            faults[address] = pending
            throw I2CError(bus: number, address: address, register: register, operation: operation(), errno: errno)
        }
        if isDisconnected {
            throw I2CError(bus: number, address: address, register: register, operation: operation(), errno: EREMOTEIO)
        }
        guard let emulator = emulators[address] else {
            // Nobody acknowledges the address: the kernel reports ENXIO.
            throw I2CError(bus: number, address: address, register: register, operation: operation(), errno: ENXIO)
        }
        let bytes: RegisterBlock
        switch kind {
        case .read:
            bytes = emulator.read(register: register, count: count)
        case .write:
            emulator.write(register: register, value: value)
            bytes = [value]
        }
        if isRecording { transcript.append(Transfer(kind: kind, address: address, register: register, bytes: bytes)) }
        return bytes
    }
}

/// A device handle on the simulated bus.
private final class SimulatedDevice: I2CDevice {
    let bus: Int
    let address: UInt8
    private let simulatedBus: SimulatedI2CBus

    init(bus: SimulatedI2CBus, address: UInt8) {
        simulatedBus = bus
        self.bus = bus.number
        self.address = address
    }

    func readRegisters(_ register: UInt8, count: Int) throws(I2CError) -> RegisterBlock {
        precondition((1...32).contains(count), "an SMBus block read carries 1 to 32 bytes")
        return try simulatedBus.transfer(.read, address: address, register: register, count: count, value: 0)
    }

    func writeRegister(_ register: UInt8, _ value: UInt8) throws(I2CError) {
        _ = try simulatedBus.transfer(.write, address: address, register: register, count: 1, value: value)
    }
}
