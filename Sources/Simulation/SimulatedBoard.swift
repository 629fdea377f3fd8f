import Heading
import IMU

/// A board from `BoardPreset` on a simulated bus, for `--simulate` and tests: an emulator of each
/// of its chips at the preset's addresses (one for the LSM303D, which is both; the ICM-20948's
/// own AK09916 behind it), fed by `SensorPhysics`. The BerryGPS-IMU v4 (LIS3MDL and LSM6DSL) by
/// default.
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
    public let preset: BoardPreset
    /// The bus the chips sit on; hand it to `IMUDetector` or `IMUReader`.
    public let bus: SimulatedI2CBus
    /// The magnetometer's emulator.
    public let magnetometer: any MagnetometerEmulator
    /// The accelerometer's emulator (and its gyroscope's, when the chip has one).
    public let accelerometer: any AccelerometerEmulator
    /// The physics behind the readings: Earth's field, hard and soft iron, noise. Set its noise
    /// levels to 0 for exact readings.
    public var physics: SensorPhysics

    /// Body-to-chip maps, the inverses of the preset's chip-to-body maps, computed once.
    private let bodyToMagnetometer: AxisMap
    private let bodyToAccelerometer: AxisMap

    /// A board with its chips at their power-on state.
    /// - Parameters:
    ///   - preset: the board; default the BerryGPS-IMU v4.
    ///   - physics: Earth's field, noise levels and the seed.
    ///   - hardIronMicrotesla: a field fixed to the device, body frame, µT; replaces the
    ///     physics' own when given, so a test or `--simulate` can make calibration matter.
    ///   - softIron: the soft-iron matrix (raw = softIron · true + hardIron), replacing the
    ///     physics' own when given.
    ///   - busNumber: the number the bus reports (`i2c-N`).
    public init(
        preset: BoardPreset = .berryGPSIMUv4, physics: SensorPhysics, hardIronMicrotesla: Vector3? = nil,
        softIron: Matrix3? = nil, busNumber: Int = 1
    ) {
        var physics = physics
        if let hardIronMicrotesla { physics.hardIronMicrotesla = hardIronMicrotesla }
        if let softIron { physics.softIron = softIron }
        self.physics = physics
        self.preset = preset
        bus = SimulatedI2CBus(number: busNumber)
        // The accelerometer first: an ICM-20948 brings its AK09916 along.
        let accelerometerEmulator = Self.attachEmulator(
            of: preset.accelerometer.chip, at: preset.accelerometer.address, to: bus)
        let sharedMagnetometer =
            preset.magnetometer.chip == .ak09916
            ? (accelerometerEmulator as? ICM20948Emulator)?.magnetometer
            : preset.magnetometer.address == preset.accelerometer.address
                ? accelerometerEmulator as? any MagnetometerEmulator : nil
        let magnetometerEmulator =
            sharedMagnetometer
            ?? Self.attachEmulator(of: preset.magnetometer.chip, at: preset.magnetometer.address, to: bus)
        guard let magnetometerChip = magnetometerEmulator as? any MagnetometerEmulator,
            let accelerometerChip = accelerometerEmulator as? any AccelerometerEmulator
        else {
            // Every preset names a magnetometer chip and an accelerometer chip (BoardPresetTests).
            preconditionFailure("\(preset.name) does not name a magnetometer and an accelerometer")
        }
        magnetometer = magnetometerChip
        accelerometer = accelerometerChip
        bodyToMagnetometer = preset.magnetometer.axisMap.inverse
        bodyToAccelerometer = preset.accelerometer.axisMap.inverse
        // A long simulation makes millions of transfers; tests that want the transcript turn it on.
        bus.isRecording = false
    }

    /// Puts a new emulator of `chip` at `address` on `bus` (an ICM-20948 attaches itself, to
    /// bring its AK09916 onto the bus when bypass is enabled).
    public static func attachEmulator(of chip: IMUChip, at address: UInt8, to bus: SimulatedI2CBus) -> any RegisterEmulator {
        let emulator: any RegisterEmulator
        switch chip {
        case .lsm9ds1Magnetometer: emulator = LSM9DS1MagnetometerEmulator(address: address)
        case .lsm9ds1AccelerometerGyroscope: emulator = LSM9DS1AccelerometerGyroscopeEmulator(address: address)
        case .lis3mdl: emulator = LIS3MDLEmulator(address: address)
        case .lsm303agrMagnetometer: emulator = LSM303AGRMagnetometerEmulator(address: address)
        case .lsm303agrAccelerometer: emulator = LSM303AGRAccelerometerEmulator(address: address)
        case .lsm303dlhcMagnetometer: emulator = LSM303DLHCMagnetometerEmulator(address: address)
        case .lsm303dlhcAccelerometer: emulator = LSM303DLHCAccelerometerEmulator(address: address)
        case .lsm303d: emulator = LSM303DEmulator(address: address)
        case .hmc5883l: emulator = HMC5883LEmulator(address: address)
        case .qmc5883l: emulator = QMC5883LEmulator(address: address)
        case .ak09916: emulator = AK09916Emulator(address: address)
        case .icm20948:
            let icm = ICM20948Emulator(address: address)
            icm.attach(to: bus)
            return icm
        case .lsm6ds33: emulator = LSM6DS33Emulator(address: address)
        case .lsm6dsl: emulator = LSM6DSLEmulator(address: address)
        case .lsm6dsox: emulator = LSM6DSOXEmulator(address: address)
        }
        bus.attach(emulator)
        return emulator
    }

    /// The pair the preset names, with its axis maps: what detection should pick.
    public var selection: IMUSelection { preset.selection }

    /// Pushes one physics sample into the chips' output registers.
    /// - Parameters:
    ///   - attitude: the body's orientation.
    ///   - linearAccelerationG: the body's linear acceleration, NED, g.
    ///   - bodyRatesDegreesPerSecond: the true rotation rates, body frame, °/s (0 when still);
    ///     a chip without a gyroscope ignores them.
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
