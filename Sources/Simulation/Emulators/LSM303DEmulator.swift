import Heading

/// An ST LSM303D (magnetometer and accelerometer in one die) on the simulated bus: WHO_AM_I
/// 0x49 (the same as the LSM9DS0 XM die's), both halves powered down after reset, little-endian
/// output (magnetometer 0x08…0x0D announced in STATUS_M, accelerometer 0x28…0x2D in STATUS_A),
/// and auto-increment only with the 0x80 sub-address bit.
///
/// Sensitivities: magnetometer 0.080/0.160/0.320/0.479 mgauss per count for ±2/4/8/12 gauss
/// (datasheet; the kernel's LSM9DS0 table differs, sensors.md §3.4), accelerometer
/// 0.061/0.122/0.183/0.244/0.732 mg per count for ±2/4/6/8/16 g.
public final class LSM303DEmulator: STSensorEmulator, MagnetometerEmulator, AccelerometerEmulator {
    private enum Address {
        static let statusM: UInt8 = 0x07
        static let outXLM: UInt8 = 0x08
        static let whoAmI: UInt8 = 0x0F
        static let intCtrlM: UInt8 = 0x12
        static let ctrl1: UInt8 = 0x20
        static let ctrl2: UInt8 = 0x21
        static let ctrl5: UInt8 = 0x24
        static let ctrl6: UInt8 = 0x25
        static let ctrl7: UInt8 = 0x26
        static let statusA: UInt8 = 0x27
        static let outXLA: UInt8 = 0x28
        /// INT_CTRL_M, INT_THS_L_M, INT_THS_H_M, OFFSET_*_M, REFERENCE_*, CTRL0…CTRL7,
        /// FIFO_CTRL, IG_CFG/THS/DUR 1 and 2, CLICK_CFG, CLICK_THS, TIME_*, Act_THS, Act_DUR.
        static let writable: Set<UInt8> = Set([0x12, 0x14, 0x15, 0x2E, 0x30, 0x32, 0x33, 0x34, 0x36, 0x37, 0x38])
            .union(0x16...0x26).union(0x3A...0x3F)
    }

    private static let identity: UInt8 = 0x49
    /// Reset values: CTRL1 AODR 0000 (power-down) with all axes on; CTRL5 M_RES 00, M_ODR 110;
    /// CTRL6 MFS 01; CTRL7 MD 10 (power-down); INT_CTRL_M.
    private static let ctrl1Reset: UInt8 = 0x07
    private static let ctrl5Reset: UInt8 = 0x18
    private static let ctrl6Reset: UInt8 = 0x20
    private static let ctrl7Reset: UInt8 = 0x02
    private static let intCtrlMReset: UInt8 = 0xE8
    /// CTRL1 AODR[7:4]; 0000 is power-down.
    private static let accelerometerRateShift = 4
    private static let accelerometerRateMask: UInt8 = 0x0F
    /// CTRL2 AFS[5:3].
    private static let accelerometerScaleShift = 3
    private static let accelerometerScaleMask: UInt8 = 0b111
    /// CTRL6 MFS[6:5].
    private static let magnetometerScaleShift = 5
    private static let magnetometerScaleMask: UInt8 = 0b11
    /// CTRL7 MD[1:0] after a single conversion: 10, power-down.
    private static let powerDown: UInt8 = 0b10
    /// mg per count for AFS = 000 … 100 (other codes are not in the datasheet).
    private static let milligPerLSB = [0.061, 0.122, 0.183, 0.244, 0.732]
    /// mgauss per count for MFS = 00 … 11.
    private static let milligaussPerLSB = [0.080, 0.160, 0.320, 0.479]
    /// g per mg.
    private static let gPerMilligravity = 1e-3
    /// µT per mgauss.
    private static let microteslaPerMilligauss = 0.1

    /// An LSM303D at its power-on state.
    /// - Parameter address: 0x1D (SA0 high, the default) or 0x1E.
    public init(address: UInt8 = 0x1D) {
        let registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: Self.identity, Address.intCtrlM: Self.intCtrlMReset, Address.ctrl1: Self.ctrl1Reset,
                Address.ctrl5: Self.ctrl5Reset, Address.ctrl6: Self.ctrl6Reset, Address.ctrl7: Self.ctrl7Reset,
            ],
            writable: Address.writable,
            autoIncrement: .multiReadBit,
            outputBlocks: [
                .perAxisStatus(first: Address.outXLM, status: Address.statusM),
                .perAxisStatus(first: Address.outXLA, status: Address.statusA),
            ])
        super.init(address: address, registers: registers)
    }

    /// A new magnetometer sample, when that half is converting; a single conversion returns it
    /// to power-down.
    /// - Parameter microtesla: the field, µT, chip axes.
    public func setField(_ microtesla: Vector3) {
        registers.convertIfMeasuring(modeRegister: Address.ctrl7, powerDown: Self.powerDown) {
            let scale = registers.field(
                Address.ctrl6, shift: Self.magnetometerScaleShift, mask: Self.magnetometerScaleMask)
            let lsb = Self.milligaussPerLSB[scale] * Self.microteslaPerMilligauss
            registers.store(
                STRegisterMap.counts((microtesla.x, microtesla.y, microtesla.z), lsb: lsb), at: Address.outXLM,
                order: .littleEndian)
            registers.announce(blockAt: Address.outXLM)
        }
    }

    /// A new accelerometer sample, when that half is not powered down.
    /// - Parameter g: the specific force, g, chip axes.
    public func setAcceleration(_ g: Vector3) {
        guard registers.field(Address.ctrl1, shift: Self.accelerometerRateShift, mask: Self.accelerometerRateMask) != 0
        else { return }
        let scale = registers.field(
            Address.ctrl2, shift: Self.accelerometerScaleShift, mask: Self.accelerometerScaleMask)
        guard scale < Self.milligPerLSB.count else { return }
        registers.store(
            STRegisterMap.counts((g.x, g.y, g.z), lsb: Self.milligPerLSB[scale] * Self.gPerMilligravity),
            at: Address.outXLA,
            order: .littleEndian)
        registers.announce(blockAt: Address.outXLA)
    }

    /// Ignored: the part has no gyroscope.
    /// - Parameter degreesPerSecond: the angular rate, which no register shows.
    public func setAngularRate(_ degreesPerSecond: Vector3) {}
}
