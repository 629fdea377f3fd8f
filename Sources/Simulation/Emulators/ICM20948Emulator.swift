import Heading
import IMU

/// An ICM-20948 at register level: four register banks behind REG_BANK_SEL, WHO_AM_I 0xEA,
/// asleep after power-on and reset, big-endian accelerometer and gyroscope output at the
/// configured full scale, INT_STATUS_1's data-ready bit set by each new sample and cleared by
/// reading it, and the AK09916 (`magnetometer`) on the host bus at 0x0C while bypass is on.
///
/// Attach it with `attach(to:)` rather than `SimulatedI2CBus.attach(_:)`: the emulator then puts
/// its magnetometer on the bus the first time bypass is enabled, so 0x0C does not acknowledge
/// (ENXIO) before that, as on the real part.
public final class ICM20948Emulator: AccelerometerEmulator {
    /// The address it answers at.
    public let address: UInt8
    /// The AK09916 inside; give it the field with `magnetometer.setField(_:)`.
    public let magnetometer: AK09916Emulator

    private static let bankCount = 4
    private static let bankSize = 128
    private static let regBankSel: UInt8 = 0x7F
    private static let whoAmI: UInt8 = 0x00
    private static let userCtrl: UInt8 = 0x03
    private static let pwrMgmt1: UInt8 = 0x06
    private static let pwrMgmt2: UInt8 = 0x07
    private static let intPinCfg: UInt8 = 0x0F
    private static let intStatus1: UInt8 = 0x1A
    private static let accelXoutH: UInt8 = 0x2D
    private static let gyroXoutH: UInt8 = 0x33
    private static let gyroConfig1: UInt8 = 0x01
    private static let accelConfig: UInt8 = 0x14
    /// Bank 0 registers the host cannot write: WHO_AM_I, the status block, the sensor data and
    /// the external-sensor data.
    private static let readOnlyBank0: [ClosedRange<UInt8>] = [0x00...0x00, 0x17...0x1C, 0x2D...0x52]

    private static let deviceReset: UInt8 = 0x80
    private static let sleep: UInt8 = 0x40
    private static let powerOnPwrMgmt1: UInt8 = 0x41
    private static let powerOnSensorConfig: UInt8 = 0x01
    private static let masterEnable: UInt8 = 0x20
    private static let bypassEnable: UInt8 = 0x02
    private static let rawDataReady: UInt8 = 0x01
    private static let accelerometerAxesOff: UInt8 = 0x38
    private static let gyroscopeAxesOff: UInt8 = 0x07

    private var registers: [[UInt8]]
    private var bank = 0
    private weak var bus: SimulatedI2CBus?
    private var magnetometerAttached = false

    /// A chip at `address` in its power-on state (asleep, bank 0).
    /// - Parameter address: 0x68 (AD0 low, the default) or 0x69.
    public init(address: UInt8 = ICM20948.defaultAddress) {
        self.address = address
        magnetometer = AK09916Emulator(address: AK09916.defaultAddress)
        registers = Self.powerOnRegisters()
        magnetometer.host = self
    }

    /// Puts the chip on `bus`; its magnetometer follows once bypass is enabled.
    public func attach(to bus: SimulatedI2CBus) {
        bus.attach(self)
        self.bus = bus
        attachMagnetometerIfBypassed()
    }

    /// Whether the auxiliary bus is joined to the host bus: INT_PIN_CFG.BYPASS_EN set and the
    /// internal I2C master (USER_CTRL.I2C_MST_EN) off.
    public var isBypassEnabled: Bool {
        registers[0][Int(Self.intPinCfg)] & Self.bypassEnable != 0
            && registers[0][Int(Self.userCtrl)] & Self.masterEnable == 0
    }

    /// Whether the chip is awake (PWR_MGMT_1.SLEEP clear) and so sampling.
    public var isAwake: Bool { registers[0][Int(Self.pwrMgmt1)] & Self.sleep == 0 }

    /// The bytes one read transfer returns, with the part's auto-increment and read side effects.
    public func read(register: UInt8, count: Int) -> RegisterBlock {
        // Reads auto-increment through the selected bank.
        var bytes = RegisterBlock()
        for offset in 0..<count {
            let address = Int(register) + offset
            if address >= Self.bankSize {
                bytes.append(0)
            } else if address == Int(Self.regBankSel) {
                bytes.append(UInt8(bank << 4))
            } else {
                bytes.append(registers[bank][address])
                if bank == 0 && address == Int(Self.intStatus1) {
                    // INT_STATUS_1 clears when read.
                    registers[0][address] &= ~Self.rawDataReady
                }
            }
        }
        return bytes
    }

    /// One register write; read-only registers ignore it.
    public func write(register: UInt8, value: UInt8) {
        guard Int(register) < Self.bankSize else { return }
        if register == Self.regBankSel {
            bank = Int(value >> 4) & (Self.bankCount - 1)
            return
        }
        if bank == 0 {
            if register == Self.pwrMgmt1 && value & Self.deviceReset != 0 {
                registers = Self.powerOnRegisters()
                bank = 0
                return
            }
            if Self.readOnlyBank0.contains(where: { $0.contains(register) }) { return }
        }
        registers[bank][Int(register)] = value
        attachMagnetometerIfBypassed()
    }

    /// A new accelerometer sample: specific force in g, chip axes. Shows (and sets data ready)
    /// only while the chip is awake with its accelerometer on; clipped at the configured range.
    public func setAcceleration(_ g: Vector3) {
        guard isAwake, registers[0][Int(Self.pwrMgmt2)] & Self.accelerometerAxesOff != Self.accelerometerAxesOff
        else { return }
        let range = ICM20948.AccelerometerRange(rawValue: registers[2][Int(Self.accelConfig)] >> 1 & 0x03) ?? .g2
        store(g * range.lsbPerG, at: Self.accelXoutH)
    }

    /// A new gyroscope sample: angular rate in °/s, chip axes.
    public func setAngularRate(_ degreesPerSecond: Vector3) {
        guard isAwake, registers[0][Int(Self.pwrMgmt2)] & Self.gyroscopeAxesOff != Self.gyroscopeAxesOff
        else { return }
        let range = ICM20948.GyroscopeRange(rawValue: registers[2][Int(Self.gyroConfig1)] >> 1 & 0x03) ?? .dps250
        store(degreesPerSecond * range.lsbPerDegreePerSecond, at: Self.gyroXoutH)
    }

    private func store(_ counts: Vector3, at first: UInt8) {
        for (index, value) in [counts.x, counts.y, counts.z].enumerated() {
            let word = UInt16(bitPattern: Self.quantised(value))
            registers[0][Int(first) + 2 * index] = UInt8(word >> 8)
            registers[0][Int(first) + 2 * index + 1] = UInt8(word & 0xFF)
        }
        registers[0][Int(Self.intStatus1)] |= Self.rawDataReady
    }

    private func attachMagnetometerIfBypassed() {
        guard !magnetometerAttached, isBypassEnabled, let bus else { return }
        bus.attach(magnetometer)
        magnetometerAttached = true
    }

    /// Counts rounded to the nearest integer and clipped to int16, as the converter saturates.
    private static func quantised(_ counts: Double) -> Int16 {
        guard !counts.isNaN else { return 0 }
        return Int16(max(Double(Int16.min), min(Double(Int16.max), counts.rounded())))
    }

    private static func powerOnRegisters() -> [[UInt8]] {
        var registers = [[UInt8]](repeating: [UInt8](repeating: 0, count: bankSize), count: bankCount)
        registers[0][Int(whoAmI)] = ICM20948.expectedIdentity
        registers[0][Int(pwrMgmt1)] = powerOnPwrMgmt1
        registers[2][Int(gyroConfig1)] = powerOnSensorConfig
        registers[2][Int(accelConfig)] = powerOnSensorConfig
        return registers
    }
}
