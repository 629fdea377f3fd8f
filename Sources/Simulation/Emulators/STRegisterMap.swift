import IMU

/// The register file of one emulated ST sensor die: its 256 bytes, which of them a write may
/// change, how the address pointer moves in a multi-byte read, and which status bits announce
/// each output block and are cleared by reading it. The ST emulators in this folder hold one
/// through `STSensorEmulator` and turn a true field, force or rate into output counts.
final class STRegisterMap {
    /// How a multi-byte read advances through the registers.
    enum AutoIncrement {
        /// Only when the sub-address MSB (0x80) is set, which is not part of the address;
        /// without it every byte comes from the same register (LSM303 accelerometers, LSM303D,
        /// LIS3MDL, LSM9DS1 magnetometer).
        case multiReadBit
        /// Always, and the sub-address is the register as sent (LSM303DLHC magnetometer).
        case always
        /// Always, and the sub-address MSB is ignored (LSM303AGR magnetometer: CODAL sets 0x80
        /// on it and still reads the right registers, sensors.md §2).
        case alwaysIgnoringMultiReadBit
        /// While `mask` is set in `register` (IF_INC in CTRL3_C, IF_ADD_INC in CTRL_REG8);
        /// the sub-address is the register as sent.
        case whileSet(register: UInt8, mask: UInt8)
    }

    /// Byte order of an output block.
    enum ByteOrder {
        case littleEndian, bigEndian
    }

    /// Six output registers and the status bits that announce them.
    struct OutputBlock {
        /// The first of the block's six registers.
        var first: UInt8
        /// The status registers that announce it (LSM9DS1's accelerometer/gyroscope status
        /// appears at two addresses).
        var statusRegisters: [UInt8]
        /// Set when a new sample arrives, cleared when the block is read.
        var readyMask: UInt8
        /// Set when a sample arrives before the previous one was read; cleared with `readyMask`.
        var overrunMask: UInt8 = 0

        var registers: ClosedRange<Int> { Int(first)...Int(first) + 5 }

        /// XDA, YDA, ZDA and ZYXDA in status bits 3:0, the matching overrun bits in 7:4.
        private static let axisReadyMask: UInt8 = 0x0F
        private static let axisOverrunMask: UInt8 = 0xF0

        /// A block announced the way most ST status registers announce one (LIS3MDL, LSM9DS1
        /// magnetometer, LSM303 accelerometers and AGR magnetometer, LSM303D): a new-data bit
        /// per axis and one for all three in bits 3:0, and the matching overrun bits in 7:4.
        static func perAxisStatus(first: UInt8, status: UInt8) -> OutputBlock {
            OutputBlock(
                first: first, statusRegisters: [status], readyMask: axisReadyMask, overrunMask: axisOverrunMask)
        }
    }

    private static let registerCount = 256
    /// MD[1:0] of the ST magnetometers' mode register: 00 continuous, 01 single, anything else
    /// power-down (idle on the LSM303AGR, sleep on the LSM303DLHC).
    private static let modeMask: UInt8 = 0b11
    private static let continuousMode: UInt8 = 0b00
    private static let singleMode: UInt8 = 0b01
    /// The sub-address MSB that asks multi-read parts to auto-increment.
    private static let multiReadBit: UInt8 = 0x80
    private var bytes: [UInt8]
    private let writable: Set<UInt8>
    private let autoIncrement: AutoIncrement
    private let blocks: [OutputBlock]

    /// A register file at its power-on state.
    /// - Parameters:
    ///   - resetValues: registers that are not zero after power-on, identity included.
    ///   - writable: the registers a write may change; writes elsewhere are ignored.
    init(resetValues: [UInt8: UInt8], writable: Set<UInt8>, autoIncrement: AutoIncrement, outputBlocks: [OutputBlock]) {
        bytes = Array(repeating: 0, count: Self.registerCount)
        for (register, value) in resetValues { bytes[Int(register)] = value }
        self.writable = writable
        self.autoIncrement = autoIncrement
        precondition(outputBlocks.count <= 64, "a read marks the blocks it touched in 64 bits")
        blocks = outputBlocks
    }

    /// One register, without side effects.
    subscript(register: UInt8) -> UInt8 {
        get { bytes[Int(register)] }
        set { bytes[Int(register)] = newValue }
    }

    /// A bit field of one register: `(value >> shift) & mask`.
    func field(_ register: UInt8, shift: Int, mask: UInt8) -> Int {
        Int(bytes[Int(register)] >> shift & mask)
    }

    /// A transfer as the part answers it. Reading any byte of an output block clears the bits
    /// that announced it, once the transfer is over (a burst that starts at the status register
    /// still sees them set).
    func read(register: UInt8, count: Int) -> RegisterBlock {
        let (start, increments) = resolve(register)
        var result = RegisterBlock()
        // Bit i: block i was read (a die has at most a few blocks; see init).
        var readBlocks: UInt64 = 0
        for offset in 0..<count {
            let address = increments ? start + offset : start
            guard address < Self.registerCount else {
                result.append(0)
                continue
            }
            result.append(bytes[address])
            for (index, block) in blocks.enumerated() where block.registers.contains(address) {
                readBlocks |= 1 << index
            }
        }
        for (index, block) in blocks.enumerated() where readBlocks & (1 << index) != 0 {
            for status in block.statusRegisters {
                bytes[Int(status)] &= ~(block.readyMask | block.overrunMask)
            }
        }
        return result
    }

    /// A one-byte write. Returns the register written, or nil when it is read-only or reserved
    /// (the part ignores such writes).
    @discardableResult
    func write(register: UInt8, value: UInt8) -> UInt8? {
        let address = UInt8(resolve(register).start)
        guard writable.contains(address) else { return nil }
        bytes[Int(address)] = value
        return address
    }

    /// The output byte order a BLE bit selects: big-endian when `mask` is set in `register`.
    func byteOrder(bigEndianBit mask: UInt8, in register: UInt8) -> ByteOrder {
        bytes[Int(register)] & mask != 0 ? .bigEndian : .littleEndian
    }

    /// Runs `convert` when MD[1:0] of `modeRegister` asks for a conversion (00 continuous, 01
    /// single); after a single conversion MD becomes `powerDown`, as on the parts.
    func convertIfMeasuring(modeRegister: UInt8, powerDown: UInt8, _ convert: () -> Void) {
        let mode = bytes[Int(modeRegister)] & Self.modeMask
        guard mode == Self.continuousMode || mode == Self.singleMode else { return }
        convert()
        if mode == Self.singleMode {
            bytes[Int(modeRegister)] = bytes[Int(modeRegister)] & ~Self.modeMask | powerDown
        }
    }

    /// Puts three counts into the block starting at `first`, as int16.
    func store(_ counts: (x: Int, y: Int, z: Int), at first: UInt8, order: ByteOrder) {
        store(counts.x, at: first, order: order)
        store(counts.y, at: first + 2, order: order)
        store(counts.z, at: first + 4, order: order)
    }

    /// Puts one count into two registers from `first` on, as int16.
    func store(_ count: Int, at first: UInt8, order: ByteOrder) {
        let word = UInt16(bitPattern: Int16(clamping: count))
        let low = UInt8(word & 0xFF), high = UInt8(word >> 8)
        bytes[Int(first)] = order == .littleEndian ? low : high
        bytes[Int(first) + 1] = order == .littleEndian ? high : low
    }

    /// Sets the status bits of the block starting at `first`, and its overrun bits when the
    /// previous sample was not read.
    func announce(blockAt first: UInt8) {
        for block in blocks where block.first == first {
            for status in block.statusRegisters {
                let index = Int(status)
                if bytes[index] & block.readyMask != 0 { bytes[index] |= block.overrunMask }
                bytes[index] |= block.readyMask
            }
        }
    }

    /// A true value as the nearest count of `lsb`, saturated at the signed range of `bits`.
    static func counts(_ value: Double, lsb: Double, bits: Int = 16) -> Int {
        let limit = 1 << (bits - 1)
        let scaled = (value / lsb).rounded()
        guard !scaled.isNaN else { return 0 }
        return Int(max(Double(-limit), min(Double(limit - 1), scaled)))
    }

    /// Three true values as counts; see `counts(_:lsb:bits:)`.
    static func counts(_ vector: (x: Double, y: Double, z: Double), lsb: Double, bits: Int = 16) -> (
        x: Int, y: Int, z: Int
    ) {
        (
            counts(vector.x, lsb: lsb, bits: bits), counts(vector.y, lsb: lsb, bits: bits),
            counts(vector.z, lsb: lsb, bits: bits)
        )
    }

    private func resolve(_ register: UInt8) -> (start: Int, increments: Bool) {
        switch autoIncrement {
        case .multiReadBit:
            return (Int(register & ~Self.multiReadBit), register & Self.multiReadBit != 0)
        case .always:
            return (Int(register), true)
        case .alwaysIgnoringMultiReadBit:
            return (Int(register & ~Self.multiReadBit), true)
        case .whileSet(let control, let mask):
            return (Int(register), bytes[Int(control)] & mask != 0)
        }
    }
}
