/// An ST LSM6DSL accelerometer and gyroscope on the simulated bus: WHO_AM_I 0x6A (LSM6DSM,
/// ISM330DLC and LSM6DS3TR-C read the same), DEN stamping on all axes after reset and a 4 KB
/// FIFO; the rest is the family's (`LSM6DSFamilyEmulator`).
public final class LSM6DSLEmulator: LSM6DSFamilyEmulator, AccelerometerEmulator {
    /// CTRL9_XL after reset: DEN_X/DEN_Y/DEN_Z.
    private static let resetValues: [UInt8: UInt8] = [0x18: 0xE0]

    /// An LSM6DSL at its power-on state.
    /// - Parameter address: 0x6A (SA0 low, the default) or 0x6B.
    public init(address: UInt8 = 0x6A) {
        super.init(address: address, identity: 0x6A, resetValues: Self.resetValues, fifo: LSM6DSFIFO(capacityWords: 2048, highCountBits: 3))
    }
}
