/// How chips lay out a 16-bit two's-complement output in two consecutive registers. ST, QST and
/// AKM parts put the low byte first; Honeywell, the LSM303DLHC magnetometer and TDK the high byte.
enum RegisterBytes {
    /// The int16 at `bytes[offset]` (low byte) and `bytes[offset + 1]` (high byte).
    static func littleEndian(_ bytes: RegisterBlock, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset + 1]) << 8 | UInt16(bytes[offset]))
    }

    /// The int16 at `bytes[offset]` (high byte) and `bytes[offset + 1]` (low byte).
    static func bigEndian(_ bytes: RegisterBlock, at offset: Int) -> Int16 {
        Int16(bitPattern: UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]))
    }
}
