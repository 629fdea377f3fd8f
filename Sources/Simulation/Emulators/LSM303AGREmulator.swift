import Heading

/// The magnetometer die of an ST LSM303AGR on the simulated bus: WHO_AM_I_M at 0x4F reads 0x40
/// (0x0F reads nothing), idle after reset, a fixed 1.5 mgauss (0.15 µT) per count, output at
/// 0x68…0x6D little-endian (big-endian with BLE), and native auto-increment (the sub-address
/// MSB is ignored, as CODAL found on real parts).
public final class LSM303AGRMagnetometerEmulator: STSensorEmulator, MagnetometerEmulator {
    private enum Address {
        static let offsetRegisters: Set<UInt8> = [0x45, 0x46, 0x47, 0x48, 0x49, 0x4A]
        static let whoAmI: UInt8 = 0x4F
        static let cfgRegA: UInt8 = 0x60
        static let cfgRegB: UInt8 = 0x61
        static let cfgRegC: UInt8 = 0x62
        static let intCtrlReg: UInt8 = 0x63
        static let intThsL: UInt8 = 0x65
        static let intThsH: UInt8 = 0x66
        static let statusReg: UInt8 = 0x67
        static let outXL: UInt8 = 0x68
    }

    private static let identity: UInt8 = 0x40
    /// INT_CTRL_REG_M after reset.
    private static let intCtrlRegReset: UInt8 = 0xE0
    /// The field per count.
    private static let microteslaPerLSB = 0.15
    /// CFG_REG_A_M MD[1:0] after reset and after a single measurement: 11, idle.
    private static let idle: UInt8 = 0b11
    /// CFG_REG_C_M BLE[3].
    private static let bigEndian: UInt8 = 1 << 3

    /// An LSM303AGR magnetometer at its power-on state.
    /// - Parameter address: 0x1E, the only address the part has.
    public init(address: UInt8 = 0x1E) {
        let registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: Self.identity, Address.cfgRegA: Self.idle, Address.intCtrlReg: Self.intCtrlRegReset,
            ],
            writable: Set<UInt8>([
                Address.cfgRegA, Address.cfgRegB, Address.cfgRegC, Address.intCtrlReg, Address.intThsL, Address.intThsH,
            ]).union(Address.offsetRegisters),
            autoIncrement: .alwaysIgnoringMultiReadBit,
            outputBlocks: [.perAxisStatus(first: Address.outXL, status: Address.statusReg)])
        super.init(address: address, registers: registers)
    }

    /// A new sample of the field, when the die is measuring; a single measurement returns it to
    /// idle.
    /// - Parameter microtesla: the field, µT, chip axes.
    public func setField(_ microtesla: Vector3) {
        registers.convertIfMeasuring(modeRegister: Address.cfgRegA, powerDown: Self.idle) {
            registers.store(
                STRegisterMap.counts((microtesla.x, microtesla.y, microtesla.z), lsb: Self.microteslaPerLSB),
                at: Address.outXL, order: registers.byteOrder(bigEndianBit: Self.bigEndian, in: Address.cfgRegC))
            registers.announce(blockAt: Address.outXL)
        }
    }
}

/// The accelerometer die of an ST LSM303AGR on the simulated bus: the AGR's sensitivities
/// (high-resolution 0.98/1.95/3.9/11.72 mg per 12-bit count for ±2/4/8/16 g; normal and
/// low-power as the datasheet lists them) and the registers the DLHC lacks; the rest is the
/// family's (`LSM303AccelerometerFamilyEmulator`): WHO_AM_I_A 0x33 (the same as the
/// LSM303DLHC's), power-down after reset, left-justified output, and auto-increment only with
/// the 0x80 bit.
public final class LSM303AGRAccelerometerEmulator: LSM303AccelerometerFamilyEmulator, AccelerometerEmulator {
    /// mg per count, by resolution, for FS = 00 (±2 g), 01 (±4 g), 10 (±8 g), 11 (±16 g).
    private static let milligPerLSB: [Resolution: [Double]] = [
        .highResolution: [0.98, 1.95, 3.9, 11.72],
        .normal: [3.9, 7.82, 15.63, 46.9],
        .lowPower: [15.63, 31.26, 62.52, 187.58],
    ]
    /// TEMP_CFG_REG_A, ACT_THS_A, ACT_DUR_A: registers the DLHC does not have.
    private static let agrOnlyWritable: Set<UInt8> = [0x1F, 0x3E, 0x3F]

    /// An LSM303AGR accelerometer at its power-on state.
    /// - Parameter address: 0x19 (SA0 high, the breakouts' wiring).
    public init(address: UInt8 = 0x19) {
        super.init(address: address, milligPerLSB: Self.milligPerLSB, extraWritable: Self.agrOnlyWritable)
    }
}
