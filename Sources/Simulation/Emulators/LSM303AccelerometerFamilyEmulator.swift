import Heading

/// The register behaviour the LSM303AGR and LSM303DLHC accelerometer emulators share (LIS3DH
/// class): WHO_AM_I_A 0x33, CTRL_REG1_A rate and low-power bit, CTRL_REG4_A range, resolution
/// and byte order; output at 0x28…0x2D left-justified in 16 bits (12-bit high-resolution,
/// 10-bit normal, 8-bit low-power) and announced in STATUS_REG_A; auto-increment only with the
/// 0x80 sub-address bit; power-down after reset; no gyroscope. Each chip's emulator adds its
/// sensitivities; this class is not used on its own.
public class LSM303AccelerometerFamilyEmulator: STSensorEmulator {
    /// The three output resolutions.
    enum Resolution: Int {
        case lowPower = 8, normal = 10, highResolution = 12
    }

    enum Address {
        static let whoAmI: UInt8 = 0x0F
        static let ctrlReg1: UInt8 = 0x20
        static let ctrlReg2: UInt8 = 0x21
        static let ctrlReg3: UInt8 = 0x22
        static let ctrlReg4: UInt8 = 0x23
        static let ctrlReg5: UInt8 = 0x24
        static let ctrlReg6: UInt8 = 0x25
        static let reference: UInt8 = 0x26
        static let statusReg: UInt8 = 0x27
        static let outXL: UInt8 = 0x28
        static let fifoCtrl: UInt8 = 0x2E
        /// INT1_CFG, INT1_THS, INT1_DURATION, INT2_CFG, INT2_THS, INT2_DURATION, CLICK_CFG,
        /// CLICK_THS, TIME_LIMIT, TIME_LATENCY, TIME_WINDOW.
        static let interruptConfiguration: Set<UInt8> = [
            0x30, 0x32, 0x33, 0x34, 0x36, 0x37, 0x38, 0x3A, 0x3B, 0x3C, 0x3D,
        ]
    }

    /// The accelerometer's identity.
    private static let identity: UInt8 = 0x33
    /// CTRL_REG1_A after reset: ODR 0000 (power-down), all axes enabled.
    private static let ctrlReg1Reset: UInt8 = 0x07
    /// CTRL_REG1_A ODR[7:4]; 0000 is power-down.
    private static let rateShift = 4
    private static let rateMask: UInt8 = 0x0F
    /// CTRL_REG1_A LPen[3].
    private static let lowPowerEnable: UInt8 = 1 << 3
    /// CTRL_REG4_A BLE[6], FS[5:4], HR[3].
    private static let bigEndian: UInt8 = 1 << 6
    private static let fullScaleShift = 4
    private static let fullScaleMask: UInt8 = 0b11
    private static let highResolutionEnable: UInt8 = 1 << 3
    /// g per mg.
    private static let gPerMilligravity = 1e-3

    private let milligPerLSB: [Resolution: [Double]]

    /// An emulator at its power-on state.
    /// - Parameters:
    ///   - address: 0x19 (SA0 high, the breakouts' wiring).
    ///   - milligPerLSB: mg per count of each resolution, for FS = 00, 01, 10, 11.
    ///   - extraWritable: registers beyond the common ones (the AGR's TEMP_CFG_REG_A, ACT_THS_A,
    ///     ACT_DUR_A).
    init(address: UInt8, milligPerLSB: [Resolution: [Double]], extraWritable: Set<UInt8> = []) {
        precondition(milligPerLSB.values.allSatisfy { $0.count == 4 }, "one sensitivity per FS code")
        self.milligPerLSB = milligPerLSB
        let registers = STRegisterMap(
            resetValues: [Address.whoAmI: Self.identity, Address.ctrlReg1: Self.ctrlReg1Reset],
            writable: Set<UInt8>([
                Address.ctrlReg1, Address.ctrlReg2, Address.ctrlReg3, Address.ctrlReg4, Address.ctrlReg5,
                Address.ctrlReg6, Address.reference, Address.fifoCtrl,
            ]).union(Address.interruptConfiguration).union(extraWritable),
            autoIncrement: .multiReadBit,
            outputBlocks: [.perAxisStatus(first: Address.outXL, status: Address.statusReg)])
        super.init(address: address, registers: registers)
    }

    /// A new sample of `g`, when the die is not powered down.
    /// - Parameter g: the specific force, g, chip axes.
    public func setAcceleration(_ g: Vector3) {
        guard registers.field(Address.ctrlReg1, shift: Self.rateShift, mask: Self.rateMask) != 0 else { return }
        let control4 = registers[Address.ctrlReg4]
        let resolution: Resolution =
            registers[Address.ctrlReg1] & Self.lowPowerEnable != 0
            ? .lowPower
            : control4 & Self.highResolutionEnable != 0 ? .highResolution : .normal
        let scale = registers.field(Address.ctrlReg4, shift: Self.fullScaleShift, mask: Self.fullScaleMask)
        guard let lsb = milligPerLSB[resolution]?[scale] else { return }
        let counts = STRegisterMap.counts((g.x, g.y, g.z), lsb: lsb * Self.gPerMilligravity, bits: resolution.rawValue)
        // Left-justified: the value's top bit lands in the high byte's bit 7.
        let justify = 16 - resolution.rawValue
        registers.store(
            (counts.x << justify, counts.y << justify, counts.z << justify), at: Address.outXL,
            order: registers.byteOrder(bigEndianBit: Self.bigEndian, in: Address.ctrlReg4))
        registers.announce(blockAt: Address.outXL)
    }

    /// Ignored: the part has no gyroscope.
    /// - Parameter degreesPerSecond: the angular rate, which no register shows.
    public func setAngularRate(_ degreesPerSecond: Vector3) {}
}
