import Heading
import IMU

/// The register behaviour the LSM6DS33, LSM6DSL and LSM6DSOX emulators share: CTRL1_XL and
/// CTRL2_G rates and ranges (both powered down after reset; ±2/4/8/16 g at
/// 0.061/0.122/0.244/0.488 mg per count, ±125/250/500/1000/2000 °/s at 4.375/8.75/17.5/35/70
/// m°/s per count), CTRL3_C BDU/IF_INC/BLE (little-endian output, big-endian with BLE),
/// STATUS_REG (0x1E) with XLDA and GDA, gyroscope output at 0x22…0x27 and accelerometer output
/// at 0x28…0x2D, and auto-increment while CTRL3_C.IF_INC is set (the reset value). There is no
/// 0x80 multi-read bit: a read at 0x80 | register reads an empty register. The LSM6DS33 and
/// LSM6DSL also queue samples in a FIFO (`LSM6DSFIFO`). Each chip's emulator adds its identity,
/// reset values and FIFO size; this class is not used on its own.
public class LSM6DSFamilyEmulator: STSensorEmulator {
    enum Address {
        static let int1Ctrl: UInt8 = 0x0D
        static let int2Ctrl: UInt8 = 0x0E
        static let whoAmI: UInt8 = 0x0F
        static let ctrl1XL: UInt8 = 0x10
        static let ctrl2G: UInt8 = 0x11
        static let ctrl3C: UInt8 = 0x12
        static let ctrl9XL: UInt8 = 0x18
        static let ctrl10C: UInt8 = 0x19
        static let statusReg: UInt8 = 0x1E
        static let outXG: UInt8 = 0x22
        static let outXXL: UInt8 = 0x28
    }

    /// CTRL3_C after reset: IF_INC.
    private static let ctrl3CReset: UInt8 = addressIncrement
    /// CTRL3_C IF_INC[2] and BLE[1].
    private static let addressIncrement: UInt8 = 1 << 2
    private static let bigEndian: UInt8 = 1 << 1
    /// CTRL1_XL and CTRL2_G ODR[7:4]; 0000 is power-down.
    private static let rateShift = 4
    private static let rateMask: UInt8 = 0x0F
    /// CTRL1_XL FS_XL[3:2] and CTRL2_G FS_G[3:2].
    private static let scaleShift = 2
    private static let scaleMask: UInt8 = 0b11
    /// CTRL2_G FS_125[1]: ±125 °/s, overriding FS_G.
    private static let fullScale125: UInt8 = 1 << 1
    /// mg per count for FS_XL = 00 (±2 g), 01 (±16 g), 10 (±4 g), 11 (±8 g).
    private static let milligPerLSB = [0.061, 0.488, 0.122, 0.244]
    /// m°/s per count for FS_G = 00 (±245/250), 01 (±500), 10 (±1000), 11 (±2000), and ±125.
    private static let millidegreesPerSecondPerLSB = [8.75, 17.50, 35.0, 70.0]
    private static let millidegreesPerSecondPerLSB125 = 4.375
    /// Units per milli-unit.
    private static let perMilli = 1e-3
    /// STATUS_REG XLDA[0] and GDA[1].
    private static let accelerometerDataReady: UInt8 = 1 << 0
    private static let gyroscopeDataReady: UInt8 = 1 << 1

    /// The FIFO, on the chips that have this one.
    private var fifo: LSM6DSFIFO?
    /// The counts of the newest samples not queued yet: a data set is queued once both
    /// sensors have a new one.
    private var unqueuedAcceleration: (x: Int, y: Int, z: Int)?
    private var unqueuedAngularRate: (x: Int, y: Int, z: Int)?

    /// An emulator at its power-on state.
    /// - Parameters:
    ///   - address: 0x6A (SA0 low) or 0x6B.
    ///   - identity: WHO_AM_I.
    ///   - resetValues: further registers that are not zero after reset (CTRL9_XL, CTRL10_C).
    ///   - fifo: the chip's FIFO, empty and off; nil for a chip whose FIFO is not emulated.
    init(address: UInt8, identity: UInt8, resetValues: [UInt8: UInt8], fifo: LSM6DSFIFO? = nil) {
        var writable = Set([Address.int1Ctrl, Address.int2Ctrl]).union(Address.ctrl1XL...Address.ctrl10C)
        if fifo != nil { writable.formUnion(LSM6DSFIFO.Address.fifoCtrl3...LSM6DSFIFO.Address.fifoCtrl5) }
        self.fifo = fifo
        let registers = STRegisterMap(
            resetValues: resetValues.merging([Address.whoAmI: identity, Address.ctrl3C: Self.ctrl3CReset]) { $1 },
            writable: writable,
            autoIncrement: .whileSet(register: Address.ctrl3C, mask: Self.addressIncrement),
            outputBlocks: [
                .init(first: Address.outXG, statusRegisters: [Address.statusReg], readyMask: Self.gyroscopeDataReady),
                .init(
                    first: Address.outXXL, statusRegisters: [Address.statusReg],
                    readyMask: Self.accelerometerDataReady),
            ])
        super.init(address: address, registers: registers)
    }

    /// FIFO registers are answered by the FIFO (status, then words); the rest as the map says.
    public override func read(register: UInt8, count: Int) -> RegisterBlock {
        guard fifo != nil, LSM6DSFIFO.answers(register) else { return super.read(register: register, count: count) }
        var block = RegisterBlock()
        var address = register
        for _ in 0..<count {
            block.append(fifo!.read(address))
            // FIFO_DATA_OUT_H rolls back to _L; the status registers advance into the output.
            address = address == LSM6DSFIFO.Address.fifoDataOutH ? LSM6DSFIFO.Address.fifoDataOutL : address + 1
        }
        return block
    }

    public override func write(register: UInt8, value: UInt8) {
        super.write(register: register, value: value)
        if register == LSM6DSFIFO.Address.fifoCtrl5 { fifo?.controlWritten(registers) }
    }

    /// A new accelerometer sample, when it is not powered down.
    /// - Parameter g: the specific force, g, chip axes.
    public func setAcceleration(_ g: Vector3) {
        guard registers.field(Address.ctrl1XL, shift: Self.rateShift, mask: Self.rateMask) != 0 else { return }
        let lsb = Self.milligPerLSB[registers.field(Address.ctrl1XL, shift: Self.scaleShift, mask: Self.scaleMask)]
        let counts = STRegisterMap.counts((g.x, g.y, g.z), lsb: lsb * Self.perMilli)
        registers.store(counts, at: Address.outXXL, order: order)
        registers.announce(blockAt: Address.outXXL)
        unqueuedAcceleration = counts
        queueDataSet()
    }

    /// A new gyroscope sample, when it is not powered down.
    /// - Parameter degreesPerSecond: the angular rate, °/s, chip axes.
    public func setAngularRate(_ degreesPerSecond: Vector3) {
        guard registers.field(Address.ctrl2G, shift: Self.rateShift, mask: Self.rateMask) != 0 else { return }
        let lsb =
            registers[Address.ctrl2G] & Self.fullScale125 != 0
            ? Self.millidegreesPerSecondPerLSB125
            : Self.millidegreesPerSecondPerLSB[
                registers.field(Address.ctrl2G, shift: Self.scaleShift, mask: Self.scaleMask)]
        let rate = degreesPerSecond
        let counts = STRegisterMap.counts((rate.x, rate.y, rate.z), lsb: lsb * Self.perMilli)
        registers.store(counts, at: Address.outXG, order: order)
        registers.announce(blockAt: Address.outXG)
        unqueuedAngularRate = counts
        queueDataSet()
    }

    /// Whether the FIFO is on and queueing both sensors.
    public var isQueueing: Bool { fifo != nil && LSM6DSFIFO.isQueueing(registers) }

    /// Queues the newest samples once both sensors have one.
    private func queueDataSet() {
        guard fifo != nil, let acceleration = unqueuedAcceleration, let rate = unqueuedAngularRate else { return }
        fifo!.queue(gyroscope: rate, accelerometer: acceleration, registers: registers)
        unqueuedAcceleration = nil
        unqueuedAngularRate = nil
    }

    private var order: STRegisterMap.ByteOrder {
        registers.byteOrder(bigEndianBit: Self.bigEndian, in: Address.ctrl3C)
    }
}
