import Heading
import IMU

/// An OzzMaker BerryGPS-IMU v4 on a simulated bus, for `--simulate` and tests: a LIS3MDL
/// emulator at 0x1C and an LSM6DSL emulator at 0x6A, fed by `SensorPhysics`.
///
/// The physics works in the body frame (x forward, y right, z down). Each chip's registers hold
/// the value in the chip's own axes, so `update` passes the body-frame truth through the inverse
/// of the preset's axis map for that chip. The real `IMUDetector` and `IMUReader` on `bus` then
/// pick this board and read the body-frame values back, exactly as they would on hardware.
///
/// The emulators only convert while their chip is configured (as the parts do), so call
/// `update` after the reader has configured the chips (`IMUReader.start()` or its first `read()`).
///
/// Not `Sendable`: the bus and its emulators are plain mutable state, owned by the simulation
/// driver that also owns the reader.
public final class SimulatedBoard {
    /// The board this simulates.
    public static let preset = BoardPreset.berryGPSIMUv4

    /// The bus the chips sit on; hand it to `IMUDetector` or `IMUReader`.
    public let bus: SimulatedI2CBus
    /// The LIS3MDL magnetometer's emulator.
    public let magnetometer: LIS3MDLEmulator
    /// The LSM6DSL accelerometer and gyroscope's emulator.
    public let accelerometer: LSM6DSLEmulator
    /// The physics behind the readings: Earth's field, hard and soft iron, noise. Set its noise
    /// levels to 0 for exact readings.
    public var physics: SensorPhysics

    /// Body-to-chip maps, the inverses of the preset's chip-to-body maps, computed once.
    private let bodyToMagnetometer: AxisMap
    private let bodyToAccelerometer: AxisMap

    /// A board with both chips at their power-on state.
    /// - Parameters:
    ///   - physics: Earth's field, noise levels and the seed.
    ///   - hardIronMicrotesla: a field fixed to the device, body frame, µT; replaces the
    ///     physics' own when given, so a test or `--simulate` can make calibration matter.
    ///   - softIron: the soft-iron matrix (raw = softIron · true + hardIron), replacing the
    ///     physics' own when given.
    ///   - busNumber: the number the bus reports (`i2c-N`).
    public init(
        physics: SensorPhysics, hardIronMicrotesla: Vector3? = nil, softIron: Matrix3? = nil, busNumber: Int = 1
    ) {
        var physics = physics
        if let hardIronMicrotesla { physics.hardIronMicrotesla = hardIronMicrotesla }
        if let softIron { physics.softIron = softIron }
        self.physics = physics
        bus = SimulatedI2CBus(number: busNumber)
        magnetometer = LIS3MDLEmulator(address: Self.preset.magnetometer.address)
        accelerometer = LSM6DSLEmulator(address: Self.preset.accelerometer.address)
        bodyToMagnetometer = Self.preset.magnetometer.axisMap.inverse
        bodyToAccelerometer = Self.preset.accelerometer.axisMap.inverse
        bus.attach(magnetometer)
        bus.attach(accelerometer)
        // A long simulation makes millions of transfers; tests that want the transcript turn it on.
        bus.isRecording = false
    }

    /// The pair the preset names, with its axis maps: what detection should pick.
    public var selection: IMUSelection { Self.preset.selection }

    /// Pushes one physics sample into the chips' output registers.
    /// - Parameters:
    ///   - attitude: the body's orientation.
    ///   - linearAccelerationG: the body's linear acceleration, NED, g.
    ///   - bodyRatesDegreesPerSecond: the true rotation rates, body frame, °/s (the LSM6DSL has a
    ///     gyroscope, so there is always a rate; 0 when still).
    /// - Returns: the sample the physics produced, body frame, with hard and soft iron and noise:
    ///   what a reader should read back, to the chips' resolution.
    @discardableResult
    public func update(
        attitude: Attitude, linearAccelerationG: Vector3 = .zero, bodyRatesDegreesPerSecond: Vector3 = .zero
    ) -> IMUSample {
        let sample = physics.sample(
            attitude, linearAccelerationG: linearAccelerationG, bodyRatesDegreesPerSecond: bodyRatesDegreesPerSecond)
        magnetometer.setField(bodyToMagnetometer.apply(sample.magneticMicrotesla))
        accelerometer.setAcceleration(bodyToAccelerometer.apply(sample.accelerationG))
        if let rate = sample.angularRateDegreesPerSecond {
            accelerometer.setAngularRate(bodyToAccelerometer.apply(rate))
        }
        return sample
    }
}
