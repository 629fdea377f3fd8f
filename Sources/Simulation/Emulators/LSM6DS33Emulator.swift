/// An ST LSM6DS33 accelerometer and gyroscope on the simulated bus: WHO_AM_I 0x69 (LSM6DS3 reads
/// the same), all axes enabled after reset and an 8 KB FIFO; the rest is the family's
/// (`LSM6DSFamilyEmulator`).
public final class LSM6DS33Emulator: LSM6DSFamilyEmulator, AccelerometerEmulator {
    /// CTRL9_XL and CTRL10_C after reset: all accelerometer and gyroscope axes enabled.
    private static let resetValues: [UInt8: UInt8] = [0x18: 0x38, 0x19: 0x38]

    /// An LSM6DS33 at its power-on state.
    /// - Parameter address: 0x6A (SA0 low, the default) or 0x6B.
    public init(address: UInt8 = 0x6A) {
        super.init(address: address, identity: 0x69, resetValues: Self.resetValues, fifo: LSM6DSFIFO(capacityWords: 4096, highCountBits: 4))
    }
}
