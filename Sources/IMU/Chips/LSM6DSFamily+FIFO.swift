import Heading

// The FIFO the LSM6DS33 and LSM6DSL share (sensors.md §3.6.1): both chips queue gyroscope and
// accelerometer data sets at 52 Hz here, read in bursts from one output register. The LSM6DSOX
// tags each word instead and the LSM9DS1's die has a map of its own: neither uses this.
extension LSM6DSFamily {
    /// FIFO registers, with the datasheets' names.
    enum FIFORegister {
        /// DEC_FIFO_GYRO[5:3] and DEC_FIFO_XL[2:0]: which sensors are queued, and decimated how.
        static let fifoCtrl3: UInt8 = 0x08
        /// ODR_FIFO[6:3] and FIFO_MODE[2:0].
        static let fifoCtrl5: UInt8 = 0x0A
        /// FIFO_STATUS1…4: DIFF_FIFO (unread words) in STATUS1 and the low bits of STATUS2,
        /// OVER_RUN in STATUS2, FIFO_PATTERN (the next word's place in a data set) in 3 and 4.
        static let fifoStatus1: UInt8 = 0x3A
        /// FIFO_DATA_OUT_L; a multi-byte read from here reads the queue word after word (the
        /// address rolls back from FIFO_DATA_OUT_H).
        static let fifoDataOutL: UInt8 = 0x3E
    }

    /// DEC_FIFO_GYRO = DEC_FIFO_XL = 001: both sensors queued, no decimation.
    static let fifoBothUndecimated: UInt8 = 0b001 << 3 | 0b001
    /// ODR_FIFO = 0011 (52 Hz, the sensors' rate) and FIFO_MODE = 110 (continuous: when full,
    /// the oldest data set is overwritten).
    static let fifoContinuous52Hz: UInt8 = 0b0011 << 3 | 0b110
    /// FIFO_MODE = 000 (bypass): the FIFO is off and empty.
    static let fifoBypass: UInt8 = 0
    /// FIFO_STATUS2 OVER_RUN[6]: the FIFO filled and samples were overwritten.
    static let fifoOverrun: UInt8 = 1 << 6
    /// Words in one data set: gyroscope x, y, z, then accelerometer x, y, z.
    static let fifoWordsPerDataSet = 6
    /// Data sets one SMBus block (32 bytes) carries whole: two of 12 bytes.
    static let fifoDataSetsPerRead = RegisterBlock.capacity / (2 * fifoWordsPerDataSet)
}

// The conformance the LSM6DS33 and LSM6DSL declare.
extension FIFOAccelerometerDriver where Self: LSM6DSFamily {
    /// 52 Hz, the rate both sensors run at: the FIFO queues every sample of each.
    public static var fifoRateHertz: Double { 52 }

    /// Empties the FIFO (bypass) and starts it queueing both sensors. The first data set after
    /// a mode switch is to be discarded (LSM6DSM datasheet §5.5, AN4682), and will be.
    public func startFIFO() throws(I2CError) {
        try device.writeRegister(FIFORegister.fifoCtrl5, Self.fifoBypass)
        try device.writeRegister(FIFORegister.fifoCtrl3, Self.fifoBothUndecimated)
        try device.writeRegister(FIFORegister.fifoCtrl5, Self.fifoContinuous52Hz)
        fifoDiscardsNextDataSet = true
    }

    /// Turns the FIFO off, which empties it.
    public func stopFIFO() throws(I2CError) {
        try device.writeRegister(FIFORegister.fifoCtrl5, Self.fifoBypass)
    }

    /// Moves the queued data sets into `batch`, chip axes, g and °/s; see
    /// `FIFOAccelerometerDriver.drainFIFO(into:)`.
    ///
    /// ```
    /// 0x3A FIFO_STATUS1  DIFF_FIFO[7:0]
    /// 0x3B FIFO_STATUS2  WTM[7] OVER_RUN[6] FULL[5] EMPTY[4] DIFF_FIFO[11:8] (LSM6DSL: [10:8])
    /// 0x3C FIFO_STATUS3  FIFO_PATTERN[7:0]   0x3D FIFO_STATUS4  FIFO_PATTERN[9:8]
    /// 0x3E FIFO_DATA_OUT_L  0x3F FIFO_DATA_OUT_H: one data set is Gx Gy Gz XLx XLy XLz,
    ///      each int16 little-endian; FIFO_PATTERN 0 means the next word is Gx
    /// ```
    /// Only whole data sets are read, so the next read starts at pattern 0 again; a pattern
    /// other than 0 (a read that failed midway, or a corrupted pattern, which ST's forums
    /// report) or an overrun (after which DIFF_FIFO reads 0 although the FIFO is full) empties
    /// the FIFO and restarts it.
    public func drainFIFO(into batch: inout FIFOBatch) throws(I2CError) {
        batch.removeAll()
        let status = try device.readExactly(FIFORegister.fifoStatus1, count: 4)
        let words = Int((UInt16(status[1]) << 8 | UInt16(status[0])) & Self.fifoWordCountMask)
        let pattern = Int(status[3] & 0b11) << 8 | Int(status[2])
        let dataSets = words / Self.fifoWordsPerDataSet
        guard status[1] & Self.fifoOverrun == 0, pattern == 0, dataSets <= FIFOBatch.capacity else {
            try startFIFO()
            batch.gap = true
            return
        }
        var left = dataSets
        while left > 0 {
            let sets = min(left, Self.fifoDataSetsPerRead)
            let bytes = try device.readExactly(
                FIFORegister.fifoDataOutL, count: sets * 2 * Self.fifoWordsPerDataSet)
            for set in 0..<sets {
                if fifoDiscardsNextDataSet {
                    fifoDiscardsNextDataSet = false
                    continue
                }
                let start = set * 2 * Self.fifoWordsPerDataSet
                batch.append(
                    accelerationG: Self.vector(Self.axes(bytes, at: start + STSensor.vectorByteCount), scale: Self.gPerLSB),
                    angularRateDegreesPerSecond: Self.vector(Self.axes(bytes, at: start), scale: Self.degreesPerSecondPerLSB))
            }
            left -= sets
        }
    }

    /// Three little-endian int16 from `offset` on.
    private static func axes(_ bytes: RegisterBlock, at offset: Int) -> (x: Int16, y: Int16, z: Int16) {
        (
            RegisterBytes.littleEndian(bytes, at: offset), RegisterBytes.littleEndian(bytes, at: offset + 2),
            RegisterBytes.littleEndian(bytes, at: offset + 4)
        )
    }
}
