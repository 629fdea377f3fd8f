import Heading

/// The magnetometer die of an ST LSM303AGR on the simulated bus: WHO_AM_I_M at 0x4F reads 0x40
/// (0x0F reads nothing), idle after reset, a fixed 1.5 mgauss (0.15 µT) per count, output at
/// 0x68…0x6D little-endian (big-endian with BLE), and native auto-increment (the sub-address
/// MSB is ignored, as CODAL found on real parts).
public final class LSM303AGRMagnetometerEmulator: MagnetometerEmulator {
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
    /// CFG_REG_A_M MD[1:0]: 00 continuous, 01 single, 10/11 idle (the reset value is 11).
    private static let modeMask: UInt8 = 0b11
    private static let continuousMode = 0b00
    private static let singleMode = 0b01
    private static let idle: UInt8 = 0b11
    /// CFG_REG_C_M BLE[3].
    private static let bigEndian: UInt8 = 1 << 3
    /// STATUS_REG_M: Xda Yda Zda Zyxda in bits 3:0, the matching overrun bits in 7:4.
    private static let readyMask: UInt8 = 0x0F
    private static let overrunMask: UInt8 = 0xF0

    public let address: UInt8
    private let registers: STRegisterMap

    /// An LSM303AGR magnetometer at its power-on state.
    /// - Parameter address: 0x1E, the only address the part has.
    public init(address: UInt8 = 0x1E) {
        self.address = address
        registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: Self.identity, Address.cfgRegA: Self.idle, Address.intCtrlReg: Self.intCtrlRegReset,
            ],
            writable: Set<UInt8>([
                Address.cfgRegA, Address.cfgRegB, Address.cfgRegC, Address.intCtrlReg, Address.intThsL, Address.intThsH,
            ]).union(Address.offsetRegisters),
            autoIncrement: .alwaysIgnoringMultiReadBit,
            outputBlocks: [
                .init(
                    first: Address.outXL, statusRegisters: [Address.statusReg], readyMask: Self.readyMask,
                    overrunMask: Self.overrunMask)
            ])
    }

    public func read(register: UInt8, count: Int) -> [UInt8] { registers.read(register: register, count: count) }

    public func write(register: UInt8, value: UInt8) { registers.write(register: register, value: value) }

    /// A new sample of the field, when the die is measuring; a single measurement returns it to
    /// idle.
    public func setField(_ microtesla: Vector3) {
        let mode = registers.field(Address.cfgRegA, shift: 0, mask: Self.modeMask)
        guard mode == Self.continuousMode || mode == Self.singleMode else { return }
        registers.store(
            STRegisterMap.counts((microtesla.x, microtesla.y, microtesla.z), lsb: Self.microteslaPerLSB),
            at: Address.outXL,
            order: registers[Address.cfgRegC] & Self.bigEndian != 0 ? .bigEndian : .littleEndian)
        registers.announce(blockAt: Address.outXL)
        if mode == Self.singleMode { registers[Address.cfgRegA] |= Self.idle }
    }
}

/// The accelerometer die of an ST LSM303AGR on the simulated bus: WHO_AM_I_A 0x33 (the same as
/// the LSM303DLHC's), power-down after reset, left-justified output at the AGR's sensitivities
/// (high-resolution 0.98/1.95/3.9/11.72 mg per 12-bit count for ±2/4/8/16 g; normal and
/// low-power as the datasheet lists them), and auto-increment only with the 0x80 bit.
public final class LSM303AGRAccelerometerEmulator: AccelerometerEmulator {
    /// mg per count, by resolution, for FS = 00 (±2 g), 01 (±4 g), 10 (±8 g), 11 (±16 g).
    private static let milligPerLSB: [LSM303AccelerometerModel.Resolution: [Double]] = [
        .highResolution: [0.98, 1.95, 3.9, 11.72],
        .normal: [3.9, 7.82, 15.63, 46.9],
        .lowPower: [15.63, 31.26, 62.52, 187.58],
    ]
    /// TEMP_CFG_REG_A, ACT_THS_A, ACT_DUR_A: registers the DLHC does not have.
    private static let agrOnlyWritable: Set<UInt8> = [0x1F, 0x3E, 0x3F]

    public let address: UInt8
    private let model: LSM303AccelerometerModel

    /// An LSM303AGR accelerometer at its power-on state.
    /// - Parameter address: 0x19 (SA0 high, the breakouts' wiring).
    public init(address: UInt8 = 0x19) {
        self.address = address
        model = LSM303AccelerometerModel(milligPerLSB: Self.milligPerLSB, extraWritable: Self.agrOnlyWritable)
    }

    public func read(register: UInt8, count: Int) -> [UInt8] { model.registers.read(register: register, count: count) }

    public func write(register: UInt8, value: UInt8) { model.registers.write(register: register, value: value) }

    public func setAcceleration(_ g: Vector3) { model.setAcceleration(g) }

    /// Ignored: the part has no gyroscope.
    public func setAngularRate(_ degreesPerSecond: Vector3) {}
}
