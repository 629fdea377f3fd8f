import Heading

/// The register behaviour the LIS3MDL and LSM9DS1 magnetometer emulators share (one register
/// map, two sensitivity tables): configuration in CTRL_REG1…5, output at 0x28…0x2D announced in
/// STATUS_REG (0x27), little-endian (big-endian with BLE), auto-increment only with the 0x80
/// sub-address bit, power-down after reset. Each chip's emulator adds its sensitivities and
/// reset values; this class is not used on its own.
public class LIS3MDLFamilyEmulator: STSensorEmulator {
    private enum Address {
        static let whoAmI: UInt8 = 0x0F
        static let ctrlReg1: UInt8 = 0x20
        static let ctrlReg2: UInt8 = 0x21
        static let ctrlReg3: UInt8 = 0x22
        static let ctrlReg4: UInt8 = 0x23
        static let ctrlReg5: UInt8 = 0x24
        static let statusReg: UInt8 = 0x27
        static let outXL: UInt8 = 0x28
        static let intCfg: UInt8 = 0x30
        static let intThsL: UInt8 = 0x32
        static let intThsH: UInt8 = 0x33
    }

    /// WHO_AM_I of both chips.
    private static let identity: UInt8 = 0x3D
    /// CTRL_REG1 after reset: DO = 100 (10 Hz).
    private static let ctrlReg1Reset: UInt8 = 0x10
    /// CTRL_REG3 MD[1:0] after reset and after a single conversion: 11, power-down.
    private static let powerDown: UInt8 = 0b11
    /// CTRL_REG2 FS[6:5].
    private static let fullScaleShift = 5
    private static let fullScaleMask: UInt8 = 0b11
    /// CTRL_REG4 BLE[1]: big-endian output.
    private static let bigEndian: UInt8 = 1 << 1

    private let microteslaPerLSB: [Double]

    /// An emulator at its power-on state.
    /// - Parameters:
    ///   - address: 0x1C or 0x1E.
    ///   - microteslaPerLSB: the field per count for FS = 00, 01, 10, 11.
    ///   - intCfgReset: INT_CFG after reset (the two datasheets differ).
    ///   - extraWritable: registers beyond the common ones (LSM9DS1's offset registers).
    init(address: UInt8, microteslaPerLSB: [Double], intCfgReset: UInt8, extraWritable: Set<UInt8> = []) {
        precondition(microteslaPerLSB.count == 4, "one sensitivity per FS code")
        self.microteslaPerLSB = microteslaPerLSB
        let registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: Self.identity, Address.ctrlReg1: Self.ctrlReg1Reset, Address.ctrlReg3: Self.powerDown,
                Address.intCfg: intCfgReset,
            ],
            writable: Set<UInt8>([
                Address.ctrlReg1, Address.ctrlReg2, Address.ctrlReg3, Address.ctrlReg4, Address.ctrlReg5,
                Address.intCfg, Address.intThsL, Address.intThsH,
            ]).union(extraWritable),
            autoIncrement: .multiReadBit,
            outputBlocks: [.perAxisStatus(first: Address.outXL, status: Address.statusReg)])
        super.init(address: address, registers: registers)
    }

    /// A new sample of the field, when the die is converting; a single conversion returns it to
    /// power-down.
    /// - Parameter microtesla: the field, µT, chip axes.
    public func setField(_ microtesla: Vector3) {
        registers.convertIfMeasuring(modeRegister: Address.ctrlReg3, powerDown: Self.powerDown) {
            let scale = registers.field(Address.ctrlReg2, shift: Self.fullScaleShift, mask: Self.fullScaleMask)
            registers.store(
                STRegisterMap.counts((microtesla.x, microtesla.y, microtesla.z), lsb: microteslaPerLSB[scale]),
                at: Address.outXL, order: registers.byteOrder(bigEndianBit: Self.bigEndian, in: Address.ctrlReg4))
            registers.announce(blockAt: Address.outXL)
        }
    }
}
