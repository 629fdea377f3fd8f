/// An ST LSM6DSOX accelerometer and gyroscope on the simulated bus: WHO_AM_I 0x6C (LSM6DSO and
/// LSM6DSO32 read the same), DEN stamping on all axes and I3C enabled after reset; the rest is
/// the family's (`LSM6DSFamilyEmulator`).
public final class LSM6DSOXEmulator: LSM6DSFamilyEmulator, AccelerometerEmulator {
    /// CTRL9_XL after reset: DEN_X/DEN_Y/DEN_Z, I3C enabled (I3C_disable = 0).
    private static let resetValues: [UInt8: UInt8] = [0x18: 0xE0]

    /// An LSM6DSOX at its power-on state.
    /// - Parameter address: 0x6A (SA0 low, the default) or 0x6B.
    public init(address: UInt8 = 0x6A) {
        super.init(address: address, identity: 0x6C, resetValues: Self.resetValues)
    }
}
