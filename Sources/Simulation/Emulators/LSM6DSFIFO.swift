/// The FIFO of an emulated LSM6DS33 or LSM6DSL (sensors.md §3.6.1): in continuous mode each
/// new pair of samples queues one data set of six words (gyroscope x, y, z, then accelerometer
/// x, y, z); when full, the oldest data set is dropped and OVER_RUN set; bypass mode empties it.
/// FIFO_STATUS1…4 count the unread words and say where in a data set the next word is;
/// FIFO_DATA_OUT_L then _H read one word, and a multi-byte read from _L goes on word after
/// word (the address rolls back from _H to _L).
///
/// Only what the driver uses is modelled: both sensors undecimated (DEC_FIFO = 001) at any
/// ODR_FIFO other than 0; other decimations, thresholds and the FIFO modes other than bypass
/// and continuous queue nothing.
struct LSM6DSFIFO {
    enum Address {
        static let fifoCtrl3: UInt8 = 0x08
        static let fifoCtrl5: UInt8 = 0x0A
        static let fifoStatus1: UInt8 = 0x3A
        static let fifoStatus4: UInt8 = 0x3D
        static let fifoDataOutL: UInt8 = 0x3E
        static let fifoDataOutH: UInt8 = 0x3F
    }

    /// FIFO_CTRL5 FIFO_MODE[2:0]: 110 continuous.
    private static let modeMask: UInt8 = 0b111
    private static let continuousMode: UInt8 = 0b110
    /// FIFO_CTRL5 ODR_FIFO[6:3]; 0000 queues nothing.
    private static let rateMask: UInt8 = 0b1111 << 3
    /// FIFO_CTRL3: DEC_FIFO_GYRO = DEC_FIFO_XL = 001.
    private static let bothUndecimated: UInt8 = 0b001 << 3 | 0b001
    private static let wordsPerDataSet = 6

    /// How many words it holds: 2048 (LSM6DSL, 4 KB) or 4096 (LSM6DS33, 8 KB).
    let capacityWords: Int
    /// DIFF_FIFO's bits in FIFO_STATUS2 above the 8 in FIFO_STATUS1: 3 or 4.
    private let highCountBits: Int
    /// Unread words, oldest first, from `head` on.
    private var words: [UInt16] = []
    private var head = 0
    /// Words read since the FIFO was last empty, for FIFO_PATTERN.
    private var wordsRead = 0
    private var overrun = false
    /// The byte of the next word a read of FIFO_DATA_OUT returns: low, then high.
    private var highByteNext = false

    /// A FIFO of `capacityWords` words, with a `highCountBits`-bit high part of DIFF_FIFO.
    init(capacityWords: Int, highCountBits: Int) {
        self.capacityWords = capacityWords
        self.highCountBits = highCountBits
        // Read words stay in front of `head` until a full FIFO's worth has been read, so the
        // storage holds up to twice the FIFO and a data set: reserved now, `--simulate`
        // allocates nothing while the chips queue.
        words.reserveCapacity(2 * capacityWords + Self.wordsPerDataSet)
    }

    private var count: Int { words.count - head }

    /// Whether the registers ask for queueing.
    static func isQueueing(_ registers: STRegisterMap) -> Bool {
        let control5 = registers[Address.fifoCtrl5]
        return control5 & modeMask == continuousMode && control5 & rateMask != 0
            && registers[Address.fifoCtrl3] == bothUndecimated
    }

    /// After a write to FIFO_CTRL5: any mode but continuous empties the FIFO, as bypass does.
    mutating func controlWritten(_ registers: STRegisterMap) {
        guard registers[Address.fifoCtrl5] & Self.modeMask != Self.continuousMode else { return }
        words.removeAll(keepingCapacity: true)
        head = 0
        wordsRead = 0
        overrun = false
        highByteNext = false
    }

    /// Queues one data set when the registers ask for it.
    mutating func queue(
        gyroscope: (x: Int, y: Int, z: Int), accelerometer: (x: Int, y: Int, z: Int), registers: STRegisterMap
    ) {
        guard Self.isQueueing(registers) else { return }
        if count + Self.wordsPerDataSet > capacityWords {
            head += Self.wordsPerDataSet
            overrun = true
        }
        if head > capacityWords {
            words.removeFirst(head)
            head = 0
        }
        for value in [gyroscope.x, gyroscope.y, gyroscope.z, accelerometer.x, accelerometer.y, accelerometer.z] {
            words.append(UInt16(bitPattern: Int16(clamping: value)))
        }
    }

    /// Whether `register` is one this FIFO answers.
    static func answers(_ register: UInt8) -> Bool { (Address.fifoStatus1...Address.fifoDataOutH).contains(register) }

    /// One byte of a read at `register` (a FIFO status or output register).
    mutating func read(_ register: UInt8) -> UInt8 {
        let unread = count
        // After an overrun DIFF_FIFO reads 0 although the FIFO is full (sensors.md §3.6.1).
        let counted = overrun ? 0 : unread
        switch register {
        case Address.fifoStatus1:
            return UInt8(counted & 0xFF)
        case Address.fifoStatus1 + 1:
            let high = UInt8((counted >> 8) & (1 << highCountBits - 1))
            return (overrun ? 1 << 6 : 0) | (unread == capacityWords ? 1 << 5 : 0) | (unread == 0 ? 1 << 4 : 0) | high
        case Address.fifoStatus1 + 2:
            return UInt8(wordsRead % Self.wordsPerDataSet)
        case Address.fifoStatus4:
            return 0
        default:
            guard unread > 0 else { return 0 }
            let word = words[head]
            if register == Address.fifoDataOutL && !highByteNext {
                highByteNext = true
                return UInt8(word & 0xFF)
            }
            // The high byte completes the word.
            highByteNext = false
            head += 1
            wordsRead += 1
            return UInt8(word >> 8)
        }
    }
}
