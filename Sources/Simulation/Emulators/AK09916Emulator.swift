import Heading
import IMU

/// An AK09916 at register level: WIA1/WIA2, power-down until CNTL2 selects a measuring mode
/// (mode changes only from power-down), little-endian output at 0.15 µT/LSB, ST1 DRDY/DOR, ST2
/// HOFL, and the read protection: once a read of the data registers (HXL…TMPS or ST2) starts,
/// DRDY and DOR clear and the registers keep their sample until ST2 is read; a sample measured
/// meanwhile is held and appears (with DRDY) when ST2 releases the protection.
///
/// Inside an `ICM20948Emulator` it sits behind its host's bypass switch: the host attaches it
/// to the bus when bypass is first enabled. If bypass is turned off again afterwards, it reads
/// 0xFF and ignores writes (the simulated bus cannot yet stop acknowledging an attached
/// address; on the real bus the transfer would fail with ENXIO). Standalone it always answers.
public final class AK09916Emulator: MagnetometerEmulator {
    /// The address it answers at.
    public let address: UInt8
    /// The ICM-20948 whose bypass switch gates it; nil for a standalone chip.
    weak var host: ICM20948Emulator?

    private static let wia1: UInt8 = 0x00
    private static let wia2: UInt8 = 0x01
    private static let st1: UInt8 = 0x10
    private static let hxl: UInt8 = 0x11
    private static let tmps: UInt8 = 0x17
    private static let st2: UInt8 = 0x18
    private static let cntl2: UInt8 = 0x31
    private static let cntl3: UInt8 = 0x32
    private static let dataReady: UInt8 = 0x01
    private static let dataOverrun: UInt8 = 0x02
    private static let magneticOverflow: UInt8 = 0x08
    private static let softReset: UInt8 = 0x01
    private static let modeMask: UInt8 = 0x1F
    private static let measuringModes: Set<UInt8> = [0x01, 0x02, 0x04, 0x06, 0x08]
    private static let singleMeasurement: UInt8 = 0x01
    private static let powerDown: UInt8 = 0x00
    /// ±32752 counts is the measurement range (4912 µT).
    private static let maximumCounts = 32752.0
    /// The byte a floating bus reads as (pull-ups).
    private static let floatingBus: UInt8 = 0xFF

    private var mode: UInt8 = 0
    private var status1: UInt8 = 0
    private var output = RegisterBlock(repeating: 0, count: 6)
    private var overflowed = false
    private var isProtected = false
    private var heldSample: (bytes: RegisterBlock, overflowed: Bool)?

    /// A chip at `address` in its power-on state (power-down, zeros).
    /// - Parameter address: 0x0C, the only address the part has.
    public init(address: UInt8 = AK09916.defaultAddress) {
        self.address = address
    }

    /// Whether it answers: always standalone, only while its host's bypass is on otherwise.
    public var isAnswering: Bool { host?.isBypassEnabled ?? true }

    /// The CNTL2 mode.
    public var currentMode: UInt8 { mode }

    /// The bytes one read transfer returns, with the part's auto-increment and read side effects.
    public func read(register: UInt8, count: Int) -> RegisterBlock {
        guard isAnswering else { return RegisterBlock(repeating: Self.floatingBus, count: count) }
        var bytes = RegisterBlock()
        for offset in 0..<count {
            let address = Int(register) + offset
            bytes.append(address <= Int(UInt8.max) ? readByte(UInt8(address)) : 0)
        }
        return bytes
    }

    /// One register write; read-only registers ignore it.
    public func write(register: UInt8, value: UInt8) {
        guard isAnswering else { return }
        switch register {
        case Self.cntl2:
            let requested = value & Self.modeMask
            // The datasheet allows a mode change only from power-down.
            if mode == Self.powerDown || requested == Self.powerDown { mode = requested }
        case Self.cntl3:
            if value & Self.softReset != 0 { reset() }
        default:
            break  // everything else is read-only
        }
    }

    /// A new measurement of `microtesla` (chip axes), when a measuring mode is set.
    public func setField(_ microtesla: Vector3) {
        guard Self.measuringModes.contains(mode) else { return }
        var overflowed = false
        var bytes = RegisterBlock()
        func append(_ value: Double) {
            var counts = (value / AK09916.microteslaPerLSB).rounded()
            if counts.isNaN { counts = 0 }
            if abs(counts) > Self.maximumCounts {
                overflowed = true
                counts = counts < 0 ? -Self.maximumCounts : Self.maximumCounts
            }
            let word = UInt16(bitPattern: Int16(counts))
            bytes.append(UInt8(word & 0xFF))
            bytes.append(UInt8(word >> 8))
        }
        append(microtesla.x)
        append(microtesla.y)
        append(microtesla.z)
        if mode == Self.singleMeasurement { mode = Self.powerDown }
        if isProtected {
            heldSample = (bytes, overflowed)
        } else {
            latch(bytes, overflowed: overflowed)
        }
    }

    private func latch(_ bytes: RegisterBlock, overflowed: Bool) {
        if status1 & Self.dataReady != 0 { status1 |= Self.dataOverrun }
        status1 |= Self.dataReady
        output = bytes
        self.overflowed = overflowed
    }

    private func readByte(_ register: UInt8) -> UInt8 {
        switch register {
        case Self.wia1: return AK09916.expectedIdentity[0]
        case Self.wia2: return AK09916.expectedIdentity[1]
        case Self.st1: return status1
        case Self.hxl...Self.tmps:
            let value = register == Self.tmps ? 0 : output[Int(register - Self.hxl)]
            startDataRead()
            return value
        case Self.st2:
            let value = overflowed ? Self.magneticOverflow : 0
            startDataRead()
            releaseProtection()
            return value
        case Self.cntl2: return mode
        default: return 0
        }
    }

    private func startDataRead() {
        status1 &= ~(Self.dataReady | Self.dataOverrun)
        isProtected = true
    }

    private func releaseProtection() {
        isProtected = false
        if let held = heldSample {
            heldSample = nil
            latch(held.bytes, overflowed: held.overflowed)
        }
    }

    private func reset() {
        mode = Self.powerDown
        status1 = 0
        output = RegisterBlock(repeating: 0, count: 6)
        overflowed = false
        isProtected = false
        heldSample = nil
    }
}
