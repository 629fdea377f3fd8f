import Heading

/// The accelerometer and gyroscope die of an ST LSM9DS1 on the simulated bus: WHO_AM_I 0x68,
/// both sensors powered down after reset, STATUS_REG at 0x17 and again at 0x27, gyroscope
/// output at 0x18…0x1D and accelerometer output at 0x28…0x2D (little-endian, big-endian with
/// BLE), and auto-increment while CTRL_REG8.IF_ADD_INC is set (the reset value; no 0x80 bit).
///
/// A non-zero ODR_G in CTRL_REG1_G runs both sensors; ODR_XL in CTRL_REG6_XL alone runs the
/// accelerometer only. Sensitivities: ±2/4/8/16 g at 0.061/0.122/0.244/0.732 mg per count,
/// ±245/500/2000 °/s at 8.75/17.50/70 m°/s per count.
public final class LSM9DS1AccelerometerGyroscopeEmulator: STSensorEmulator, AccelerometerEmulator {
    private enum Address {
        static let whoAmI: UInt8 = 0x0F
        static let ctrlReg1G: UInt8 = 0x10
        static let statusReg: UInt8 = 0x17
        static let outXG: UInt8 = 0x18
        static let ctrlReg4: UInt8 = 0x1E
        static let ctrlReg5XL: UInt8 = 0x1F
        static let ctrlReg6XL: UInt8 = 0x20
        static let ctrlReg8: UInt8 = 0x22
        static let statusRegCopy: UInt8 = 0x27
        static let outXXL: UInt8 = 0x28
        /// ACT_THS … INT2_CTRL, CTRL_REG1_G … ORIENT_CFG_G, CTRL_REG4 … CTRL_REG10, FIFO_CTRL,
        /// INT_GEN_CFG_G … INT_GEN_DUR_G.
        static let writable: Set<UInt8> = Set<UInt8>(0x04...0x0D).union(0x10...0x13).union(0x1E...0x24)
            .union([0x2E]).union(0x30...0x37)
    }

    private static let identity: UInt8 = 0x68
    /// CTRL_REG4 and CTRL_REG5_XL after reset: all axes enabled.
    private static let allAxesEnabled: UInt8 = 0x38
    /// CTRL_REG8 IF_ADD_INC[2] (set after reset) and BLE[1].
    private static let addressIncrement: UInt8 = 1 << 2
    private static let bigEndian: UInt8 = 1 << 1
    /// ODR[7:5] in CTRL_REG1_G and CTRL_REG6_XL; 000 is power-down.
    private static let rateShift = 5
    private static let rateMask: UInt8 = 0b111
    /// FS[4:3] in CTRL_REG1_G and CTRL_REG6_XL.
    private static let scaleShift = 3
    private static let scaleMask: UInt8 = 0b11
    /// mg per count for FS_XL = 00 (±2 g), 01 (±16 g), 10 (±4 g), 11 (±8 g).
    private static let milligPerLSB: [Double] = [0.061, 0.732, 0.122, 0.244]
    /// m°/s per count for FS_G = 00 (±245), 01 (±500), 10 (not available), 11 (±2000).
    private static let millidegreesPerSecondPerLSB: [Double?] = [8.75, 17.50, nil, 70.0]
    /// Units per milli-unit.
    private static let perMilli = 1e-3
    /// STATUS_REG XLDA[0] and GDA[1].
    private static let accelerometerDataReady: UInt8 = 1 << 0
    private static let gyroscopeDataReady: UInt8 = 1 << 1

    /// An LSM9DS1 accelerometer/gyroscope at its power-on state.
    /// - Parameter address: 0x6A (SA0 low, Sense HAT and BerryIMU) or 0x6B (Adafruit).
    public init(address: UInt8 = 0x6A) {
        let registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: Self.identity, Address.ctrlReg4: Self.allAxesEnabled,
                Address.ctrlReg5XL: Self.allAxesEnabled, Address.ctrlReg8: Self.addressIncrement,
            ],
            writable: Address.writable,
            autoIncrement: .whileSet(register: Address.ctrlReg8, mask: Self.addressIncrement),
            outputBlocks: [
                .init(
                    first: Address.outXG, statusRegisters: [Address.statusReg, Address.statusRegCopy],
                    readyMask: Self.gyroscopeDataReady),
                .init(
                    first: Address.outXXL, statusRegisters: [Address.statusReg, Address.statusRegCopy],
                    readyMask: Self.accelerometerDataReady),
            ])
        super.init(address: address, registers: registers)
    }

    /// A new accelerometer sample, when either rate is set.
    /// - Parameter g: the specific force, g, chip axes.
    public func setAcceleration(_ g: Vector3) {
        guard gyroscopeRunning || rate(Address.ctrlReg6XL) != 0 else { return }
        let lsb = Self.milligPerLSB[registers.field(Address.ctrlReg6XL, shift: Self.scaleShift, mask: Self.scaleMask)]
        registers.store(
            STRegisterMap.counts((g.x, g.y, g.z), lsb: lsb * Self.perMilli), at: Address.outXXL, order: order)
        registers.announce(blockAt: Address.outXXL)
    }

    /// A new gyroscope sample, when the gyroscope runs at a range the part has.
    /// - Parameter degreesPerSecond: the angular rate, °/s, chip axes.
    public func setAngularRate(_ degreesPerSecond: Vector3) {
        guard gyroscopeRunning,
            let lsb = Self.millidegreesPerSecondPerLSB[
                registers.field(Address.ctrlReg1G, shift: Self.scaleShift, mask: Self.scaleMask)]
        else { return }
        let rate = degreesPerSecond
        registers.store(
            STRegisterMap.counts((rate.x, rate.y, rate.z), lsb: lsb * Self.perMilli), at: Address.outXG, order: order)
        registers.announce(blockAt: Address.outXG)
    }

    private var gyroscopeRunning: Bool { rate(Address.ctrlReg1G) != 0 }

    private func rate(_ register: UInt8) -> Int {
        registers.field(register, shift: Self.rateShift, mask: Self.rateMask)
    }

    private var order: STRegisterMap.ByteOrder {
        registers.byteOrder(bigEndianBit: Self.bigEndian, in: Address.ctrlReg8)
    }
}

/// The magnetometer die of an ST LSM9DS1 on the simulated bus: ±4/8/12/16 gauss at
/// 0.14/0.29/0.43/0.58 mgauss per count and writable offset registers; the rest is the family's
/// (`LIS3MDLFamilyEmulator`): WHO_AM_I_M 0x3D (the same as LIS3MDL's), power-down after reset,
/// little-endian output at 0x28…0x2D (big-endian with BLE), and auto-increment only with the
/// 0x80 sub-address bit.
public final class LSM9DS1MagnetometerEmulator: LIS3MDLFamilyEmulator, MagnetometerEmulator {
    /// The field per count for FS = 00, 01, 10, 11.
    private static let microteslaPerLSB = [0.014, 0.029, 0.043, 0.058]
    /// INT_CFG_M after reset.
    private static let intCfgReset: UInt8 = 0x08
    /// OFFSET_X_REG_L_M … OFFSET_Z_REG_H_M.
    private static let offsetRegisters: Set<UInt8> = Set(0x05...0x0A)

    /// An LSM9DS1 magnetometer at its power-on state.
    /// - Parameter address: 0x1C (Sense HAT and BerryIMU, the default) or 0x1E (Adafruit).
    public init(address: UInt8 = 0x1C) {
        super.init(
            address: address, microteslaPerLSB: Self.microteslaPerLSB, intCfgReset: Self.intCfgReset,
            extraWritable: Self.offsetRegisters)
    }
}
