/// An ST LIS3MDL magnetometer on the simulated bus: ±4/8/12/16 gauss at 6842/3421/2281/1711
/// LSB/gauss; the rest is the family's (`LIS3MDLFamilyEmulator`): WHO_AM_I 0x3D (the same as
/// the LSM9DS1 magnetometer's), power-down after reset, little-endian output (big-endian with
/// BLE), and auto-increment only with the 0x80 sub-address bit.
public final class LIS3MDLEmulator: LIS3MDLFamilyEmulator, MagnetometerEmulator {
    /// The field per count for FS = 00, 01, 10, 11: 1/6842 … 1/1711 gauss.
    private static let microteslaPerLSB = [100.0 / 6842, 100.0 / 3421, 100.0 / 2281, 100.0 / 1711]
    /// INT_CFG after reset.
    private static let intCfgReset: UInt8 = 0xE8

    /// A LIS3MDL at its power-on state.
    /// - Parameter address: 0x1C (SA1 low, the default) or 0x1E.
    public init(address: UInt8 = 0x1C) {
        super.init(address: address, microteslaPerLSB: Self.microteslaPerLSB, intCfgReset: Self.intCfgReset)
    }
}
