import Heading
import IMU

/// A QMC5883L at register level: chip ID 0xFF at 0x0D (and 0x01 at 0x0C), standby until
/// CONTROL1 selects continuous mode, little-endian X, Y, Z output at the configured range
/// (12000 LSB/G at ±2 G, 3000 at ±8 G), STATUS DRDY set by each sample and cleared (with DOR) by
/// reading any data register, OVL while a sample is out of range, soft reset, and the register
/// pointer's auto-increment with the optional roll-over from 0x06 to 0x00 (CONTROL2.ROL_PNT).
public final class QMC5883LEmulator: MagnetometerEmulator {
    /// The address it answers at.
    public let address: UInt8

    private static let registerCount = 0x0E
    private static let status = 0x06
    private static let control1 = 0x09
    private static let control2 = 0x0A
    private static let setResetPeriod = 0x0B
    private static let reserved = 0x0C
    private static let chipID = 0x0D
    private static let dataRegisters = 0x00...0x05
    private static let reservedValue: UInt8 = 0x01
    private static let dataReady: UInt8 = 0x01
    private static let overflow: UInt8 = 0x02
    private static let dataSkipped: UInt8 = 0x04
    private static let softReset: UInt8 = 0x80
    private static let pointerRollOver: UInt8 = 0x40
    private static let modeMask: UInt8 = 0x03
    private static let continuousMode: UInt8 = 0x01

    private var registers: [UInt8]

    /// A chip at `address` in its power-on state (standby, zeros).
    /// - Parameter address: 0x0D, the only address the part has.
    public init(address: UInt8 = QMC5883L.defaultAddress) {
        self.address = address
        registers = Self.powerOnRegisters()
    }

    /// The bytes one read transfer returns, with the part's auto-increment and read side effects.
    public func read(register: UInt8, count: Int) -> RegisterBlock {
        var pointer = Int(register)
        var bytes = RegisterBlock()
        for _ in 0..<count {
            bytes.append(pointer < Self.registerCount ? registers[pointer] : 0)
            if Self.dataRegisters.contains(pointer) {
                registers[Self.status] &= ~(Self.dataReady | Self.dataSkipped)
            }
            if pointer == Self.status && registers[Self.control2] & Self.pointerRollOver != 0 {
                pointer = 0
            } else {
                pointer = (pointer + 1) % Self.registerCount
            }
        }
        return bytes
    }

    /// One register write; read-only registers ignore it.
    public func write(register: UInt8, value: UInt8) {
        switch Int(register) {
        case Self.control2:
            if value & Self.softReset != 0 {
                registers = Self.powerOnRegisters()
            } else {
                registers[Self.control2] = value
            }
        case Self.control1, Self.setResetPeriod:
            registers[Int(register)] = value
        default:
            break  // data, status, temperature and ID are read-only
        }
    }

    /// A new measurement of `microtesla` (chip axes), in continuous mode.
    public func setField(_ microtesla: Vector3) {
        guard registers[Self.control1] & Self.modeMask == Self.continuousMode else { return }
        let range: QMC5883L.Range = (registers[Self.control1] >> 4 & 0x03) == 0 ? .gauss2 : .gauss8
        let fullScaleGauss = range == .gauss2 ? 2.0 : 8.0
        var outOfRange = false
        for (index, value) in [microtesla.x, microtesla.y, microtesla.z].enumerated() {
            let gauss = value / QMC5883L.microteslaPerGauss
            if !(abs(gauss) <= fullScaleGauss) { outOfRange = true }
            var counts = (gauss * range.lsbPerGauss).rounded()
            if counts.isNaN { counts = 0 }
            let word = UInt16(bitPattern: Int16(max(Double(Int16.min), min(Double(Int16.max), counts))))
            registers[2 * index] = UInt8(word & 0xFF)
            registers[2 * index + 1] = UInt8(word >> 8)
        }
        var status = registers[Self.status]
        if status & Self.dataReady != 0 { status |= Self.dataSkipped }
        status |= Self.dataReady
        status = outOfRange ? status | Self.overflow : status & ~Self.overflow
        registers[Self.status] = status
    }

    private static func powerOnRegisters() -> [UInt8] {
        var registers = [UInt8](repeating: 0, count: registerCount)
        registers[reserved] = reservedValue
        registers[chipID] = QMC5883L.expectedIdentity
        return registers
    }
}
