import Heading

/// The magnetometer die of an ST LSM303DLHC on the simulated bus: no documented WHO_AM_I, but
/// 0x0F reads 0x3C and IRA/IRB/IRC (0x0A–0x0C) read "H43" as on an HMC5883L; sleep after reset;
/// gains with a smaller Z than X/Y; 12-bit output at 0x03…0x08, big-endian, in the order X, Z,
/// Y; DRDY in SR_REG_M; native auto-increment (the sub-address is used as sent).
public final class LSM303DLHCMagnetometerEmulator: STSensorEmulator, MagnetometerEmulator {
    private enum Address {
        static let craReg: UInt8 = 0x00
        static let crbReg: UInt8 = 0x01
        static let mrReg: UInt8 = 0x02
        static let outXH: UInt8 = 0x03
        static let outZH: UInt8 = 0x05
        static let outYH: UInt8 = 0x07
        static let srReg: UInt8 = 0x09
        static let iraReg: UInt8 = 0x0A
        static let irbReg: UInt8 = 0x0B
        static let ircReg: UInt8 = 0x0C
        static let undocumentedIdentity: UInt8 = 0x0F
    }

    /// What 0x0F reads.
    private static let identity: UInt8 = 0x3C
    /// IRA, IRB, IRC: 'H', '4', '3'.
    private static let identification: [UInt8] = [0x48, 0x34, 0x33]
    /// CRA_REG_M after reset: DO = 100 (15 Hz).
    private static let craRegReset: UInt8 = 0x10
    /// CRB_REG_M after reset: GN = 001 (±1.3 gauss).
    private static let crbRegReset: UInt8 = 0x20
    /// MR_REG_M MD[1:0] after reset and after a single conversion: 11, sleep.
    private static let sleep: UInt8 = 0b11
    /// CRB_REG_M GN[7:5].
    private static let gainShift = 5
    private static let gainMask: UInt8 = 0b111
    /// LSB per gauss (X and Y, Z) for GN = 001 … 111 (±1.3, 1.9, 2.5, 4.0, 4.7, 5.6, 8.1 gauss);
    /// GN = 000 is not in the datasheet and is treated as 001.
    private static let lsbPerGauss: [(xy: Double, z: Double)] = [
        (1100, 980), (1100, 980), (855, 760), (670, 600), (450, 400), (400, 355), (330, 295), (230, 205),
    ]
    /// µT per gauss.
    private static let microteslaPerGauss = 100.0
    /// The output is a 12-bit two's-complement value.
    private static let outputBits = 12
    /// SR_REG_M DRDY[0].
    private static let dataReady: UInt8 = 1 << 0

    /// An LSM303DLHC magnetometer at its power-on state.
    /// - Parameter address: 0x1E, the only address the part has.
    public init(address: UInt8 = 0x1E) {
        let registers = STRegisterMap(
            resetValues: [
                Address.craReg: Self.craRegReset, Address.crbReg: Self.crbRegReset, Address.mrReg: Self.sleep,
                Address.iraReg: Self.identification[0], Address.irbReg: Self.identification[1],
                Address.ircReg: Self.identification[2], Address.undocumentedIdentity: Self.identity,
            ],
            writable: [Address.craReg, Address.crbReg, Address.mrReg],
            autoIncrement: .always,
            outputBlocks: [.init(first: Address.outXH, statusRegisters: [Address.srReg], readyMask: Self.dataReady)])
        super.init(address: address, registers: registers)
    }

    /// A new sample of the field, when the die is converting; a single conversion returns it to
    /// sleep.
    /// - Parameter microtesla: the field, µT, chip axes.
    public func setField(_ microtesla: Vector3) {
        registers.convertIfMeasuring(modeRegister: Address.mrReg, powerDown: Self.sleep) {
            let gain = Self.lsbPerGauss[registers.field(Address.crbReg, shift: Self.gainShift, mask: Self.gainMask)]
            func counts(_ value: Double, lsbPerGauss: Double) -> Int {
                STRegisterMap.counts(value, lsb: Self.microteslaPerGauss / lsbPerGauss, bits: Self.outputBits)
            }
            registers.store(counts(microtesla.x, lsbPerGauss: gain.xy), at: Address.outXH, order: .bigEndian)
            registers.store(counts(microtesla.z, lsbPerGauss: gain.z), at: Address.outZH, order: .bigEndian)
            registers.store(counts(microtesla.y, lsbPerGauss: gain.xy), at: Address.outYH, order: .bigEndian)
            registers.announce(blockAt: Address.outXH)
        }
    }
}

/// The accelerometer die of an ST LSM303DLHC on the simulated bus: 1/2/4/12 mg per 12-bit count
/// for ±2/4/8/16 g in high-resolution mode; the rest is the family's
/// (`LSM303AccelerometerFamilyEmulator`): WHO_AM_I_A 0x33 (the same as the LSM303AGR's),
/// power-down after reset, left-justified output, and auto-increment only with the 0x80 bit.
/// Normal (10-bit) and low-power (8-bit) sensitivities are derived as 4 and 16 times the
/// high-resolution ones; the datasheet lists only the latter.
public final class LSM303DLHCAccelerometerEmulator: LSM303AccelerometerFamilyEmulator, AccelerometerEmulator {
    /// mg per count, by resolution, for FS = 00 (±2 g), 01 (±4 g), 10 (±8 g), 11 (±16 g).
    private static let milligPerLSB: [Resolution: [Double]] = [
        .highResolution: [1, 2, 4, 12],
        .normal: [4, 8, 16, 48],
        .lowPower: [16, 32, 64, 192],
    ]

    /// An LSM303DLHC accelerometer at its power-on state.
    /// - Parameter address: 0x19 (SA0 high, the breakouts' wiring).
    public init(address: UInt8 = 0x19) {
        super.init(address: address, milligPerLSB: Self.milligPerLSB)
    }
}
