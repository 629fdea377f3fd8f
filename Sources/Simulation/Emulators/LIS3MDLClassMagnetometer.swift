import Heading

/// The register behaviour LIS3MDL and the LSM9DS1 magnetometer share (one register map, two
/// sensitivity tables): configuration in CTRL_REG1…5, output at 0x28…0x2D announced in
/// STATUS_REG (0x27), auto-increment only with the 0x80 sub-address bit, power-down after reset.
final class LIS3MDLClassMagnetometer {
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

    /// CTRL_REG1 after reset: DO = 100 (10 Hz).
    private static let ctrlReg1Reset: UInt8 = 0x10
    /// CTRL_REG3 MD[1:0]: 00 continuous, 01 single, 10/11 power-down (the reset value is 11).
    private static let modeMask: UInt8 = 0b11
    private static let continuousMode = 0b00
    private static let singleMode = 0b01
    private static let powerDown: UInt8 = 0b11
    /// CTRL_REG2 FS[6:5].
    private static let fullScaleShift = 5
    private static let fullScaleMask: UInt8 = 0b11
    /// CTRL_REG4 BLE[1]: big-endian output.
    private static let bigEndian: UInt8 = 1 << 1
    /// STATUS_REG: XDA YDA ZDA ZYXDA in bits 3:0, the matching overrun bits in 7:4.
    private static let readyMask: UInt8 = 0x0F
    private static let overrunMask: UInt8 = 0xF0

    let registers: STRegisterMap
    private let microteslaPerLSB: [Double]

    /// - Parameters:
    ///   - identity: WHO_AM_I.
    ///   - microteslaPerLSB: the field per count for FS = 00, 01, 10, 11.
    ///   - intCfgReset: INT_CFG after reset (the two datasheets differ).
    ///   - extraWritable: registers beyond the common ones (LSM9DS1's offset registers).
    init(identity: UInt8, microteslaPerLSB: [Double], intCfgReset: UInt8, extraWritable: Set<UInt8> = []) {
        precondition(microteslaPerLSB.count == 4, "one sensitivity per FS code")
        self.microteslaPerLSB = microteslaPerLSB
        registers = STRegisterMap(
            resetValues: [
                Address.whoAmI: identity, Address.ctrlReg1: Self.ctrlReg1Reset, Address.ctrlReg3: Self.powerDown,
                Address.intCfg: intCfgReset,
            ],
            writable: Set<UInt8>([
                Address.ctrlReg1, Address.ctrlReg2, Address.ctrlReg3, Address.ctrlReg4, Address.ctrlReg5,
                Address.intCfg, Address.intThsL, Address.intThsH,
            ]).union(extraWritable),
            autoIncrement: .multiReadBit,
            outputBlocks: [
                .init(
                    first: Address.outXL, statusRegisters: [Address.statusReg], readyMask: Self.readyMask,
                    overrunMask: Self.overrunMask)
            ])
    }

    /// A new sample of `field`, when the die is converting; a single conversion returns it to
    /// power-down.
    func setField(_ field: Vector3) {
        let mode = registers.field(Address.ctrlReg3, shift: 0, mask: Self.modeMask)
        guard mode == Self.continuousMode || mode == Self.singleMode else { return }
        let scale = registers.field(Address.ctrlReg2, shift: Self.fullScaleShift, mask: Self.fullScaleMask)
        let order: STRegisterMap.ByteOrder =
            registers[Address.ctrlReg4] & Self.bigEndian != 0 ? .bigEndian : .littleEndian
        registers.store(
            STRegisterMap.counts((field.x, field.y, field.z), lsb: microteslaPerLSB[scale]), at: Address.outXL,
            order: order)
        registers.announce(blockAt: Address.outXL)
        if mode == Self.singleMode { registers[Address.ctrlReg3] |= Self.powerDown }
    }
}
