import Heading

/// An ST LSM6DSOX accelerometer and gyroscope on the simulated bus: WHO_AM_I 0x6C (LSM6DSO and LSM6DSO32
/// read the same); both sensors powered down after reset; ±2/4/8/16 g at 0.061/0.122/0.244/0.488 mg per
/// count; ±125/250/500/1000/2000 °/s at 4.375/8.75/17.5/35/70 m°/s per count; little-endian
/// output (big-endian with BLE); auto-increment while CTRL3_C.IF_INC is set (no 0x80 bit).
public final class LSM6DSOXEmulator: AccelerometerEmulator {
    /// CTRL9_XL after reset: DEN_X/DEN_Y/DEN_Z, I3C enabled.
    private static let resetValues: [UInt8: UInt8] = [0x18: 0xE0]

    public let address: UInt8
    private let model: LSM6DSClassModel

    /// An LSM6DSOX at its power-on state.
    /// - Parameter address: 0x6A (SA0 low, the default) or 0x6B.
    public init(address: UInt8 = 0x6A) {
        self.address = address
        model = LSM6DSClassModel(identity: 0x6C, resetValues: Self.resetValues)
    }

    public func read(register: UInt8, count: Int) -> [UInt8] { model.registers.read(register: register, count: count) }

    public func write(register: UInt8, value: UInt8) { model.registers.write(register: register, value: value) }

    public func setAcceleration(_ g: Vector3) { model.setAcceleration(g) }

    public func setAngularRate(_ degreesPerSecond: Vector3) { model.setAngularRate(degreesPerSecond) }
}
