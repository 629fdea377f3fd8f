import Heading
import IMU

/// An HMC5883L at register level: "H43" at 0x0A–0x0C; big-endian output in the order X, Z, Y at
/// the configured gain, −4096 on an axis that overflows (outside −2048…2047); RDY set by each
/// sample and, as on the real part, not cleared by reading; LOCK while some but not all of the
/// six data registers have been read (or after the mode register was read), during which new
/// samples are dropped; and the address pointer that wraps from 0x08 to 0x03 and from 0x0C on
/// to 0x00.
///
/// Power-on state: gain 1090 LSB/G, single-measurement mode with no measurement pending, so no
/// output until the mode register is written.
public final class HMC5883LEmulator: MagnetometerEmulator {
    /// The address it answers at.
    public let address: UInt8

    private static let configurationA = 0x00
    private static let configurationB = 0x01
    private static let mode = 0x02
    private static let firstData = 0x03
    private static let lastData = 0x08
    private static let status = 0x09
    private static let lastIdentification = 0x0C
    private static let ready: UInt8 = 0x01
    private static let lock: UInt8 = 0x02
    private static let modeMask: UInt8 = 0x03
    private static let continuous: UInt8 = 0x00
    private static let single: UInt8 = 0x01
    private static let idle: UInt8 = 0x03
    private static let validCounts = -2048.0...2047.0
    private static let microteslaPerGauss = 100.0

    private var registers: [UInt8] = [0x10, 0x20, 0x01, 0, 0, 0, 0, 0, 0, 0] + HMC5883L.expectedIdentity
    private var singleMeasurementPending = false
    private var dataRegistersRead: Set<Int> = []
    private var isLocked = false

    /// A chip at `address` in its power-on state.
    /// - Parameter address: 0x1E, the only address the part has.
    public init(address: UInt8 = HMC5883L.defaultAddress) {
        self.address = address
    }

    /// The bytes one read transfer returns, with the part's auto-increment and read side effects.
    public func read(register: UInt8, count: Int) -> RegisterBlock {
        var pointer = Int(register)
        var bytes = RegisterBlock()
        for _ in 0..<count {
            switch pointer {
            case Self.status:
                bytes.append((isLocked ? Self.lock : 0) | (registers[Self.status] & Self.ready))
            case 0...Self.lastIdentification:
                bytes.append(registers[pointer])
            default:
                bytes.append(0)
            }
            if (Self.firstData...Self.lastData).contains(pointer) { dataRegistersRead.insert(pointer) }
            if pointer == Self.mode { isLocked = true }
            if pointer == Self.lastData {
                pointer = Self.firstData
            } else if pointer >= Self.lastIdentification {
                pointer = 0
            } else {
                pointer += 1
            }
        }
        if dataRegistersRead.count == Self.lastData - Self.firstData + 1 {
            dataRegistersRead = []
            isLocked = false
        } else if !dataRegistersRead.isEmpty {
            isLocked = true
        }
        return bytes
    }

    /// One register write; read-only registers ignore it.
    public func write(register: UInt8, value: UInt8) {
        switch Int(register) {
        case Self.configurationA, Self.mode:
            registers[Int(register)] = value
            // A new configuration or mode releases the lock.
            isLocked = false
            dataRegistersRead = []
            if Int(register) == Self.mode { singleMeasurementPending = value & Self.modeMask == Self.single }
        case Self.configurationB:
            registers[Self.configurationB] = value
        default:
            break  // data, status and identification are read-only
        }
    }

    /// A new measurement of `microtesla` (chip axes), in continuous mode or after a single
    /// measurement was asked for; dropped while the data registers are locked.
    public func setField(_ microtesla: Vector3) {
        let mode = registers[Self.mode] & Self.modeMask
        guard mode == Self.continuous || singleMeasurementPending, !isLocked else { return }
        let gain = HMC5883L.Gain(rawValue: registers[Self.configurationB] >> 5) ?? .gauss1_3
        // Register order X, Z, Y.
        for (index, value) in [microtesla.x, microtesla.z, microtesla.y].enumerated() {
            var counts = (value / Self.microteslaPerGauss * gain.lsbPerGauss).rounded()
            if !Self.validCounts.contains(counts) { counts = Double(HMC5883L.overflowCount) }
            let word = UInt16(bitPattern: Int16(counts))
            registers[Self.firstData + 2 * index] = UInt8(word >> 8)
            registers[Self.firstData + 2 * index + 1] = UInt8(word & 0xFF)
        }
        registers[Self.status] |= Self.ready
        if singleMeasurementPending {
            // After a single measurement the chip returns to idle.
            singleMeasurementPending = false
            registers[Self.mode] = registers[Self.mode] & ~Self.modeMask | Self.idle
        }
    }
}
